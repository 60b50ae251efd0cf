// Settings for the room's next game (a Word Scramble room: its next match): the host changes them with steppers
// (for Snowman also the word pack and their own words) and saves; everyone else sees them. Nothing changes the
// game being played: the card says the settings apply from the next one.

import { h, setText, show } from './dom.js';
import { createStepper } from './stepper.js';
import { SETTINGS, WORD_SOURCES, formatSetting, packLabel } from '../core/game-settings.js';
import { isHost } from '../core/store.js';
import { nextSettingsWording } from '../core/room-format.js';
import { gameById } from '../games.js';
import { createWordSettings } from './word-settings.js';

/** What the others read about the words: "The pack", "Host's words only (42)", "Host's words + pack (42)". */
export function wordSourceSummary(next) {
  const count = Number(next?.customWords) || 0;
  if (!count || next?.wordSource === 'pack' || !next?.wordSource) return 'The pack';
  return next.wordSource === 'mixed' ? `Host's words + pack (${count})` : `Host's words only (${count})`;
}

export function createHostSettingsView(actions, game) {
  const specs = SETTINGS[game] ?? [];
  const wording = nextSettingsWording(gameById(game)?.unit);
  const draft = {};
  let saved = null;
  /** The host's list as last saved from this browser (kept in localStorage per room), or null before loading. */
  let savedWords = null;
  /** `savedWords` before the last save, back in place if the server refuses the list. */
  let wordsBeforeSave = null;
  const steppers = specs.map((spec) => createStepper(spec, {
    value: spec.initial,
    onChange: (value) => {
      draft[spec.key] = value;
      refreshSave();
    },
  }));
  const words = game === 'snowman' ? createWordSettings({ id: 'host', onChange: () => refreshSave() }) : null;
  const wordsNote = h('p', { class: 'field-hint', id: 'host-words-note', hidden: true });
  const save = h('button', { type: 'button', class: 'button button-primary button-small', id: 'save-settings', text: wording.save });
  const note = h('p', { class: 'muted small', id: 'settings-note', 'aria-live': 'polite' });
  const error = h('p', { class: 'field-error', role: 'alert' });
  const editor = h('div', { class: 'host-editor' },
    h('div', { class: 'steppers steppers-compact' }, steppers.map((stepper) => stepper.element)),
    words ? h('div', { class: 'host-words' }, words.element, wordsNote) : null,
    h('div', { class: 'save-row' }, save, note), error);
  const summary = h('dl', { class: 'settings-summary' });
  const summaryNote = h('p', { class: 'muted small settings-applies', text: wording.applies });
  const element = h('section', { class: 'card side-card', id: 'host-settings', 'aria-labelledby': 'next-settings-heading' },
    h('div', { class: 'card-header' }, h('h2', { id: 'next-settings-heading', text: wording.heading })), editor, summary, summaryNote);

  /** What the host changed in the word settings, as `settings` message fields. */
  function wordChanges() {
    if (!words || saved === null || savedWords === null) return {};
    const chosen = words.value();
    const changes = {};
    if (chosen.pack !== (saved.pack ?? 'general')) changes.pack = chosen.pack;
    const text = chosen.customWords.trim();
    if (text !== savedWords.trim()) {
      changes.customWords = text;
      if (text) changes.wordSource = chosen.wordSource;
    } else if (text && chosen.wordSource !== saved.wordSource) {
      changes.wordSource = chosen.wordSource;
    }
    return changes;
  }

  function differs() {
    return saved !== null && (specs.some((spec) => draft[spec.key] !== saved[spec.key]) || Object.keys(wordChanges()).length > 0);
  }

  function refreshSave() {
    save.disabled = !differs();
    setText(note, differs() ? `Not saved yet. ${wording.applies}` : wording.applies);
  }

  save.addEventListener('click', () => {
    setText(error, '');
    words?.showServerError('');
    const changes = Object.fromEntries(specs.filter((spec) => draft[spec.key] !== saved[spec.key]).map((spec) => [spec.key, draft[spec.key] ?? 0]));
    const wordFields = wordChanges();
    if (wordFields.customWords) {
      const list = words.check();
      if (!list.ok) {
        words.showServerError('Fix the words above first, or empty the list to play the pack.');
        words.focusWords();
        return;
      }
    }
    Object.assign(changes, wordFields);
    if (actions.updateRoomSettings(changes)) {
      setText(note, 'Saving…');
      if ('customWords' in wordFields) {
        // The list stays in this browser only (it is never sent to the others), so a reload shows it again.
        actions.keepRoomWords(words.value().customWords);
        wordsBeforeSave = savedWords;
        savedWords = words.value().customWords;
      }
    }
  });

  function showWordsNote(next) {
    const count = Number(next.customWords) || 0;
    const local = savedWords ? words.check().words.length : 0;
    const foreign = count > 0 && !savedWords;
    show(wordsNote, foreign);
    setText(wordsNote, foreign
      ? `The room has ${count} words of yours from another device or tab. Paste the list again to change it, or leave the field empty to keep them.`
      : '');
    return local;
  }

  function renderSummary(next) {
    const rows = specs.flatMap((spec) => [h('dt', { text: spec.label }), h('dd', { text: formatSetting(spec, next[spec.key]) })]);
    if (game === 'snowman') {
      rows.push(h('dt', { text: 'Word pack' }), h('dd', { text: packLabel(next.pack ?? 'general') }));
      rows.push(h('dt', { text: 'Words' }), h('dd', { text: wordSourceSummary(next) }));
    }
    summary.replaceChildren(...rows);
  }

  let lastNext = null;
  let shownErrorId = null;
  return {
    element,
    update(state, previous, context) {
      const next = state.room.state[game]?.nextSettings ?? {};
      const hosting = isHost(state);
      show(editor, hosting);
      show(summary, !hosting);
      show(summaryNote, !hosting);
      if (words && hosting && savedWords === null) {
        savedWords = actions.roomWords?.() ?? '';
        words.set({ customWords: savedWords });
      }
      if (next !== lastNext) {
        const pristine = !differs();
        saved = { ...next };
        steppers.forEach((stepper, index) => {
          const spec = specs[index];
          if (pristine || draft[spec.key] === next[spec.key]) {
            draft[spec.key] = next[spec.key];
            stepper.set(next[spec.key]);
          }
        });
        if (words && pristine) {
          const source = WORD_SOURCES.some((entry) => entry.id === next.wordSource) ? next.wordSource : undefined;
          words.set({ pack: next.pack ?? 'general', wordSource: source });
        }
        if (words) showWordsNote(next);
        renderSummary(next);
        lastNext = next;
        refreshSave();
      }
      for (const stepper of steppers) stepper.setDisabled(!context.live);
      words?.setDisabled(!context.live);
      if (!context.live) save.disabled = true;
      if (state.notice?.move === 'settings' && state.notice.id !== shownErrorId) {
        shownErrorId = state.notice.id;
        const text = `${state.notice.title}: ${state.notice.message}`;
        if (words && state.notice.code === 'bad-words') {
          words.showServerError(text);
          if (wordsBeforeSave !== null) savedWords = wordsBeforeSave;
        } else {
          setText(error, text);
        }
        refreshSave();
      } else if (next !== previous?.room?.state?.[game]?.nextSettings) {
        setText(error, '');
      }
    },
  };
}
