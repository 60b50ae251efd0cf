// The registry of games: every game module describes itself the same way, and the rest of the client (settings,
// tracked moves, the room page) finds games only through it.
import '../../web/js/games.js';
import { SERVER_GAMES } from './server-games.mjs';
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { allGames, gameById, gameOfMove } from '../../web/js/core/game-registry.js';
import { gameSettings, defaultSettings } from '../../web/js/core/game-settings.js';
import { moveArrived } from '../../web/js/controller.js';

const GAMES = allGames();

describe('the registry', () => {
  test('lists the server\'s games in its order, each with what the client needs of a game', () => {
    assert.deepEqual(GAMES.map((game) => game.id), SERVER_GAMES.map((game) => game.id));
    assert.deepEqual(GAMES.map((game) => game.id).slice(0, 2), ['snowman', 'scramble']);
    for (const game of GAMES) {
      assert.equal(typeof game.name, 'string');
      assert.equal(typeof game.blurb, 'string');
      assert.ok(['game', 'match', 'round'].includes(game.unit));
      assert.equal(typeof game.createView, 'function');
      assert.equal(typeof game.moveArrived, 'function');
      assert.ok(game.moves.length > 0);
      assert.equal(gameById(game.id), game);
      for (const move of game.moves) assert.equal(gameOfMove(move), game, `${move} belongs to ${game.id}`);
    }
    assert.equal(gameById('chess'), undefined);
    assert.equal(gameOfMove('chat'), undefined);
  });

  test('settings are the server\'s, read as the game modules say (each module labels every setting the server sends)', () => {
    for (const game of GAMES) {
      const keys = gameSettings(game.id).map((spec) => spec.key);
      assert.deepEqual(keys, game.settings.map((spec) => spec.key));
      assert.deepEqual(Object.keys(defaultSettings(game.id)), keys);
      for (const spec of game.settings) assert.equal(spec.min, undefined, `${game.id} declares no bounds of its own`);
    }
    assert.ok(gameSettings('scramble').some((spec) => spec.key === 'breakSeconds'));
  });

  test('only Snowman has cards beside the game (its history)', () => {
    assert.equal(typeof gameById('snowman').createSideViews, 'function');
    assert.equal(gameById('scramble').createSideViews, undefined);
  });

  test('a move of no game counts as arrived (nothing in the state to wait for)', () => {
    assert.equal(moveArrived({ room: { state: { game: 'snowman', snowman: { guesses: [] } } } }, 'p1', { type: 'lock' }), true);
    assert.equal(moveArrived({ room: { state: { game: 'snowman', snowman: { guesses: [] } } } }, 'p1', { type: 'guess', letter: 'a' }), false);
  });
});

describe('the game frame', async () => {
  const { createGameFrame } = await import('../../web/js/views/game-frame.js');

  function fakeTimers() {
    const running = new Map();
    let next = 1;
    return {
      running,
      setInterval(callback, ms) { running.set(next, { callback, ms }); return next++; },
      clearInterval(id) { running.delete(id); },
    };
  }

  function frame(timers, log) {
    return createGameFrame({
      id: 'snowman',
      accept: (state, context) => log.push(['accept', context.live]),
      render: () => log.push(['render']),
      ticking: (game) => game.turnEndsAt !== null,
      tick: () => log.push(['tick']),
      tickMs: 250,
      timers,
    });
  }

  const connection = { status: 'online' };
  const at = (game, extra = {}) => ({ room: { state: { snowman: game }, you: 'p1', ...extra }, notice: null, connection });

  test('redraws when what it shows changed, not otherwise', () => {
    const log = [];
    const view = frame(fakeTimers(), log);
    const first = at({ turnEndsAt: null });
    view.update(first, null, { live: true });
    view.update({ ...first }, null, { live: true });
    view.update(at({ turnEndsAt: null }), null, { live: false });
    assert.deepEqual(log.map(([what]) => what), ['accept', 'render', 'accept', 'accept', 'render']);
    assert.deepEqual(log.map(([, live]) => live).filter((live) => live !== undefined), [true, true, false]);
  });

  test('runs the countdown only while the game has a deadline, and stops it on destroy', () => {
    const timers = fakeTimers();
    const view = frame(timers, []);
    view.update(at({ turnEndsAt: 100 }), null, { live: true });
    assert.equal(timers.running.size, 1);
    assert.equal([...timers.running.values()][0].ms, 250);
    view.update(at({ turnEndsAt: 110 }), null, { live: true });
    assert.equal(timers.running.size, 1, 'one countdown at a time');
    view.update(at({ turnEndsAt: null }), null, { live: true });
    assert.equal(timers.running.size, 0);
    view.update(at({ turnEndsAt: 120 }), null, { live: true });
    view.destroy();
    assert.equal(timers.running.size, 0);
  });
});
