// The "Create a room" dialog: name, game, public or private, and the game's settings as steppers, with the game's
// own fields below them where it has some (its `createSettingsFields` hook).

import { h, icon, isTyping, setText } from './dom.js';
import { createStepper } from './stepper.js';
import { gameSettings, defaultSettings, NAME_INPUT_MAX_LENGTH } from '../core/game-settings.js';
import { allGames, gameById } from '../core/game-registry.js';
import { CONNECTION } from '../core/store.js';

function radioCard(name, value, title, description, checked) {
  const id = `${name}-${value}`;
  return h('label', { class: 'choice', for: id },
    h('input', { type: 'radio', name, value, id, checked }),
    h('span', { class: 'choice-body' }, h('span', { class: 'choice-title', text: title }), h('span', { class: 'choice-text', text: description })));
}

/** Modal dialogs share this: Esc or the close button closes through the store, which then closes the element. */
export function createModal({ id, title, actions, body, footer }) {
  const heading = h('h2', { id: `${id}-title`, text: title });
  const close = h('button', { type: 'button', class: 'icon-button', 'aria-label': 'Close', on: { click: () => actions.closeDialog() } }, icon('close', 20));
  const element = h('dialog', { class: 'dialog', id, 'aria-labelledby': `${id}-title` },
    h('div', { class: 'dialog-header' }, heading, close), body, footer ?? null);
  element.addEventListener('cancel', (event) => {
    event.preventDefault();
    actions.closeDialog();
  });
  element.addEventListener('click', (event) => {
    if (event.target === element) actions.closeDialog();
  });
  return {
    element,
    /** Opens or closes the element to match the store. */
    setOpen(open, focusTarget) {
      if (open && !element.open) {
        element.showModal();
        // On a touch screen focusing a text field pops the phone's keyboard up over the dialog before the player
        // chose to type: the dialog keeps the browser's own first focus (its Close button) instead.
        if (focusTarget && !(isTyping(focusTarget) && touchScreen())) focusTarget.focus();
      } else if (!open && element.open) {
        element.close();
      }
    },
  };
}

/** Phones and tablets: `(pointer: coarse)`, as the games' "tap" wording. */
function touchScreen() {
  return typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches;
}

export function createCreateDialog(actions) {
  const nameInput = h('input', { id: 'create-name', class: 'input', type: 'text', maxlength: String(NAME_INPUT_MAX_LENGTH), autocomplete: 'nickname', required: true });
  const gameChoices = h('div', { class: 'choices', role: 'radiogroup', 'aria-labelledby': 'create-game-label' },
    allGames().map((game, index) => radioCard('create-game', game.id, game.name, game.blurb, index === 0)));
  const visibility = h('div', { class: 'choices choices-compact', role: 'radiogroup', 'aria-labelledby': 'create-visibility-label' },
    radioCard('create-visibility', 'public', 'Public', 'Listed in the lobby for anyone to join.', true),
    radioCard('create-visibility', 'private', 'Private', 'Only people with the link or code can join.', false));
  const settingsBox = h('div', { class: 'steppers' });
  /** Each game's own fields, made when the game is first chosen (kept, with what was typed, across switches). */
  const ownFields = new Map();
  const error = h('p', { class: 'form-error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'button button-primary', id: 'create-submit', text: 'Create room' });
  const form = h('form', { class: 'dialog-body form', id: 'create-form', novalidate: true },
    h('div', { class: 'field' }, h('label', { for: 'create-name', class: 'field-label', text: 'Your name' }), nameInput),
    h('fieldset', { class: 'field' }, h('legend', { class: 'field-label', id: 'create-game-label', text: 'Game' }), gameChoices),
    h('fieldset', { class: 'field' }, h('legend', { class: 'field-label', id: 'create-visibility-label', text: 'Who can join' }), visibility),
    h('fieldset', { class: 'field' }, h('legend', { class: 'field-label', text: 'Settings' }), settingsBox),
    error,
    h('div', { class: 'dialog-footer' },
      h('button', { type: 'button', class: 'button button-ghost', text: 'Cancel', on: { click: () => actions.closeDialog() } }),
      submit));
  const modal = createModal({ id: 'create-dialog', title: 'Create a room', actions, body: form });

  let game = allGames()[0].id;
  let steppers = [];
  let shownSpecs = null;
  let shownFields = null;
  const values = {};

  /** The fields of the chosen game beyond its steppers, or null. */
  function fieldsOf(id) {
    if (!ownFields.has(id)) ownFields.set(id, gameById(id)?.createSettingsFields?.(actions, { id: 'create' }) ?? null);
    return ownFields.get(id);
  }

  function buildSteppers() {
    const specs = gameSettings(game);
    values[game] ??= defaultSettings(game);
    steppers = specs.map((spec) => createStepper(spec, {
      value: spec.key in values[game] ? values[game][spec.key] : spec.initial,
      onChange: (value) => { values[game][spec.key] = value; },
    }));
    settingsBox.replaceChildren(...steppers.map((stepper) => stepper.element));
    const fields = fieldsOf(game);
    // The game's own fields go right under the steppers, in place of the last game's.
    if (shownFields !== fields) shownFields?.element.remove();
    if (fields && fields.element.parentNode !== form) error.before(fields.element);
    shownFields = fields;
    shownSpecs = specs;
  }
  buildSteppers();

  gameChoices.addEventListener('change', (event) => {
    game = event.target.value;
    buildSteppers();
  });

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const fields = fieldsOf(game);
    fields?.clearError();
    const own = fields?.forCreate() ?? { fields: {} };
    if (own.problem) {
      setText(error, own.problem);
      return;
    }
    const problem = actions.createRoom({
      game,
      isPublic: form.elements['create-visibility'].value !== 'private',
      settings: { ...values[game], ...own.fields },
      name: nameInput.value,
    });
    setText(error, problem ?? '');
    if (problem) nameInput.focus();
  });

  let wasOpen = false;
  let shownNotice = null;
  return {
    element: modal.element,
    update(state) {
      const open = state.ui.dialog === 'create';
      if (open && !wasOpen) {
        nameInput.value = state.player.name;
        setText(error, '');
        const lobbyGame = state.ui.lobbyTab;
        const radio = gameChoices.querySelector(`input[value="${lobbyGame}"]`);
        if (radio && !radio.checked) {
          radio.checked = true;
          game = lobbyGame;
          buildSteppers();
        }
      }
      // The server's bounds (`/api/config`) may arrive after the dialog was built.
      if (open && gameSettings(game) !== shownSpecs) buildSteppers();
      modal.setOpen(open, nameInput.value ? submit : nameInput);
      wasOpen = open;
      if (!open) return;
      const notice = state.notice;
      if (notice?.move === 'create' && notice.id !== shownNotice) {
        shownNotice = notice.id;
        // A refusal about the game's own fields (the server's list of what is wrong with the words) shows at them.
        const atFields = fieldsOf(game)?.showRefusal(notice) ?? false;
        setText(error, atFields ? '' : `${notice.title}: ${notice.message}`);
      }
      const offline = state.connection.status !== CONNECTION.ONLINE;
      submit.disabled = state.ui.createPending || offline;
      setText(submit, state.ui.createPending ? 'Creating…' : 'Create room');
    },
  };
}
