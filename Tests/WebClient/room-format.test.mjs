// What players read in a room: hints by device, countdowns, presence while offline, the Snowman leaderboard,
// system chat lines, and Word Scramble's wording by phase and role (issue 14, defects 9, 11, 12 and game night).
import './server-games.mjs';
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import '../../web/js/games.js';
import {
  clockText, countdown, presence, UNKNOWN_STATUS_TITLE, leaderboardRows, chatLine, nextSettingsWording, ALPHABET,
} from '../../web/js/core/room-format.js';
import { guessHint } from '../../web/js/games/snowman/game.js';
import { scrambleStatusLine, foundEmptyText, foundHeading, wordPlaceholder } from '../../web/js/games/scramble/game.js';
import { defaultSettings, normalizeSettings, settingSpec, formatSetting } from '../../web/js/core/game-settings.js';
import { gameById } from '../../web/js/core/game-registry.js';

describe('guess hint by device', () => {
  test('a touch screen is told to tap, a keyboard to type or click', () => {
    assert.equal(guessHint({ touch: true }), 'Tap a letter.');
    assert.equal(guessHint({ touch: false }), 'Type a letter or click one.');
  });
  test('no hint claims the page takes typing anywhere on a phone', () => {
    for (const touch of [true, false]) assert.doesNotMatch(guessHint({ touch }), /anywhere on the page/);
    assert.doesNotMatch(guessHint({ touch: true }), /[Tt]ype/);
  });
  test('spectators, offline players and players waiting for their turn are told so', () => {
    assert.equal(guessHint({ touch: true, spectator: true }), 'You are watching this game.');
    assert.equal(guessHint({ touch: false, live: false }), 'Waiting for the connection…');
    assert.equal(guessHint({ touch: true, myTurn: false }), 'Wait for your turn.');
    assert.match(guessHint({ touch: true, inProgress: false }), /Tap a letter/);
  });
});

describe('turn countdown', () => {
  test('formats minutes and seconds, rounding up', () => {
    assert.equal(clockText(60), '1:00');
    assert.equal(clockText(59.1), '1:00');
    assert.equal(clockText(9.2), '0:10');
    assert.equal(clockText(0.01), '0:01');
    assert.equal(clockText(-3), '0:00');
    assert.equal(clockText(Number.NaN), '0:00');
  });
  test('is measured in server time and turns urgent near the end', () => {
    assert.deepEqual(countdown(1000, 955), { text: '0:45', seconds: 45, urgent: false, label: '45 seconds left' });
    assert.equal(countdown(1000, 991).urgent, true);
    assert.equal(countdown(1000, 999.5).label, '1 second left');
    assert.deepEqual(countdown(1000, 1010), { text: '0:00', seconds: 0, urgent: true, label: '0 seconds left' });
    assert.equal(countdown(1000, 995, 3).urgent, false, 'the urgent threshold is a parameter');
  });
  test('no deadline, no countdown', () => {
    assert.equal(countdown(null, 10), null);
    assert.equal(countdown(undefined, 10), null);
  });
});

describe('presence while offline', () => {
  test('offline, every member is unknown whatever the last state said', () => {
    for (const connected of [true, false]) {
      const seen = presence({ name: 'Ana', connected }, false);
      assert.equal(seen.state, 'unknown');
      assert.equal(seen.title, UNKNOWN_STATUS_TITLE);
      assert.equal(UNKNOWN_STATUS_TITLE, 'Status unknown while you are offline');
    }
  });
  test('online, members are here or away', () => {
    assert.deepEqual(presence({ name: 'Ana', connected: true }, true), { state: 'here', title: 'Ana is here', spoken: '' });
    assert.deepEqual(presence({ name: 'Bob', connected: false }, true), { state: 'away', title: 'Bob is away', spoken: ', away' });
  });
});

describe('Snowman leaderboard rows', () => {
  const board = [
    { player: 'p2', name: 'Bob', total: 9, wins: 1, games: 2, rank: 2 },
    { player: 'p1', name: 'Ana', total: 23, wins: 2, games: 3, rank: 1 },
    { player: 'p3', name: 'Cleo', total: 1, wins: 0, games: 1, rank: 3 },
  ];
  test('rows come in rank order with totals and games won', () => {
    const rows = leaderboardRows(board, 'p2');
    assert.deepEqual(rows.map((row) => row.name), ['Ana', 'Bob', 'Cleo']);
    assert.deepEqual(rows[0], { key: 'p1', rank: 1, name: 'Ana', isYou: false, total: 23, totalText: '23 points', record: '2 wins · 3 games' });
    assert.equal(rows[1].isYou, true);
    assert.equal(rows[2].record, '0 wins · 1 game');
    assert.equal(leaderboardRows([{ player: 'p1', name: 'Ana', total: 1, wins: 1, games: 1, rank: 1 }])[0].totalText, '1 point');
  });
  test('ties share a rank and keep the server order by total', () => {
    const rows = leaderboardRows([
      { player: 'p1', name: 'Ana', total: 5, wins: 1, games: 2, rank: 1 },
      { player: 'p2', name: 'Bob', total: 5, wins: 1, games: 2, rank: 1 },
    ]);
    assert.deepEqual(rows.map((row) => [row.rank, row.name]), [[1, 'Ana'], [1, 'Bob']]);
  });
  test('a missing or malformed leaderboard gives no rows, not an error', () => {
    assert.deepEqual(leaderboardRows(undefined), []);
    assert.deepEqual(leaderboardRows(null), []);
    assert.deepEqual(leaderboardRows([null, { name: 'x' }, { player: 'p9' }]), []);
    const [row] = leaderboardRows([{ player: 'p1', name: 'Ana' }]);
    assert.deepEqual([row.rank, row.total, row.record], [1, 0, '0 wins · 0 games']);
  });
});

describe('chat lines', () => {
  test('a system line has no author and is never mine', () => {
    const line = { id: 7, player: null, name: null, text: 'Bob ran out of time', at: 1, system: true };
    assert.deepEqual(chatLine(line, 'p1'), { system: true, mine: false, name: '', text: 'Bob ran out of time' });
  });
  test('a normal line keeps its author', () => {
    assert.deepEqual(chatLine({ id: 1, player: 'p1', name: 'Ana', text: 'hi', at: 1 }, 'p1'), { system: false, mine: true, name: 'Ana', text: 'hi' });
    assert.equal(chatLine({ id: 1, player: 'p1', name: 'Ana', text: 'hi', at: 1, system: false }, 'p2').mine, false);
  });
});

describe('Word Scramble wording', () => {
  test('the host is told to start the match, others see the server line', () => {
    const lobby = { phase: 'lobby', canStartNext: true, statusLine: 'Waiting for the host to start the match' };
    assert.equal(scrambleStatusLine(lobby, true), 'Start the match when everyone is here');
    assert.equal(scrambleStatusLine(lobby, false), 'Waiting for the host to start the match');
    const playing = { phase: 'playing', canStartNext: false, statusLine: 'Round 1 of 6' };
    assert.equal(scrambleStatusLine(playing, true), 'Round 1 of 6');
    assert.equal(scrambleStatusLine({ ...lobby, canStartNext: false, statusLine: 'Waiting for players to join' }, true), 'Waiting for players to join');
  });
  test('the empty found list fits the phase', () => {
    assert.equal(foundEmptyText('playing', 2), 'No words yet — be the first!');
    assert.equal(foundEmptyText('intermission', 2, 7.2), 'Nobody found a word in round 2. Next round starts in 8 s.');
    assert.equal(foundEmptyText('intermission', 2), 'Nobody found a word in round 2. The next round starts soon.');
    assert.doesNotMatch(foundEmptyText('intermission', 1, 3), /be the first/);
    assert.doesNotMatch(foundEmptyText('finished', 6), /be the first/);
    assert.equal(foundHeading('intermission', 3), 'Round 3 results');
    assert.equal(foundHeading('playing', 3), 'Words found');
  });
  test('the word box placeholder fits a phone', () => {
    assert.equal(wordPlaceholder({ touch: true }), 'Type a word');
    assert.equal(wordPlaceholder({ touch: false }), 'Type a word and press Enter');
    assert.equal(wordPlaceholder({ touch: true, spectator: true }), 'You are watching this match');
    assert.equal(wordPlaceholder({ live: false }), 'Waiting for the connection…');
  });
  test('the settings card names a match for Word Scramble and a game for Snowman', () => {
    assert.deepEqual(nextSettingsWording(gameById('scramble').unit), { heading: 'Next match', save: 'Save for next match', applies: 'Applies from the next match.' });
    assert.equal(nextSettingsWording(gameById('snowman').unit).heading, 'Next game');
  });
});

describe('turn timer default', () => {
  test('rooms get a 60 s turn timer by default and Off stays off when sent', () => {
    assert.equal(defaultSettings('snowman').turnSeconds, 60);
    assert.equal(normalizeSettings('snowman', {}).turnSeconds, 60);
    assert.equal(normalizeSettings('snowman', { turnSeconds: null }).turnSeconds, null, 'Off is sent as null');
    assert.equal(normalizeSettings('snowman', { turnSeconds: 0 }).turnSeconds, null);
    assert.equal(normalizeSettings('scramble', { rounds: null }).rounds, 6, 'a setting without Off falls back to its default');
    assert.equal(formatSetting(settingSpec('snowman', 'turnSeconds'), 60), '60 s');
  });
});

test('the phone keyboard orders all 26 letters once', () => {
  assert.equal(ALPHABET.length, 26);
  assert.equal(new Set(ALPHABET).size, 26);
  assert.equal([...'QWERTYUIOPASDFGHJKLZXCVBNM'].sort().join(''), ALPHABET);
});
