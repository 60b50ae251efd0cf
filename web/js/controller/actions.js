// What the player can do: the controller's methods the views call. Each sends a message, changes the store or
// both; moves go through the pending-moves tracker, so none is lost to a dropped socket.

import { canAct, isHost, me, ROOM } from '../core/store.js';
import { loadSeat, forgetSeat, loadCustomWords, saveCustomWords } from '../core/prefs.js';
import { pathForRoute, hrefForRoute, parseRoomInput } from '../core/router.js';
import { inviteLink } from '../core/invite-link.js';
import { cleanName, nameProblem, normalizeSettings, MAX_CHAT_LENGTH } from '../core/game-settings.js';
import { gameById } from '../core/game-registry.js';

/**
 * @param {object} deps
 * @param {object} deps.store
 * @param {object} deps.connection
 * @param {{local: Storage, session: Storage}} deps.storage
 * @param {object} deps.browser
 * @param {() => number} deps.clock milliseconds
 * @param {(message: object) => void} deps.send
 * @param {object} deps.pending controller/pending-moves.js
 * @param {object} deps.lobby controller/lobby-feed.js
 * @param {object} deps.seats controller/seats.js
 * @param {() => void} deps.sendJoin
 * @param {() => void} deps.sendPeek
 * @returns {{actions: object, followUp(state, previous): void}} the actions, and what to check on each state change
 */
export function createActions({
  store, connection, storage, browser, clock, send, pending, lobby, seats, sendJoin, sendPeek,
}) {
  /** The word list of a `create` on its way: remembered for the new room's code once the welcome arrives. */
  let creatingWords = null;
  /** A `rename` on its way: the player's stored name follows once the room shows it. */
  let renaming = null;

  /** Sends a move when the seat is live; false (and nothing sent) otherwise. */
  function move(message) {
    if (!canAct(store.getState())) return false;
    pending.track(message);
    return true;
  }

  function followUp(state, previous) {
    const room = state.room;
    const before = previous.room;
    if (creatingWords !== null && room?.status === ROOM.JOINED && before?.code !== room?.code) {
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
  }

  const actions = {
    /** The socket opened (first time or again): resume the seat, or follow the lobby. */
    connected() {
      const state = store.getState();
      if (state.route.name === 'lobby') {
        lobby.subscribe();
      } else if (state.room?.status === ROOM.CHECKING) {
        sendPeek();
      } else {
        sendJoin();
      }
    },

    /** Shows the first page: the route of the address the app was opened at. */
    start(route) {
      this.navigate(route);
      if (route.name === 'lobby') lobby.enter();
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
        if (state.room.token && loadSeat(storage.session, state.room.code)) seats.keep(state.room.code);
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
      const plugin = gameById(game);
      creatingWords = plugin?.roomWords?.(settings) || null;
      send({
        type: 'create', game, name: cleaned, public: isPublic,
        settings: { ...normalizeSettings(game, settings), ...(plugin?.createFlags ?? {}) },
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

    /** Starts the next game (host only). */
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
      lobby.refresh();
    },

    /** "More rooms": the next page of the current tab, after the rooms shown. */
    loadMoreRooms() {
      return lobby.loadMore();
    },

    openDialog(dialog) {
      store.setUI({ dialog });
    },

    closeDialog() {
      store.setUI({ dialog: null, createPending: false });
    },

    setLobbyTab(lobbyTab) {
      lobby.setTab(lobbyTab);
    },

    selectGame(gameNumber) {
      store.setUI({ selectedGame: store.getState().ui.selectedGame === gameNumber ? null : gameNumber });
    },

    dismissNotice(id) {
      store.dismissNotice(id);
    },

    /** For tests: the moves still waiting to show up in the state. */
    get pendingMoves() {
      return pending.messages;
    },

    // MARK: host tools (room views): lift a ban, lock the room, skip the current turn.

    /** Lets a removed player back in (`banId` from state.bans). */
    unban(banId) {
      return move({ type: 'unban', ban: String(banId) });
    },

    /** Locks the room (nobody new joins; resumes still work) or opens it again. */
    lockRoom(locked) {
      return move({ type: 'lock', locked: Boolean(locked) });
    },

    /** Skips the current turn, in a game played in turns (host only). */
    skipTurn() {
      return move({ type: 'skip' });
    },

    // MARK: reactions, names, seats, sounds, the host's own words

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
  return { actions, followUp };
}
