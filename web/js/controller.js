// Wires what happens around the store: the player's actions (controller/actions.js), the address bar
// (controller/url-sync.js), the remembered seat (controller/seats.js), the moves not yet seen
// (controller/pending-moves.js) and the lobby's room list (controller/lobby-feed.js), each run on every state change.

import { joinMessage, peekMessage, ROOM } from './core/store.js';
import { savePrefs } from './core/prefs.js';
import { createActions } from './controller/actions.js';
import { createLobbyFeed } from './controller/lobby-feed.js';
import { createPendingMoves } from './controller/pending-moves.js';
import { createSeatKeeper } from './controller/seats.js';
import { routeChanged, syncAddress } from './controller/url-sync.js';

export { moveArrived } from './controller/pending-moves.js';

/**
 * Creates the actions and wires the store's side effects.
 * @param {object} deps
 * @param {object} deps.store
 * @param {object} deps.connection
 * @param {{local: Storage, session: Storage}} deps.storage
 * @param {object} deps.browser `{location, history, fetch, clipboard, copyFallback, setTimeout, clearTimeout, now}`
 *   (`now` in milliseconds, Date.now by default)
 */
export function createController({ store, connection, storage, browser }) {
  const clock = browser.now ?? (() => Date.now());
  const send = (message) => connection.send(message);
  /** Set when the socket (re)opens; the first room change after it is the resumed welcome. */
  let resuming = false;

  function sendJoin() {
    const join = joinMessage(store.getState());
    if (join && connection.isOpen) send(join);
  }

  function sendPeek() {
    const peek = peekMessage(store.getState());
    if (peek && connection.isOpen) send(peek);
  }

  const pending = createPendingMoves({ store, send, browser });
  const lobby = createLobbyFeed({ store, connection, send, browser });
  const seats = createSeatKeeper({ store, storage, browser, clock });
  const { actions, followUp } = createActions({
    store, connection, storage, browser, clock, send, pending, lobby, seats, sendJoin, sendPeek,
  });

  function onChange(state, previous) {
    if (routeChanged(state, previous)) {
      syncAddress(state, browser);
      if (state.route.name === 'lobby') lobby.enter();
      else if (previous.route.name === 'lobby') lobby.left(state);
    }
    const room = state.room;
    const before = previous.room;
    const entered = before?.code !== room?.code;
    if (room && room.status === ROOM.CHECKING && (entered || before?.status !== ROOM.CHECKING)) sendPeek();
    if (room && room.status === ROOM.JOINING
        && (entered || [ROOM.NEEDS_NAME, ROOM.FAILED, ROOM.CHECKING].includes(before?.status))) {
      sendJoin();
    }
    if (room !== before) {
      seats.roomChanged(room, before);
      pending.settle(state, false);
      if (resuming && room?.status === ROOM.JOINED) {
        resuming = false;
        pending.resumed();
      }
    }
    if (state.settings !== previous.settings || state.player !== previous.player) {
      savePrefs(storage.local, {
        name: state.player.name, theme: state.settings.theme, accent: state.settings.accent,
        sound: state.settings.sound, volume: state.settings.volume,
      });
    }
    followUp(state, previous);
    if (state.notice && state.notice !== previous.notice) pending.refused(state.notice.move);
  }

  store.subscribe(onChange);

  const connected = actions.connected;
  actions.connected = function resumeOrFollow() {
    resuming = store.getState().room?.status === ROOM.JOINED;
    connected.call(this);
  };
  return actions;
}
