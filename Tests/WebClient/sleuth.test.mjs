// Sleuth's pure part (web/js/games/sleuth/game.js): marks and their labels, your tries from your private view,
// the keyboard's best known state of each letter, typing, badges, the status line, cues and tracked moves.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { CUE } from '../../web/js/core/game-events.js';
import {
  MARK, canTry, keyboardStates, keyLabel, marksOf, markSymbol, ownTries, sleuthBadges, sleuthCues, sleuthGame,
  sleuthStatus, tileLabel, triesByPlayer, tryArrived, tryLabel, typedAfterKey,
} from '../../web/js/games/sleuth/game.js';

/** A round of CRANE in which Ana (p1) tried STARE and TRACE, and Bob (p2) LLAMA, as the server shows it. */
function round({ phase = 'playing', round: number = 2 } = {}) {
  const over = phase === 'over';
  return {
    round: number, phase, statusLine: over ? 'Round 2 is over: the word was CRANE' : 'Round 2: find the 5-letter word in 6 tries',
    wordLength: 5, maxTries: 6, roundEndsAt: over ? null : 1000,
    boards: [
      { player: 'p1', name: 'Ana', tries: 2, solved: false, done: false, points: 0 },
      { player: 'p2', name: 'Bob', tries: 1, solved: false, done: false, points: 0 },
    ],
    tries: [
      { player: 'p1', pattern: 'aarpr', word: over ? 'stare' : null },
      { player: 'p2', pattern: 'aaraa', word: over ? 'llama' : null },
      { player: 'p1', pattern: 'arrpr', word: over ? 'trace' : null },
    ],
    secret: over ? 'CRANE' : null, leaderboard: [], canStartNext: over,
    settings: { roundSeconds: 180 }, nextSettings: { roundSeconds: 180 },
  };
}

const anaPrivate = { round: 2, tries: [{ word: 'stare', pattern: 'aarpr' }, { word: 'trace', pattern: 'arrpr' }] };

describe('marks', () => {
  test('a pattern reads as marks, each with a symbol so that colour is never the only cue', () => {
    assert.deepEqual(marksOf('rpa?a'), ['r', 'p', 'a', 'a']);
    assert.deepEqual(marksOf(null), []);
    assert.equal(new Set([MARK.RIGHT, MARK.PRESENT, MARK.ABSENT].map(markSymbol)).size, 3);
    assert.ok([MARK.RIGHT, MARK.PRESENT, MARK.ABSENT].every((mark) => markSymbol(mark).length === 1));
  });

  test('tiles and tries have labels for screen readers', () => {
    assert.equal(tileLabel('e', 'r'), 'E, right place');
    assert.equal(tileLabel('a', 'p'), 'A, in the word');
    assert.equal(tileLabel('z', 'a'), 'Z, not in the word');
    assert.equal(tileLabel('', 'p'), 'in the word');
    assert.equal(tryLabel('aarpr', 'stare'), 'STARE: S, not in the word, T, not in the word, A, right place, R, in the word, E, right place');
    assert.equal(tryLabel('aarpr'), '2 right place, 1 in the word, 2 not in the word');
  });
});

describe('your tries', () => {
  test('come from your private view while the round runs, never from the public part', () => {
    assert.deepEqual(ownTries(round(), anaPrivate, 'p1'), anaPrivate.tries);
    assert.deepEqual(ownTries(round(), null, 'p1'), [], 'no private view yet: no letters to show');
    assert.deepEqual(ownTries(round(), { ...anaPrivate, round: 1 }, 'p1'), [], 'a private view of the round before is stale');
    assert.deepEqual(ownTries(round({ phase: 'lobby' }), anaPrivate, 'p1'), []);
  });

  test('come from the public tries once the round is over', () => {
    assert.deepEqual(ownTries(round({ phase: 'over' }), null, 'p2'), [{ word: 'llama', pattern: 'aaraa' }]);
  });

  test('every player\'s patterns are grouped in order, with no letters during the round', () => {
    const byPlayer = triesByPlayer(round());
    assert.deepEqual(byPlayer.get('p1'), [{ pattern: 'aarpr', word: null }, { pattern: 'arrpr', word: null }]);
    assert.deepEqual(byPlayer.get('p2'), [{ pattern: 'aaraa', word: null }]);
  });
});

describe('the keyboard', () => {
  test('shows each letter\'s best known state: right place beats in the word beats not in it', () => {
    const states = keyboardStates(anaPrivate.tries);
    // STARE then TRACE against CRANE: R was in the word, then in its right place; A right; C in the word.
    assert.equal(states.get('R'), MARK.RIGHT);
    assert.equal(states.get('A'), MARK.RIGHT);
    assert.equal(states.get('E'), MARK.RIGHT);
    assert.equal(states.get('C'), MARK.PRESENT);
    assert.equal(states.get('S'), MARK.ABSENT);
    assert.equal(states.get('T'), MARK.ABSENT);
    assert.equal(states.has('Q'), false, 'letters never tried have no state');
  });

  test('a repeated letter marked not in the word once and in the word elsewhere counts as in the word', () => {
    // SPEED against ABIDE: the first E is in the word, the second not.
    const states = keyboardStates([{ word: 'speed', pattern: 'aapap' }]);
    assert.equal(states.get('E'), MARK.PRESENT);
    assert.equal(states.get('D'), MARK.PRESENT);
  });

  test('keys are labelled with their state', () => {
    assert.equal(keyLabel('E', MARK.PRESENT), 'E, in the word');
    assert.equal(keyLabel('Q', undefined), 'Q');
  });

  test('typing adds letters up to five, Backspace takes one back, other keys change nothing', () => {
    let typed = '';
    for (const key of ['C', 'r', 'a', '1', 'Shift', 'n', 'e', 'x']) typed = typedAfterKey(typed, key);
    assert.equal(typed, 'crane');
    assert.equal(typedAfterKey(typed, 'Backspace'), 'cran');
    assert.equal(typedAfterKey('', 'Backspace'), '');
    assert.equal(typedAfterKey('ab', 'é'), 'ab');
  });
});

describe('the room', () => {
  test('only a player of the running round who is not done can try', () => {
    assert.equal(canTry(round(), 'p1'), true);
    assert.equal(canTry(round(), 'watcher'), false);
    assert.equal(canTry(round({ phase: 'over' }), 'p1'), false);
    const solved = round();
    solved.boards[0] = { ...solved.boards[0], solved: true, done: true };
    assert.equal(canTry(solved, 'p1'), false);
  });

  test('member badges say how far each player got', () => {
    const part = round();
    assert.deepEqual(sleuthBadges(part, { id: 'p1' }), ['2/6']);
    part.boards[1] = { ...part.boards[1], tries: 3, solved: true, done: true };
    assert.deepEqual(sleuthBadges(part, { id: 'p2' }), ['solved in 3']);
    part.boards[0] = { ...part.boards[0], tries: 6, done: true };
    assert.deepEqual(sleuthBadges(part, { id: 'p1' }), ['out of tries']);
    assert.deepEqual(sleuthBadges(part, { id: 'watcher' }), []);
    assert.deepEqual(sleuthBadges(round({ phase: 'lobby' }), { id: 'p1' }), []);
  });

  test('the status line tells each member what to do', () => {
    assert.equal(sleuthStatus(round(), { you: 'p1', isPlayer: true }), 'Find the 5-letter word: 4 tries left');
    assert.match(sleuthStatus(round(), { you: 'w', isPlayer: false }), /watching/);
    assert.equal(sleuthStatus({ phase: 'lobby', statusLine: 'Waiting' }, { hosting: true }), 'Start the first round when everyone is here');
    assert.equal(sleuthStatus(round({ phase: 'over' }), { you: 'p1', isPlayer: true }), 'Round 2 is over: the word was CRANE');
  });

  test('a timed round has a key per round and its end', () => {
    assert.deepEqual(sleuthGame.timedRound(round()), { key: 'sleuth:2', endsAt: 1000 });
    assert.equal(sleuthGame.timedRound(round({ phase: 'over' })), null);
  });
});

describe('cues', () => {
  test('your try answered is a hit when a letter is in the word, a miss otherwise; solving is the win', () => {
    const before = round();
    const after = round();
    after.boards[0] = { ...after.boards[0], tries: 3 };
    after.tries = [...after.tries, { player: 'p1', pattern: 'aaaaa', word: null }];
    assert.deepEqual(sleuthCues(before, after, { you: 'p1', isPlayer: true }), [CUE.MISS]);
    after.tries[3] = { player: 'p1', pattern: 'apaaa', word: null };
    assert.deepEqual(sleuthCues(before, after, { you: 'p1', isPlayer: true }), [CUE.HIT]);
    after.boards[0] = { ...after.boards[0], solved: true, done: true };
    after.tries[3] = { player: 'p1', pattern: 'rrrrr', word: null };
    assert.deepEqual(sleuthCues(before, after, { you: 'p1', isPlayer: true }), [CUE.WIN]);
    assert.deepEqual(sleuthCues(before, after, { you: 'p2', isPlayer: true }), [], 'others\' tries are quiet');
  });

  test('a round ending unsolved is a loss for a player, nothing for a spectator', () => {
    assert.deepEqual(sleuthCues(round(), round({ phase: 'over' }), { you: 'p1', isPlayer: true }), [CUE.LOSS]);
    assert.deepEqual(sleuthCues(round(), round({ phase: 'over' }), { you: 'w', isPlayer: false }), []);
  });
});

describe('tracked moves', () => {
  test('a try has arrived once your private view shows it, or the public tries once the round is over', () => {
    const message = { type: 'try', word: ' Trace ' };
    assert.equal(tryArrived(round(), anaPrivate, message), true);
    assert.equal(tryArrived(round(), { round: 2, tries: [] }, message), false);
    assert.equal(tryArrived(round(), null, message), false);
    assert.equal(tryArrived(round({ phase: 'over' }), null, message), true);
    assert.equal(tryArrived(round({ phase: 'over' }), null, { type: 'try', word: 'crane' }), false);
  });

  test('the registry hook reads the private view it is passed, so a resumed player\'s try is not sent twice', () => {
    const message = { type: 'try', word: 'trace' };
    assert.equal(sleuthGame.moveArrived(round(), message, anaPrivate), true);
    assert.equal(sleuthGame.moveArrived(round(), message, null), false);
    assert.equal(sleuthGame.moveArrived(round(), message), false, 'a spectator has no private view');
    assert.equal(sleuthGame.moveArrived(round({ phase: 'over' }), message, null), true);
  });

  test('the controller passes state.privateView to the hook', async () => {
    await import('../../web/js/games/sleuth/index.js');
    const { moveArrived } = await import('../../web/js/controller.js');
    const state = (privateView) => ({ room: { you: 'p1', state: { game: 'sleuth', sleuth: round() } }, privateView });
    assert.equal(moveArrived(state(anaPrivate), 'p1', { type: 'try', word: 'stare' }), true);
    assert.equal(moveArrived(state({ round: 2, tries: [] }), 'p1', { type: 'try', word: 'stare' }), false);
    assert.equal(moveArrived(state(null), 'p1', { type: 'try', word: 'stare' }), false);
  });

  test('the description names its move, setting and unit', () => {
    assert.deepEqual(sleuthGame.moves, ['try']);
    assert.deepEqual(sleuthGame.settings.map((spec) => spec.key), ['roundSeconds']);
    assert.equal(sleuthGame.id, 'sleuth');
    assert.equal(sleuthGame.unit, 'round');
  });
});
