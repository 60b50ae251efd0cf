// Settings controls stay within PROTOCOL.md's ranges; codes and names are checked as the server checks them.
import { SERVER_GAMES } from './server-games.mjs';
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import '../../web/js/games.js';
import {
  allGameSettings, settingSpec, clampSetting, stepSetting, formatSetting, defaultSettings, normalizeSettings, parseRoomCode,
  cleanName, settingBounds, nameProblem, graphemeCount, MAX_NAME_LENGTH,
} from '../../web/js/core/game-settings.js';
import { WORD_PACKS, packLabel, wordSettings } from '../../web/js/games/snowman/game.js';

describe('ranges from PROTOCOL.md', () => {
  const ranges = [
    ['snowman', 'maxWrongGuesses', 3, 10],
    ['snowman', 'turnSeconds', 10, 120],
    ['scramble', 'rounds', 3, 20],
    ['scramble', 'roundSeconds', 30, 300],
    ['scramble', 'minWordLength', 3, 6],
  ];
  for (const [game, key, min, max] of ranges) {
    test(`${game} ${key} is ${min}-${max}`, () => {
      const spec = settingSpec(game, key);
      assert.equal(spec.min, min);
      assert.equal(spec.max, max);
      assert.equal(stepSetting(spec, max, +1), max, '+ stops at the maximum');
      assert.equal(clampSetting(spec, max + 1000), max);
      assert.equal(stepSetting(spec, spec.min, +1) > spec.min, true);
    });
  }
});

test('clamping rounds and bounds numbers', () => {
  const rounds = settingSpec('scramble', 'rounds');
  assert.equal(clampSetting(rounds, 2), 3);
  assert.equal(clampSetting(rounds, 7.6), 8);
  assert.equal(clampSetting(rounds, 'x'), 6);
  assert.equal(stepSetting(rounds, 3, -1), 3, '− stops at the minimum');
});

test('the turn timer steps between off and 10-120 seconds', () => {
  const turn = settingSpec('snowman', 'turnSeconds');
  assert.equal(clampSetting(turn, null), null);
  assert.equal(clampSetting(turn, 0), null);
  assert.equal(clampSetting(turn, 5), null);
  assert.equal(stepSetting(turn, null, +1), 10);
  assert.equal(stepSetting(turn, 10, -1), null);
  assert.equal(stepSetting(turn, null, -1), null);
  assert.equal(stepSetting(turn, 10, +1), 15);
  assert.equal(stepSetting(turn, 47, +1), 50, 'off-grid values snap up');
  assert.equal(stepSetting(turn, 47, -1), 45, 'and down');
  assert.equal(stepSetting(turn, null, +1, 100), 120);
  assert.deepEqual(settingBounds(turn), { lowest: null, highest: 120 });
  assert.equal(formatSetting(turn, null), 'Off');
  assert.equal(formatSetting(turn, 30), '30 s');
});

test('round length steps by 15 seconds', () => {
  const spec = settingSpec('scramble', 'roundSeconds');
  assert.equal(stepSetting(spec, 90, +1), 105);
  assert.equal(stepSetting(spec, 30, -1), 30);
  assert.equal(stepSetting(spec, 295, +1), 300);
});

test('defaults match the server defaults and normalizing drops unknown keys', () => {
  assert.deepEqual(defaultSettings('snowman'), { maxWrongGuesses: 7, turnSeconds: 60 });
  assert.deepEqual(defaultSettings('scramble'), { rounds: 6, roundSeconds: 90, minWordLength: 3, breakSeconds: 20 });
  assert.deepEqual(normalizeSettings('scramble', { rounds: 99, bogus: 1, breakSeconds: 2 }),
    { rounds: 20, roundSeconds: 90, minWordLength: 3, breakSeconds: 5 });
  assert.deepEqual(Object.keys(allGameSettings()), SERVER_GAMES.map((game) => game.id));
});

test('the break between Word Scramble rounds is 5-60 s, 20 by default, in steps of 5', () => {
  const spec = settingSpec('scramble', 'breakSeconds');
  assert.deepEqual([spec.min, spec.max, spec.initial, spec.step], [5, 60, 20, 5]);
  assert.equal(formatSetting(spec, 20), '20 s');
  assert.equal(stepSetting(spec, 60, +1), 60);
});

test('Snowman word settings: a known pack, and custom words with their source', () => {
  assert.deepEqual(WORD_PACKS.map((pack) => pack.id), ['general', 'animals', 'food', 'nature', 'home']);
  assert.equal(packLabel('home'), 'Around the house');
  assert.deepEqual(wordSettings({ pack: 'food' }), { pack: 'food' });
  assert.deepEqual(wordSettings({ pack: 'plants' }), {});
  assert.deepEqual(wordSettings({ pack: 'food', customWords: ' APPLE\nPEAR ', wordSource: 'mixed' }),
    { pack: 'food', customWords: 'APPLE\nPEAR', wordSource: 'mixed' });
  assert.deepEqual(wordSettings({ customWords: 'APPLE', wordSource: 'bogus' }), { customWords: 'APPLE', wordSource: 'custom' });
  assert.deepEqual(wordSettings({ customWords: '   ', wordSource: 'mixed' }), {});
  // Only Snowman has word settings: a Word Scramble create drops them.
  assert.deepEqual(normalizeSettings('scramble', { pack: 'food' }), defaultSettings('scramble'));
  assert.deepEqual(normalizeSettings('snowman', { pack: 'food' }), { ...defaultSettings('snowman'), pack: 'food' });
});

test('room codes are 4 letters (5 with a shard letter), case-insensitive, spaces ignored', () => {
  assert.equal(parseRoomCode('qhtw'), 'QHTW');
  assert.equal(parseRoomCode('bqhtw'), 'BQHTW');
  assert.equal(parseRoomCode('ABQHTW'), null);
  assert.equal(parseRoomCode(' Q H T W '), 'QHTW');
  assert.equal(parseRoomCode('QHT'), null);
  assert.equal(parseRoomCode('QHT1'), null);
  assert.equal(parseRoomCode('QH7W'), null);
  assert.equal(parseRoomCode(undefined), null);
});

test('names are trimmed, collapsed and at most 20 characters', () => {
  assert.equal(cleanName('  Ana   Maria '), 'Ana Maria');
  assert.equal(cleanName('   '), null);
  assert.equal(cleanName('x'.repeat(20)), 'x'.repeat(20));
  assert.equal(cleanName('x'.repeat(21)), null);
});

describe('names count grapheme clusters and accept emoji', () => {
  test('emoji names from game night are accepted', () => {
    assert.equal(cleanName('Hal 👩‍💻'), 'Hal 👩‍💻');
    assert.equal(cleanName(' 🏳️‍🌈   Ro '), '🏳️‍🌈 Ro');
    assert.equal(nameProblem('Hal 👩‍💻'), null);
    assert.equal(cleanName('Zoë'), 'Zoë');
  });

  test('the 20-character limit counts what people see', () => {
    assert.equal(graphemeCount('👩‍💻'), 1);
    assert.equal(graphemeCount('🏳️‍🌈'), 1);
    assert.equal(graphemeCount('👨‍👩‍👧‍👦🇫🇷'), 2);
    const twenty = '👩‍💻'.repeat(MAX_NAME_LENGTH);
    assert.equal(cleanName(twenty), twenty, '20 emoji of several code points each');
    assert.equal(cleanName('👩‍💻'.repeat(MAX_NAME_LENGTH + 1)), null);
    assert.equal(nameProblem('x'.repeat(21)), 'Names can be at most 20 characters.');
  });

  test('without Intl.Segmenter the count is approximated the same way', () => {
    for (const [text, count] of [['Hal 👩‍💻', 5], ['🏳️‍🌈 Ro', 4], ['👨‍👩‍👧‍👦', 1], ['🇫🇷🇩🇪', 2], ['e\u0301', 1], ['👍🏽x', 2], ['abc', 3]]) {
      assert.equal(graphemeCount(text, { segmenter: null }), count, text);
    }
  });

  test('refused with the server\'s reasons: controls, bidirectional controls, only invisible characters', () => {
    assert.equal(nameProblem('   '), 'Type a name of 1 to 20 characters.');
    assert.equal(nameProblem('a\u0007b'), 'Names cannot contain control characters such as tabs or line breaks.');
    assert.equal(nameProblem('a\u0085b'), 'Names cannot contain control characters such as tabs or line breaks.', 'C1 too');
    assert.equal(nameProblem('evil\u202Egnp.exe'), 'Names cannot contain characters that reverse the direction of text.');
    assert.equal(nameProblem('\u2066Ana\u2069'), 'Names cannot contain characters that reverse the direction of text.');
    assert.equal(nameProblem('\u200B\u200B'), 'Names cannot be only spaces or invisible characters.');
    assert.equal(nameProblem('\u3164'), 'Names cannot be only spaces or invisible characters.');
    assert.equal(nameProblem('Ana\uE000'), 'Names cannot contain private-use characters, which other devices cannot show.');
    assert.equal(cleanName('\u200B'), null);
  });
});
