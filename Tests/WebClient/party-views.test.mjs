// What the party views decide without a DOM: the room's status for seat buttons, a chat line's notice kind, and
// how the others read the host's word settings.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { roomStatus } from '../../web/js/views/members.js';
import { noticeKind, NOTICE_KINDS } from '../../web/js/views/chat.js';
import { wordSourceSummary } from '../../web/js/views/host-settings.js';
import { reactionName } from '../../web/js/views/reactions.js';
import { REACTIONS } from '../../web/js/core/store.js';

describe('room status for seats', () => {
  test('the state\'s status when the server sends it', () => {
    for (const status of ['waiting', 'playing', 'finished']) assert.equal(roomStatus({ status, snowman: { status: 'inProgress' } }), status);
  });

  test('else what the game says', () => {
    assert.equal(roomStatus({ snowman: { status: 'inProgress' } }), 'playing');
    assert.equal(roomStatus({ snowman: { status: 'waiting' } }), 'waiting');
    assert.equal(roomStatus({ snowman: { status: 'won' } }), 'finished');
    assert.equal(roomStatus({ scramble: { phase: 'lobby' } }), 'waiting');
    assert.equal(roomStatus({ scramble: { phase: 'intermission' } }), 'playing');
    assert.equal(roomStatus({ scramble: { phase: 'finished' } }), 'finished');
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
