// The lobby's room list: the first page over HTTP (`GET /api/rooms`), then live over the socket (`lobby`
// subscribe), and further pages on request.

import { PAGE_SIZE, emptyLobby, nextOffset, withFirstPage, withMoreRooms } from '../core/lobby-list.js';

/**
 * @param {object} deps
 * @param {object} deps.store
 * @param {object} deps.connection
 * @param {(message: object) => void} deps.send
 * @param {{fetch}} deps.browser
 */
export function createLobbyFeed({ store, connection, send, browser }) {
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

  async function load() {
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
  function subscribe() {
    send({ type: 'lobby', subscribe: true, game: store.getState().ui.lobbyTab });
  }

  function enter() {
    load();
    if (connection.isOpen) subscribe();
  }

  return {
    subscribe,
    enter,

    /** The page left the lobby: stop following it. */
    left(state) {
      if (connection.isOpen) send({ type: 'lobby', subscribe: false });
      // No longer live: shown again on the way back until a fresh page arrives.
      if (state.lobby.status === 'ready') store.setLobby({ status: 'stale' });
    },

    refresh() {
      store.setLobby(emptyLobby(store.getState().ui.lobbyTab));
      enter();
    },

    /** "More rooms": the next page of the current tab, after the rooms shown. */
    async loadMore() {
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

    setTab(lobbyTab) {
      if (store.getState().ui.lobbyTab === lobbyTab) return;
      store.setUI({ lobbyTab });
      store.setLobby(emptyLobby(lobbyTab));
      if (store.getState().route.name === 'lobby') enter();
    },
  };
}
