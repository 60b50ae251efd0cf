// The client's one store: connection, route, lobby, room, player and settings. It applies the server's messages
// (welcome, patch, snapshot, private, error, left, lobby, `room`, the answer to a peek, and `reaction`) and tells its caller what to send
// back, so the sequence logic is tested without a socket; views subscribe and redraw from the state it holds.
//
// Entering a room without a seat first peeks at it (`CHECKING`): a wrong code says "Room not found" and a full or
// locked room says so before the player is asked for a name.
//
// The state is replaced, never mutated: every change makes a new top-level object, and a room state patched by
// `applyPatch` shares its untouched parts with the previous one, so views compare with `===` to skip work.

import { emptyLobby, withDelta, withFirstPage } from './lobby-list.js';
import { applyPatch } from './json-patch.js';
import { firstGameId } from './game-registry.js';

/** Connection statuses, as the connection module reports them. */
export const CONNECTION = Object.freeze({
  CONNECTING: 'connecting',
  ONLINE: 'online',
  RECONNECTING: 'reconnecting',
  /** Another tab resumed this seat (close code 4000); no automatic reconnect. */
  REPLACED: 'replaced',
  /** Gave up after too many tries; the page offers "Try again". */
  FAILED: 'failed',
});

/** Room statuses. */
export const ROOM = Object.freeze({
  /** Asking the server whether the room exists, is full or locked (`peek`), before asking for a name. */
  CHECKING: 'checking',
  /** A name is needed before joining. */
  NEEDS_NAME: 'needs-name',
  JOINING: 'joining',
  JOINED: 'joined',
  LEAVING: 'leaving',
  /** The join was refused or we were removed; `room.error` says why. */
  FAILED: 'failed',
});

/** Errors that end an attempt to be in the room (the room shows them instead of the game). */
const FATAL_ROOM_ERRORS = new Set(['room-not-found', 'room-full', 'room-locked', 'bad-code', 'kicked', 'server-full', 'room-closed', 'seat-in-use']);

/** The reactions a member can send, in the order the bar shows them (PROTOCOL.md, `react`). */
export const REACTIONS = Object.freeze(['👍', '😂', '😮', '🎉', '❤️', '👏', '😱', '🔥']);
/** Reactions received that the store keeps (the views show each for a moment, by its `id`). */
const MAX_REACTIONS_KEPT = 24;

/** How long the server keeps a seat after its socket went away (PROTOCOL.md), in seconds. */
export const SEAT_GRACE_SECONDS = 120;

/** The state before anything happened. `client` is this browser's id (prefs.js `loadClientId`). */
export function initialState({
  name = '', theme = 'system', accent = 'blue', sound = true, volume = 0.6, route = { name: 'lobby' }, client = null,
  lobbyTab = firstGameId() ?? null,
} = {}) {
  return {
    connection: { status: CONNECTION.CONNECTING, attempt: 0, retryAt: null },
    route,
    lobby: emptyLobby(lobbyTab),
    room: null,
    player: { name, client },
    settings: { theme, accent, sound, volume },
    notice: null,
    /**
     * Reactions received in this room, oldest first: `{id, player, emoji, at}` (`at` client seconds). Not part
     * of the room's state: they have no `seq` and are never saved or resumed.
     */
    reactions: [],
    /**
     * This player's private view in the room's game (PROTOCOL.md, "Private views"): the `private` object of the
     * welcome or snapshot, changed by `private` messages; null for spectators, games without one, and outside
     * a room. Not part of `room.state`: it has no `seq`.
     */
    privateView: null,
    ui: { lobbyTab, dialog: null, createPending: false, selectedGame: null, keptSeat: null },
  };
}

/**
 * The `join` message that (re)enters the current room: with the resume token when we have one (and our `seq` when
 * we hold the state it belongs to, so the server can send just the missed patches), else with the player's name.
 * Every join carries this browser's `client` id, so that a removal by the host keeps the browser out.
 * @returns {object|null} null when there is no room to join, it is still being checked, or a name is needed.
 */
export function joinMessage(state) {
  const { room } = state;
  if (!room || [ROOM.FAILED, ROOM.LEAVING, ROOM.CHECKING, ROOM.NEEDS_NAME].includes(room.status)) return null;
  const client = state.player.client ? { client: state.player.client } : {};
  if (room.token) {
    const message = { type: 'join', code: room.code, token: room.token, ...client, ...keyOf(room) };
    if (room.state !== null && room.state !== undefined && Number.isInteger(room.seq)) message.seq = room.seq;
    return message;
  }
  if (state.player.name) {
    const message = { type: 'join', code: room.code, name: state.player.name, ...client, ...keyOf(room) };
    if (room.spectator) message.spectator = true;
    // This browser's seat is open in another tab and the player chose to play here (`seat-in-use`).
    if (room.takeover) message.takeover = true;
    return message;
  }
  return null;
}

/**
 * The `peek` that asks about the current room before joining it, or null when no check is due. With this
 * browser's id, so that a room that is full or locked still says when the browser has a seat to come back to.
 */
export function peekMessage(state) {
  if (state.room?.status !== ROOM.CHECKING) return null;
  return { type: 'peek', code: state.room.code, ...keyOf(state.room),
    ...(state.player.client ? { client: state.player.client } : {}) };
}

/** `{key}` for a private room whose key the page has (from its link or the welcome), else nothing. */
function keyOf(room) {
  return room?.key ? { key: room.key } : {};
}

/** A welcome's or snapshot's `private` object: the member's private view, or null when it has none. */
function privateOf(message) {
  return message.private && typeof message.private === 'object' ? message.private : null;
}

/** An error the client makes itself (from a peek answer), shaped like the server's. */
function localError(code, title, message, move = 'peek') {
  return { code, title, message, move };
}

/** Server time now, in seconds since 1970, from the client's clock and the offset measured at welcome. */
export function serverNow(room, clientNowSeconds) {
  return clientNowSeconds + (room?.clockOffset ?? 0);
}

/** The member record of the player using this client, if in a room. */
export function me(state) {
  const room = state.room;
  return room?.state?.members?.find((member) => member.id === room.you) ?? null;
}

/** Whether this client is the room's host. */
export function isHost(state) {
  const room = state.room;
  return Boolean(room?.state && room.you && room.state.host === room.you);
}

/** Whether moves can be sent now: connected and seated in a room whose state is current. */
export function canAct(state) {
  return state.connection.status === CONNECTION.ONLINE && state.room?.status === ROOM.JOINED
    && state.room.state !== null && !state.room.awaitingSnapshot;
}

/**
 * Creates the store.
 * @param {object} options
 * @param {object} [options.initial] State to start from (see `initialState`).
 * @param {() => number} [options.now] Client clock in seconds since 1970.
 */
export function createStore({ initial = initialState(), now = () => Date.now() / 1000 } = {}) {
  let state = initial;
  const listeners = new Set();
  let noticeCounter = 0;
  let reactionCounter = 0;

  function commit(next) {
    if (next === state) return;
    const previous = state;
    state = next;
    for (const listener of [...listeners]) listener(state, previous);
  }

  function withRoom(changes) {
    return { ...state, room: { ...state.room, ...changes } };
  }

  function notice(message) {
    noticeCounter += 1;
    return {
      id: noticeCounter, code: message.code, title: message.title ?? 'Something went wrong',
      message: message.message ?? '', move: message.move ?? null,
    };
  }

  /** Asks for a snapshot: the patches we have no longer lead to the server's state. */
  function resync() {
    commit(withRoom({ awaitingSnapshot: true }));
    return [{ type: 'resync' }];
  }

  function receiveWelcome(message) {
    const clockOffset = typeof message.serverTime === 'number' ? message.serverTime - now() : 0;
    const base = {
      code: message.code, you: message.you, token: message.token, status: ROOM.JOINED, error: null, clockOffset,
      takeover: false,
      key: typeof message.key === 'string' ? message.key : null,
    };
    const route = base.key ? { name: 'room', code: message.code, key: base.key } : { name: 'room', code: message.code };
    if (message.resumed === true) {
      const current = state.room;
      const haveState = current && current.code === message.code && current.state !== null && current.state !== undefined;
      if (haveState && current.seq === message.seq) {
        commit({ ...state, route, privateView: privateOf(message), room: { ...current, ...base, awaitingSnapshot: false } });
        return [];
      }
      // A resume whose seq we cannot continue from: keep what we show and ask for the whole state.
      commit({
        ...state, route, privateView: privateOf(message),
        room: { ...(haveState ? current : {}), ...base, state: haveState ? current.state : null, seq: message.seq, awaitingSnapshot: true },
      });
      return [{ type: 'resync' }];
    }
    commit({
      ...state, route, privateView: privateOf(message),
      room: { ...base, seq: message.seq, state: message.state ?? null, awaitingSnapshot: false },
      ui: { ...state.ui, dialog: null, createPending: false, selectedGame: null },
    });
    return [];
  }

  function receivePatch(message) {
    const room = state.room;
    if (!room || room.state === null || room.state === undefined || room.awaitingSnapshot) return [];
    if (!Number.isInteger(message.seq) || message.seq <= room.seq) return [];
    if (message.seq !== room.seq + 1) return resync();
    let patched;
    try {
      patched = applyPatch(room.state, message.ops);
    } catch {
      return resync();
    }
    commit(withRoom({ state: patched, seq: message.seq }));
    return [];
  }

  function receiveSnapshot(message) {
    if (!state.room) return [];
    const clockOffset = typeof message.serverTime === 'number' ? message.serverTime - now() : state.room.clockOffset;
    commit({
      ...withRoom({ state: message.state, seq: message.seq, awaitingSnapshot: false, clockOffset }),
      privateView: privateOf(message),
    });
    return [];
  }

  /**
   * `private`: operations on this player's private view, outside the room's `seq`. Ops that do not apply mean
   * the view here is not the server's: a `resync` brings it back whole in the snapshot.
   */
  function receivePrivate(message) {
    if (state.room?.status !== ROOM.JOINED || state.room.awaitingSnapshot) return [];
    let patched;
    try {
      patched = applyPatch(state.privateView, message.ops);
    } catch {
      return resync();
    }
    commit({ ...state, privateView: patched ?? null });
    return [];
  }

  /** The room after a peek (or a join) refused the way in, shown as a status page. */
  function failRoom(room, shown, extra = {}) {
    commit({ ...state, notice: shown, privateView: null, room: { ...room, status: ROOM.FAILED, error: shown, token: null, ...extra } });
  }

  function receivePeek(message) {
    const room = state.room;
    if (!room || room.status !== ROOM.CHECKING || message.code !== room.code) return [];
    const peek = {
      game: message.game ?? null, players: message.players ?? 0, spectators: message.spectators ?? 0,
      maxPlayers: message.maxPlayers ?? null, locked: Boolean(message.locked), full: Boolean(message.full),
      status: message.status ?? null,
    };
    // The browser has a seat here (another tab, or a tab closed a moment ago): the join takes it back.
    if (message.seated === true) {
      commit(withRoom({ peek, status: state.player.name ? ROOM.JOINING : ROOM.NEEDS_NAME }));
      return [];
    }
    if (peek.locked) {
      failRoom(room, notice(localError('room-locked', 'Room locked',
        `The host has locked room ${room.code}, so nobody new can join right now. Ask them to unlock it, then try again.`)), { peek });
      return [];
    }
    if (peek.full && !room.spectator) {
      const seats = peek.maxPlayers ? `All ${peek.maxPlayers} seats` : 'All the seats';
      failRoom(room, notice(localError('room-full', 'Room full — watch instead?',
        `${seats} in room ${room.code} are taken. You can still watch the game and chat.`)), { peek });
      return [];
    }
    commit(withRoom({ peek, status: state.player.name ? ROOM.JOINING : ROOM.NEEDS_NAME }));
    return [];
  }

  function receiveError(message) {
    const room = state.room;
    if (room?.status === ROOM.CHECKING && message.move === 'peek') {
      failRoom(room, notice(message));
      return [];
    }
    if (message.move === 'peek') return [];
    const shown = notice(message);
    if (message.code === 'bad-name' && (message.move === 'join' || message.move === 'create')) {
      // The name (perhaps saved from an earlier visit) is refused: forget it, so it is asked for again, here and
      // on the next visit; the form shows the server's reason with what was typed.
      const refused = state.player.name;
      const player = { ...state.player, name: '' };
      if (message.move === 'create') {
        commit({ ...state, notice: shown, player, ui: { ...state.ui, createPending: false } });
        return [];
      }
      if (room && room.status === ROOM.JOINING && !room.token) {
        commit({ ...state, notice: shown, player, room: { ...room, status: ROOM.NEEDS_NAME, nameError: shown.message, nameDraft: refused } });
        return [];
      }
    }
    if (message.move === 'create') {
      commit({ ...state, notice: shown, ui: { ...state.ui, createPending: false } });
      return [];
    }
    if (room && message.code === 'seat-expired') {
      // Our seat was given up while we were away: sit down again (the room gives this browser its member id
      // back, so tonight's points stay ours), and say so: the seat's place in this game is gone.
      const lost = notice({
        code: 'seat-expired', title: 'Your seat was given up',
        message: `You were away from room ${room.code} too long and your seat was given up. You are back in with a new one; tonight's points are still yours.`,
      });
      const next = { ...state, notice: lost, privateView: null, room: { ...room, token: null, seq: null, state: null, status: ROOM.JOINING } };
      commit(next);
      const join = joinMessage(next);
      if (!join) commit({ ...next, room: { ...next.room, status: ROOM.NEEDS_NAME } });
      return join ? [join] : [];
    }
    if (room && message.code === 'replaced') {
      commit({ ...state, notice: shown, connection: { ...state.connection, status: CONNECTION.REPLACED } });
      return [];
    }
    if (room && (FATAL_ROOM_ERRORS.has(message.code)
        || (message.move === 'join' && room.status === ROOM.JOINING && message.code !== 'already-in-room'))) {
      failRoom(room, shown);
      return [];
    }
    commit({ ...state, notice: shown });
    return [];
  }

  /** A member's reaction: shown for a moment next to their name; the room's state and `seq` stay as they are. */
  function receiveReaction(message) {
    if (state.room?.status !== ROOM.JOINED || !state.room.state) return [];
    if (typeof message.player !== 'string' || typeof message.emoji !== 'string') return [];
    if (message.emoji.length === 0 || message.emoji.length > 16) return [];
    reactionCounter += 1;
    const reaction = { id: reactionCounter, player: message.player, emoji: message.emoji, at: now() };
    commit({ ...state, reactions: [...state.reactions, reaction].slice(-MAX_REACTIONS_KEPT) });
    return [];
  }

  return {
    getState: () => state,

    /** Calls `listener(state, previous)` after every change; returns the unsubscribe function. */
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /**
     * Applies one message from the server.
     * @returns {object[]} messages to send back (a `resync` after a gap, a `join` after a lost seat).
     */
    receive(message) {
      switch (message?.type) {
        case 'welcome': return receiveWelcome(message);
        case 'patch': return receivePatch(message);
        case 'snapshot': return receiveSnapshot(message);
        case 'private': return receivePrivate(message);
        case 'error': return receiveError(message);
        case 'left':
          if (state.room?.code === message.code) {
            commit({ ...state, room: null, privateView: null, route: { name: 'lobby' } });
          }
          return [];
        case 'lobby':
          commit({ ...state, lobby: withFirstPage(state.lobby, message) });
          return [];
        case 'lobby-delta':
          commit({ ...state, lobby: withDelta(state.lobby, message) });
          return [];
        case 'room': return receivePeek(message);
        case 'reaction': return receiveReaction(message);
        default:
          return [];
      }
    },

    /** The socket's status changed (see CONNECTION). */
    setConnection(connection) {
      commit({ ...state, connection: { ...state.connection, ...connection } });
    },

    /**
     * Shows a route. Entering a room prepares a join: from a remembered seat (`seat`: token, seq and the state at
     * seq) at once, or, without one, after a peek, with the player's name (as a spectator when `route.spectator`).
     */
    setRoute(route, seat = null) {
      if (route.name === 'room') {
        if (state.room?.code === route.code && state.room.status !== ROOM.FAILED
            && (!route.key || route.key === state.room.key)) {
          commit({ ...state, route });
          return;
        }
        const room = {
          code: route.code, key: route.key ?? seat?.key ?? null,
          you: null, token: seat?.token ?? null, seq: seat?.seq ?? null, state: seat?.state ?? null,
          status: seat?.token ? ROOM.JOINING : ROOM.CHECKING, error: null, clockOffset: 0,
          awaitingSnapshot: false, spectator: Boolean(route.spectator), peek: null, nameError: null, nameDraft: null,
        };
        const keptSeat = state.ui.keptSeat?.code === route.code ? null : state.ui.keptSeat;
        commit({ ...state, route, room, notice: null, reactions: [], privateView: null, ui: { ...state.ui, selectedGame: null, keptSeat } });
        return;
      }
      commit({ ...state, route, room: null, reactions: [], privateView: null, notice: state.route.name === 'lobby' ? state.notice : null });
    },

    /**
     * This browser's seat is open in another tab (`seat-in-use`): take it over here. The other tab is told its
     * seat moved and pauses.
     */
    takeOver() {
      const room = state.room;
      if (!room || room.status !== ROOM.FAILED || room.error?.code !== 'seat-in-use') return;
      commit({ ...state, room: { ...room, takeover: true, status: state.player.name ? ROOM.JOINING : ROOM.NEEDS_NAME, error: null } });
    },

    /** From a full room's page: watch it instead (asks for a name first if there is none). */
    watch() {
      const room = state.room;
      if (!room) return;
      commit({
        ...state, route: { ...state.route, spectator: true },
        room: { ...room, spectator: true, takeover: false, status: state.player.name ? ROOM.JOINING : ROOM.NEEDS_NAME, error: null, token: null },
      });
    },

    /**
     * Remembers (or, with null, forgets) the seat kept in a room the page stepped out of without leaving:
     * `{code, until}` (client seconds), for the lobby's "Back to room CODE".
     */
    setKeptSeat(keptSeat) {
      commit({ ...state, ui: { ...state.ui, keptSeat } });
    },

    /** The player is leaving the room; the server answers `left`. */
    leaving() {
      if (state.room) commit(withRoom({ status: ROOM.LEAVING }));
    },

    /**
     * The player's name (stored by the caller); a room waiting for a name starts joining, as a spectator when
     * `spectator` is set.
     */
    setName(name, { spectator = false } = {}) {
      const room = state.room?.status === ROOM.NEEDS_NAME
        ? { ...state.room, status: ROOM.JOINING, spectator: spectator || Boolean(state.room.spectator), nameError: null, nameDraft: null }
        : state.room;
      commit({ ...state, player: { ...state.player, name }, room });
    },

    setSettings(settings) {
      commit({ ...state, settings: { ...state.settings, ...settings } });
    },

    setLobby(lobby) {
      commit({ ...state, lobby: { ...state.lobby, ...lobby } });
    },

    setUI(ui) {
      commit({ ...state, ui: { ...state.ui, ...ui } });
    },

    /** Shows an error that did not come from the server (e.g. the clipboard refused). */
    showNotice(message) {
      commit({ ...state, notice: notice(message) });
    },

    /** Hides the notice `id` (a newer one stays). */
    dismissNotice(id) {
      if (state.notice && (id === undefined || state.notice.id === id)) commit({ ...state, notice: null });
    },
  };
}
