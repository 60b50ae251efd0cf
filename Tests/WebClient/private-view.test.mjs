// The store keeps the player's private view (PROTOCOL.md, "Private views") as `state.privateView`: whole from a
// welcome or snapshot, changed by `private` operations, null outside a room and for those without one.
import '../../web/js/games.js';
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createStore, initialState, CONNECTION } from '../../web/js/core/store.js';

const TOKEN = '9f0c2d4e6a8b1c3d5e7f90a1b2c3d4e5';
const HAND = { letters: ['q', 'u', 'a'], tries: [{ word: 'quart', marks: 'xx..x' }] };

function welcome(overrides = {}) {
  const state = { code: 'QHTW', game: 'snowman', public: true, host: 'p1', members: [], chat: [], snowman: {} };
  return { type: 'welcome', code: 'QHTW', you: 'p1', token: TOKEN, seq: 7, serverTime: 1000, state, private: HAND, ...overrides };
}

/** A store in room QHTW at seq 7 with `HAND` as its private view. */
function joinedStore(overrides = {}) {
  const store = createStore({ initial: initialState({ name: 'Ana' }), now: () => 1000 });
  store.setConnection({ status: CONNECTION.ONLINE });
  store.receive(welcome(overrides));
  return store;
}

describe('private view', () => {
  test('starts null and comes whole with the welcome', () => {
    assert.equal(initialState().privateView, null);
    assert.deepEqual(joinedStore().getState().privateView, HAND);
  });

  test('a welcome without `private` (a spectator, a game without) leaves it null', () => {
    const store = joinedStore({ private: undefined });
    assert.equal(store.getState().privateView, null);
  });

  test('`private` operations change it without touching the room state or its seq', () => {
    const store = joinedStore();
    const room = store.getState().room;
    const replies = store.receive({ type: 'private', ops: [
      { op: 'add', path: '/tries/1', value: { word: 'quota', marks: 'xxxx.' } },
      { op: 'replace', path: '/letters/2', value: 'o' },
    ] });
    assert.deepEqual(replies, []);
    assert.deepEqual(store.getState().privateView, {
      letters: ['q', 'u', 'o'], tries: [HAND.tries[0], { word: 'quota', marks: 'xxxx.' }],
    });
    assert.equal(store.getState().room, room);
    assert.deepEqual(HAND.letters, ['q', 'u', 'a'], 'the previous view is never mutated');
  });

  test('a replace of the whole view sets it, or takes it away with null', () => {
    const store = joinedStore({ private: undefined });
    store.receive({ type: 'private', ops: [{ op: 'replace', path: '', value: HAND }] });
    assert.deepEqual(store.getState().privateView, HAND);
    store.receive({ type: 'private', ops: [{ op: 'replace', path: '', value: null }] });
    assert.equal(store.getState().privateView, null);
  });

  test('operations that do not apply ask for a snapshot, which brings the view back whole', () => {
    const store = joinedStore();
    const replies = store.receive({ type: 'private', ops: [{ op: 'remove', path: '/nothing/here' }] });
    assert.deepEqual(replies, [{ type: 'resync' }]);
    assert.deepEqual(store.getState().privateView, HAND);
    const fresh = { letters: ['z'], tries: [] };
    store.receive({ type: 'snapshot', seq: 9, serverTime: 1000, state: store.getState().room.state, private: fresh });
    assert.deepEqual(store.getState().privateView, fresh);
  });

  test('a resumed welcome replaces it', () => {
    const store = joinedStore();
    store.setConnection({ status: CONNECTION.RECONNECTING });
    const back = { letters: ['b'], tries: [] };
    store.receive({ type: 'welcome', code: 'QHTW', you: 'p1', token: TOKEN, seq: 7, serverTime: 1000, resumed: true, private: back });
    assert.deepEqual(store.getState().privateView, back);
    store.receive({ type: 'welcome', code: 'QHTW', you: 'p1', token: TOKEN, seq: 7, serverTime: 1000, resumed: true });
    assert.equal(store.getState().privateView, null);
  });

  test('is null after leaving the room, or going to another', () => {
    const left = joinedStore();
    left.receive({ type: 'left', code: 'QHTW' });
    assert.equal(left.getState().privateView, null);
    const moved = joinedStore();
    moved.setRoute({ name: 'room', code: 'ABCD' });
    assert.equal(moved.getState().privateView, null);
    const lobby = joinedStore();
    lobby.setRoute({ name: 'lobby' });
    assert.equal(lobby.getState().privateView, null);
    const kicked = joinedStore();
    kicked.receive({ type: 'error', code: 'kicked', title: 'Removed', message: 'The host removed you.' });
    assert.equal(kicked.getState().privateView, null);
  });

  test('operations outside a room are ignored', () => {
    const store = createStore({ initial: initialState() });
    const before = store.getState();
    assert.deepEqual(store.receive({ type: 'private', ops: [{ op: 'replace', path: '', value: HAND }] }), []);
    assert.equal(store.getState(), before);
  });
});
