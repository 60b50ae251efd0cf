// Word Scramble's tappable letter tiles: the built word marks the tiles it uses, shuffling, taking a letter back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tilesInUse, tileOrder, shuffleTiles, withoutLetter } from '../../web/js/games/scramble/letter-tiles.js';

test('each letter of the word takes the leftmost free tile showing it', () => {
  const order = tileOrder(8);
  assert.deepEqual([...tilesInUse('PLASTERS', order, 'pass').used].sort(), [0, 2, 3, 7]);
  assert.deepEqual(tilesInUse('PLASTERS', order, 'pass').stray, []);
  // In shuffled order the leftmost shown S is taken first.
  assert.deepEqual([...tilesInUse('PLASTERS', [7, 1, 2, 3, 4, 5, 6, 0], 's').used], [7]);
});

test('letters the root cannot give (or gives too few of) are stray', () => {
  assert.deepEqual(tilesInUse('PLASTERS', tileOrder(8), 'pzsss').stray, [1, 4]);
  assert.deepEqual(tilesInUse('PLASTERS', tileOrder(8), '').used.size, 0);
});

test('a shuffle moves the letters (unless they are all the same) and keeps every tile', () => {
  let seed = 1;
  const random = () => { seed = (seed * 16807) % 2147483647; return seed / 2147483647; };
  const order = tileOrder(8);
  const next = shuffleTiles(order, 'PLASTERS', random);
  assert.deepEqual([...next].sort(), order);
  assert.notEqual(next.map((i) => 'PLASTERS'[i]).join(''), 'PLASTERS');
  assert.deepEqual(shuffleTiles([0, 1], 'AA', random), [0, 1]);
  assert.notDeepEqual(shuffleTiles([0, 1], 'AB', () => 0.99), [0, 1]);
});

test('tapping a built letter takes exactly that one back', () => {
  assert.equal(withoutLetter('slate', 0), 'late');
  assert.equal(withoutLetter('slate', 4), 'slat');
  assert.equal(withoutLetter('', 0), '');
});
