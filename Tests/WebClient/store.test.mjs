// The store applies welcome, patch and snapshot messages in sequence, detects gaps and resumes seats.
import '../../web/js/games.js';
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  createStore, initialState, joinMessage, peekMessage, canAct, isHost, me, serverNow, CONNECTION, ROOM,
} from '../../web/js/core/store.js';

const TOKEN = '9f0c2d4e6a8b1c3d5e7f90a1b2c3d4e5';

function roomState(overrides = {}) {
  return {
    code: 'QHTW', game: 'snowman', public: true, host: 'p1',
    members: [{ id: 'p1', name: 'Ana', role: 'player', connected: true }],
    chat: [],
    snowman: { gameNumber: 1, status: 'inProgress', wrongGuesses: 0, guesses: [] },
    ...overrides,
  };
}

function welcome(overrides = {}) {
  return { type: 'welcome', code: 'QHTW', you: 'p1', token: TOKEN, seq: 7, serverTime: 1000.5, state: roomState(), ...overrides };
}

function patch(seq, ops) {
  return { type: 'patch', seq, ops };
}

const wrongGuess = (value) => [{ op: 'replace', path: '/snowman/wrongGuesses', value }];

/** A store already in room QHTW at seq 7, online, with the client clock at 1000. */
function joinedStore() {
  const store = createStore({ initial: initialState({ name: 'Ana' }), now: () => 1000 });
  store.setConnection({ status: CONNECTION.ONLINE });
  assert.deepEqual(store.receive(welcome()), []);
  return store;
}

describe('welcome', () => {
  test('a welcome with state enters the room and routes to it', () => {
    const store = joinedStore();
    const { room, route } = store.getState();
    assert.deepEqual(route, { name: 'room', code: 'QHTW' });
    assert.equal(room.status, ROOM.JOINED);
    assert.equal(room.seq, 7);
    assert.equal(room.you, 'p1');
    assert.equal(room.token, TOKEN);
    assert.deepEqual(room.state, roomState());
    assert.equal(room.clockOffset, 0.5);
    assert.equal(serverNow(room, 2000), 2000.5);
    assert.equal(isHost(store.getState()), true);
    assert.equal(me(store.getState()).name, 'Ana');
    assert.equal(canAct(store.getState()), true);
  });

  test('a resumed welcome keeps the current state and its seq, then the missed patches apply', () => {
    const store = joinedStore();
    store.receive(patch(8, wrongGuess(1)));
    const before = store.getState().room.state;
    store.setConnection({ status: CONNECTION.RECONNECTING });
    assert.equal(canAct(store.getState()), false, 'no moves while offline');
    assert.deepEqual(joinMessage(store.getState()), { type: 'join', code: 'QHTW', token: TOKEN, seq: 8 });

    store.setConnection({ status: CONNECTION.ONLINE });
    assert.deepEqual(store.receive({ type: 'welcome', code: 'QHTW', you: 'p1', token: TOKEN, seq: 8, serverTime: 1001, resumed: true }), []);
    assert.equal(store.getState().room.state, before, 'the state object is kept as it was');
    assert.equal(store.getState().room.seq, 8);
    assert.equal(store.getState().room.clockOffset, 1);
    assert.deepEqual(store.receive(patch(9, wrongGuess(2))), []);
    assert.equal(store.getState().room.state.snowman.wrongGuesses, 2);
    assert.equal(store.getState().room.seq, 9);
  });

  test('a resumed welcome without a state to continue asks for a snapshot', () => {
    const store = createStore({ initial: initialState(), now: () => 0 });
    store.setRoute({ name: 'room', code: 'QHTW' }, { token: TOKEN, seq: null, state: null });
    assert.deepEqual(store.receive({ type: 'welcome', code: 'QHTW', you: 'p1', token: TOKEN, seq: 3, serverTime: 0, resumed: true }),
      [{ type: 'resync' }]);
    assert.equal(store.getState().room.awaitingSnapshot, true);
    assert.deepEqual(store.receive(patch(4, wrongGuess(1))), [], 'patches wait for the snapshot');
    store.receive({ type: 'snapshot', seq: 4, serverTime: 0, state: roomState() });
    assert.equal(store.getState().room.seq, 4);
    assert.equal(store.getState().room.awaitingSnapshot, false);
  });

  test('a resumed welcome whose seq differs from ours asks for a snapshot', () => {
    const store = joinedStore();
    assert.deepEqual(store.receive({ type: 'welcome', code: 'QHTW', you: 'p1', token: TOKEN, seq: 5, resumed: true }), [{ type: 'resync' }]);
  });
});

describe('patches and gaps', () => {
  test('patches apply in sequence', () => {
    const store = joinedStore();
    store.receive(patch(8, [{ op: 'add', path: '/chat/-', value: { id: 1, text: 'hi' } }]));
    store.receive(patch(9, wrongGuess(1)));
    const { room } = store.getState();
    assert.equal(room.seq, 9);
    assert.equal(room.state.chat[0].text, 'hi');
    assert.equal(room.state.snowman.wrongGuesses, 1);
  });

  test('a patch that skips a seq sends resync, ignores patches until the snapshot, then continues', () => {
    const store = joinedStore();
    const shown = store.getState().room.state;
    assert.deepEqual(store.receive(patch(9, wrongGuess(2))), [{ type: 'resync' }]);
    assert.equal(store.getState().room.state, shown, 'nothing applied across the gap');
    assert.equal(store.getState().room.seq, 7);
    assert.equal(canAct(store.getState()), false, 'moves wait while the state is stale');
    assert.deepEqual(store.receive(patch(10, wrongGuess(3))), [], 'no second resync while one is pending');

    const fresh = roomState({ snowman: { gameNumber: 1, status: 'inProgress', wrongGuesses: 3, guesses: [] } });
    assert.deepEqual(store.receive({ type: 'snapshot', seq: 10, serverTime: 1000, state: fresh }), []);
    assert.equal(store.getState().room.seq, 10);
    assert.deepEqual(store.getState().room.state, fresh);
    assert.deepEqual(store.receive(patch(11, wrongGuess(4))), []);
    assert.equal(store.getState().room.state.snowman.wrongGuesses, 4);
  });

  test('old and repeated patches are ignored', () => {
    const store = joinedStore();
    store.receive(patch(8, wrongGuess(1)));
    assert.deepEqual(store.receive(patch(8, wrongGuess(5))), []);
    assert.deepEqual(store.receive(patch(3, wrongGuess(5))), []);
    assert.equal(store.getState().room.state.snowman.wrongGuesses, 1);
  });

  test('a patch that does not apply is treated like a gap', () => {
    const store = joinedStore();
    assert.deepEqual(store.receive(patch(8, [{ op: 'remove', path: '/nothing/here' }])), [{ type: 'resync' }]);
    assert.equal(store.getState().room.seq, 7);
  });

  test('listeners get the new and previous state, and unchanged parts stay identical', () => {
    const store = joinedStore();
    const calls = [];
    const unsubscribe = store.subscribe((state, previous) => calls.push([state, previous]));
    store.receive(patch(8, wrongGuess(1)));
    assert.equal(calls.length, 1);
    const [next, previous] = calls[0];
    assert.equal(next.room.state.members, previous.room.state.members);
    assert.notEqual(next.room.state.snowman, previous.room.state.snowman);
    unsubscribe();
    store.receive(patch(9, wrongGuess(2)));
    assert.equal(calls.length, 1);
  });
});

/** The peek answer for room QHTW (PROTOCOL.md). */
function peekAnswer(overrides = {}) {
  return {
    type: 'room', code: 'QHTW', game: 'snowman', players: 3, spectators: 0, maxPlayers: 16, locked: false, full: false,
    status: 'playing', ...overrides,
  };
}

describe('joining and leaving', () => {
  test('entering a room without a seat peeks first, then joins with the name, or waits for one', () => {
    const named = createStore({ initial: initialState({ name: 'Bob' }) });
    named.setRoute({ name: 'room', code: 'QHTW' });
    assert.equal(named.getState().room.status, ROOM.CHECKING);
    assert.deepEqual(peekMessage(named.getState()), { type: 'peek', code: 'QHTW' });
    assert.equal(joinMessage(named.getState()), null, 'no join before the peek answers');
    named.receive(peekAnswer());
    assert.equal(named.getState().room.status, ROOM.JOINING);
    assert.equal(peekMessage(named.getState()), null);
    assert.deepEqual(joinMessage(named.getState()), { type: 'join', code: 'QHTW', name: 'Bob' });

    const anonymous = createStore({ initial: initialState() });
    anonymous.setRoute({ name: 'room', code: 'QHTW' });
    anonymous.receive(peekAnswer());
    assert.equal(anonymous.getState().room.status, ROOM.NEEDS_NAME);
    assert.equal(anonymous.getState().room.peek.players, 3, 'the prompt can say who is there');
    assert.equal(joinMessage(anonymous.getState()), null);
    anonymous.setName('Cleo');
    assert.equal(anonymous.getState().room.status, ROOM.JOINING);
    assert.deepEqual(joinMessage(anonymous.getState()), { type: 'join', code: 'QHTW', name: 'Cleo' });
  });

  test('a peek answer for another room, or when not checking, changes nothing', () => {
    const store = createStore({ initial: initialState({ name: 'Bob' }) });
    store.setRoute({ name: 'room', code: 'QHTW' });
    const before = store.getState();
    store.receive(peekAnswer({ code: 'ABCD' }));
    assert.equal(store.getState(), before);
  });

  test('a wrong code says "Room not found" before any name is asked for', () => {
    const store = createStore({ initial: initialState() });
    store.setRoute({ name: 'room', code: 'ZZZZ' });
    store.receive({ type: 'error', code: 'room-not-found', title: 'Room not found', message: 'There is no room with that code.', move: 'peek' });
    const { room } = store.getState();
    assert.equal(room.status, ROOM.FAILED);
    assert.equal(room.error.code, 'room-not-found');
    assert.equal(room.error.title, 'Room not found');
    assert.equal(joinMessage(store.getState()), null);
  });

  test('a full room says so up front and offers to watch', () => {
    const store = createStore({ initial: initialState({ name: 'Bob' }) });
    store.setRoute({ name: 'room', code: 'QHTW' });
    store.receive(peekAnswer({ players: 16, full: true }));
    const { room } = store.getState();
    assert.equal(room.status, ROOM.FAILED);
    assert.equal(room.error.code, 'room-full');
    assert.match(room.error.title, /watch instead/);
    assert.match(room.error.message, /All 16 seats/);
    store.watch();
    assert.equal(store.getState().room.status, ROOM.JOINING);
    assert.deepEqual(joinMessage(store.getState()), { type: 'join', code: 'QHTW', name: 'Bob', spectator: true });
  });

  test('watching a full room without a name asks for one, then joins as a spectator', () => {
    const store = createStore({ initial: initialState() });
    store.setRoute({ name: 'room', code: 'QHTW' });
    store.receive({ type: 'error', code: 'room-full', title: 'Room full', message: 'All 16 seats are taken.', move: 'join' });
    assert.equal(store.getState().room.error.code, 'room-full');
    store.watch();
    assert.equal(store.getState().room.status, ROOM.NEEDS_NAME);
    store.setName('Cleo');
    assert.deepEqual(joinMessage(store.getState()), { type: 'join', code: 'QHTW', name: 'Cleo', spectator: true });
  });

  test('a locked room says so up front; a spectator route to a full room goes on to join', () => {
    const locked = createStore({ initial: initialState({ name: 'Bob' }) });
    locked.setRoute({ name: 'room', code: 'QHTW' });
    locked.receive(peekAnswer({ locked: true }));
    assert.equal(locked.getState().room.status, ROOM.FAILED);
    assert.equal(locked.getState().room.error.code, 'room-locked');
    assert.equal(locked.getState().room.error.title, 'Room locked');

    const watching = createStore({ initial: initialState({ name: 'Bob' }) });
    watching.setRoute({ name: 'room', code: 'QHTW', spectator: true });
    watching.receive(peekAnswer({ full: true }));
    assert.deepEqual(joinMessage(watching.getState()), { type: 'join', code: 'QHTW', name: 'Bob', spectator: true });
  });

  test('a refused peek ends the check with the server\'s reason (every server answers peek)', () => {
    const store = createStore({ initial: initialState({ name: 'Bob' }) });
    store.setRoute({ name: 'room', code: 'QHTW' });
    store.receive({ type: 'error', code: 'rate-limited', title: 'Slow down', message: 'Too many messages.', move: 'peek' });
    assert.equal(store.getState().room.status, ROOM.FAILED);
    assert.equal(store.getState().room.error.title, 'Slow down');
  });

  test('a remembered seat resumes at once, without a peek', () => {
    const store = createStore({ initial: initialState({ name: 'Ana' }) });
    store.setRoute({ name: 'room', code: 'QHTW' }, { token: TOKEN, seq: 12, state: roomState() });
    assert.equal(peekMessage(store.getState()), null);
    assert.equal(store.getState().room.status, ROOM.JOINING);
  });

  test('every join carries the browser\'s client id, resumes too', () => {
    const store = createStore({ initial: initialState({ name: 'Bob', client: 'AbCdEfGhIjKlMnOpQrStUv' }) });
    store.setRoute({ name: 'room', code: 'QHTW' });
    store.receive(peekAnswer());
    assert.deepEqual(joinMessage(store.getState()), { type: 'join', code: 'QHTW', name: 'Bob', client: 'AbCdEfGhIjKlMnOpQrStUv' });
    store.receive(welcome({ code: 'QHTW' }));
    assert.deepEqual(joinMessage(store.getState()), { type: 'join', code: 'QHTW', token: TOKEN, client: 'AbCdEfGhIjKlMnOpQrStUv', seq: 7 });
  });

  test('a refused name goes back to the name form with the server\'s reason, and is no longer kept', () => {
    const store = createStore({ initial: initialState({ name: 'Bad\u202Ename' }) });
    store.setRoute({ name: 'room', code: 'QHTW' });
    store.receive(peekAnswer());
    assert.equal(store.getState().room.status, ROOM.JOINING);
    store.receive({ type: 'error', code: 'bad-name', title: 'Name not allowed', message: 'Names cannot contain characters that reverse the direction of text.', move: 'join' });
    const { room, player } = store.getState();
    assert.equal(room.status, ROOM.NEEDS_NAME, 'not a dead-end failure');
    assert.equal(room.nameError, 'Names cannot contain characters that reverse the direction of text.');
    assert.equal(room.nameDraft, 'Bad\u202Ename', 'the form shows what was refused, to edit');
    assert.equal(player.name, '', 'the saved name is forgotten, so the next visit asks again');
    assert.equal(joinMessage(store.getState()), null);
    store.setName('Good name');
    assert.equal(store.getState().room.status, ROOM.JOINING);
    assert.equal(store.getState().room.nameError, null);
    assert.deepEqual(joinMessage(store.getState()), { type: 'join', code: 'QHTW', name: 'Good name' });
  });

  test('a refused name on create is forgotten too', () => {
    const store = createStore({ initial: initialState({ name: 'x' }) });
    store.setUI({ createPending: true });
    store.receive({ type: 'error', code: 'bad-name', title: 'Name not allowed', message: 'Nope.', move: 'create' });
    assert.equal(store.getState().player.name, '');
    assert.equal(store.getState().ui.createPending, false);
    assert.equal(store.getState().notice.move, 'create');
  });

  test('a join refused because the host removed this browser shows the removal, with no way back in', () => {
    const store = createStore({ initial: initialState({ name: 'Cleo', client: 'AbCdEfGhIjKlMnOpQrStUv' }) });
    store.setRoute({ name: 'room', code: 'QHTW' });
    store.receive(peekAnswer());
    store.receive({ type: 'error', code: 'kicked', title: 'Removed from the room', message: 'The host removed you.', move: 'join' });
    assert.equal(store.getState().room.status, ROOM.FAILED);
    assert.equal(store.getState().room.error.code, 'kicked');
    assert.equal(joinMessage(store.getState()), null);
  });

  test('pongs change nothing', () => {
    const store = joinedStore();
    const before = store.getState();
    assert.deepEqual(store.receive({ type: 'pong', id: 4 }), []);
    assert.equal(store.getState(), before);
  });

  test('the connection can report that it gave up', () => {
    const store = joinedStore();
    store.setConnection({ status: CONNECTION.FAILED, attempt: 8, retryAt: null });
    assert.equal(store.getState().connection.status, 'failed');
    assert.equal(canAct(store.getState()), false);
  });

  test('watching from the lobby joins as a spectator', () => {
    const store = createStore({ initial: initialState({ name: 'Bob' }) });
    store.setRoute({ name: 'room', code: 'QHTW', spectator: true });
    store.receive(peekAnswer());
    assert.deepEqual(joinMessage(store.getState()), { type: 'join', code: 'QHTW', name: 'Bob', spectator: true });
  });

  test('a remembered seat resumes with token and seq, showing its state at once', () => {
    const store = createStore({ initial: initialState({ name: 'Ana' }) });
    store.setRoute({ name: 'room', code: 'QHTW' }, { token: TOKEN, seq: 12, state: roomState() });
    assert.deepEqual(joinMessage(store.getState()), { type: 'join', code: 'QHTW', token: TOKEN, seq: 12 });
    assert.deepEqual(store.getState().room.state, roomState());
  });

  test('an expired seat joins again with the name', () => {
    const store = createStore({ initial: initialState({ name: 'Ana' }) });
    store.setRoute({ name: 'room', code: 'QHTW' }, { token: TOKEN, seq: 12, state: roomState() });
    const reply = store.receive({ type: 'error', code: 'seat-expired', title: 'Seat released', message: 'Join again.', move: 'join' });
    assert.deepEqual(reply, [{ type: 'join', code: 'QHTW', name: 'Ana' }]);
    assert.equal(store.getState().room.token, null);
    assert.equal(store.getState().room.state, null);
  });

  test('a refused join fails the room with the server message', () => {
    const store = createStore({ initial: initialState({ name: 'Ana' }) });
    store.setRoute({ name: 'room', code: 'ZZZZ' });
    store.receive({ type: 'error', code: 'unknown-type', title: 'Unknown message', message: 'The server does not know messages of type "peek".' });
    store.receive({ type: 'error', code: 'room-not-found', title: 'Room not found', message: 'There is no room with that code.', move: 'join' });
    const { room, notice } = store.getState();
    assert.equal(room.status, ROOM.FAILED);
    assert.equal(room.error.title, 'Room not found');
    assert.equal(notice.message, 'There is no room with that code.');
    assert.equal(joinMessage(store.getState()), null, 'no retry of a failed join on reconnect');
  });

  test('being kicked fails the room and forgets the token', () => {
    const store = joinedStore();
    store.receive({ type: 'error', code: 'kicked', title: 'Removed from the room', message: 'The host removed you.' });
    assert.equal(store.getState().room.status, ROOM.FAILED);
    assert.equal(store.getState().room.token, null);
  });

  test('move errors become notices without leaving the room', () => {
    const store = joinedStore();
    store.receive({ type: 'error', code: 'not-a-word', title: 'Not a word', message: "'ster' is not in the dictionary.", move: 'word' });
    const first = store.getState().notice;
    assert.equal(first.move, 'word');
    assert.equal(store.getState().room.status, ROOM.JOINED);
    store.receive({ type: 'error', code: 'not-a-word', title: 'Not a word', message: 'again', move: 'word' });
    assert.ok(store.getState().notice.id > first.id, 'each error is a new notice');
    store.dismissNotice(first.id);
    assert.equal(store.getState().notice.message, 'again', 'an older id does not hide a newer notice');
    store.dismissNotice(store.getState().notice.id);
    assert.equal(store.getState().notice, null);
  });

  test('left returns to the lobby', () => {
    const store = joinedStore();
    store.leaving();
    assert.equal(store.getState().room.status, ROOM.LEAVING);
    assert.equal(joinMessage(store.getState()), null);
    store.receive({ type: 'left', code: 'QHTW' });
    assert.equal(store.getState().room, null);
    assert.deepEqual(store.getState().route, { name: 'lobby' });
  });

  test('lobby messages replace the room list', () => {
    const store = createStore();
    assert.equal(store.getState().lobby.status, 'loading');
    store.receive({ type: 'lobby', rooms: [{ code: 'ABCD', game: 'snowman', players: 2, spectators: 0, maxPlayers: 16, status: 'playing' }] });
    assert.equal(store.getState().lobby.status, 'ready');
    assert.equal(store.getState().lobby.rooms.length, 1);
  });

  test('unknown messages change nothing', () => {
    const store = joinedStore();
    const before = store.getState();
    assert.deepEqual(store.receive({ type: 'mystery' }), []);
    assert.deepEqual(store.receive(null), []);
    assert.equal(store.getState(), before);
  });
});

describe('one seat per browser (issue 43)', () => {
  const CLIENT = 'u7Qd3v0kY2mXo9bE1rTqZw';

  /** A store on room QHTW's page with no remembered seat (a new tab, or a tab reopened), past its peek. */
  function freshTab() {
    const store = createStore({ initial: initialState({ name: 'Ana', client: CLIENT }), now: () => 1000 });
    store.setConnection({ status: CONNECTION.ONLINE });
    store.setRoute({ name: 'room', code: 'QHTW' });
    return store;
  }

  test('the peek names the browser, and a browser with a seat goes on to join a locked or full room', () => {
    const store = freshTab();
    assert.deepEqual(peekMessage(store.getState()), { type: 'peek', code: 'QHTW', client: CLIENT });
    store.receive({ type: 'room', code: 'QHTW', game: 'snowman', players: 8, maxPlayers: 8, full: true, locked: true, seated: true });
    assert.equal(store.getState().room.status, ROOM.JOINING);
    assert.deepEqual(joinMessage(store.getState()), { type: 'join', code: 'QHTW', name: 'Ana', client: CLIENT });
  });

  test('seat-in-use offers to take over: the join then says so, and the welcome ends it', () => {
    const store = freshTab();
    store.receive({ type: 'room', code: 'QHTW', game: 'snowman', players: 2, maxPlayers: 8 });
    store.receive({ type: 'error', code: 'seat-in-use', title: 'Already in this room', message: 'Another tab.', move: 'join' });
    assert.equal(store.getState().room.status, ROOM.FAILED);
    assert.equal(store.getState().room.error.code, 'seat-in-use');
    store.takeOver();
    assert.deepEqual(joinMessage(store.getState()), { type: 'join', code: 'QHTW', name: 'Ana', client: CLIENT, takeover: true });
    store.receive(welcome());
    assert.equal(store.getState().room.takeover, false);
  });

  test('seat-in-use offers to watch: a spectator join, never a takeover', () => {
    const store = freshTab();
    store.receive({ type: 'room', code: 'QHTW', game: 'snowman', players: 2, maxPlayers: 8 });
    store.receive({ type: 'error', code: 'seat-in-use', title: 'Already in this room', message: 'Another tab.', move: 'join' });
    store.watch();
    assert.deepEqual(joinMessage(store.getState()), { type: 'join', code: 'QHTW', name: 'Ana', client: CLIENT, spectator: true });
  });

  test('a lost seat is told in a notice of its own (shown as a toast), not swallowed as a join error', () => {
    const store = joinedStore();
    store.receive({ type: 'error', code: 'seat-expired', title: 'Seat released', message: 'Join again.', move: 'join' });
    const { notice } = store.getState();
    assert.equal(notice.title, 'Your seat was given up');
    assert.equal(notice.move, null);
    assert.match(notice.message, /tonight's points are still yours/);
  });
});
