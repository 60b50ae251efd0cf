// The page of a room at `/r/CODE`: asks for a name, shows joining and failures, and once seated lays out the
// room header, the game and the sidebar (members, host settings, history, chat).

import { h, icon, setText, show } from './dom.js';
import { ROOM, canAct } from '../core/store.js';
import { GAMES, MAX_NAME_LENGTH } from '../core/game-settings.js';
import { createSnowmanView } from './snowman.js';
import { createScrambleView } from './scramble.js';
import { createMembersView } from './members.js';
import { createChatView } from './chat.js';
import { createHostSettingsView } from './host-settings.js';
import { createSnowmanHistoryView } from './snowman-history.js';

const COPIED_SECONDS = 2;

function createNamePrompt(actions) {
  const title = h('h1', {});
  const input = h('input', { id: 'name-input', class: 'input', type: 'text', maxlength: String(MAX_NAME_LENGTH), autocomplete: 'nickname', required: true, 'aria-describedby': 'name-error' });
  const error = h('p', { id: 'name-error', class: 'field-error', 'aria-live': 'polite' });
  const watch = h('button', { type: 'button', class: 'button button-ghost', id: 'watch-button' }, icon('eye', 18), 'Just watch');
  const form = h('form', { class: 'card prompt-card', id: 'name-form', novalidate: true },
    h('div', { class: 'prompt-art', 'aria-hidden': 'true' }, icon('users', 34)),
    title,
    h('p', { class: 'lede', text: 'What should the others call you? We will remember it on this device.' }),
    h('div', { class: 'field' }, h('label', { for: 'name-input', class: 'field-label', text: 'Your name' }), input, error),
    h('div', { class: 'prompt-actions' }, h('button', { type: 'submit', class: 'button button-primary', text: 'Join the room' }), watch),
    h('button', { type: 'button', class: 'link-button', text: 'Back to the lobby', on: { click: () => actions.navigate({ name: 'lobby' }) } }));
  function submit(spectator) {
    const problem = actions.setName(input.value, { spectator });
    setText(error, problem ?? '');
    if (problem) input.focus();
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit(false);
  });
  watch.addEventListener('click', () => submit(true));
  return {
    element: form,
    update(state, visibleBefore) {
      setText(title, `Join room ${state.room.code}`);
      if (!visibleBefore) {
        input.value = state.player.name;
        queueMicrotask(() => input.focus());
      }
    },
  };
}

function createStatusCard(actions) {
  const art = h('div', { class: 'prompt-art', 'aria-hidden': 'true' });
  const title = h('h1', {});
  const message = h('p', { class: 'lede' });
  const retry = h('button', { type: 'button', class: 'button button-secondary', text: 'Try again', on: { click: () => actions.retryJoin() } });
  const back = h('button', { type: 'button', class: 'button button-primary', text: 'Back to the lobby', on: { click: () => actions.navigate({ name: 'lobby' }) } });
  const element = h('section', { class: 'card prompt-card', role: 'status', 'aria-live': 'polite' },
    art, title, message, h('div', { class: 'prompt-actions' }, back, retry));
  return {
    element,
    update(state) {
      const room = state.room;
      if (room.status === ROOM.FAILED) {
        art.replaceChildren(icon('warning', 34));
        art.dataset.kind = 'error';
        setText(title, room.error?.title ?? 'Could not join');
        setText(message, room.error?.message ?? '');
        show(retry, room.error?.code !== 'kicked');
        show(back, true);
      } else {
        art.replaceChildren(h('span', { class: 'spinner spinner-large' }));
        art.dataset.kind = 'loading';
        setText(title, `Joining room ${room.code}…`);
        setText(message, 'Finding your seat.');
        show(retry, false);
        show(back, false);
      }
    },
  };
}

function createRoomHeader(actions) {
  const gameName = h('span', { class: 'room-game' });
  const code = h('span', { class: 'room-code room-code-large', id: 'room-code' });
  const visibility = h('span', { class: 'badge badge-muted' });
  const copyLabel = h('span', { text: 'Copy link' });
  const copy = h('button', { type: 'button', class: 'button button-secondary', id: 'copy-link' }, icon('link', 18), copyLabel);
  const leave = h('button', { type: 'button', class: 'button button-ghost', id: 'leave-room' }, icon('leave', 18), 'Leave');
  const copied = h('span', { class: 'visually-hidden', 'aria-live': 'polite' });
  let resetTimer = null;
  copy.addEventListener('click', async () => {
    const ok = await actions.copyLink();
    if (!ok) return;
    setText(copyLabel, 'Copied!');
    setText(copied, 'Link copied to the clipboard');
    copy.classList.add('is-done');
    clearTimeout(resetTimer);
    resetTimer = setTimeout(() => {
      setText(copyLabel, 'Copy link');
      setText(copied, '');
      copy.classList.remove('is-done');
    }, COPIED_SECONDS * 1000);
  });
  leave.addEventListener('click', () => actions.leave());
  const element = h('section', { class: 'room-header card' },
    h('div', { class: 'room-title' }, h('div', { class: 'room-game-art', 'aria-hidden': 'true' }),
      h('div', {}, gameName, h('div', { class: 'room-code-line' }, h('span', { class: 'visually-hidden', text: 'Room code ' }), code, visibility))),
    h('div', { class: 'room-actions' }, copy, leave, copied));
  return {
    element,
    update(state) {
      const roomState = state.room.state;
      const game = GAMES.find((entry) => entry.id === roomState.game);
      setText(gameName, game?.name ?? roomState.game);
      element.dataset.game = roomState.game;
      setText(code, state.room.code);
      setText(visibility, roomState.public ? 'Public' : 'Private');
      leave.disabled = state.room.status === ROOM.LEAVING;
    },
  };
}

function createSeatedView(actions, gameKind) {
  const header = createRoomHeader(actions);
  const game = gameKind === 'scramble' ? createScrambleView(actions) : createSnowmanView(actions);
  const side = [
    createMembersView(actions),
    createHostSettingsView(actions, gameKind),
    gameKind === 'snowman' ? createSnowmanHistoryView(actions) : null,
    createChatView(actions),
  ].filter(Boolean);
  const element = h('div', { class: 'room-layout', dataset: { game: gameKind } },
    header.element,
    h('div', { class: 'room-grid' },
      h('div', { class: 'room-main' }, game.element),
      h('aside', { class: 'room-side', 'aria-label': 'Room' }, side.map((view) => view.element))));
  return {
    element,
    update(state, previous) {
      const context = { live: canAct(state) };
      header.update(state, previous, context);
      game.update(state, previous, context);
      for (const view of side) view.update(state, previous, context);
    },
    destroy() {
      game.destroy?.();
    },
  };
}

/** The room page. */
export function createRoomView(actions) {
  const element = h('div', { class: 'page room-page' });
  const prompt = createNamePrompt(actions);
  const status = createStatusCard(actions);
  let seated = null;
  let seatedGame = null;
  let shown = null;

  function showOnly(view) {
    if (shown === view) return false;
    element.replaceChildren(view.element);
    shown = view;
    return true;
  }

  return {
    element,
    update(state, previous) {
      const room = state.room;
      if (!room) return;
      if (room.status === ROOM.NEEDS_NAME) {
        const fresh = showOnly(prompt);
        prompt.update(state, !fresh);
        return;
      }
      const roomState = room.state;
      if (room.status === ROOM.FAILED || !roomState) {
        showOnly(status);
        status.update(state);
        return;
      }
      if (!seated || seatedGame !== roomState.game) {
        seated?.destroy();
        seated = createSeatedView(actions, roomState.game);
        seatedGame = roomState.game;
        shown = null;
      }
      const fresh = showOnly(seated);
      seated.update(state, fresh ? { ...previous, room: null } : previous);
    },
    destroy() {
      seated?.destroy();
    },
  };
}
