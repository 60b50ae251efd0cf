// A host's own Snowman words are checked with the server's rules, every problem named with its line.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseCustomWords, describeProblem, summarizeCustomWords, MIN_CUSTOM_WORDS, MAX_CUSTOM_WORDS, MAX_CUSTOM_TEXT_LENGTH,
} from '../../web/js/games/snowman/custom-words.js';

const TEN = ['apple', 'banana', 'cherry', 'grape', 'lemon', 'mango', 'melon', 'olive', 'peach', 'plum'];

/** `count` distinct valid words: AAAA, AAAB, … */
function distinctWords(count) {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  return Array.from({ length: count }, (_, i) => `WORD${letters[Math.floor(i / 26) % 26]}${letters[i % 26]}`);
}

describe('custom words', () => {
  test('ten words, one per line, are upper-cased and accepted', () => {
    const result = parseCustomWords(TEN.join('\n'));
    assert.deepEqual(result.words, TEN.map((word) => word.toUpperCase()));
    assert.deepEqual(result.problems, []);
    assert.equal(result.duplicates, 0);
    assert.equal(result.countProblem, null);
    assert.equal(result.ok, true);
  });

  test('commas separate too; spaces are trimmed; blank lines and empty entries are ignored', () => {
    const text = `  apple , banana,cherry\n\n\r\ngrape\r\nlemon,,mango ,\n   \nmelon\rolive\tpeach\n plum `;
    const result = parseCustomWords(text.replace('olive\tpeach', 'olive\npeach'));
    assert.deepEqual(result.words, TEN.map((word) => word.toUpperCase()));
    assert.equal(result.ok, true);
  });

  test('duplicates merge case-insensitively and are counted', () => {
    const result = parseCustomWords([...TEN, 'APPLE', 'Apple', 'plum'].join('\n'));
    assert.equal(result.words.length, 10);
    assert.equal(result.duplicates, 3);
    assert.equal(result.ok, true);
    assert.equal(summarizeCustomWords(result), '10 words · 3 duplicates merged');
  });

  test('every invalid entry is reported with its line number and reason', () => {
    const text = [...TEN, 'cat', 'strawberries', 'ice cream', 'café', 'r2d2', 'pear, fig'].join('\n');
    const { problems, words, ok } = parseCustomWords(text);
    assert.equal(ok, false);
    assert.deepEqual(problems.map(({ line, text: entry }) => [line, entry]), [
      [11, 'cat'], [12, 'strawberries'], [13, 'ice cream'], [14, 'café'], [15, 'r2d2'], [16, 'fig'],
    ]);
    assert.match(problems[0].reason, /too short: 3 letters, at least 4/);
    assert.match(problems[1].reason, /too long: 12 letters, at most 10/);
    assert.match(problems[2].reason, /no spaces inside/);
    assert.match(problems[3].reason, /letters A-Z only \(not “é”\)/);
    assert.match(problems[4].reason, /not “2”/);
    assert.deepEqual(words.slice(-1), ['PEAR'], 'the valid word of a mixed line is kept');
    assert.equal(describeProblem(problems[0]), 'Line 11 “cat”: too short: 3 letters, at least 4');
    assert.equal(summarizeCustomWords({ words, problems, duplicates: 0 }), '11 words · 6 to fix');
  });

  test('only spaces and tabs are trimmed, as on the server', () => {
    const { problems } = parseCustomWords([...TEN, '\tkiwis\t', '\u00a0lime'].join('\n'));
    assert.deepEqual(problems.map((problem) => problem.line), [12]);
    assert.match(problems[0].reason, /letters A-Z only/);
  });

  test('4 and 10 letters are the limits', () => {
    const result = parseCustomWords([...TEN.slice(0, 8), 'abcd', 'abcdefghij'].join(','));
    assert.equal(result.ok, true);
    assert.equal(parseCustomWords([...TEN, 'abcdefghijk'].join(',')).problems.length, 1);
  });

  test('fewer than 10 or more than 500 distinct words is a count problem', () => {
    const nine = parseCustomWords(TEN.slice(0, 9).join('\n'));
    assert.equal(nine.ok, false);
    assert.equal(nine.countProblem, `Too few words: 9, at least ${MIN_CUSTOM_WORDS}.`);
    const tenWithRepeats = parseCustomWords([...TEN.slice(0, 9), 'apple', 'APPLE'].join('\n'));
    assert.equal(tenWithRepeats.ok, false, 'duplicates do not count towards the ten');
    assert.equal(parseCustomWords(distinctWords(MAX_CUSTOM_WORDS).join('\n')).ok, true);
    const many = parseCustomWords(distinctWords(MAX_CUSTOM_WORDS + 1).join('\n'));
    assert.equal(many.ok, false);
    assert.equal(many.countProblem, `Too many words: 501, at most ${MAX_CUSTOM_WORDS}.`);
  });

  test('an empty list has no problems (it means no custom words) but is not a list to send', () => {
    for (const text of ['', '  \n \n', ',,', undefined, null]) {
      const result = parseCustomWords(text);
      assert.deepEqual(result.words, []);
      assert.deepEqual(result.problems, []);
      assert.equal(result.countProblem, null);
      assert.equal(result.ok, false);
    }
    assert.match(parseCustomWords('x').countProblem, /No valid words yet/);
  });

  test('a text longer than the server takes is refused', () => {
    const text = `${TEN.join('\n')}\n${'\n'.repeat(MAX_CUSTOM_TEXT_LENGTH)}`;
    const result = parseCustomWords(text);
    assert.equal(result.ok, false);
    assert.match(result.countProblem, /too long: 8253 bytes, at most 8192/);
    const accents = `${TEN.join('\n')}\n${'é'.repeat(4100)}`;
    assert.match(parseCustomWords(accents).countProblem, /bytes/, 'bytes are counted, not characters');
  });
});
