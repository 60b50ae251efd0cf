// Settings for the room's next game (or match: the game's `unit`): the host changes them with steppers, and with
// the game's own fields where it has some (its `createSettingsFields` hook), and saves; everyone else sees them.
// Nothing changes the game being played: the card says the settings apply from the next one.

import { h, setText, show } from './dom.js';
import { createStepper } from './stepper.js';
import { gameSettings, formatSetting } from '../core/game-settings.js';
import { isHost } from '../core/store.js';
import { nextSettingsWording } from '../core/room-format.js';
import { gameById } from '../core/game-registry.js';

export function createHostSettingsView(actions, game) {
  const wording = nextSettingsWording(gameById(game)?.unit);
  const draft = {};
  let saved = null;
  /** The settings the steppers show (the server's, core/game-settings.js), and the steppers. */
  let specs = [];
  let steppers = [];
  const stepperBox = h('div', { class: 'steppers steppers-compact' });

  function buildSteppers() {
    specs = gameSettings(game);
    steppers = specs.map((spec) => createStepper(spec, {
      value: saved?.[spec.key] ?? spec.initial,
      onChange: (value) => {
        draft[spec.key] = value;
        refreshSave();
      },
    }));
    stepperBox.replaceChildren(...steppers.map((stepper) => stepper.element));
  }
  const fields = gameById(game)?.createSettingsFields?.(actions, { id: 'host', onChange: () => refreshSave() }) ?? null;
  const save = h('button', { type: 'button', class: 'button button-primary button-small', id: 'save-settings', text: wording.save });
  const note = h('p', { class: 'muted small', id: 'settings-note', 'aria-live': 'polite' });
  const error = h('p', { class: 'field-error', role: 'alert' });
  const editor = h('div', { class: 'host-editor' },
    stepperBox,
    fields?.element ?? null,
    h('div', { class: 'save-row' }, save, note), error);
  const summary = h('dl', { class: 'settings-summary' });
  const summaryNote = h('p', { class: 'muted small settings-applies', text: wording.applies });
  const element = h('section', { class: 'card side-card', id: 'host-settings', 'aria-labelledby': 'next-settings-heading' },
    h('div', { class: 'card-header' }, h('h2', { id: 'next-settings-heading', text: wording.heading })), editor, summary, summaryNote);

  /** What the host changed in the game's own fields, as `settings` message fields. */
  function fieldChanges() {
    return fields && saved !== null ? fields.changes(saved) : {};
  }

  function differs() {
    return saved !== null && (specs.some((spec) => draft[spec.key] !== saved[spec.key]) || Object.keys(fieldChanges()).length > 0);
  }

  function refreshSave() {
    save.disabled = !differs();
    setText(note, differs() ? `Not saved yet. ${wording.applies}` : wording.applies);
  }

  save.addEventListener('click', () => {
    setText(error, '');
    const changes = Object.fromEntries(specs.filter((spec) => draft[spec.key] !== saved[spec.key]).map((spec) => [spec.key, draft[spec.key] ?? 0]));
    const own = fieldChanges();
    if (fields && !fields.check(own)) return;
    Object.assign(changes, own);
    if (actions.updateRoomSettings(changes)) {
      setText(note, 'Saving…');
      fields?.sent(own);
    }
  });

  function renderSummary(next) {
    const rows = specs.flatMap((spec) => [h('dt', { text: spec.label }), h('dd', { text: formatSetting(spec, next[spec.key]) })]);
    for (const [label, text] of fields?.summary(next) ?? []) rows.push(h('dt', { text: label }), h('dd', { text }));
    summary.replaceChildren(...rows);
  }

  let lastNext = null;
  let shownErrorId = null;
  return {
    element,
    update(state, previous, context) {
      const next = state.room.state[game]?.nextSettings ?? {};
      if (gameSettings(game) !== specs) {
        // The server's settings arrived (or changed): new steppers, showing the room's values again.
        buildSteppers();
        lastNext = null;
      }
      const hosting = isHost(state);
      show(editor, hosting);
      show(summary, !hosting);
      show(summaryNote, !hosting);
      if (fields && hosting) fields.startHosting();
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
        fields?.load(next, { pristine });
        renderSummary(next);
        lastNext = next;
        refreshSave();
      }
      for (const stepper of steppers) stepper.setDisabled(!context.live);
      fields?.setDisabled(!context.live);
      if (!context.live) save.disabled = true;
      if (state.notice?.move === 'settings' && state.notice.id !== shownErrorId) {
        shownErrorId = state.notice.id;
        if (!fields?.showRefusal(state.notice)) setText(error, `${state.notice.title}: ${state.notice.message}`);
        refreshSave();
      } else if (next !== previous?.room?.state?.[game]?.nextSettings) {
        setText(error, '');
      }
    },
  };
}
