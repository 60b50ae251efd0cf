// Snowman's settings beyond the steppers, in the create dialog and the host's settings card (its
// `createSettingsFields` hook): the word pack, the host's own words and how they mix with the pack. The pasted list
// stays in this browser (the controller's `roomWords`/`keepRoomWords`); the others only see how many words.

import { h, setText, show } from '../../views/dom.js';
import { WORD_SOURCES, packLabel, wordSourceSummary } from './game.js';
import { createWordSettings } from './word-settings.js';

/**
 * @param {object} actions the controller (for the host's list kept in this browser)
 * @param {object} options
 * @param {'create'|'host'} options.id where it shows (element ids start with it)
 * @param {() => void} [options.onChange] after any change the host makes
 */
export function createSnowmanSettingsFields(actions, { id, onChange } = {}) {
  const words = createWordSettings({ id, onChange });
  const wordsNote = h('p', { class: 'field-hint', id: `${id}-words-note`, hidden: true });
  const element = id === 'create'
    ? h('fieldset', { class: 'field', id: 'create-words' }, h('legend', { class: 'field-label', text: 'Words' }), words.element)
    : h('div', { class: 'host-words' }, words.element, wordsNote);
  /** The host's list as last saved from this browser (kept in localStorage per room), or null before loading. */
  let savedWords = null;
  /** `savedWords` before the last save, back in place if the server refuses the list. */
  let wordsBeforeSave = null;

  return {
    element,

    /** The create dialog: the fields to send, or a sentence saying what to fix first. */
    forCreate() {
      const list = words.check();
      const typed = list.words.length > 0 || list.problems.length > 0;
      if (typed && !list.ok) {
        words.focusWords();
        return { problem: 'Fix your own words first (or empty the list to play the pack).' };
      }
      return { fields: words.value() };
    },

    /** The host's card, when this browser hosts: shows the list it kept for the room. */
    startHosting() {
      if (savedWords !== null) return;
      savedWords = actions.roomWords?.() ?? '';
      words.set({ customWords: savedWords });
    },

    /** The room's next settings arrived; `pristine` when the host has changed nothing since. */
    load(next, { pristine }) {
      if (pristine) {
        const source = WORD_SOURCES.some((entry) => entry.id === next.wordSource) ? next.wordSource : undefined;
        words.set({ pack: next.pack ?? 'general', wordSource: source });
      }
      const count = Number(next.customWords) || 0;
      const foreign = count > 0 && !savedWords;
      show(wordsNote, foreign);
      setText(wordsNote, foreign
        ? `The room has ${count} words of yours from another device or tab. Paste the list again to change it, or leave the field empty to keep them.`
        : '');
    },

    /** What the host changed against `saved` (the room's next settings), as `settings` message fields. */
    changes(saved) {
      if (saved === null || savedWords === null) return {};
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
    },

    /** Before the host's `settings` goes out: false (with the reason shown) when the list needs fixing. */
    check(changes) {
      words.showServerError('');
      if (!changes.customWords) return true;
      if (words.check().ok) return true;
      words.showServerError('Fix the words above first, or empty the list to play the pack.');
      words.focusWords();
      return false;
    },

    /** The host's `settings` went out with `changes`. */
    sent(changes) {
      if (!('customWords' in changes)) return;
      // The list stays in this browser only (it is never sent to the others), so a reload shows it again.
      actions.keepRoomWords?.(words.value().customWords);
      wordsBeforeSave = savedWords;
      savedWords = words.value().customWords;
    },

    /** Shows a refusal about the words at the words; false for any other refusal. */
    showRefusal(notice) {
      if (notice?.code !== 'bad-words') return false;
      words.showServerError(notice ? `${notice.title}: ${notice.message}` : '');
      if (wordsBeforeSave !== null) savedWords = wordsBeforeSave;
      return true;
    },

    clearError() {
      words.showServerError('');
    },

    /** The rows the others read in the summary: `[label, text]`. */
    summary(next) {
      return [['Word pack', packLabel(next.pack ?? 'general')], ['Words', wordSourceSummary(next)]];
    },

    setDisabled(disabled) {
      words.setDisabled(disabled);
    },
  };
}
