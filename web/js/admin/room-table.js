// The room table: rows from the server's `{columns, rows}`, filtered and sorted here, at most `MAX_ROWS` drawn
// (thousands of rooms would make every second's redraw slow; the filter finds the rest).

import { age, compact } from './format.js';
import { gameName } from './games.js';

export const MAX_ROWS = 200;

/** The columns shown, in order: key, heading, numeric (right-aligned, sorts high first). */
export const COLUMNS = [
  { key: 'code', label: 'Code' },
  { key: 'game', label: 'Game' },
  { key: 'players', label: 'Players', numeric: true },
  { key: 'spectators', label: 'Watching', numeric: true },
  { key: 'connected', label: 'Online', numeric: true },
  { key: 'age', label: 'Age', numeric: true },
  { key: 'movesPerMinute', label: 'Moves/min', numeric: true },
  { key: 'status', label: 'Status' },
];

/**
 * Who is connected out of the seats held (players and spectators): a seat is kept for a while after its
 * connection drops, so that its holder can come back, and the seat counts alone would overstate who is there.
 */
export function onlineText(room) {
  const seats = (room.players ?? 0) + (room.spectators ?? 0);
  const connected = room.connected ?? 0;
  return seats === 0 ? String(connected) : `${connected} of ${seats}`;
}

/** `{columns: [...], rows: [[...]]}` -> objects keyed by column name. */
export function roomsFromTable(table) {
  const columns = table?.columns ?? [];
  return (table?.rows ?? []).map((row) => Object.fromEntries(columns.map((name, index) => [name, row[index]])));
}

/** Rooms whose code, game, or status (or "locked") contains every word of `query`, of `game` when given. */
export function filterRooms(rooms, query, game = '') {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return rooms.filter((room) => {
    if (game && room.game !== game) return false;
    const text = `${room.code} ${room.game} ${gameName(room.game)} ${room.status} ${room.locked ? 'locked' : ''} ${room.public ? 'public' : 'private'}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

/** A sorted copy: by `key` in `direction` (`ascending` or `descending`), ties by code. */
export function sortRooms(rooms, key, direction) {
  const sign = direction === 'descending' ? -1 : 1;
  return rooms.slice().sort((a, b) => {
    const x = a[key];
    const y = b[key];
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return order !== 0 ? sign * order : a.code.localeCompare(b.code);
  });
}

/** Draws the header (sort buttons) once; `onSort(key)` is called when one is pressed. */
export function drawHeader(row, sort, onSort) {
  row.replaceChildren();
  for (const column of COLUMNS) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.dataset.key = column.key;
    if (column.numeric) th.className = 'num';
    th.setAttribute('aria-sort', sort.key === column.key ? sort.direction : 'none');
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = column.label;
    button.addEventListener('click', () => onSort(column.key));
    th.append(button);
    row.append(th);
  }
}

/** Draws the rows; returns how many were drawn. `onSelect(code)` opens a room. */
export function drawRows(body, rooms, onSelect) {
  const shown = rooms.slice(0, MAX_ROWS);
  body.replaceChildren(...shown.map((room) => {
    const tr = document.createElement('tr');
    tr.tabIndex = 0;
    tr.dataset.code = room.code;
    const cells = [
      [room.code, 'code'], [gameName(room.game)], [String(room.players), 'num'],
      [String(room.spectators), 'num'], [onlineText(room), 'num'], [age(room.age), 'num'], [compact(room.movesPerMinute), 'num'],
    ];
    for (const [text, className] of cells) {
      const td = document.createElement('td');
      td.textContent = text;
      if (className) td.className = className;
      tr.append(td);
    }
    const status = document.createElement('td');
    const badge = document.createElement('span');
    badge.className = 'status';
    badge.dataset.status = room.status;
    badge.textContent = room.status || '…';
    status.append(badge);
    if (room.locked) {
      const locked = document.createElement('span');
      locked.className = 'status';
      locked.dataset.status = 'locked';
      locked.textContent = 'locked';
      status.append(locked);
    }
    tr.append(status);
    tr.addEventListener('click', () => onSelect(room.code));
    tr.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        onSelect(room.code);
      }
    });
    return tr;
  }));
  return shown.length;
}
