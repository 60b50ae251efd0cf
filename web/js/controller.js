// What the player can do, and what happens around the store: sending moves, joining on route changes, loading
// the lobby, keeping the URL, the remembered seat and the preferences in step with the state.
//
// Moves are never dropped silently: each guess, word or chat line stays pending until the room's state shows it
// or the server refuses it. If the socket drops first, pending moves are checked against the state once the seat
// is resumed and sent again only if the server never saw them.
//
// Stepping out of a room (Back, a phone's back swipe, the brand link) keeps the seat: no `leave` is sent, the seat
// stays in sessionStorage and the socket is swapped for a fresh one, so the server holds the seat for its grace
// period and Forward or reopening the room resumes it. Only the Leave button (after its confirmation) gives it up.

import { PAGE_SIZE, emptyLobby, nextOffset, withFirstPage, withMoreRooms } from './core/lobby-list.js';
import { canAct, joinMessage, peekMessage, ROOM, isHost, me, SEAT_GRACE_SECONDS } from './core/store.js';
import { loadSeat, saveSeat, forgetSeat, savePrefs, loadCustomWords, saveCustomWords } from './core/prefs.js';
import { pathForRoute, hrefForRoute, sameRoute, parseRoomInput } from './core/router.js';
import { inviteLink } from './core/invite-link.js';
import { cleanName, nameProblem, normalizeSettings, MAX_CHAT_LENGTH } from './core/game-settings.js';
import { GAMES, gameOfMove } from './games.js';

/** Moves whose arrival can be seen in the room state, so they are tracked until seen: chat and every game's moves. */
const TRACKED_MOVES = new Set(['chat', ...GAMES.flatMap((game) => game.moves)]);
/** After a resume, how long to wait for the missed patches before checking pending moves against the state. */
const RESUME_SETTLE_MS = 600;
/** Moves remembered at most; older ones are assumed answered. */
const MAX_PENDING = 20;

/**
 * Whether `state` shows the effect of `message` (sent by `you`); for chat, a line newer than `afterChatId`.
 */
export function moveArrived(state, you, message, afterChatId = 0) {
  const roomState = state?.room?.state;
  if (!roomState) return false;
  if (message.type === 'chat') {
    const text = String(message.text).trim().replace(/\s+/g, ' ');
    return Boolean(roomState.chat?.some((line) => line.player === you && line.text === text && line.id > afterChatId));
  }
  const game = gameOfMove(message.type);
  return game ? game.moveArrived(roomState, message) : true;
}

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
  /** `{message, afterChatId}` for each move not yet seen in the state. */
  let pending = [];
  let settleTimer = null;
  /** Set when the socket (re)opens; the first room change after it is the resumed welcome. */
  let resuming = false;
  let keptSeatTimer = null;
  /** The word list of a `create` on its way: remembered for the new room's code once the welcome arrives. */
  let creatingWords = null;
  /** A `rename` on its way: the player's stored name follows once the room shows it. */
  let renaming = null;

  function send(message) {
    connection.send(message);
  }

  function sendJoin() {
    const join = joinMessage(store.getState());
    if (join && connection.isOpen) send(join);
  }

  function sendPeek() {
    const peek = peekMessage(store.getState());
    if (peek && connection.isOpen) send(peek);
  }

  /** Shows "Back to room CODE" in the lobby while the server still keeps the seat we stepped out of. */
  function keepSeat(code) {
    const untilMs = clock() + SEAT_GRACE_SECONDS * 1000;
    store.setKeptSeat({ code, until: untilMs });
    if (keptSeatTimer !== null) browser.clearTimeout(keptSeatTimer);
    keptSeatTimer = browser.setTimeout(() => {
      keptSeatTimer = null;
      if (store.getState().ui.keptSeat?.code === code) store.setKeptSeat(null);
    }, SEAT_GRACE_SECONDS * 1000);
  }

  // MARK: lobby

  /** One page of the current tab's public rooms (`GET /api/rooms`); throws a sentence saying what went wrong. */
  async function fetchRooms(game, offset) {
    let response;
    try {
      const query = `game=${encodeURIComponent(game)}&offset=${offset}&limit=${PAGE_SIZE}`;
      response = await browser.fetch(`/api/rooms?${query}`, { headers: { Accept: 'application/json' } });
    } catch {
      throw new Error('the server could not be reached');
    }
    if (response.status === 429) {
      const wait = Number(response.headers?.get?.('Retry-After')) || 1;
      throw new Error(`too many requests, try again in ${wait} s`);
    }
    if (!response.ok) throw new Error(`the server answered ${response.status} ${response.statusText ?? ''}`.trim());
    return response.json();
  }

  async function loadLobby() {
    const game = store.getState().ui.lobbyTab;
    if (store.getState().lobby.game !== game) store.setLobby(emptyLobby(game));
    try {
      const page = await fetchRooms(game, 0);
      const lobby = store.getState().lobby;
      // The socket's page, when it came first, is newer than this one.
      if (lobby.game === game && lobby.status !== 'ready') store.setLobby(withFirstPage(lobby, { ...page, game }));
    } catch (error) {
      if (store.getState().lobby.status !== 'ready') store.setLobby({ status: 'error', error: `Couldn't load the rooms: ${error.message}.` });
    }
  }

  /** Follows the current tab's first page over the socket. */
  function subscribeLobby() {
    send({ type: 'lobby', subscribe: true, game: store.getState().ui.lobbyTab });
  }

  function enterLobby() {
    loadLobby();
    if (connection.isOpen) subscribeLobby();
  }

  // MARK: side effects of state changes

  function onChange(state, previous) {
    if (!sameRoute(state.route, previous.route) || state.route.key !== previous.route.key) {
      const path = pathForRoute(state.route);
      const href = hrefForRoute(state.route);
      const here = browser.location.pathname + (state.route.key ? browser.location.hash ?? '' : '');
      if (here !== href) {
        // The same room's address gaining its key (after the welcome) replaces the entry: Back stays one step.
        if (browser.location.pathname === path) browser.history.replaceState({}, '', href);
        else browser.history.pushState({}, '', href);
      }
      if (state.route.name === 'lobby') {
        enterLobby();
      } else if (previous.route.name === 'lobby') {
        if (connection.isOpen) send({ type: 'lobby', subscribe: false });
        // No longer live: shown again on the way back until a fresh page arrives.
        if (state.lobby.status === 'ready') store.setLobby({ status: 'stale' });
      }
    }
    const room = state.room;
    const before = previous.room;
    const entered = before?.code !== room?.code;
    if (room && room.status === ROOM.CHECKING && (entered || before?.status !== ROOM.CHECKING)) {
      sendPeek();
    }
    if (room && room.status === ROOM.JOINING
        && (entered || [ROOM.NEEDS_NAME, ROOM.FAILED, ROOM.CHECKING].includes(before?.status))) {
      sendJoin();
    }
    if (room !== before) {
      if (room?.status === ROOM.JOINED && room.token) saveSeat(storage.session, room);
      if (room?.status === ROOM.FAILED) forgetSeat(storage.session, room.code);
      if (!room && before?.status === ROOM.LEAVING) forgetSeat(storage.session, before.code);
      settlePending(state, false);
      if (resuming && room?.status === ROOM.JOINED) {
        resuming = false;
        scheduleResend();
      }
    }
    if (state.settings !== previous.settings || state.player !== previous.player) {
      savePrefs(storage.local, {
        name: state.player.name, theme: state.settings.theme, accent: state.settings.accent,
        sound: state.settings.sound, volume: state.settings.volume,
      });
    }
    if (creatingWords !== null && room?.status === ROOM.JOINED && entered) {
      saveCustomWords(storage.local, room.code, creatingWords, clock());
      creatingWords = null;
    }
    if (renaming !== null && room?.state?.members !== before?.state?.members) {
      const myName = me(state)?.name;
      if (myName && myName !== state.player.name && myName.startsWith(renaming)) store.setName(myName);
      if (myName?.startsWith(renaming)) renaming = null;
    }
    if (state.notice?.move === 'create' && state.notice !== previous.notice) creatingWords = null;
    if (state.notice?.move === 'rename' && state.notice !== previous.notice) renaming = null;
    if (state.notice && state.notice !== previous.notice && state.notice.move && TRACKED_MOVES.has(state.notice.move)) {
      const index = pending.findIndex((item) => item.message.type === state.notice.move);
      if (index >= 0) pending.splice(index, 1);
    }
  }

  /** Drops pending moves the state shows; with `resend`, sends the others again. */
  function settlePending(state, resend) {
    if (pending.length === 0) return;
    const you = state.room?.you;
    pending = pending.filter((item) => !moveArrived(state, you, item.message, item.afterChatId));
    if (resend && canAct(state)) {
      const again = pending;
      pending = [];
      for (const item of again) track(item.message);
    }
  }

  function scheduleResend() {
    if (settleTimer !== null) browser.clearTimeout(settleTimer);
    settleTimer = browser.setTimeout(() => {
      settleTimer = null;
      settlePending(store.getState(), true);
    }, RESUME_SETTLE_MS);
  }

  function track(message) {
    if (TRACKED_MOVES.has(message.type)) {
      const chat = store.getState().room?.state?.chat ?? [];
      pending.push({ message, afterChatId: chat.length ? chat[chat.length - 1].id : 0 });
      if (pending.length > MAX_PENDING) pending.shift();
    }
    send(message);
  }

  /** Sends a move when the seat is live; false (and nothing sent) otherwise. */
  function move(message) {
    if (!canAct(store.getState())) return false;
    track(message);
    return true;
  }

  store.subscribe(onChange);

  return {
    /** The socket opened (first time or again): resume the seat, or follow the lobby. */
    connected() {
      const state = store.getState();
      resuming = state.room?.status === ROOM.JOINED;
      if (state.route.name === 'lobby') {
        subscribeLobby();
      } else if (state.room?.status === ROOM.CHECKING) {
        sendPeek();
      } else {
        sendJoin();
      }
    },

    /** Shows the first page: the route of the address the app was opened at. */
    start(route) {
      this.navigate(route);
      if (route.name === 'lobby') enterLobby();
    },

    /** Shows `route` (from a link, the address bar or back/forward). */
    navigate(route) {
      const state = store.getState();
      // A five-letter code names the server instance that owns the room (several instances behind a router):
      // load the room's page, so the socket opens at /ws/CODE and reaches that instance.
      if (route.name === 'room' && route.code.length === 5 && typeof browser.location?.assign === 'function'
          && browser.location.pathname !== pathForRoute(route)) {
        browser.location.assign(hrefForRoute(route));
        return;
      }
      const stepOut = state.route.name === 'room' && state.room
        && (state.room.status === ROOM.JOINED || state.room.status === ROOM.JOINING)
        && (route.name !== 'room' || route.code !== state.room.code);
      store.setRoute(route, route.name === 'room' ? loadSeat(storage.session, route.code) : null);
      if (stepOut) {
        // Stepping out of a room keeps the seat (Back is not Leave): its socket goes, so the server holds the
        // seat for the grace period, and the seat stays remembered for Forward or a return.
        if (state.room.token && loadSeat(storage.session, state.room.code)) keepSeat(state.room.code);
        connection.reopen();
      }
    },

    /** Opens the room of a typed code or a pasted link; returns an error sentence for anything else. */
    joinByCode(text) {
      const parsed = parseRoomInput(text);
      if (!parsed) return 'Room codes are 4 letters, like QHTW; or paste the room\'s link.';
      this.navigate(parsed.key ? { name: 'room', code: parsed.code, key: parsed.key } : { name: 'room', code: parsed.code });
      return null;
    },

    /** Creates a room; returns an error sentence when the form is incomplete. */
    createRoom({ game, isPublic, settings, name }) {
      const problem = nameProblem(name);
      if (problem) return problem;
      const cleaned = cleanName(name);
      if (!connection.isOpen) return 'Not connected to the server yet. Try again in a moment.';
      store.setName(cleaned);
      store.setUI({ createPending: true });
      store.dismissNotice();
      const client = store.getState().player.client;
      creatingWords = game === 'snowman' && typeof settings?.customWords === 'string' && settings.customWords.trim()
        ? settings.customWords : null;
      send({
        type: 'create', game, name: cleaned, public: isPublic,
        // A Snowman room opens on its waiting room until the host starts (Scramble rooms always wait).
        settings: { ...normalizeSettings(game, settings), ...(game === 'snowman' ? { waitForHost: true } : {}) },
        ...(client ? { client } : {}),
      });
      return null;
    },

    /** Sets the player's name; in a room waiting for one, that joins it. Returns the reason a name is refused. */
    setName(name, { spectator = false } = {}) {
      const problem = nameProblem(name);
      if (problem) return problem;
      store.setName(cleanName(name), { spectator });
      return null;
    },

    /** From a full room's page, or while this browser plays in another tab: watch it instead. */
    watch() {
      store.watch();
    },

    /** This browser plays in the room in another tab: play here instead (that tab pauses). */
    takeOver() {
      store.takeOver();
    },

    /** A move of the room's game (`{type: 'guess', letter}`), tracked until the state shows it if it is one of the game's `moves`. */
    play(message) {
      return move(message);
    },

    guess(letter) {
      return move({ type: 'guess', letter });
    },

    submitWord(word) {
      const trimmed = String(word).trim();
      if (!trimmed) return false;
      return move({ type: 'word', word: trimmed });
    },

    newGame() {
      if (!isHost(store.getState())) return false;
      return move({ type: 'new_game' });
    },

    updateRoomSettings(settings) {
      return move({ type: 'settings', settings });
    },

    kick(player) {
      return move({ type: 'kick', player });
    },

    makeHost(player) {
      return move({ type: 'host', player });
    },

    chat(text) {
      const trimmed = String(text).trim();
      if (!trimmed || trimmed.length > MAX_CHAT_LENGTH) return false;
      return move({ type: 'chat', text: trimmed });
    },

    /** Gives the seat up for good (the Leave button, once confirmed); Back keeps it instead. */
    leave() {
      const state = store.getState();
      if (!state.room) return;
      if (state.ui.keptSeat?.code === state.room.code) store.setKeptSeat(null);
      if (state.room.status === ROOM.JOINED && connection.isOpen) {
        store.leaving();
        send({ type: 'leave' });
      } else {
        forgetSeat(storage.session, state.room.code);
        store.setRoute({ name: 'lobby' });
      }
    },

    /** Tries again after a failed join. */
    retryJoin() {
      const code = store.getState().room?.code;
      if (code) store.setRoute({ name: 'room', code }, null);
    },

    setTheme(theme) {
      store.setSettings({ theme });
    },

    setAccent(accent) {
      store.setSettings({ accent });
    },

    /** Copies the room's link; resolves to true when it reached the clipboard. */
    async copyLink() {
      const { room, ui } = store.getState();
      if (!room?.code) return false;
      // The address friends can open (core/invite-link.js), not this page's `localhost`, with a private room's key.
      const { link } = inviteLink(ui, browser.location, room.code, room.key);
      try {
        await browser.clipboard.writeText(link);
        return true;
      } catch {
        if (browser.copyFallback(link)) return true;
        store.showNotice({ title: 'Copy the link by hand', message: link });
        return false;
      }
    },

    retryConnection() {
      connection.retryNow();
    },

    refreshLobby() {
      store.setLobby(emptyLobby(store.getState().ui.lobbyTab));
      enterLobby();
    },

    /** "More rooms": the next page of the current tab, after the rooms shown. */
    async loadMoreRooms() {
      const lobby = store.getState().lobby;
      if (lobby.loadingMore || lobby.status !== 'ready') return;
      store.setLobby({ loadingMore: true, moreError: null });
      try {
        const page = await fetchRooms(lobby.game, nextOffset(lobby));
        if (store.getState().lobby.game === lobby.game) store.setLobby(withMoreRooms(store.getState().lobby, page));
      } catch (error) {
        store.setLobby({ loadingMore: false, moreError: `Couldn't load more rooms: ${error.message}.` });
      }
    },

    openDialog(dialog) {
      store.setUI({ dialog });
    },

    closeDialog() {
      store.setUI({ dialog: null, createPending: false });
    },

    setLobbyTab(lobbyTab) {
      if (store.getState().ui.lobbyTab === lobbyTab) return;
      store.setUI({ lobbyTab });
      store.setLobby(emptyLobby(lobbyTab));
      if (store.getState().route.name === 'lobby') enterLobby();
    },

    selectGame(gameNumber) {
      store.setUI({ selectedGame: store.getState().ui.selectedGame === gameNumber ? null : gameNumber });
    },

    dismissNotice(id) {
      store.dismissNotice(id);
    },

    /** For tests: the moves still waiting to show up in the state. */
    get pendingMoves() {
      return pending.map((item) => item.message);
    },

    // MARK: host tools of game night (room views): lift a ban, lock the room, skip a Snowman turn.

    /** Lets a removed player back in (`banId` from state.bans). */
    unban(banId) {
      return move({ type: 'unban', ban: String(banId) });
    },

    /** Locks the room (nobody new joins; resumes still work) or opens it again. */
    lockRoom(locked) {
      return move({ type: 'lock', locked: Boolean(locked) });
    },

    /** Skips the current Snowman turn (host only). */
    skipTurn() {
      return move({ type: 'skip' });
    },

    // MARK: the party round: reactions, names, seats, sounds, the host's own words

    /** Sends a reaction (one of store.js REACTIONS) to everyone in the room; it is not kept in the state. */
    react(emoji) {
      return move({ type: 'react', emoji: String(emoji) });
    },

    /**
     * Renames yourself in the room (the join name's rules); returns the reason a name is refused, or null once
     * sent. Your stored name follows when the room shows the new one.
     */
    rename(name) {
      const problem = nameProblem(name);
      if (problem) return problem;
      const cleaned = cleanName(name);
      if (cleaned === me(store.getState())?.name) return null;
      if (!move({ type: 'rename', name: cleaned })) return 'Not connected to the room right now. Try again in a moment.';
      renaming = cleaned;
      return null;
    },

    /**
     * Takes a player's seat or moves to the spectators: yourself without `player`, anyone (host only) with it.
     * @param {'player'|'spectator'} role
     */
    seat(role, player) {
      return move({ type: 'seat', role, ...(player ? { player } : {}) });
    },

    /** Sounds on or off (remembered). */
    setSound(sound) {
      store.setSettings({ sound: Boolean(sound) });
    },

    /** The sounds' volume, 0..1 (remembered). */
    setVolume(volume) {
      const value = Math.min(1, Math.max(0, Number(volume)));
      if (Number.isFinite(value)) store.setSettings({ volume: Math.round(value * 100) / 100 });
    },

    /** The word list the host pasted for this room in this browser ('' when none). */
    roomWords() {
      const code = store.getState().room?.code;
      return code ? loadCustomWords(storage.local, code) : '';
    },

    /** Remembers the host's pasted list for this room in this browser only (it is never sent to the others). */
    keepRoomWords(text) {
      const code = store.getState().room?.code;
      if (code) saveCustomWords(storage.local, code, String(text ?? ''), clock());
    },
  };
}
