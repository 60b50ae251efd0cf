// The controller joins on route changes, remembers seats, keeps the URL, and re-sends moves lost with a socket.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createController, moveArrived } from '../../web/js/controller.js';
import { createStore, initialState, CONNECTION } from '../../web/js/core/store.js';
import { loadSeat } from '../../web/js/core/prefs.js';

const TOKEN = '0123456789abcdef0123456789abcdef';

function memoryStorage() {
  const items = new Map();
  return {
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => items.set(key, String(value)),
    removeItem: (key) => items.delete(key),
  };
}

function snowmanState(guesses = []) {
  return {
    code: 'QHTW', game: 'snowman', public: true, host: 'p1',
    members: [{ id: 'p1', name: 'Ana', role: 'player', connected: true }],
    chat: [],
    snowman: { gameNumber: 1, status: 'inProgress', turn: 'p1', guesses },
  };
}

/** A controller with a fake socket, storage, history and timers. */
function setUp({ name = 'Ana', path = '/' } = {}) {
  const store = createStore({ initial: initialState({ name }), now: () => 0 });
  const sent = [];
  const connection = {
    isOpen: false,
    send(message) { if (this.isOpen) sent.push(message); return this.isOpen; },
    retryNow() {},
  };
  const timers = [];
  const pushed = [];
  const location = { pathname: path, origin: 'http://game.test' };
  const storage = { local: memoryStorage(), session: memoryStorage() };
  const controller = createController({
    store, connection, storage,
    browser: {
      location,
      history: { pushState: (_, __, url) => { pushed.push(url); location.pathname = url; } },
      fetch: async () => ({ ok: true, json: async () => ({ rooms: [] }) }),
      clipboard: { writeText: async () => {} },
      copyFallback: () => false,
      setTimeout: (fn) => { timers.push(fn); return timers.length; },
      clearTimeout: () => {},
    },
  });
  const goOnline = () => {
    connection.isOpen = true;
    store.setConnection({ status: CONNECTION.ONLINE });
    controller.connected();
  };
  const goOffline = () => {
    connection.isOpen = false;
    store.setConnection({ status: CONNECTION.RECONNECTING });
  };
  const receive = (message) => { for (const reply of store.receive(message)) connection.send(reply); };
  const runTimers = () => { while (timers.length) timers.shift()(); };
  return { store, controller, sent, pushed, storage, goOnline, goOffline, receive, runTimers };
}

describe('joining', () => {
  test('opening /r/CODE joins with the name once the socket is open, then remembers the seat', () => {
    const t = setUp({ path: '/r/QHTW' });
    t.controller.start({ name: 'room', code: 'QHTW' });
    assert.deepEqual(t.sent, [], 'nothing sent while closed');
    t.goOnline();
    assert.deepEqual(t.sent, [{ type: 'join', code: 'QHTW', name: 'Ana' }]);
    t.receive({ type: 'welcome', code: 'QHTW', you: 'p1', token: TOKEN, seq: 3, serverTime: 0, state: snowmanState() });
    assert.deepEqual(loadSeat(t.storage.session, 'QHTW'), { token: TOKEN, seq: 3, state: snowmanState() });
    t.receive({ type: 'patch', seq: 4, ops: [{ op: 'replace', path: '/public', value: false }] });
    assert.equal(loadSeat(t.storage.session, 'QHTW').seq, 4);
    assert.deepEqual(t.pushed, [], 'the URL already matched');
  });

  test('a remembered seat resumes with token and seq', () => {
    const t = setUp({ path: '/r/QHTW' });
    t.storage.session.setItem('wordrooms.seat.QHTW', JSON.stringify({ token: TOKEN, seq: 9, state: snowmanState() }));
    t.goOnline();
    t.controller.navigate({ name: 'room', code: 'QHTW' });
    assert.deepEqual(t.sent.at(-1), { type: 'join', code: 'QHTW', token: TOKEN, seq: 9 });
  });

  test('creating a room pushes /r/CODE and stops following the lobby', () => {
    const t = setUp();
    t.goOnline();
    t.controller.start({ name: 'lobby' });
    assert.deepEqual(t.sent, [{ type: 'lobby', subscribe: true }, { type: 'lobby', subscribe: true }]);
    assert.equal(t.controller.createRoom({ game: 'snowman', isPublic: false, settings: { maxWrongGuesses: 99 }, name: ' Ana ' }), null);
    assert.deepEqual(t.sent.at(-1), { type: 'create', game: 'snowman', name: 'Ana', public: false, settings: { maxWrongGuesses: 10, turnSeconds: null } });
    t.receive({ type: 'welcome', code: 'QHTW', you: 'p1', token: TOKEN, seq: 1, serverTime: 0, state: snowmanState() });
    assert.deepEqual(t.pushed, ['/r/QHTW']);
    assert.deepEqual(t.sent.at(-1), { type: 'lobby', subscribe: false });
  });

  test('leaving forgets the seat and returns to /', () => {
    const t = setUp({ path: '/r/QHTW' });
    t.controller.start({ name: 'room', code: 'QHTW' });
    t.goOnline();
    t.receive({ type: 'welcome', code: 'QHTW', you: 'p1', token: TOKEN, seq: 1, serverTime: 0, state: snowmanState() });
    t.controller.leave();
    assert.deepEqual(t.sent.at(-1), { type: 'leave' });
    t.receive({ type: 'left', code: 'QHTW' });
    assert.equal(loadSeat(t.storage.session, 'QHTW'), null);
    assert.deepEqual(t.pushed, ['/']);
    assert.deepEqual(t.sent.at(-1), { type: 'lobby', subscribe: true });
  });
});

describe('moves across a dropped connection', () => {
  function seated() {
    const t = setUp({ path: '/r/QHTW' });
    t.controller.start({ name: 'room', code: 'QHTW' });
    t.goOnline();
    t.receive({ type: 'welcome', code: 'QHTW', you: 'p1', token: TOKEN, seq: 1, serverTime: 0, state: snowmanState() });
    t.sent.length = 0;
    return t;
  }

  test('no moves are sent while offline', () => {
    const t = seated();
    t.goOffline();
    assert.equal(t.controller.guess('E'), false);
    assert.deepEqual(t.sent, []);
  });

  test('a guess the server never saw is sent again after the resume', () => {
    const t = seated();
    assert.equal(t.controller.guess('E'), true);
    assert.deepEqual(t.controller.pendingMoves, [{ type: 'guess', letter: 'E' }]);
    t.goOffline();
    t.goOnline();
    assert.deepEqual(t.sent.at(-1), { type: 'join', code: 'QHTW', token: TOKEN, seq: 1 });
    t.receive({ type: 'welcome', code: 'QHTW', you: 'p1', token: TOKEN, seq: 1, serverTime: 0, resumed: true });
    t.runTimers();
    assert.deepEqual(t.sent.at(-1), { type: 'guess', letter: 'E' });
  });

  test('a guess the server applied is not sent twice', () => {
    const t = seated();
    t.controller.guess('E');
    t.goOffline();
    t.goOnline();
    t.receive({ type: 'welcome', code: 'QHTW', you: 'p1', token: TOKEN, seq: 1, serverTime: 0, resumed: true });
    t.receive({ type: 'patch', seq: 2, ops: [{ op: 'add', path: '/snowman/guesses/-', value: { letter: 'E', player: 'p1', hit: true, points: 1 } }] });
    t.runTimers();
    assert.equal(t.sent.filter((message) => message.type === 'guess').length, 1);
    assert.deepEqual(t.controller.pendingMoves, []);
  });

  test('a refused move is no longer pending', () => {
    const t = seated();
    t.controller.guess('E');
    t.receive({ type: 'error', code: 'not-your-turn', title: 'Not your turn', message: 'Wait.', move: 'guess' });
    assert.deepEqual(t.controller.pendingMoves, []);
  });
});

test('moveArrived recognises guesses, words and chat lines in the state', () => {
  const state = {
    room: {
      state: {
        chat: [{ id: 4, player: 'p1', text: 'hi there' }],
        snowman: { guesses: [{ letter: 'E' }] },
        scramble: { found: [{ word: 'toast' }], lastRound: { found: [{ word: 'oats' }] } },
      },
    },
  };
  assert.equal(moveArrived(state, 'p1', { type: 'guess', letter: 'e' }), true);
  assert.equal(moveArrived(state, 'p1', { type: 'guess', letter: 'Q' }), false);
  assert.equal(moveArrived(state, 'p1', { type: 'word', word: ' Toast ' }), true);
  assert.equal(moveArrived(state, 'p1', { type: 'word', word: 'oats' }), true);
  assert.equal(moveArrived(state, 'p1', { type: 'word', word: 'stoat' }), false);
  assert.equal(moveArrived(state, 'p1', { type: 'chat', text: 'hi   there' }, 3), true);
  assert.equal(moveArrived(state, 'p1', { type: 'chat', text: 'hi there' }, 4), false, 'an older identical line does not count');
  assert.equal(moveArrived(state, 'p2', { type: 'chat', text: 'hi there' }, 0), false);
});
