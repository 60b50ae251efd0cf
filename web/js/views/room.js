// The page of a room at `/r/CODE`: asks for a name (showing the server's reason when it refuses one), shows
// checking, joining and every way in that failed (not found, full with a Watch button, locked, removed, server
// unreachable), and once seated lays out the room header, the game and the sidebar (members, host settings,
// history, chat). Also the page of `/r/abc`, which is not a room code.

import { h, icon, plural, setText, show } from './dom.js';
import { ROOM, CONNECTION, canAct } from '../core/store.js';
import { MAX_NAME_LENGTH, NAME_INPUT_MAX_LENGTH } from '../core/game-settings.js';
import { createJoinForm } from './lobby.js';
import { createMembersView } from './members.js';
import { createChatView } from './chat.js';
import { createReactionsView } from './reactions.js';
import { createHostSettingsView } from './host-settings.js';
import { gameById } from '../core/game-registry.js';
import { createWaitingRoom } from './waiting-room.js';
import { qrIcon, wireCopyButton } from './share-sheet.js';
import { isWaiting } from '../core/game-events.js';

/** How long the Leave button waits for its confirmation before turning back. */
const LEAVE_CONFIRM_SECONDS = 8;
const STATUS_WORDS = { waiting: 'waiting to start', playing: 'playing now', finished: 'between games' };

/** "<game> · 3 players · playing now", from a peek answer. */
function peekSummary(peek) {
  if (!peek) return '';
  const game = gameById(peek.game)?.name;
  const people = [plural(peek.players, 'player'), peek.spectators ? `${peek.spectators} watching` : null].filter(Boolean).join(', ');
  return [game, people, STATUS_WORDS[peek.status]].filter(Boolean).join(' · ');
}

function createNamePrompt(actions) {
  const title = h('h1', { id: 'name-title' });
  const context = h('p', { class: 'prompt-context', id: 'name-context' });
  const input = h('input', {
    id: 'name-input', class: 'input', type: 'text', maxlength: String(NAME_INPUT_MAX_LENGTH), autocomplete: 'nickname',
    required: true, spellcheck: 'false', 'aria-describedby': 'name-hint name-error',
  });
  const error = h('p', { id: 'name-error', class: 'field-error', 'aria-live': 'polite' });
  const submitButton = h('button', { type: 'submit', class: 'button button-primary', id: 'name-submit', text: 'Join the room' });
  const watch = h('button', { type: 'button', class: 'button button-ghost', id: 'watch-button' }, icon('eye', 18), 'Just watch');
  const form = h('form', { class: 'card prompt-card', id: 'name-form', novalidate: true, 'aria-labelledby': 'name-title' },
    h('div', { class: 'prompt-art', 'aria-hidden': 'true' }, icon('users', 34)),
    title, context,
    h('p', { class: 'lede', text: 'What should the others call you? We will remember it on this device.' }),
    h('div', { class: 'field' },
      h('label', { for: 'name-input', class: 'field-label', text: 'Your name' }), input,
      h('p', { id: 'name-hint', class: 'field-hint', text: `Up to ${MAX_NAME_LENGTH} characters; emoji welcome.` }),
      error),
    h('div', { class: 'prompt-actions' }, submitButton, watch),
    h('button', { type: 'button', class: 'link-button', text: 'Back to the lobby', on: { click: () => actions.navigate({ name: 'lobby' }) } }));
  let spectatorOnly = false;
  let shownServerError = null;

  function showError(text) {
    setText(error, text ?? '');
    if (text) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }

  function submit(spectator) {
    const problem = actions.setName(input.value, { spectator: spectator || spectatorOnly });
    showError(problem);
    if (problem) input.focus();
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit(false);
  });
  watch.addEventListener('click', () => submit(true));
  input.addEventListener('input', () => {
    if (error.textContent) showError('');
  });
  return {
    element: form,
    update(state, visibleBefore) {
      const room = state.room;
      spectatorOnly = Boolean(room.spectator);
      setText(title, spectatorOnly ? `Watch room ${room.code}` : `Join room ${room.code}`);
      setText(context, peekSummary(room.peek));
      setText(submitButton, spectatorOnly ? 'Watch the room' : 'Join the room');
      show(watch, !spectatorOnly);
      if (!visibleBefore) {
        input.value = room.nameDraft ?? state.player.name;
        shownServerError = null;
        showError('');
        queueMicrotask(() => {
          input.focus();
          if (room.nameError) input.select();
        });
      }
      // The server's reason for refusing the name, shown where the name is typed.
      if (room.nameError && room.nameError !== shownServerError) {
        shownServerError = room.nameError;
        showError(room.nameError);
      }
    },
  };
}

/** What a failed or waiting room page says and offers, by the reason. */
function statusContent(state) {
  const room = state.room;
  const code = room.code;
  if (room.status !== ROOM.FAILED && state.connection.status === CONNECTION.FAILED) {
    return {
      kind: 'offline', art: 'wifi', title: "Can't reach the server",
      message: 'The game server is not answering. This page keeps trying every 30 s and carries on by itself when it is back.',
      buttons: ['reconnect', 'back'],
    };
  }
  if (room.status !== ROOM.FAILED) {
    const checking = room.status === ROOM.CHECKING;
    return {
      kind: 'loading', title: checking ? `Looking for room ${code}…` : `Joining room ${code}…`,
      message: checking ? 'Checking the code.' : 'Finding your seat.', buttons: [],
    };
  }
  const error = room.error ?? {};
  switch (error.code) {
    case 'room-not-found':
    case 'bad-code':
      return {
        kind: 'not-found', art: 'warning', title: 'Room not found',
        message: `There is no room ${code}. It may have closed, or the code has a typo: check it with whoever shared it, or start a new room.`,
        buttons: ['back', 'create'], codeForm: true,
      };
    case 'room-full':
      return {
        kind: 'full', art: 'eye', title: 'Room full — watch instead?',
        message: error.message || `Every seat in room ${code} is taken. You can still watch the game and chat.`,
        buttons: ['watch', 'back'],
      };
    case 'seat-in-use':
      return {
        kind: 'elsewhere', art: 'users', title: 'You are already in this room',
        message: `Room ${code} is open in another tab or window, where you have your seat. Play here instead (the other tab pauses), or watch from this page.`,
        buttons: ['takeover', 'watch', 'back'],
      };
    case 'room-locked':
      return {
        kind: 'locked', art: 'lock', title: 'Room locked',
        message: error.message || `The host has locked room ${code}, so nobody new can join right now.`,
        buttons: ['back', 'retry'],
      };
    case 'kicked':
      return {
        kind: 'kicked', art: 'close', title: error.title || 'Removed from the room',
        message: error.message || `The host removed you from room ${code}.`, buttons: ['back'],
      };
    case 'room-closed':
      // The room is gone: "Try again" would only find "Room not found", so offer a new room instead.
      return {
        kind: 'closed', art: 'close', title: error.title || 'Room closed',
        message: error.message || `Room ${code} was closed by the server's operator.`, buttons: ['back', 'create'],
      };
    default:
      return {
        kind: 'error', art: 'warning', title: error.title ?? 'Could not join', message: error.message ?? '',
        buttons: ['back', 'retry'],
      };
  }
}

function createStatusCard(actions) {
  const art = h('div', { class: 'prompt-art', 'aria-hidden': 'true' });
  const title = h('h1', { id: 'room-status-title' });
  const message = h('p', { class: 'lede', id: 'room-status-message' });
  const buttons = {
    back: h('button', { type: 'button', class: 'button', id: 'status-back', text: 'Back to the lobby', on: { click: () => actions.navigate({ name: 'lobby' }) } }),
    watch: h('button', { type: 'button', class: 'button', id: 'watch-room', on: { click: () => actions.watch() } }, icon('eye', 18), 'Watch'),
    takeover: h('button', { type: 'button', class: 'button', id: 'take-over-seat', on: { click: () => actions.takeOver() } }, icon('users', 18), 'Take over here'),
    create: h('button', { type: 'button', class: 'button', id: 'status-create', on: { click: () => actions.openDialog('create') } }, icon('plus', 18), 'Create a room'),
    retry: h('button', { type: 'button', class: 'button', id: 'status-retry', text: 'Try again', on: { click: () => actions.retryJoin() } }),
    reconnect: h('button', { type: 'button', class: 'button', id: 'status-reconnect', on: { click: () => actions.retryConnection() } }, icon('refresh', 18), 'Try again'),
  };
  const row = h('div', { class: 'prompt-actions' });
  const codeForm = createJoinForm(actions, { id: 'other-code', label: 'Try another code', hint: 'Four letters, like QHTW.' });
  codeForm.classList.add('status-code-form');
  const element = h('section', { class: 'card prompt-card status-card', id: 'room-status', role: 'status', 'aria-live': 'polite', 'aria-labelledby': 'room-status-title' },
    art, title, message, row, codeForm);
  let shownKey = null;
  return {
    element,
    update(state) {
      const content = statusContent(state);
      element.dataset.kind = content.kind;
      setText(title, content.title);
      setText(message, content.message);
      const key = `${content.kind}|${content.buttons.join(',')}`;
      if (key === shownKey) return;
      shownKey = key;
      art.dataset.kind = content.kind === 'loading' ? 'loading' : ['full', 'elsewhere'].includes(content.kind) ? 'info' : 'error';
      art.replaceChildren(content.kind === 'loading' ? h('span', { class: 'spinner spinner-large' }) : icon(content.art, 34));
      content.buttons.forEach((name, index) => {
        buttons[name].className = `button ${index === 0 ? 'button-primary' : 'button-secondary'}`;
      });
      row.replaceChildren(...content.buttons.map((name) => buttons[name]));
      show(row, content.buttons.length > 0);
      show(codeForm, Boolean(content.codeForm));
    },
  };
}

/** The page of `/r/abc`: not a room code, with the ways on (lobby, a code field, a new room). */
export function createBadCodeView(actions) {
  const message = h('p', { class: 'lede', id: 'room-status-message' });
  const codeForm = createJoinForm(actions, { id: 'other-code', label: 'Type the code', hint: 'Four letters, like QHTW.' });
  codeForm.classList.add('status-code-form');
  const element = h('div', { class: 'page room-page' },
    h('section', { class: 'card prompt-card status-card', id: 'room-status', dataset: { kind: 'bad-code' }, 'aria-labelledby': 'room-status-title' },
      h('div', { class: 'prompt-art', dataset: { kind: 'error' }, 'aria-hidden': 'true' }, icon('link', 34)),
      h('h1', { id: 'room-status-title', text: 'Not a room code' }),
      message,
      h('div', { class: 'prompt-actions' },
        h('button', { type: 'button', class: 'button button-primary', id: 'status-back', text: 'Back to the lobby', on: { click: () => actions.navigate({ name: 'lobby' }) } }),
        h('button', { type: 'button', class: 'button button-secondary', id: 'status-create', on: { click: () => actions.openDialog('create') } }, icon('plus', 18), 'Create a room')),
      codeForm));
  return {
    element,
    update(state) {
      const text = state.route.text ?? '';
      setText(message, text
        ? `'${text}' is not a room code: codes are 4 letters, like QHTW.`
        : 'This link has no room code in it: codes are 4 letters, like QHTW.');
    },
  };
}

function createRoomHeader(actions) {
  const gameName = h('span', { class: 'room-game' });
  const code = h('span', { class: 'room-code room-code-large', id: 'room-code' });
  const visibility = h('span', { class: 'badge badge-muted' });
  const copyLabel = h('span', { text: 'Copy link' });
  const copy = h('button', { type: 'button', class: 'button button-secondary', id: 'copy-link' }, icon('link', 18), copyLabel);
  // The code and the QR code stay one tap away during play.
  const share = h('button', {
    type: 'button', class: 'button button-secondary', id: 'share-room', title: 'Show the code, the link and a QR code', 'aria-label': 'Invite',
    on: { click: () => actions.openDialog('share') },
  }, qrIcon(18), h('span', { class: 'button-label', text: 'Invite' }));
  const leave = h('button', { type: 'button', class: 'button button-ghost', id: 'leave-room', title: 'Give up your seat and score', 'aria-label': 'Leave' }, icon('leave', 18), h('span', { class: 'button-label', text: 'Leave' }));
  // Leave gives the seat and score up for good, so it asks first, in place (Back keeps the seat instead).
  const confirmLeave = h('button', { type: 'button', class: 'button button-small button-danger is-armed', id: 'leave-confirm', text: 'Yes, leave' });
  const cancelLeave = h('button', { type: 'button', class: 'button button-small button-secondary', id: 'leave-cancel', text: 'Cancel' });
  const leaveBox = h('div', { class: 'leave-confirm', id: 'leave-confirm-box', role: 'group', 'aria-labelledby': 'leave-question', hidden: true },
    h('span', { class: 'leave-question', id: 'leave-question', text: 'Leave the room?' }), confirmLeave, cancelLeave);
  const copied = h('span', { class: 'visually-hidden', 'aria-live': 'polite' });
  let leaveTimer = null;
  function askLeave(asking) {
    clearTimeout(leaveTimer);
    show(leaveBox, asking);
    // Leave stays in place while asking (nothing in the header moves); the question is beside or under it.
    leave.setAttribute('aria-expanded', String(asking));
    leave.classList.toggle('is-asking', asking);
    if (asking) {
      leaveTimer = setTimeout(() => askLeave(false), LEAVE_CONFIRM_SECONDS * 1000);
      cancelLeave.focus();
    } else if (leaveBox.contains(document.activeElement)) {
      leave.focus();
    }
  }
  leave.addEventListener('click', () => askLeave(true));
  cancelLeave.addEventListener('click', () => askLeave(false));
  leaveBox.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') askLeave(false);
  });
  confirmLeave.addEventListener('click', () => {
    clearTimeout(leaveTimer);
    actions.leave();
  });
  wireCopyButton(copy, copyLabel, copied, actions);
  const element = h('section', { class: 'room-header card' },
    h('div', { class: 'room-title' }, h('div', { class: 'room-game-art', 'aria-hidden': 'true' }),
      h('div', {}, gameName, h('div', { class: 'room-code-line' }, h('span', { class: 'visually-hidden', text: 'Room code ' }), code, visibility))),
    h('div', { class: 'room-actions' }, share, copy, leave, leaveBox, copied));
  return {
    element,
    update(state) {
      const roomState = state.room.state;
      const game = gameById(roomState.game);
      setText(gameName, game?.name ?? roomState.game);
      element.dataset.game = roomState.game;
      setText(code, state.room.code);
      setText(visibility, roomState.public ? 'Public' : 'Private');
      leave.disabled = state.room.status === ROOM.LEAVING;
      confirmLeave.disabled = state.room.status === ROOM.LEAVING;
    },
  };
}

function createSeatedView(actions, gameKind) {
  const header = createRoomHeader(actions);
  const plugin = gameById(gameKind);
  const game = plugin.createView(actions);
  const waitingRoom = createWaitingRoom(actions);
  // The reaction bar sits under the game rather than in the chat card: on a phone the chat is far below.
  const reactions = createReactionsView(actions);
  const reactionCard = h('section', { class: 'card reaction-card', 'aria-label': 'Reactions' }, reactions.element);
  const side = [
    createMembersView(actions),
    createHostSettingsView(actions, gameKind),
    ...(plugin.createSideViews?.(actions) ?? []),
    createChatView(actions, { reactions: false }),
  ];
  const element = h('div', { class: 'room-layout', dataset: { game: gameKind } },
    header.element,
    h('div', { class: 'room-grid' },
      h('div', { class: 'room-main' }, waitingRoom.element, game.element, reactionCard),
      h('aside', { class: 'room-side', 'aria-label': 'Room' }, side.map((view) => view.element))));
  return {
    element,
    update(state, previous) {
      const context = { live: canAct(state) };
      header.update(state, previous, context);
      const waiting = isWaiting(state.room.state);
      element.dataset.waiting = String(waiting);
      show(waitingRoom.element, waiting);
      show(game.element, !waiting);
      if (waiting) waitingRoom.update(state, previous, context);
      game.update(state, previous, context);
      reactions.update(state, previous, context);
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
