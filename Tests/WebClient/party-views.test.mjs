// What the party views decide without a DOM: the room's status for seat buttons, a chat line's notice kind, and
// how the others read the host's word settings.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { roomStatus } from '../../web/js/views/members.js';
import { noticeKind, NOTICE_KINDS } from '../../web/js/views/chat.js';
import { wordSourceSummary } from '../../web/js/games/snowman/game.js';
import { reactionName } from '../../web/js/views/reactions.js';
import { REACTIONS } from '../../web/js/core/store.js';

describe('room status for seats', () => {
  test('the state\'s status when the server sends it', () => {
    for (const status of ['waiting', 'playing', 'finished']) assert.equal(roomStatus({ status, snowman: { status: 'inProgress' } }), status);
  });

  test('waiting while there is no state yet (every server sends a status with the state)', () => {
    assert.equal(roomStatus(null), 'waiting');
    assert.equal(roomStatus({}), 'waiting');
  });
});

describe('chat notices', () => {
  test('system lines take their notice kind; unknown or missing kinds are "other"; people\'s lines none', () => {
    assert.deepEqual([...NOTICE_KINDS], ['join', 'leave', 'kick', 'host', 'skip', 'result', 'seat', 'rename']);
    for (const kind of NOTICE_KINDS) assert.equal(noticeKind({ player: null, name: null, system: true, text: 'x', notice: kind }), kind);
    assert.equal(noticeKind({ player: null, name: null, system: true, text: 'Bob ran out of time' }), 'other');
    assert.equal(noticeKind({ player: null, name: null, system: true, text: 'x', notice: 'fireworks' }), 'other');
    assert.equal(noticeKind({ player: 'p1', name: 'Ana', text: 'join', notice: 'join' }), '', 'a person cannot post a notice');
  });
});

describe('word settings as the others read them', () => {
  test('the pack, or the host\'s words alone or mixed, with their count (never the words)', () => {
    assert.equal(wordSourceSummary({ pack: 'food' }), 'The pack');
    assert.equal(wordSourceSummary({ wordSource: 'pack', customWords: 0 }), 'The pack');
    assert.equal(wordSourceSummary({ wordSource: 'custom', customWords: 42 }), "Host's words only (42)");
    assert.equal(wordSourceSummary({ wordSource: 'mixed', customWords: 12 }), "Host's words + pack (12)");
    assert.equal(wordSourceSummary({ wordSource: 'custom', customWords: 0 }), 'The pack');
  });
});

test('every reaction has a spoken name', () => {
  for (const emoji of REACTIONS) assert.notEqual(reactionName(emoji), emoji);
  assert.equal(reactionName('🦄'), '🦄');
});
