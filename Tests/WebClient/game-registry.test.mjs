// The games' plug-in interface (core/game-registry.js): a game registered from its folder gets its sounds, its
// timed-round cue, its turn title, its settings and bounds, its tracked moves and its stylesheet without a change to
// any shared file. A fake third game (every player guesses the same five-letter word in six tries, timed rounds)
// stands in for the next one. The last tests guard the layout: no shared file names a game, core/ imports no view.
import '../../web/js/games.js';
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  registerGame, unregisterGame, allGames, gameById, gameOfMove, firstGameId, gamePart, memberBadges,
} from '../../web/js/core/game-registry.js';
import { gameCues, roundEndingKey, isMyTurn, turnTitle, CUE } from '../../web/js/core/game-events.js';
import {
  applyServerGames, forgetServerGames, gameSettings, defaultSettings, normalizeSettings, settingSpec,
} from '../../web/js/core/game-settings.js';
import { moveArrived } from '../../web/js/controller.js';
import { createController } from '../../web/js/controller.js';
import { createStore, initialState, CONNECTION } from '../../web/js/core/store.js';
import { linkGameStyles } from '../../web/js/views/game-styles.js';

const calls = [];
// The games web/js/games.js registers, before the fake one below.
const builtIn = allGames().map((game) => game.id);
const fives = registerGame({
  id: 'fives',
  name: 'Fives',
  blurb: 'Everyone guesses the same five-letter word.',
  unit: 'round',
  settings: [{ key: 'roundSeconds', label: 'Round length', unit: 's' }],
  createFlags: { waitForHost: true },
  extraSettings: (settings) => (settings.hardMode === true ? { hardMode: true } : {}),
  moves: ['shot'],
  // A shot shows in the public part, or while `hidden` only in the shooter's private view.
  moveArrived: (part, message, privateView) => Boolean((part?.hidden ? privateView : part)?.mine?.some((row) => row.word === message.word)),
  cues(before, after, context) {
    calls.push(['cues', before, after, context]);
    return after.mine.length > before.mine.length ? [CUE.HIT] : [];
  },
  timedRound: (part) => (part?.phase === 'playing' ? { key: `r${part.round}`, endsAt: part.endsAt } : null),
  isMyTurn: () => false,
  memberBadges: (part, member) => [part?.tries?.[member.id] === undefined ? '' : `${part.tries[member.id]}/6`, 42],
  stylesheet: '/js/games/fives/fives.css',
  createView: () => ({ element: null, update() {} }),
});
after(() => unregisterGame('fives'));

function app(part, { you = 'p1', code = 'QHTW', notice = null, role = 'player', privateView = null } = {}) {
  return {
    room: { code, you, state: { game: 'fives', status: 'playing', members: [{ id: you, role }], fives: part } },
    notice,
    privateView,
  };
}

describe('the registry', () => {
  test('lists a registered game after the built-in ones and finds it by id and by move', () => {
    assert.deepEqual(builtIn.slice(0, 2), ['snowman', 'scramble']);
    assert.deepEqual(allGames().map((game) => game.id), [...builtIn, 'fives']);
    assert.equal(gameById('fives'), fives);
    assert.equal(gameOfMove('shot'), fives);
    assert.equal(firstGameId(), 'snowman');
    assert.equal(gamePart({ game: 'fives', fives: { round: 1 } }).round, 1);
    assert.equal(gamePart(null), null);
  });

  test('refuses a second game with the same id, and a game without an id', () => {
    assert.throws(() => registerGame({ id: 'fives' }), /registered twice/);
    assert.throws(() => registerGame({ id: 'sixes', moves: ['shot'] }), /already game "fives"'s/);
    assert.equal(gameById('sixes'), undefined);
    assert.throws(() => registerGame({ name: 'No id' }), TypeError);
  });

  test('fills in what a game may leave out', () => {
    const bare = registerGame({ id: 'bare', name: 'Bare', createView: () => ({}) });
    try {
      assert.deepEqual([...bare.settings], []);
      assert.deepEqual([...bare.moves], []);
      assert.equal(bare.unit, 'game');
      assert.ok(Object.isFrozen(bare));
    } finally {
      unregisterGame('bare');
    }
  });
});

describe('hooks a new game gets without shared-file changes', () => {
  test('its cues hook hears its own part of the state, with who you are and whether you play', () => {
    calls.length = 0;
    const before = app({ mine: [] });
    const next = app({ mine: [{ word: 'crane' }] });
    assert.deepEqual(gameCues(before, next), [CUE.HIT]);
    assert.deepEqual(calls, [['cues', { mine: [] }, { mine: [{ word: 'crane' }] }, { you: 'p1', isPlayer: true }]]);
  });

  test('its memberBadges hook labels members in the room\'s list (texts only; none for games without the hook)', () => {
    const roomState = app({ tries: { p1: 3 } }).room.state;
    assert.deepEqual(memberBadges(roomState, { id: 'p1' }), ['3/6']);
    assert.deepEqual(memberBadges(roomState, { id: 'p2' }), []);
    assert.deepEqual(memberBadges({ game: 'snowman', snowman: {} }, { id: 'p1' }), []);
  });

  test('a refusal of its move plays the refused cue', () => {
    const state = app({ mine: [] });
    const refused = { ...state, notice: { id: 1, move: 'try', code: 'not-a-word' } };
    assert.deepEqual(gameCues(state, refused), [CUE.REFUSED]);
  });

  test('its timed rounds get the round-ending cue key in their last seconds', () => {
    const state = app({ phase: 'playing', round: 3, endsAt: 1000 }).room.state;
    assert.equal(roundEndingKey(state, 996), 'r3');
    assert.equal(roundEndingKey(state, 900), null);
    assert.equal(roundEndingKey({ ...state, fives: { phase: 'over' } }, 996), null);
  });

  test('its isMyTurn hook decides the tab title; the title names the game', () => {
    assert.equal(isMyTurn(app({})), false);
    assert.equal(turnTitle(app({}), 'Room QHTW'), 'Room QHTW');
  });

  test('its settings (bounds from the server) give the defaults, the clamping and its own extra settings', () => {
    assert.deepEqual(defaultSettings('fives'), {}, 'no steppers before the server\'s bounds');
    applyServerGames([{ id: 'fives', title: 'Fives', settings: [{ key: 'roundSeconds', min: 60, max: 300, step: 30, initial: 120 }] }]);
    assert.deepEqual(gameSettings('fives').map((spec) => [spec.label, spec.unit]), [['Round length', 's']], 'labelled by the module');
    assert.deepEqual(defaultSettings('fives'), { roundSeconds: 120 });
    assert.deepEqual(normalizeSettings('fives', { roundSeconds: 999, hardMode: true, bogus: 1 }), { roundSeconds: 300, hardMode: true });
  });

  test('the controller tracks its move until the state shows it', () => {
    assert.equal(moveArrived(app({ mine: [] }), 'p1', { type: 'shot', word: 'crane' }), false);
    assert.equal(moveArrived(app({ mine: [{ word: 'crane' }] }), 'p1', { type: 'shot', word: 'crane' }), true);
    // A move the game keeps private: the hook gets the member's private view (state.privateView) as its third argument.
    const shot = { type: 'shot', word: 'crane' };
    assert.equal(moveArrived(app({ hidden: true }, { privateView: { mine: [{ word: 'crane' }] } }), 'p1', shot), true);
    assert.equal(moveArrived(app({ hidden: true }, { privateView: { mine: [] } }), 'p1', shot), false);
    assert.equal(moveArrived(app({ hidden: true }), 'p1', shot), false, 'no private view: null, not undefined');
    const store = createStore({ initial: initialState({ name: 'Ana' }), now: () => 0 });
    const sent = [];
    const connection = { isOpen: true, send(message) { sent.push(message); return true; }, reopen() {}, retryNow() {} };
    const controller = createController({
      store, connection, storage: { local: null, session: null },
      browser: {
        location: { pathname: '/' }, history: { pushState() {}, replaceState() {} },
        fetch: async () => ({ ok: true, json: async () => ({ rooms: [] }) }),
        setTimeout: () => 0, clearTimeout() {},
      },
    });
    store.setConnection({ status: CONNECTION.ONLINE });
    assert.equal(controller.createRoom({ game: 'fives', isPublic: true, settings: { roundSeconds: 90 }, name: 'Ana' }), null);
    assert.deepEqual(sent.at(-1).settings, { roundSeconds: 90, waitForHost: true }, 'its createFlags go with every create');
  });

  test('the page links its stylesheet once', async () => {
    const links = [];
    const head = {
      querySelector: (selector) => links.find((link) => selector.includes(`"${link.dataset.gameStyle}"`)) ?? null,
      append(link) { links.push(link); setTimeout(() => link.listeners.load?.(), 0); },
    };
    const document = {
      head,
      createElement: () => ({ dataset: {}, listeners: {}, addEventListener(type, fn) { this.listeners[type] = fn; } }),
    };
    await linkGameStyles(document);
    await linkGameStyles(document);
    const fivesLinks = links.filter((link) => link.dataset.gameStyle === 'fives');
    assert.equal(fivesLinks.length, 1);
    assert.equal(fivesLinks[0].href, '/js/games/fives/fives.css');
    assert.equal(fivesLinks[0].rel, 'stylesheet');
    assert.deepEqual(links.map((link) => link.dataset.gameStyle), [...builtIn, 'fives']);
  });
});

describe('settings bounds from the server (GET /api/config `games`)', () => {
  after(() => forgetServerGames());

  test('replace the declared bounds, keeping the module\'s label and unit where the server has none', () => {
    const declared = gameSettings('snowman');
    assert.equal(applyServerGames([
      { id: 'snowman', title: 'Snowman', settings: [
        { key: 'maxWrongGuesses', label: 'Wrong guesses allowed', min: 3, max: 12, step: 1, initial: 7 },
        { key: 'turnSeconds', min: 10, max: 180, step: 5, initial: 60, off: 0 },
      ] },
      { id: 'chess', settings: [] },
    ]), true);
    const specs = gameSettings('snowman');
    assert.notEqual(specs, declared, 'a new list, so the views rebuild their steppers');
    assert.equal(settingSpec('snowman', 'maxWrongGuesses').max, 12);
    const turn = settingSpec('snowman', 'turnSeconds');
    assert.deepEqual([turn.max, turn.label, turn.unit, turn.off], [180, 'Turn timer', 's', null]);
    assert.equal(normalizeSettings('snowman', { maxWrongGuesses: 11 }).maxWrongGuesses, 11);
    assert.equal(gameSettings('snowman'), specs, 'the same list until the server sends another');
  });

  test('drop what cannot be a stepper, and ignore a missing list', () => {
    applyServerGames([{ id: 'fives', settings: [
      { key: 'roundSeconds', min: 60, max: 30, step: 30, initial: 60 },
      { key: 'rounds', min: 1, max: 9, step: 0, initial: 3 },
      { min: 1, max: 2, step: 1, initial: 1 },
      { key: 'tries', min: 4, max: 8, step: 1, initial: 6 },
    ] }]);
    assert.deepEqual(gameSettings('fives').map((spec) => spec.key), ['tries']);
    assert.equal(applyServerGames(undefined), false);
    assert.equal(applyServerGames([{ id: 'fives' }]), false);
  });
});

describe('layout', () => {
  const root = new URL('../../web/js/', import.meta.url).pathname;

  function files(directory) {
    return readdirSync(directory).flatMap((name) => {
      const path = join(directory, name);
      return statSync(path).isDirectory() ? files(path) : path.endsWith('.js') ? [path] : [];
    });
  }

  test('no file outside web/js/games/ names a game, apart from the registration lines', () => {
    const ids = allGames().map((game) => game.id).filter((id) => id !== 'fives');
    const pattern = new RegExp(`\\b(${ids.join('|')})\\b`, 'i');
    const offenders = files(root)
      .filter((path) => !path.startsWith(join(root, 'games/')))
      .flatMap((path) => readFileSync(path, 'utf8').split('\n')
        .map((line, index) => ({ path, line, index }))
        .filter(({ line, path: file }) => pattern.test(line) && !(file === join(root, 'games.js') && line.startsWith('import \'./games/'))))
      .map(({ path, index, line }) => `${path.slice(root.length)}:${index + 1}: ${line.trim()}`);
    assert.deepEqual(offenders, []);
  });

  test('core/ imports only core/: no view, and no game (games register themselves), so it runs without a DOM', () => {
    const offenders = files(join(root, 'core')).flatMap((path) => [...readFileSync(path, 'utf8').matchAll(/from '([^']+)'/g)]
      .map((match) => match[1]).filter((target) => !target.startsWith('./')).map((target) => `${path.slice(root.length)} -> ${target}`));
    assert.deepEqual(offenders, []);
  });
});
