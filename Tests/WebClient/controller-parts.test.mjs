// The controller's parts on their own: the address bar (url-sync), the moves tracked until seen (pending-moves)
// and the remembered seat (seats). controller.test.mjs drives them together through createController.
import '../../web/js/games.js';
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { routeChanged, syncAddress } from '../../web/js/controller/url-sync.js';
import { createPendingMoves, isTracked } from '../../web/js/controller/pending-moves.js';
import { createSeatKeeper } from '../../web/js/controller/seats.js';
import { createStore, initialState, CONNECTION, ROOM, SEAT_GRACE_SECONDS } from '../../web/js/core/store.js';
import { memoryStorage } from './memory-storage.mjs';

function fakeHistory(pathname, hash = '') {
  const calls = [];
  const location = { pathname, hash };
  const move = (kind) => (_, __, url) => {
    calls.push([kind, url]);
    [location.pathname, location.hash = ''] = url.split(/(?=#)/);
  };
  return { calls, browser: { location, history: { pushState: move('push'), replaceState: move('replace') } } };
}

describe('url-sync', () => {
  test('a new route pushes an entry; the same room gaining its key replaces it; the same address does nothing', () => {
    const { calls, browser } = fakeHistory('/');
    syncAddress({ route: { name: 'room', code: 'QHTW' } }, browser);
    syncAddress({ route: { name: 'room', code: 'QHTW', key: 'k3y' } }, browser);
    syncAddress({ route: { name: 'room', code: 'QHTW', key: 'k3y' } }, browser);
    assert.deepEqual(calls.map(([kind]) => kind), ['push', 'replace']);
    assert.equal(calls[1][1], '/r/QHTW#k=k3y');
  });

  test('the route changed when its room or its key did', () => {
    const lobby = { route: { name: 'lobby' } };
    const room = { route: { name: 'room', code: 'QHTW' } };
    assert.equal(routeChanged(room, lobby), true);
    assert.equal(routeChanged(room, { route: { name: 'room', code: 'QHTW' } }), false);
    assert.equal(routeChanged({ route: { ...room.route, key: 'k' } }, room), true);
  });
});

describe('pending-moves', () => {
  test('chat and the registered games\' moves are tracked; host tools are not', () => {
    assert.equal(isTracked('chat'), true);
    assert.equal(isTracked('guess'), true);
    assert.equal(isTracked('word'), true);
    assert.equal(isTracked('lock'), false);
  });

  test('a move waits until the state shows it or the server refuses it', () => {
    const store = createStore({ initial: initialState({ name: 'Ana' }) });
    const sent = [];
    const pending = createPendingMoves({ store, send: (message) => sent.push(message), browser: { setTimeout: () => 0, clearTimeout() {} } });
    pending.track({ type: 'guess', letter: 'E' });
    pending.track({ type: 'lock', locked: true });
    pending.track({ type: 'word', word: 'tame' });
    assert.deepEqual(sent.map((message) => message.type), ['guess', 'lock', 'word'], 'everything is sent');
    assert.deepEqual(pending.messages.map((message) => message.type), ['guess', 'word'], 'only tracked moves wait');
    const shown = { room: { you: 'p1', state: { game: 'snowman', snowman: { guesses: [{ letter: 'E', hit: true }] } } } };
    pending.settle(shown, false);
    assert.deepEqual(pending.messages.map((message) => message.type), ['word']);
    pending.refused('word');
    assert.deepEqual(pending.messages, []);
  });
});

describe('seats', () => {
  test('keeps the seat stepped out of for the grace period, then forgets it', () => {
    const store = createStore({ initial: initialState({ name: 'Ana' }) });
    const timers = [];
    const seats = createSeatKeeper({
      store, storage: { session: null }, clock: () => 1000,
      browser: { setTimeout: (fn, ms) => timers.push([fn, ms]), clearTimeout() {} },
    });
    seats.keep('QHTW');
    assert.deepEqual(store.getState().ui.keptSeat, { code: 'QHTW', until: 1000 + SEAT_GRACE_SECONDS * 1000 });
    assert.equal(timers[0][1], SEAT_GRACE_SECONDS * 1000);
    timers[0][0]();
    assert.equal(store.getState().ui.keptSeat, null);
  });

  test('remembers a joined seat and forgets a refused one', () => {
    const session = memoryStorage();
    const store = createStore({ initial: initialState({ name: 'Ana' }) });
    store.setConnection({ status: CONNECTION.ONLINE });
    const seats = createSeatKeeper({ store, storage: { session }, clock: () => 0, browser: { setTimeout() {}, clearTimeout() {} } });
    seats.roomChanged({ status: ROOM.JOINED, code: 'QHTW', token: '0123456789abcdef0123456789abcdef', you: 'p1', seq: 1, state: null }, null);
    assert.equal(session.items.size, 1);
    seats.roomChanged({ status: ROOM.FAILED, code: 'QHTW' }, null);
    assert.equal(session.items.size, 0);
  });
});
