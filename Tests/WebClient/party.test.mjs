// The party round in the client: reactions pass through the store without touching the room's state or seq; a
// member renames themselves and changes seats; the sound preferences and a host's own words are remembered.
import '../../web/js/games.js';
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createController } from '../../web/js/controller.js';
import { createStore, initialState, CONNECTION, REACTIONS } from '../../web/js/core/store.js';
import { loadPrefs, loadSeat, loadCustomWords, saveCustomWords } from '../../web/js/core/prefs.js';
import { createConnection } from '../../web/js/core/connection.js';
import { memoryStorage } from './memory-storage.mjs';

const TOKEN = '0123456789abcdef0123456789abcdef';

function roomState() {
  return {
    code: 'QHTW', game: 'snowman', public: true, host: 'p1', status: 'waiting',
    members: [
      { id: 'p1', name: 'Ana', role: 'player', connected: true },
      { id: 's2', name: 'Bob', role: 'spectator', connected: true },
    ],
    chat: [],
    snowman: { gameNumber: 1, status: 'waiting', guesses: [] },
  };
}

/** A controller seated in room QHTW as p1, with a fake socket. */
function seated({ prefs = {} } = {}) {
  let clock = 1000;
  const store = createStore({ initial: initialState({ name: 'Ana', ...prefs }), now: () => clock / 1000 });
  const sent = [];
  const connection = {
    isOpen: true,
    send(message) { sent.push(message); return true; },
    retryNow() {},
    reopen() {},
  };
  const storage = { local: memoryStorage(), session: memoryStorage() };
  const location = { pathname: '/r/QHTW', origin: 'http://game.test' };
  const controller = createController({
    store, connection, storage,
    browser: {
      location, history: { pushState() {} }, fetch: async () => ({ ok: true, json: async () => ({ rooms: [] }) }),
      clipboard: { writeText: async () => {} }, copyFallback: () => false,
      setTimeout: () => 0, clearTimeout: () => {}, now: () => clock,
    },
  });
  store.setConnection({ status: CONNECTION.ONLINE });
  controller.start({ name: 'lobby' });
  const receive = (message) => { for (const reply of store.receive(message)) connection.send(reply); };
  return { store, controller, sent, storage, receive, tick: (ms) => { clock += ms; } };
}

function join(t, state = roomState()) {
  t.store.setRoute({ name: 'room', code: 'QHTW' }, { token: TOKEN, seq: null, state: null });
  t.receive({ type: 'welcome', code: 'QHTW', you: 'p1', token: TOKEN, seq: 5, serverTime: 1, state });
}

describe('reactions', () => {
  test('the bar has the eight emoji in the agreed order', () => {
    assert.deepEqual([...REACTIONS], ['👍', '😂', '😮', '🎉', '❤️', '👏', '😱', '🔥']);
  });

  test('react sends the emoji; a received reaction is listed without touching the room state or seq', () => {
    const t = seated();
    join(t);
    assert.equal(t.controller.react('🎉'), true);
    assert.deepEqual(t.sent.at(-1), { type: 'react', emoji: '🎉' });
    const before = t.store.getState().room;
    t.receive({ type: 'reaction', player: 's2', emoji: '🎉' });
    const after = t.store.getState();
    assert.equal(after.room, before, 'room (state, seq) is the same object');
    assert.equal(after.room.seq, 5);
    assert.deepEqual(after.reactions.map(({ player, emoji }) => ({ player, emoji })), [{ player: 's2', emoji: '🎉' }]);
    assert.equal(typeof after.reactions[0].id, 'number');
    assert.equal(loadSeat(t.storage.session, 'QHTW').seq, 5, 'the remembered seat is not rewritten');
    // A patch after the reaction still applies in sequence.
    t.receive({ type: 'patch', seq: 6, ops: [{ op: 'replace', path: '/public', value: false }] });
    assert.equal(t.store.getState().room.seq, 6);
    assert.equal(t.store.getState().room.state.public, false);
  });

  test('reactions are kept a little while, dropped on leaving the room, ignored outside one or when malformed', () => {
    const t = seated();
    t.receive({ type: 'reaction', player: 'p1', emoji: '👍' });
    assert.deepEqual(t.store.getState().reactions, [], 'not in a room');
    join(t);
    for (let i = 0; i < 40; i += 1) t.receive({ type: 'reaction', player: 'p1', emoji: '👍' });
    assert.equal(t.store.getState().reactions.length, 24);
    t.receive({ type: 'reaction', player: 'p1' });
    t.receive({ type: 'reaction', player: 7, emoji: '👍' });
    assert.equal(t.store.getState().reactions.length, 24);
    t.store.setRoute({ name: 'lobby' });
    assert.deepEqual(t.store.getState().reactions, []);
  });

  test('too-many-reactions is a notice of the react move (the toast), not a room failure', () => {
    const t = seated();
    join(t);
    t.receive({ type: 'error', code: 'too-many-reactions', title: 'Too many reactions', message: 'Try again in 3 seconds.', move: 'react' });
    const state = t.store.getState();
    assert.equal(state.notice.code, 'too-many-reactions');
    assert.equal(state.notice.move, 'react');
    assert.equal(state.room.status, 'joined');
  });
});

describe('names and seats', () => {
  test('rename checks the name like the join form, sends it, and the stored name follows the room', () => {
    const t = seated();
    join(t);
    assert.match(t.controller.rename('   '), /1 to 20 characters/);
    assert.match(t.controller.rename('x'.repeat(21)), /at most 20/);
    assert.equal(t.controller.rename('Ana'), null, 'the same name sends nothing');
    assert.equal(t.sent.some((message) => message.type === 'rename'), false);
    assert.equal(t.controller.rename('  Ana   Banana '), null);
    assert.deepEqual(t.sent.at(-1), { type: 'rename', name: 'Ana Banana' });
    assert.equal(t.store.getState().player.name, 'Ana', 'not yet: the room has not shown it');
    t.receive({ type: 'patch', seq: 6, ops: [{ op: 'replace', path: '/members/0/name', value: 'Ana Banana' }] });
    assert.equal(t.store.getState().player.name, 'Ana Banana');
    assert.equal(loadPrefs(t.storage.local).name, 'Ana Banana');
  });

  test('a refused rename is a rename notice; the stored name stays', () => {
    const t = seated();
    join(t);
    t.controller.rename('Zed');
    t.receive({ type: 'error', code: 'bad-name', title: 'Name not allowed', message: 'No.', move: 'rename' });
    assert.equal(t.store.getState().notice.move, 'rename');
    assert.equal(t.store.getState().player.name, 'Ana');
    assert.equal(t.store.getState().room.status, 'joined');
  });

  test('seat moves for yourself and, as host, for others', () => {
    const t = seated();
    join(t);
    t.controller.seat('player');
    assert.deepEqual(t.sent.at(-1), { type: 'seat', role: 'player' });
    t.controller.seat('spectator', 'p3');
    assert.deepEqual(t.sent.at(-1), { type: 'seat', role: 'spectator', player: 'p3' });
    t.controller.seat('player', 's2');
    assert.deepEqual(t.sent.at(-1), { type: 'seat', role: 'player', player: 's2' });
  });

  test('nothing is sent while the seat is not live', () => {
    const t = seated();
    join(t);
    t.store.setConnection({ status: CONNECTION.RECONNECTING });
    const count = t.sent.length;
    assert.equal(t.controller.react('👍'), false);
    assert.equal(t.controller.seat('player'), false);
    assert.match(t.controller.rename('Zed'), /Not connected/);
    assert.equal(t.sent.length, count);
  });
});

describe('sound preferences', () => {
  test('start from the stored ones and are saved when changed', () => {
    const t = seated({ prefs: { sound: false, volume: 0.3 } });
    assert.deepEqual(t.store.getState().settings, { theme: 'system', accent: 'blue', sound: false, volume: 0.3 });
    t.controller.setSound(true);
    t.controller.setVolume(0.456);
    assert.equal(t.store.getState().settings.volume, 0.46);
    assert.deepEqual([loadPrefs(t.storage.local).sound, loadPrefs(t.storage.local).volume], [true, 0.46]);
    t.controller.setVolume(3);
    assert.equal(loadPrefs(t.storage.local).volume, 1);
    t.controller.setVolume(-1);
    assert.equal(loadPrefs(t.storage.local).volume, 0);
  });
});

describe("the host's own words", () => {
  const LIST = 'apple\nbanana\ncherry\ngrape\nlemon\nmango\nmelon\nolive\npeach\nplum';

  test('create sends the pack, the list and its source; the list is remembered for the new room only here', () => {
    const t = seated();
    assert.equal(t.controller.createRoom({
      game: 'snowman', isPublic: true, name: 'Ana',
      settings: { maxWrongGuesses: 7, turnSeconds: 60, pack: 'food', customWords: LIST, wordSource: 'mixed' },
    }), null);
    const create = t.sent.at(-1);
    assert.equal(create.type, 'create');
    assert.equal(create.settings.pack, 'food');
    assert.equal(create.settings.customWords, LIST);
    assert.equal(create.settings.wordSource, 'mixed');
    t.receive({ type: 'welcome', code: 'QHTW', you: 'p1', token: TOKEN, seq: 1, serverTime: 1, state: roomState() });
    assert.equal(loadCustomWords(t.storage.local, 'QHTW'), LIST);
    assert.equal(t.controller.roomWords(), LIST);
  });

  test('a create without words sends only the pack', () => {
    const t = seated();
    t.controller.createRoom({ game: 'snowman', isPublic: true, name: 'Ana', settings: { pack: 'animals', customWords: '  ', wordSource: 'mixed' } });
    const { settings } = t.sent.at(-1);
    assert.equal(settings.pack, 'animals');
    assert.equal('customWords' in settings, false);
    assert.equal('wordSource' in settings, false);
  });

  test('keepRoomWords stores per room; only the newest few rooms are kept; empty forgets', () => {
    const t = seated();
    join(t);
    t.controller.keepRoomWords(LIST);
    assert.equal(loadCustomWords(t.storage.local, 'QHTW'), LIST);
    t.controller.keepRoomWords('');
    assert.equal(loadCustomWords(t.storage.local, 'QHTW'), '');
    const storage = memoryStorage();
    for (let i = 0; i < 10; i += 1) saveCustomWords(storage, `ROOM${String.fromCharCode(65 + i)}`, LIST, i);
    assert.equal(loadCustomWords(storage, 'ROOMA'), '', 'the oldest went');
    assert.equal(loadCustomWords(storage, 'ROOMB'), '');
    assert.equal(loadCustomWords(storage, 'ROOMJ'), LIST);
    assert.equal(loadCustomWords(storage, 'ROOMC'), LIST);
  });
});

describe('the socket', () => {
  test('a rename or seat made while the socket is down waits for it; a reaction is dropped (stale by then)', () => {
    class Socket {
      constructor() { this.readyState = 0; }
      send() {}
      close() { this.readyState = 3; }
    }
    const connection = createConnection({
      url: 'ws://example.test/ws', WebSocketImpl: Socket,
      timers: { setTimeout: () => 0, clearTimeout() {}, now: () => 0 }, onMessage() {}, onStatus() {}, onOpen() {},
    });
    connection.start();
    assert.equal(connection.send({ type: 'react', emoji: '👍' }), false);
    assert.equal(connection.send({ type: 'rename', name: 'Bobby' }), false);
    assert.equal(connection.send({ type: 'seat', role: 'player' }), false);
    assert.deepEqual(connection.queued.map((message) => message.type), ['rename', 'seat']);
  });
});
