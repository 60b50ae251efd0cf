// The "Create a room" dialog: name, game, public or private, and the game's settings as steppers; for Snowman also
// the word pack and the host's own words (word-settings.js).

import { h, icon, isTyping, setText } from './dom.js';
import { createStepper } from './stepper.js';
import { GAMES, SETTINGS, defaultSettings, NAME_INPUT_MAX_LENGTH } from '../core/game-settings.js';
import { CONNECTION } from '../core/store.js';
import { createWordSettings } from './word-settings.js';

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
    GAMES.map((game, index) => radioCard('create-game', game.id, game.name, game.blurb, index === 0)));
  const visibility = h('div', { class: 'choices choices-compact', role: 'radiogroup', 'aria-labelledby': 'create-visibility-label' },
    radioCard('create-visibility', 'public', 'Public', 'Listed in the lobby for anyone to join.', true),
    radioCard('create-visibility', 'private', 'Private', 'Only people with the link or code can join.', false));
  const settingsBox = h('div', { class: 'steppers' });
  const words = createWordSettings({ id: 'create' });
  const wordsBox = h('fieldset', { class: 'field', id: 'create-words' }, h('legend', { class: 'field-label', text: 'Words' }), words.element);
  const error = h('p', { class: 'form-error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'button button-primary', id: 'create-submit', text: 'Create room' });
  const form = h('form', { class: 'dialog-body form', id: 'create-form', novalidate: true },
    h('div', { class: 'field' }, h('label', { for: 'create-name', class: 'field-label', text: 'Your name' }), nameInput),
    h('fieldset', { class: 'field' }, h('legend', { class: 'field-label', id: 'create-game-label', text: 'Game' }), gameChoices),
    h('fieldset', { class: 'field' }, h('legend', { class: 'field-label', id: 'create-visibility-label', text: 'Who can join' }), visibility),
    h('fieldset', { class: 'field' }, h('legend', { class: 'field-label', text: 'Settings' }), settingsBox),
    wordsBox,
    error,
    h('div', { class: 'dialog-footer' },
      h('button', { type: 'button', class: 'button button-ghost', text: 'Cancel', on: { click: () => actions.closeDialog() } }),
      submit));
  const modal = createModal({ id: 'create-dialog', title: 'Create a room', actions, body: form });

  let game = GAMES[0].id;
  let steppers = [];
  const values = Object.fromEntries(GAMES.map((entry) => [entry.id, defaultSettings(entry.id)]));

  function buildSteppers() {
    steppers = SETTINGS[game].map((spec) => createStepper(spec, {
      value: values[game][spec.key],
      onChange: (value) => { values[game][spec.key] = value; },
    }));
    settingsBox.replaceChildren(...steppers.map((stepper) => stepper.element));
    wordsBox.hidden = game !== 'snowman';
  }
  buildSteppers();

  gameChoices.addEventListener('change', (event) => {
    game = event.target.value;
    buildSteppers();
  });

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    words.showServerError('');
    if (game === 'snowman') {
      const list = words.check();
      const typed = list.words.length > 0 || list.problems.length > 0;
      if (typed && !list.ok) {
        setText(error, 'Fix your own words first (or empty the list to play the pack).');
        words.focusWords();
        return;
      }
    }
    const problem = actions.createRoom({
      game,
      isPublic: form.elements['create-visibility'].value !== 'private',
      settings: game === 'snowman' ? { ...values[game], ...words.value() } : values[game],
      name: nameInput.value,
    });
    setText(error, problem ?? '');
    if (problem) nameInput.focus();
  });

  let wasOpen = false;
  let shownWordsNotice = null;
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
      modal.setOpen(open, nameInput.value ? submit : nameInput);
      wasOpen = open;
      if (!open) return;
      const notice = state.notice;
      if (notice?.move === 'create' && notice.code === 'bad-words' && notice.id !== shownWordsNotice) {
        shownWordsNotice = notice.id;
        // The server's list of what is wrong with the words, at the words.
        words.showServerError(`${notice.title}: ${notice.message}`);
        setText(error, '');
      } else if (notice?.move === 'create' && notice.code !== 'bad-words') {
        setText(error, `${notice.title}: ${notice.message}`);
      }
      const offline = state.connection.status !== CONNECTION.ONLINE;
      submit.disabled = state.ui.createPending || offline;
      setText(submit, state.ui.createPending ? 'Creating…' : 'Create room');
    },
  };
}
