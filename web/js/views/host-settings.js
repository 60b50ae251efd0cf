// Settings for the room's next game (a Word Scramble room: its next match): the host changes them with steppers
// and saves; everyone else sees them.

import { h, setText, show } from './dom.js';
import { createStepper } from './stepper.js';
import { SETTINGS, formatSetting } from '../core/game-settings.js';
import { isHost } from '../core/store.js';
import { nextSettingsWording } from '../core/room-format.js';
import { gameById } from '../games.js';

export function createHostSettingsView(actions, game) {
  const specs = SETTINGS[game] ?? [];
  const wording = nextSettingsWording(gameById(game)?.unit);
  const draft = {};
  let saved = null;
  const steppers = specs.map((spec) => createStepper(spec, {
    value: spec.initial,
    onChange: (value) => {
      draft[spec.key] = value;
      refreshSave();
    },
  }));
  const save = h('button', { type: 'button', class: 'button button-primary button-small', id: 'save-settings', text: wording.save });
  const note = h('p', { class: 'muted small', 'aria-live': 'polite' });
  const error = h('p', { class: 'field-error', role: 'alert' });
  const editor = h('div', { class: 'host-editor' }, h('div', { class: 'steppers steppers-compact' }, steppers.map((stepper) => stepper.element)), h('div', { class: 'save-row' }, save, note), error);
  const summary = h('dl', { class: 'settings-summary' });
  const element = h('section', { class: 'card side-card', id: 'host-settings', 'aria-labelledby': 'next-settings-heading' },
    h('div', { class: 'card-header' }, h('h2', { id: 'next-settings-heading', text: wording.heading })), editor, summary);

  function differs() {
    return saved !== null && specs.some((spec) => draft[spec.key] !== saved[spec.key]);
  }

  function refreshSave() {
    save.disabled = !differs();
    setText(note, differs() ? 'Not saved yet.' : wording.applies);
  }

  save.addEventListener('click', () => {
    const changes = Object.fromEntries(specs.filter((spec) => draft[spec.key] !== saved[spec.key]).map((spec) => [spec.key, draft[spec.key] ?? 0]));
    if (actions.updateRoomSettings(changes)) setText(note, 'Saving…');
  });

  let lastNext = null;
  let shownErrorId = null;
  return {
    element,
    update(state, previous, context) {
      const next = state.room.state[game]?.nextSettings ?? {};
      const hosting = isHost(state);
      show(editor, hosting);
      show(summary, !hosting);
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
        summary.replaceChildren(...specs.flatMap((spec) => [h('dt', { text: spec.label }), h('dd', { text: formatSetting(spec, next[spec.key]) })]));
        lastNext = next;
        refreshSave();
      }
      for (const stepper of steppers) stepper.setDisabled(!context.live);
      if (!context.live) save.disabled = true;
      if (state.notice?.move === 'settings' && state.notice.id !== shownErrorId) {
        shownErrorId = state.notice.id;
        setText(error, `${state.notice.title}: ${state.notice.message}`);
      } else if (next !== previous?.room?.state?.[game]?.nextSettings) {
        setText(error, '');
      }
    },
  };
}
