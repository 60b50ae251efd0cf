// The snowman's stages: melting one step per wrong guess, and whole and grinning again once the word is solved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { meltStage } from '../../web/js/games/snowman/melt-stage.js';

test('a snowman melts and loses his parts as wrong guesses add up', () => {
  assert.deepEqual(meltStage(0, 7), { melt: 0, fallen: [], mood: 'happy', lost: false });
  assert.equal(meltStage(5, 7).mood, 'sad');
  assert.ok(meltStage(5, 7).fallen.includes('arm-right'));
  assert.equal(meltStage(7, 7).lost, true);
});

test('a won game brings every part back with a grin, however many guesses were wrong', () => {
  for (const wrong of [0, 3, 6]) {
    assert.deepEqual(meltStage(wrong, 7, 'won'), { melt: 0, fallen: [], mood: 'joyful', lost: false });
  }
});
