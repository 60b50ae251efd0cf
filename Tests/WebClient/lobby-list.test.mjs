// The lobby's room list: the live first page with its deltas, further pages, and the controller's paging.
import '../../web/js/games.js';
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  emptyLobby, withFirstPage, withDelta, withMoreRooms, shownRooms, nextOffset, roomsNotShown, compareRooms,
} from '../../web/js/core/lobby-list.js';
import { createStore } from '../../web/js/core/store.js';
import { createController } from '../../web/js/controller.js';
import { memoryStorage } from './memory-storage.mjs';

const room = (code, players = 1, game = 'snowman') => ({ code, game, players, spectators: 0, maxPlayers: 16, status: 'waiting' });

describe('lobby list', () => {
  test('a first page is sorted as the server sorts, with the totals', () => {
    const lobby = withFirstPage(emptyLobby('snowman'), {
      type: 'lobby', game: 'snowman', rooms: [room('BBBB'), room('AAAA'), room('CCCC', 3)], total: 120, counts: { snowman: 120, scramble: 4 },
    });
    assert.equal(lobby.status, 'ready');
    assert.deepEqual(lobby.rooms.map((r) => r.code), ['CCCC', 'AAAA', 'BBBB']);
    assert.equal(roomsNotShown(lobby), 117);
    assert.equal(lobby.counts.scramble, 4);
  });

  test('a page of another game is ignored', () => {
    const lobby = withFirstPage(emptyLobby('snowman'), { type: 'lobby', game: 'scramble', rooms: [room('AAAA', 1, 'scramble')] });
    assert.equal(lobby.status, 'loading');
  });

  test('a delta adds, changes and removes rooms and keeps the order', () => {
    let lobby = withFirstPage(emptyLobby('snowman'), { type: 'lobby', game: 'snowman', rooms: [room('AAAA'), room('BBBB'), room('CCCC')], total: 3 });
    lobby = withDelta(lobby, { type: 'lobby-delta', game: 'snowman', rooms: [room('CCCC', 2), room('DDDD')], removed: ['AAAA'], total: 3, counts: { snowman: 3 } });
    assert.deepEqual(lobby.rooms.map((r) => `${r.code}:${r.players}`), ['CCCC:2', 'BBBB:1', 'DDDD:1']);
    assert.equal(lobby.total, 3);
  });

  test('a delta before the first page, or of another game, changes nothing', () => {
    const waiting = emptyLobby('snowman');
    assert.equal(withDelta(waiting, { type: 'lobby-delta', game: 'snowman', rooms: [room('AAAA')], removed: [] }), waiting);
    const ready = withFirstPage(emptyLobby('snowman'), { type: 'lobby', game: 'snowman', rooms: [] });
    assert.equal(withDelta(ready, { type: 'lobby-delta', game: 'scramble', rooms: [room('AAAA')], removed: [] }), ready);
  });

  test('more rooms come after the live page, without duplicates', () => {
    let lobby = withFirstPage(emptyLobby('snowman'), { type: 'lobby', game: 'snowman', rooms: [room('AAAA'), room('BBBB')], total: 4 });
    lobby = withMoreRooms(lobby, { rooms: [room('BBBB'), room('CCCC'), room('DDDD')], total: 4 });
    assert.deepEqual(shownRooms(lobby).map((r) => r.code), ['AAAA', 'BBBB', 'CCCC', 'DDDD']);
    assert.equal(nextOffset(lobby), 4);
    assert.equal(roomsNotShown(lobby), 0);
    // A room of a later page that moves up into the live page is shown once.
    lobby = withDelta(lobby, { type: 'lobby-delta', game: 'snowman', rooms: [room('DDDD', 5)], removed: ['BBBB'], total: 4 });
    assert.deepEqual(shownRooms(lobby).map((r) => r.code), ['DDDD', 'AAAA', 'CCCC']);
  });

  test('rooms sort by players, then code', () => {
    assert.deepEqual([room('BBBB'), room('AAAA', 2), room('AAAB')].sort(compareRooms).map((r) => r.code), ['AAAA', 'AAAB', 'BBBB']);
  });

  test('the store applies lobby and lobby-delta messages', () => {
    const store = createStore();
    store.receive({ type: 'lobby', game: 'snowman', rooms: [room('AAAA')], total: 1, counts: { snowman: 1, scramble: 0 } });
    store.receive({ type: 'lobby-delta', game: 'snowman', rooms: [room('BBBB', 2)], removed: [], total: 2, counts: { snowman: 2, scramble: 0 } });
    assert.deepEqual(store.getState().lobby.rooms.map((r) => r.code), ['BBBB', 'AAAA']);
    assert.equal(store.getState().lobby.counts.snowman, 2);
  });
});

describe('lobby paging in the controller', () => {
  /** A controller whose fetch answers from `pages` (by offset) and records the URLs asked for. */
  function setUp(pages) {
    const store = createStore({ now: () => 0 });
    const sent = [];
    const fetched = [];
    const connection = { isOpen: true, send(message) { sent.push(message); return true; }, retryNow() {}, reopen() {} };
    const controller = createController({
      store, connection, storage: { local: memoryStorage(), session: memoryStorage() },
      browser: {
        location: { pathname: '/', origin: 'http://game.test' },
        history: { pushState() {} },
        fetch: async (url) => {
          fetched.push(url);
          const offset = Number(new URL(url, 'http://game.test').searchParams.get('offset'));
          const page = pages[offset];
          if (page === 429) return { ok: false, status: 429, headers: { get: () => '2' }, json: async () => ({}) };
          return { ok: true, status: 200, json: async () => page };
        },
        clipboard: { writeText: async () => {} }, copyFallback: () => false, setTimeout: () => 0, clearTimeout: () => {},
      },
    });
    return { store, controller, sent, fetched };
  }

  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  test('follows the tab\'s first page, loads more after it, and switches page with the tab', async () => {
    const first = Array.from({ length: 50 }, (_, i) => room(`A${String(i).padStart(3, '0')}`));
    const second = [room('ZZZA'), room('ZZZB')];
    const t = setUp({ 0: { rooms: first, total: 52, counts: { snowman: 52, scramble: 1 } }, 50: { rooms: second, total: 52 } });
    t.controller.start({ name: 'lobby' });
    await settle();
    assert.deepEqual(t.sent.at(-1), { type: 'lobby', subscribe: true, game: 'snowman' });
    assert.equal(t.fetched[0], '/api/rooms?game=snowman&offset=0&limit=50');
    assert.equal(roomsNotShown(t.store.getState().lobby), 2);
    await t.controller.loadMoreRooms();
    assert.equal(t.fetched.at(-1), '/api/rooms?game=snowman&offset=50&limit=50');
    assert.equal(shownRooms(t.store.getState().lobby).length, 52);
    t.controller.setLobbyTab('scramble');
    assert.deepEqual(t.sent.at(-1), { type: 'lobby', subscribe: true, game: 'scramble' });
    assert.equal(t.store.getState().lobby.game, 'scramble');
  });

  test('a refused page says why and keeps the rooms shown', async () => {
    const t = setUp({ 0: { rooms: [room('AAAA')], total: 60 }, 1: 429 });
    t.controller.start({ name: 'lobby' });
    await settle();
    await t.controller.loadMoreRooms();
    const lobby = t.store.getState().lobby;
    assert.match(lobby.moreError, /too many requests, try again in 2 s/);
    assert.equal(lobby.rooms.length, 1);
    assert.equal(lobby.loadingMore, false);
  });
});
