// The cues a change of state gives (sounds, the buzz, the celebration), the round-ending moment, the your-turn
// title and the waiting room test (issue 15, "Party experience").
import '../../web/js/games.js';
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  CUE, gameCues, roundEndingKey, ROUND_ENDING_SECONDS, isMyTurn, turnTitle, isWaiting,
} from '../../web/js/core/game-events.js';

const members = [
  { id: 'p1', name: 'Ana', role: 'player', connected: true },
  { id: 'p2', name: 'Bob', role: 'player', connected: true },
  { id: 's3', name: 'Cleo', role: 'spectator', connected: true },
];

function snowman(overrides = {}) {
  return { gameNumber: 1, status: 'inProgress', turn: 'p1', guesses: [], ...overrides };
}

function scramble(overrides = {}) {
  return {
    matchNumber: 1, phase: 'playing', round: 1, found: [], phaseEndsAt: 1000, finalScoreboard: null, ...overrides,
  };
}

/** An app state of room QHTW seen by `you`. */
function app(game, part, { you = 'p1', code = 'QHTW', notice = null } = {}) {
  return { notice, room: { code, you, state: { code, game, members, [game]: part } } };
}

describe('Snowman cues', () => {
  test('the turn becoming yours plays yourTurn once', () => {
    const before = app('snowman', snowman({ turn: 'p2' }));
    const after = app('snowman', snowman({ turn: 'p1', guesses: [{ letter: 'E', hit: true }] }));
    assert.deepEqual(gameCues(before, after), [CUE.HIT, CUE.YOUR_TURN]);
    assert.deepEqual(gameCues(after, { ...after }), []);
  });
  test('the first turn of a started game is a turn cue', () => {
    const before = app('snowman', snowman({ status: 'waiting', turn: null }));
    assert.deepEqual(gameCues(before, app('snowman', snowman())), [CUE.YOUR_TURN]);
  });
  test('a guess that missed plays miss for everyone', () => {
    const before = app('snowman', snowman({ turn: 'p1' }), { you: 'p2' });
    const after = app('snowman', snowman({ turn: 'p2', guesses: [{ letter: 'Q', hit: false }] }), { you: 'p2' });
    assert.deepEqual(gameCues(before, after), [CUE.MISS, CUE.YOUR_TURN]);
  });
  test('the winning guess plays win, the last wrong one loss, without a hit or miss', () => {
    const before = app('snowman', snowman());
    assert.deepEqual(gameCues(before, app('snowman', snowman({ status: 'won', turn: null, guesses: [{ letter: 'S', hit: true }] }))), [CUE.WIN]);
    assert.deepEqual(gameCues(before, app('snowman', snowman({ status: 'lost', turn: null, guesses: [{ letter: 'Z', hit: false }] }))), [CUE.LOSS]);
  });
  test('joining, reloading or entering another room is quiet', () => {
    const inGame = app('snowman', snowman({ guesses: [{ letter: 'E', hit: true }] }));
    assert.deepEqual(gameCues({ notice: null, room: { code: 'QHTW', you: 'p1', state: null } }, inGame), []);
    assert.deepEqual(gameCues({ notice: null, room: null }, inGame), []);
    assert.deepEqual(gameCues(app('snowman', snowman({ turn: 'p2' }), { code: 'ABCD' }), inGame), []);
  });
  test('a new game does not replay the end of the last one', () => {
    const over = app('snowman', snowman({ status: 'won', turn: null, guesses: [{ letter: 'S', hit: true }] }));
    assert.deepEqual(gameCues(over, app('snowman', snowman({ gameNumber: 2, turn: 'p2' }))), []);
  });
});

describe('Word Scramble cues', () => {
  test('a word you found plays wordFound; a word of someone else does not', () => {
    const before = app('scramble', scramble());
    const mine = app('scramble', scramble({ found: [{ word: 'slate', player: 'p1' }] }));
    const theirs = app('scramble', scramble({ found: [{ word: 'slate', player: 'p2' }] }));
    assert.deepEqual(gameCues(before, mine), [CUE.WORD_FOUND]);
    assert.deepEqual(gameCues(before, theirs), []);
    assert.deepEqual(gameCues(mine, { ...mine }), []);
  });
  test('the end of the match: win for the first (ties too) and spectators, loss for the others', () => {
    const before = app('scramble', scramble({ round: 6 }));
    const final = [{ player: 'p1', rank: 1 }, { player: 'p2', rank: 2 }];
    const finished = scramble({ phase: 'finished', finalScoreboard: final });
    assert.deepEqual(gameCues(before, app('scramble', finished)), [CUE.WIN]);
    assert.deepEqual(gameCues(app('scramble', scramble(), { you: 'p2' }), app('scramble', finished, { you: 'p2' })), [CUE.LOSS]);
    assert.deepEqual(gameCues(app('scramble', scramble(), { you: 's3' }), app('scramble', finished, { you: 's3' })), [CUE.WIN]);
  });
  test('words shown in the next round are not found again', () => {
    const before = app('scramble', scramble({ phase: 'intermission', found: [] }));
    assert.deepEqual(gameCues(before, app('scramble', scramble({ round: 2, found: [{ word: 'pal', player: 'p1' }] }))), []);
  });
  test('the round ends once, in its last seconds', () => {
    const room = { game: 'scramble', scramble: scramble({ round: 2, phaseEndsAt: 100 }) };
    assert.equal(roundEndingKey(room, 100 - ROUND_ENDING_SECONDS - 0.1), null);
    assert.equal(roundEndingKey(room, 96), '1:2');
    assert.equal(roundEndingKey(room, 100.5), null);
    assert.equal(roundEndingKey({ game: 'scramble', scramble: scramble({ phase: 'intermission', phaseEndsAt: 100 }) }, 98), null);
    assert.equal(roundEndingKey(null, 98), null);
  });
});

describe('refusals', () => {
  test('a refused guess or word plays refused once; other notices do not', () => {
    const quiet = app('snowman', snowman());
    const refused = app('snowman', snowman(), { notice: { id: 4, move: 'guess', code: 'not-your-turn' } });
    assert.deepEqual(gameCues(quiet, refused), [CUE.REFUSED]);
    assert.deepEqual(gameCues(refused, { ...refused }), []);
    const chat = app('snowman', snowman(), { notice: { id: 5, move: 'chat', code: 'too-fast' } });
    assert.deepEqual(gameCues(quiet, chat), []);
  });
});

describe('your turn and the waiting room', () => {
  test('the tab title says your turn and comes back after', () => {
    const mine = app('snowman', snowman());
    assert.equal(isMyTurn(mine), true);
    assert.equal(turnTitle(mine, 'Room QHTW · WordRooms'), 'Your turn · Snowman QHTW');
    assert.equal(turnTitle(app('snowman', snowman({ turn: 'p2' })), 'Room QHTW · WordRooms'), 'Room QHTW · WordRooms');
    assert.equal(turnTitle(app('snowman', snowman({ status: 'won' })), 'x'), 'x');
    assert.equal(turnTitle({ room: null }, 'WordRooms'), 'WordRooms');
  });
  test('the room waits while its status says so (the server always sends it), whatever the game says', () => {
    assert.equal(isWaiting({ status: 'waiting', game: 'snowman' }), true);
    assert.equal(isWaiting({ status: 'playing', game: 'scramble', scramble: { phase: 'lobby' } }), false);
    assert.equal(isWaiting({ status: 'finished', game: 'snowman', snowman: { status: 'waiting' } }), false);
    assert.equal(isWaiting(null), false);
  });
});
