// The controller peeks and joins on route changes, remembers seats, keeps the URL, steps out of a room on Back
// keeping the seat, and re-sends moves lost with a socket.
import '../../web/js/games.js';
import './server-games.mjs';
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createController, moveArrived } from '../../web/js/controller.js';
import { createStore, initialState, CONNECTION, ROOM } from '../../web/js/core/store.js';
import { loadSeat, loadPrefs, savePrefs } from '../../web/js/core/prefs.js';
import { memoryStorage } from './memory-storage.mjs';

const TOKEN = '0123456789abcdef0123456789abcdef';

function snowmanState(guesses = []) {
  return {
    code: 'QHTW', game: 'snowman', public: true, host: 'p1',
    members: [{ id: 'p1', name: 'Ana', role: 'player', connected: true }],
    chat: [],
    snowman: { gameNumber: 1, status: 'inProgress', turn: 'p1', guesses },
  };
}

const CLIENT = 'AbCdEfGhIjKlMnOpQrStUv';

/** A controller with a fake socket, storage, history and timers. */
function setUp({ name = 'Ana', path = '/', client = null } = {}) {
  const store = createStore({ initial: initialState({ name, client }), now: () => 0 });
  const sent = [];
  const connection = {
    isOpen: false,
    reopened: 0,
    send(message) { if (this.isOpen) sent.push(message); return this.isOpen; },
    retryNow() {},
    reopen() { this.reopened += 1; this.isOpen = false; },
  };
  const timers = [];
  const pushed = [];
  const location = { pathname: path, origin: 'http://game.test' };
  const storage = { local: memoryStorage(), session: memoryStorage() };
  const controller = createController({
    store, connection, storage,
    browser: {
      location,
      history: {
        pushState: (_, __, url) => { pushed.push(url); [location.pathname, location.hash = ''] = url.split(/(?=#)/); },
        replaceState: (_, __, url) => { pushed.push(url); [location.pathname, location.hash = ''] = url.split(/(?=#)/); },
      },
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
  return { store, controller, connection, sent, pushed, location, storage, goOnline, goOffline, receive, runTimers };
}

const peekAnswer = (code = 'QHTW') => ({
  type: 'room', code, game: 'snowman', players: 1, spectators: 0, maxPlayers: 16, locked: false, full: false, status: 'playing',
});

describe('joining', () => {
  test('opening /r/CODE peeks once the socket is open, then joins with the name, then remembers the seat', () => {
    const t = setUp({ path: '/r/QHTW' });
    t.controller.start({ name: 'room', code: 'QHTW' });
    assert.deepEqual(t.sent, [], 'nothing sent while closed');
    t.goOnline();
    assert.deepEqual(t.sent, [{ type: 'peek', code: 'QHTW' }]);
    t.receive(peekAnswer());
    assert.deepEqual(t.sent.at(-1), { type: 'join', code: 'QHTW', name: 'Ana' });
    t.receive({ type: 'welcome', code: 'QHTW', you: 'p1', token: TOKEN, seq: 3, serverTime: 0, state: snowmanState() });
    assert.deepEqual(loadSeat(t.storage.session, 'QHTW'), { token: TOKEN, seq: 3, state: snowmanState() });
    t.receive({ type: 'patch', seq: 4, ops: [{ op: 'replace', path: '/public', value: false }] });
    assert.equal(loadSeat(t.storage.session, 'QHTW').seq, 4);
    assert.deepEqual(t.pushed, [], 'the URL already matched');
  });

  test('a private room\'s link carries its key into peek and join, and the welcome\'s key into the address', () => {
    const key = 'abcDEF0123456-_x';
    const t = setUp({ path: '/' });
    t.goOnline();
    assert.equal(t.controller.joinByCode(`https://game.test/r/QHTW#k=${key}`), null);
    assert.deepEqual(t.sent.at(-1), { type: 'peek', code: 'QHTW', key });
    assert.equal(t.pushed.at(-1), `/r/QHTW#k=${key}`);
    t.receive(peekAnswer());
    assert.deepEqual(t.sent.at(-1), { type: 'join', code: 'QHTW', name: 'Ana', key });
    t.receive({ type: 'welcome', code: 'QHTW', you: 'p2', token: TOKEN, seq: 3, serverTime: 0, key, state: snowmanState() });
    assert.equal(loadSeat(t.storage.session, 'QHTW').key, key, 'a resume after a reload needs it');
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
    assert.deepEqual(t.sent, [{ type: 'lobby', subscribe: true, game: 'snowman' }, { type: 'lobby', subscribe: true, game: 'snowman' }]);
    assert.equal(t.controller.createRoom({ game: 'snowman', isPublic: false, settings: { maxWrongGuesses: 99 }, name: ' Ana ' }), null);
    assert.deepEqual(t.sent.at(-1), { type: 'create', game: 'snowman', name: 'Ana', public: false, settings: { maxWrongGuesses: 10, turnSeconds: 60, waitForHost: true } });
    t.receive({ type: 'welcome', code: 'QHTW', you: 'p1', token: TOKEN, seq: 1, serverTime: 0, state: snowmanState() });
    assert.deepEqual(t.pushed, ['/r/QHTW']);
    assert.deepEqual(t.sent.at(-1), { type: 'lobby', subscribe: false });
  });

  test('leaving forgets the seat and returns to /', () => {
    const t = setUp({ path: '/r/QHTW' });
    t.controller.start({ name: 'room', code: 'QHTW' });
    t.goOnline();
    t.receive(peekAnswer());
    t.receive({ type: 'welcome', code: 'QHTW', you: 'p1', token: TOKEN, seq: 1, serverTime: 0, state: snowmanState() });
    t.controller.leave();
    assert.deepEqual(t.sent.at(-1), { type: 'leave' });
    t.receive({ type: 'left', code: 'QHTW' });
    assert.equal(loadSeat(t.storage.session, 'QHTW'), null);
    assert.deepEqual(t.pushed, ['/']);
    assert.deepEqual(t.sent.at(-1), { type: 'lobby', subscribe: true, game: 'snowman' });
  });
});

describe('moves across a dropped connection', () => {
  function seated() {
    const t = setUp({ path: '/r/QHTW' });
    t.controller.start({ name: 'room', code: 'QHTW' });
    t.goOnline();
    t.receive(peekAnswer());
    t.receive({ type: 'welcome', code: 'QHTW', you: 'p1', token: TOKEN, seq: 1, serverTime: 0, state: snowmanState() });
    t.sent.length = 0;
    return t;
  }

  test('no moves are sent while offline', () => {
    const t = seated();
    t.goOffline();
    assert.equal(t.controller.play({ type: 'guess', letter: 'E' }), false);
    assert.deepEqual(t.sent, []);
  });

  test('a guess the server never saw is sent again after the resume', () => {
    const t = seated();
    assert.equal(t.controller.play({ type: 'guess', letter: 'E' }), true);
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
    t.controller.play({ type: 'guess', letter: 'E' });
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
    t.controller.play({ type: 'guess', letter: 'E' });
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

describe('game night page flow', () => {
  function seatedAt(code = 'QHTW', options = {}) {
    const t = setUp({ path: `/r/${code}`, ...options });
    t.controller.start({ name: 'room', code });
    t.goOnline();
    t.receive(peekAnswer(code));
    t.receive({ type: 'welcome', code, you: 'p1', token: TOKEN, seq: 1, serverTime: 0, state: snowmanState() });
    t.sent.length = 0;
    return t;
  }

  test('Back from a room keeps the seat: no leave, a fresh socket, and the seat stays remembered', () => {
    const t = seatedAt();
    t.location.pathname = '/';
    t.controller.navigate({ name: 'lobby' });
    assert.ok(!t.sent.some((message) => message.type === 'leave'), 'no leave sent');
    assert.equal(t.connection.reopened, 1, 'the room\'s socket is swapped for one in no room');
    assert.deepEqual(loadSeat(t.storage.session, 'QHTW')?.token, TOKEN, 'the seat is still remembered');
    assert.equal(t.store.getState().ui.keptSeat.code, 'QHTW', 'the lobby can offer to go back');
    t.goOnline();
    assert.deepEqual(t.sent.at(-1), { type: 'lobby', subscribe: true, game: 'snowman' });
    // Forward: the seat resumes with its token, without a peek.
    t.location.pathname = '/r/QHTW';
    t.controller.navigate({ name: 'room', code: 'QHTW' });
    assert.deepEqual(t.sent.at(-1), { type: 'join', code: 'QHTW', token: TOKEN, seq: 1 });
    assert.equal(t.store.getState().ui.keptSeat, null);
  });

  test('the kept seat is offered only for the server\'s grace period', () => {
    const t = seatedAt();
    t.controller.navigate({ name: 'lobby' });
    assert.ok(t.store.getState().ui.keptSeat);
    t.runTimers();
    assert.equal(t.store.getState().ui.keptSeat, null);
  });

  test('the Leave action still gives the seat up', () => {
    const t = seatedAt();
    t.controller.leave();
    assert.deepEqual(t.sent.at(-1), { type: 'leave' });
    assert.equal(t.connection.reopened, 0);
  });

  test('a saved name the server refuses is forgotten from the preferences', () => {
    const t = setUp({ path: '/r/QHTW', name: 'Bad\u202Ename' });
    savePrefs(t.storage.local, { name: 'Bad\u202Ename' });
    t.controller.start({ name: 'room', code: 'QHTW' });
    t.goOnline();
    t.receive(peekAnswer());
    assert.equal(t.sent.at(-1).name, 'Bad\u202Ename');
    t.receive({ type: 'error', code: 'bad-name', title: 'Name not allowed', message: 'Names cannot contain characters that reverse the direction of text.', move: 'join' });
    assert.equal(t.store.getState().room.status, ROOM.NEEDS_NAME);
    assert.equal(loadPrefs(t.storage.local).name, '', 'a reload asks again instead of failing again');
    assert.equal(t.controller.setName('Hal 👩‍💻'), null, 'emoji names are accepted');
    assert.deepEqual(t.sent.at(-1), { type: 'join', code: 'QHTW', name: 'Hal 👩‍💻' });
  });

  test('names are checked as the server checks them, by grapheme', () => {
    const t = setUp();
    assert.equal(t.controller.setName('🏳️‍🌈 Ro'), null);
    assert.equal(t.controller.setName('👩‍💻'.repeat(20)), null, '20 emoji of 3 code points each are 20 characters');
    assert.equal(t.controller.setName('x'.repeat(21)), 'Names can be at most 20 characters.');
    assert.equal(t.controller.setName('a\u202Eb'), 'Names cannot contain characters that reverse the direction of text.');
  });

  test('create and join carry the browser\'s client id', () => {
    const t = setUp({ client: CLIENT });
    t.goOnline();
    t.controller.createRoom({ game: 'snowman', isPublic: true, settings: {}, name: 'Ana' });
    assert.equal(t.sent.at(-1).type, 'create');
    assert.equal(t.sent.at(-1).client, CLIENT);
    const u = setUp({ path: '/r/QHTW', client: CLIENT });
    u.controller.start({ name: 'room', code: 'QHTW' });
    u.goOnline();
    u.receive(peekAnswer());
    assert.deepEqual(u.sent.at(-1), { type: 'join', code: 'QHTW', name: 'Ana', client: CLIENT });
  });

  test('a full room\'s Watch joins as a spectator', () => {
    const t = setUp({ path: '/r/QHTW' });
    t.controller.start({ name: 'room', code: 'QHTW' });
    t.goOnline();
    t.receive({ ...peekAnswer(), players: 16, full: true });
    assert.equal(t.store.getState().room.error.code, 'room-full');
    t.controller.watch();
    assert.deepEqual(t.sent.at(-1), { type: 'join', code: 'QHTW', name: 'Ana', spectator: true });
  });

  test('a reconnect while checking a room peeks again', () => {
    const t = setUp({ path: '/r/QHTW' });
    t.controller.start({ name: 'room', code: 'QHTW' });
    t.goOnline();
    t.goOffline();
    t.goOnline();
    assert.deepEqual(t.sent, [{ type: 'peek', code: 'QHTW' }, { type: 'peek', code: 'QHTW' }]);
  });

  test('/r/abc is a page of its own, not a redirect', () => {
    const t = setUp({ path: '/r/abc' });
    t.controller.start({ name: 'bad-code', text: 'abc' });
    t.goOnline();
    assert.deepEqual(t.pushed, [], 'the address stays');
    assert.equal(t.store.getState().route.name, 'bad-code');
    assert.equal(t.controller.joinByCode('qhtw'), null);
    assert.deepEqual(t.pushed, ['/r/QHTW']);
  });
});

describe('the room link to share', () => {
  test('is the server\'s public address when it has one, else this page\'s', async () => {
    const t = setUp();
    const copied = [];
    t.goOnline();
    t.controller.createRoom({ game: 'snowman', isPublic: true, settings: {}, name: 'Ana' });
    t.receive({ type: 'welcome', code: 'QHTW', you: 'p1', token: TOKEN, seq: 1, serverTime: 0, state: snowmanState() });
    const clipboard = { writeText: async (text) => { copied.push(text); } };
    const controller = createController({
      store: t.store, connection: t.connection, storage: t.storage,
      browser: { location: t.location, history: { pushState() {} }, fetch: async () => ({ ok: true, json: async () => ({}) }),
        clipboard, copyFallback: () => false, setTimeout: () => 0, clearTimeout: () => {} },
    });
    assert.equal(await controller.copyLink(), true);
    t.store.setUI({ publicUrl: 'https://play.example.com/' });
    assert.equal(await controller.copyLink(), true);
    assert.deepEqual(copied, ['http://game.test/r/QHTW', 'https://play.example.com/r/QHTW']);
  });
});
