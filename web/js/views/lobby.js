// The lobby at `/`: create a room, join one by code, or pick a public room from the live list (a tab per game);
// after stepping out of a room with Back, a card leads back to the seat the server still keeps.

import { h, icon, plural, setText, show, syncList } from './dom.js';
import { allGames, gameById } from '../core/game-registry.js';
import { CONNECTION } from '../core/store.js';
import { roomsNotShown, shownRooms } from '../core/lobby-list.js';

const STATUS_LABELS = { playing: 'Playing', waiting: 'Waiting', finished: 'Between games' };

/** The "Have a code?" form; also on the pages of a wrong code, with another `id` and wording. */
export function createJoinForm(actions, {
  id = 'join-code', label = 'Have a code?', hint = 'Four letters, or the whole link a friend shared.',
} = {}) {
  const input = h('input', {
    id, class: 'input input-code', type: 'text', inputmode: 'text', autocomplete: 'off', autocapitalize: 'characters',
    spellcheck: 'false', maxlength: '300', placeholder: 'ABCD',  'aria-describedby': `${id}-hint ${id}-error`, required: true,
  });
  const error = h('p', { id: `${id}-error`, class: 'field-error', 'aria-live': 'polite' });
  const form = h('form', { class: 'join-form', 'aria-label': 'Join a room by code', novalidate: true },
    h('label', { for: id, class: 'field-label', text: label }),
    h('div', { class: 'input-row' },
      input,
      h('button', { type: 'submit', class: 'button button-secondary', id: `${id}-submit`, text: 'Join' })),
    h('p', { id: `${id}-hint`, class: 'field-hint', text: hint }),
    error);
  input.addEventListener('input', () => {
    // A pasted link (a private room's carries its key) is kept as it is; a typed code is tidied.
    if (!/[/#]/.test(input.value)) input.value = input.value.toUpperCase().replace(/[^A-Z]/g, '');
    setText(error, '');
    input.removeAttribute('aria-invalid');
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const problem = actions.joinByCode(input.value);
    setText(error, problem ?? '');
    if (problem) input.setAttribute('aria-invalid', 'true');
  });
  return form;
}

function roomRow(actions) {
  return (room) => {
    const code = h('span', { class: 'room-code' });
    const players = h('span', { class: 'room-players' });
    const status = h('span', { class: 'badge' });
    const lock = h('span', { class: 'badge badge-locked room-lock', hidden: true }, icon('lock', 14), 'Locked');
    const join = h('button', { type: 'button', class: 'button button-small', text: 'Join' });
    join.addEventListener('click', () => actions.navigate({ name: 'room', code: join.dataset.code, spectator: join.dataset.watch === 'true' }));
    const element = h('li', { class: 'room-row' },
      h('div', { class: 'room-row-main' }, code, h('span', { class: 'room-meta' }, icon('users', 16), players)),
      h('span', { class: 'room-badges' }, lock, status), join);
    element.parts = { code, players, status, lock, join };
    return element;
  };
}

function updateRoomRow(element, room) {
  const { code, players, status, lock, join } = element.parts;
  setText(code, room.code);
  const watching = room.spectators > 0 ? ` · ${room.spectators} watching` : '';
  setText(players, `${plural(room.players, 'player')} of ${room.maxPlayers}${watching}`);
  const empty = room.players === 0 && room.spectators === 0;
  setText(status, empty ? 'Empty' : STATUS_LABELS[room.status] ?? room.status);
  status.dataset.status = empty ? 'empty' : room.status;
  join.dataset.code = room.code;
  const full = room.players >= room.maxPlayers;
  // A locked room takes nobody new (PROTOCOL.md, "Removed players and locked rooms"): no Join that would fail.
  const locked = room.locked === true;
  show(lock, locked);
  element.dataset.locked = String(locked);
  join.dataset.watch = String(full);
  join.disabled = locked;
  setText(join, locked ? 'Locked' : full ? 'Watch' : 'Join');
  join.setAttribute('aria-label', locked ? `Room ${room.code} is locked` : `${full ? 'Watch' : 'Join'} room ${room.code}`);
}

function createRoomList(actions) {
  const tabs = allGames().map((game) => h('button', {
    type: 'button', role: 'tab', class: 'tab', id: `tab-${game.id}`, 'aria-controls': 'rooms-panel', dataset: { game: game.id },
  }, h('span', { text: game.name }), h('span', { class: 'tab-count' })));
  const tablist = h('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Games' }, tabs);
  tablist.addEventListener('click', (event) => {
    const tab = event.target.closest('[role="tab"]');
    if (tab) actions.setLobbyTab(tab.dataset.game);
  });
  tablist.addEventListener('keydown', (event) => {
    const index = tabs.indexOf(document.activeElement);
    if (index < 0) return;
    const moves = { ArrowRight: 1, ArrowLeft: -1, Home: -index, End: tabs.length - 1 - index };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const next = tabs[(index + moves[event.key] + tabs.length) % tabs.length];
    next.focus();
    actions.setLobbyTab(next.dataset.game);
  });

  const list = h('ul', { class: 'room-list', 'aria-label': 'Public rooms' });
  const loading = h('div', { class: 'list-state', role: 'status' },
    h('span', { class: 'spinner', 'aria-hidden': 'true' }), h('span', { text: 'Loading rooms…' }));
  const emptyText = h('p', { class: 'empty-text' });
  const empty = h('div', { class: 'list-state empty-state' },
    h('div', { class: 'empty-art', 'aria-hidden': 'true' }, icon('users', 28)), emptyText,
    h('button', { type: 'button', class: 'button button-secondary', text: 'Create a room', on: { click: () => actions.openDialog('create') } }));
  const errorText = h('p', { class: 'error-text' });
  const error = h('div', { class: 'list-state error-state', role: 'alert' }, icon('warning', 24), errorText,
    h('button', { type: 'button', class: 'button button-secondary', on: { click: () => actions.refreshLobby() } }, icon('refresh', 16), 'Try again'));
  const moreButton = h('button', { type: 'button', class: 'button button-secondary more-rooms', id: 'more-rooms', on: { click: () => actions.loadMoreRooms() } });
  const moreError = h('p', { class: 'field-error more-rooms-error', 'aria-live': 'polite' });
  const more = h('div', { class: 'more-rooms-row' }, moreButton, moreError);
  const panel = h('div', { class: 'tab-panel', id: 'rooms-panel', role: 'tabpanel', 'aria-live': 'polite', 'aria-busy': 'false' },
    loading, error, empty, list, more);
  const live = h('span', { class: 'live-note' }, h('span', { class: 'live-dot', 'aria-hidden': 'true' }), 'Live');

  const element = h('section', { class: 'card rooms-card', 'aria-labelledby': 'rooms-heading' },
    h('div', { class: 'card-header' }, h('h2', { id: 'rooms-heading', text: 'Public rooms' }), live),
    tablist, panel);

  return {
    element,
    update(state) {
      const { lobby, ui } = state;
      const selected = ui.lobbyTab;
      // `stale`: the list as it was when we last left the lobby, shown until the fresh page comes.
      const listed = lobby.status === 'ready' || lobby.status === 'stale';
      for (const tab of tabs) {
        const active = tab.dataset.game === selected;
        tab.setAttribute('aria-selected', String(active));
        tab.tabIndex = active ? 0 : -1;
        // The server counts every game's rooms, the pages hold only the selected game's.
        const count = lobby.counts?.[tab.dataset.game];
        setText(tab.querySelector('.tab-count'), listed && Number.isFinite(count) ? String(count) : '');
      }
      panel.setAttribute('aria-labelledby', `tab-${selected}`);
      // In the server's order: rooms with the most players first.
      const rooms = shownRooms(lobby).filter((room) => room.game === selected);
      const game = gameById(selected);
      show(loading, lobby.status === 'loading');
      panel.setAttribute('aria-busy', String(lobby.status === 'loading'));
      show(error, lobby.status === 'error');
      setText(errorText, lobby.error ?? '');
      show(empty, listed && rooms.length === 0);
      setText(emptyText, `No public ${game?.name ?? ''} rooms right now. Start one and invite your friends!`);
      show(list, listed && rooms.length > 0);
      syncList(list, listed ? rooms : [], (room) => room.code, roomRow(actions), updateRoomRow);
      const notShown = listed && lobby.game === selected ? roomsNotShown(lobby) : 0;
      show(more, notShown > 0 || Boolean(lobby.moreError));
      setText(moreButton, lobby.loadingMore ? 'Loading…' : `More rooms (${notShown} more)`);
      moreButton.disabled = Boolean(lobby.loadingMore);
      setText(moreError, lobby.moreError ?? '');
      live.dataset.online = String(state.connection.status === CONNECTION.ONLINE);
    },
  };
}

/** "You still have a seat in room QHTW": shown after Back out of a room, while the server keeps the seat. */
function createKeptSeatCard(actions) {
  const text = h('p', { class: 'kept-seat-text' });
  const back = h('button', { type: 'button', class: 'button button-primary button-small', id: 'kept-seat-return' });
  back.addEventListener('click', () => {
    if (back.dataset.code) actions.navigate({ name: 'room', code: back.dataset.code });
  });
  const element = h('section', { class: 'card kept-seat', id: 'kept-seat', 'aria-label': 'Your seat', hidden: true },
    h('span', { class: 'kept-seat-art', 'aria-hidden': 'true' }, icon('clock', 20)), text, back);
  return {
    element,
    update(state) {
      const kept = state.ui.keptSeat;
      show(element, Boolean(kept));
      if (!kept) return;
      setText(text, `You still have your seat in room ${kept.code} for a couple of minutes.`);
      setText(back, `Back to room ${kept.code}`);
      back.dataset.code = kept.code;
    },
  };
}

/** "A, B or C": the registered games' names, for the lobby's welcome. */
function gameNames() {
  const names = allGames().map((game) => game.name);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : names[0] ?? 'word games';
}

/** The lobby page. */
export function createLobbyView(actions) {
  const createButton = h('button', { type: 'button', class: 'button button-primary button-large', id: 'create-room', on: { click: () => actions.openDialog('create') } },
    icon('plus', 20), 'Create a room');
  const hero = h('section', { class: 'hero card' },
    h('div', { class: 'hero-text' },
      h('h1', { text: 'Word games with friends' }),
      h('p', { class: 'lede', text: `Start a room, share the link, and play ${gameNames()} together — no sign-up needed.` }),
      h('div', { class: 'hero-actions' }, createButton)),
    createJoinForm(actions));
  const games = h('section', { class: 'game-cards', 'aria-label': 'The games' },
    allGames().map((game) => h('article', { class: `game-card game-card-${game.id}` },
      h('div', { class: 'game-card-art', 'aria-hidden': 'true' }),
      h('div', {}, h('h3', { text: game.name }), h('p', { text: game.blurb })))));
  const rooms = createRoomList(actions);
  const kept = createKeptSeatCard(actions);
  const element = h('div', { class: 'page lobby-page' }, kept.element, hero, rooms.element, games);
  return {
    element,
    update(state) {
      kept.update(state);
      rooms.update(state);
    },
  };
}
