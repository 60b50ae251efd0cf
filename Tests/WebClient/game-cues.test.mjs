// What the page does with the cues: sounds, the buzz on your turn (only after the player touched the page), the
// celebration of a win, the sound preference, and the round-ending tick on a timer.
import '../../web/js/games.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createGameCues } from '../../web/js/views/game-cues.js';

function setUp({ activated = true } = {}) {
  const played = [];
  const buzzes = [];
  const bursts = [];
  const enabled = [];
  const timers = [];
  const sounds = {
    unlock() { played.push('unlock'); }, play(cue) { played.push(cue); },
    setEnabled(on) { enabled.push(on); }, setVolume() {},
  };
  const cues = createGameCues({
    sounds,
    celebration: { play: (kind) => bursts.push(kind) },
    navigator: { userActivation: { hasBeenActive: activated }, vibrate: (pattern) => buzzes.push(pattern) },
    window: { setInterval: (fn) => { timers.push(fn); return timers.length; }, clearInterval: () => {} },
  });
  return { cues, played, buzzes, bursts, enabled, timers };
}

const settings = { theme: 'system', sound: true, volume: 0.6 };
function snowmanState(part, you = 'p1') {
  return {
    settings, notice: null,
    room: { code: 'QHTW', you, serverOffset: 0, state: { code: 'QHTW', game: 'snowman', members: [{ id: 'p1', role: 'player' }], snowman: part } },
  };
}

test('the turn becoming yours plays its sound and buzzes once the player has touched the page', () => {
  const t = setUp();
  const before = snowmanState({ gameNumber: 1, status: 'inProgress', turn: 'p2', guesses: [] });
  const after = snowmanState({ gameNumber: 1, status: 'inProgress', turn: 'p1', guesses: [] });
  t.cues.update(before, before);
  t.cues.update(after, before);
  assert.deepEqual(t.played, ['yourTurn']);
  assert.equal(t.buzzes.length, 1);
  const quiet = setUp({ activated: false });
  quiet.cues.update(after, before);
  assert.deepEqual(quiet.buzzes, [], 'no vibration before a user gesture');
});

test('a won Snowman game snows; sounds follow the preference', () => {
  const t = setUp();
  const before = snowmanState({ gameNumber: 1, status: 'inProgress', turn: 'p1', guesses: [] });
  const won = snowmanState({ gameNumber: 1, status: 'won', turn: null, guesses: [{ letter: 'S', hit: true }] });
  t.cues.update(before, before);
  assert.deepEqual(t.enabled, [true]);
  t.cues.update(won, before);
  assert.deepEqual(t.played, ['win']);
  assert.deepEqual(t.bursts, ['snow']);
  t.cues.update({ ...won, settings: { ...settings, sound: false } }, won);
  assert.deepEqual(t.enabled, [true, false]);
  t.cues.unlock();
  assert.equal(t.played.at(-1), 'unlock');
});

test('a Word Scramble round in play starts the round-ending check', () => {
  const t = setUp();
  const round = {
    settings, notice: null,
    room: { code: 'QHTW', you: 'p1', state: { game: 'scramble', members: [], scramble: { matchNumber: 1, round: 1, phase: 'playing', phaseEndsAt: 1, found: [] } } },
  };
  t.cues.update(round, { ...round, room: null });
  assert.equal(t.timers.length, 1);
});
