// The operator dashboard's logic without a browser: the timeline copy, the room table's filter and sort, the
// chart's scales and paths, the token's trip from the link to sessionStorage, and the number formats.
import '../../web/js/games.js';
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { appendSample, flatten, fromHistory, keysWithPrefix, latest } from '../../web/js/admin/timeline.js';
import { COLUMNS, filterRooms, onlineText, roomsFromTable, sortRooms } from '../../web/js/admin/room-table.js';
import { ago, linePath, niceMax, windowFor } from '../../web/js/admin/chart.js';
import { takeToken } from '../../web/js/admin/token.js';
import { age, bytes, compact, milliseconds } from '../../web/js/admin/format.js';
import { memoryStorage } from './memory-storage.mjs';

function history(length, capacity = 900) {
  const t = Array.from({ length }, (_, i) => 1000 + i);
  return {
    capacity, t, connections: t.map((_, i) => i), rooms: { snowman: t.map(() => 1), scramble: t.map(() => 0) },
    fanoutP99: t.map(() => null), closes: {},
  };
}

describe('timeline', () => {
  test('flattens nested series and appends samples in step', () => {
    const timeline = fromHistory(history(3));
    assert.deepEqual(Object.keys(timeline.columns).sort(),
      ['connections', 'fanoutP99', 'rooms.scramble', 'rooms.snowman', 't']);
    assert.equal(appendSample(timeline, { t: 1003, connections: 9, rooms: { snowman: 2, scramble: 1 }, fanoutP99: 1.5, closes: { 1006: 2 } }), true);
    assert.equal(latest(timeline, 'connections'), 9);
    assert.equal(latest(timeline, 'rooms.scramble'), 1);
    // A close code seen for the first time is padded with zeros so that it lines up with the times.
    assert.deepEqual(timeline.columns['closes.1006'], [0, 0, 0, 2]);
    assert.equal(timeline.length, 4);
  });

  test('ignores a sample that is not newer than the last point', () => {
    const timeline = fromHistory(history(3));
    assert.equal(appendSample(timeline, { t: 1002, connections: 5 }), false);
    assert.equal(timeline.columns.t.length, 3);
  });

  test('keeps at most the capacity', () => {
    const timeline = fromHistory(history(4, 4));
    appendSample(timeline, { t: 1004, connections: 4 });
    appendSample(timeline, { t: 1005, connections: 5 });
    assert.deepEqual(timeline.columns.t, [1002, 1003, 1004, 1005]);
    assert.deepEqual(timeline.columns.connections, [2, 3, 4, 5]);
    assert.equal(timeline.length, 4);
  });

  test('lists prefixed keys in numeric order', () => {
    const timeline = fromHistory({ ...history(1), closes: { 4001: [0], 1000: [1], 0: [0] } });
    assert.deepEqual(keysWithPrefix(timeline, 'closes.'), ['closes.0', 'closes.1000', 'closes.4001']);
    assert.deepEqual(flatten({ a: 1, b: { c: 2 } }), { a: 1, 'b.c': 2 });
  });
});

describe('room table', () => {
  const table = {
    columns: ['code', 'game', 'players', 'spectators', 'connected', 'age', 'movesPerMinute', 'status', 'locked', 'public'],
    rows: [['QHTW', 'snowman', 3, 0, 2, 10, 12, 'playing', false, true], ['ABCD', 'scramble', 5, 1, 6, 99, 40, 'waiting', true, false],
      ['ZZZZ', 'snowman', 3, 2, 5, 5, 0, 'finished', false, true]],
  };
  const rooms = roomsFromTable(table);

  test('filters by every word, game and lock', () => {
    assert.deepEqual(filterRooms(rooms, 'qh').map((r) => r.code), ['QHTW']);
    assert.deepEqual(filterRooms(rooms, 'word scramble').map((r) => r.code), ['ABCD']);
    assert.deepEqual(filterRooms(rooms, 'locked').map((r) => r.code), ['ABCD']);
    assert.deepEqual(filterRooms(rooms, '', 'snowman').map((r) => r.code), ['QHTW', 'ZZZZ']);
    assert.deepEqual(filterRooms(rooms, 'snowman finished').map((r) => r.code), ['ZZZZ']);
  });

  test('sorts numbers and text both ways, ties by code', () => {
    assert.deepEqual(sortRooms(rooms, 'players', 'descending').map((r) => r.code), ['ABCD', 'QHTW', 'ZZZZ']);
    assert.deepEqual(sortRooms(rooms, 'players', 'ascending').map((r) => r.code), ['QHTW', 'ZZZZ', 'ABCD']);
    assert.deepEqual(sortRooms(rooms, 'code', 'descending').map((r) => r.code), ['ZZZZ', 'QHTW', 'ABCD']);
    assert.deepEqual(sortRooms(rooms, 'status', 'ascending').map((r) => r.status), ['finished', 'playing', 'waiting']);
    assert.deepEqual(sortRooms(rooms, 'connected', 'descending').map((r) => r.code), ['ABCD', 'ZZZZ', 'QHTW']);
  });

  test('shows who is connected beside the seats held', () => {
    assert.deepEqual(COLUMNS.map((c) => c.key).slice(2, 5), ['players', 'spectators', 'connected']);
    assert.equal(onlineText(rooms[0]), '2 of 3');
    assert.equal(onlineText(rooms[1]), '6 of 6');
    assert.equal(onlineText({ players: 0, spectators: 0, connected: 0 }), '0');
  });
});

describe('chart', () => {
  test('picks round axis maxima, in powers of 1024 for bytes', () => {
    assert.equal(niceMax(0), 1);
    assert.equal(niceMax(7), 10);
    assert.equal(niceMax(1.2), 2);
    assert.equal(niceMax(230), 250);
    assert.equal(niceMax(3000, true), 5 * 1024);
    assert.equal(niceMax(300 * 1024 * 1024, true), 500 * 1024 * 1024);
  });

  test('spans the shortest window that holds the data, at most 15 minutes', () => {
    assert.equal(windowFor(0), 60);
    assert.equal(windowFor(61), 120);
    assert.equal(windowFor(5000), 900);
    assert.equal(ago(40), '−40s');
    assert.equal(ago(600), '−10m');
    assert.equal(ago(200), '−3m20s');
  });

  test('breaks the line at missing values and leaves out points before the window', () => {
    const path = linePath([0, 1, 2, 3, 4], [5, 10, null, 0, 10], { start: 1, end: 4, yMax: 10, width: 30, height: 10 });
    assert.equal(path.points, 3);
    assert.equal(path.d, 'M0.0,0.0M20.0,10.0L30.0,0.0');
  });
});

describe('token', () => {
  test('moves the link token into session storage and out of the address bar', () => {
    const storage = memoryStorage();
    const replaced = [];
    const token = takeToken({ hash: '#token=abc123', pathname: '/admin', search: '' },
      { replaceState: (_, __, url) => replaced.push(url) }, storage);
    assert.equal(token, 'abc123');
    assert.deepEqual(replaced, ['/admin']);
    assert.equal(takeToken({ hash: '', pathname: '/admin', search: '' }, { replaceState() {} }, storage), 'abc123');
  });

  test('has none without a link or a stored one', () => {
    assert.equal(takeToken({ hash: '', pathname: '/admin', search: '' }, { replaceState() {} }, memoryStorage()), null);
  });
});

describe('formats', () => {
  test('are short', () => {
    assert.equal(compact(1234), '1.23k');
    assert.equal(compact(12), '12');
    assert.equal(compact(12.5), '12.5');
    assert.equal(compact(237.4), '237');
    assert.equal(compact(0.5), '0.5');
    assert.equal(compact(null), '–');
    assert.equal(bytes(1536), '1.5 KiB');
    assert.equal(bytes(512), '512 B');
    assert.equal(milliseconds(0.412), '0.41 ms');
    assert.equal(milliseconds(2500), '2.5 s');
    assert.equal(age(75), '1m 15s');
    assert.equal(age(7300), '2h 1m');
  });
});
