// The lobby's list of public rooms, as pure functions over the store's `lobby` state: the first page the socket
// keeps live (a `lobby` message, then `lobby-delta`s with only what changed), the further pages fetched with
// "More rooms" from `GET /api/rooms?game=&offset=&limit=`, and what the view shows of them.

/** Rooms in one page, as the server cuts them (`pageSize` in its `lobby` message). */
export const PAGE_SIZE = 50;

/** The server's lobby order: most players first, then by code. */
export function compareRooms(a, b) {
  return (b.players - a.players) || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
}

/** An empty list for `game`, waiting for its first page. */
export function emptyLobby(game, status = 'loading') {
  return { status, game, rooms: [], more: [], total: 0, counts: {}, error: null, loadingMore: false, moreError: null };
}

/** The lobby after a first page: a `lobby` message or the body of `GET /api/rooms` at offset 0. */
export function withFirstPage(lobby, page) {
  if (page.game !== undefined && page.game !== null && page.game !== lobby.game) return lobby;
  const rooms = Array.isArray(page.rooms) ? [...page.rooms].sort(compareRooms) : [];
  return {
    ...lobby, status: 'ready', error: null, rooms, more: [],
    total: Number.isFinite(page.total) ? page.total : rooms.length,
    counts: page.counts && typeof page.counts === 'object' ? page.counts : countByGame(rooms),
  };
}

/** The lobby after a `lobby-delta`: rooms added or changed replace their old entry, `removed` codes go. */
export function withDelta(lobby, delta) {
  if (lobby.status !== 'ready' || (delta.game ?? null) !== (lobby.game ?? null)) return lobby;
  const byCode = new Map(lobby.rooms.map((room) => [room.code, room]));
  for (const code of Array.isArray(delta.removed) ? delta.removed : []) byCode.delete(code);
  for (const room of Array.isArray(delta.rooms) ? delta.rooms : []) byCode.set(room.code, room);
  const rooms = [...byCode.values()].sort(compareRooms);
  const live = new Set(rooms.map((room) => room.code));
  return {
    ...lobby, rooms,
    // A room that joined the live page is no longer one of the further pages.
    more: lobby.more.filter((room) => !live.has(room.code)),
    total: Number.isFinite(delta.total) ? delta.total : lobby.total,
    counts: delta.counts && typeof delta.counts === 'object' ? delta.counts : lobby.counts,
  };
}

/** The lobby after "More rooms" brought `page` (a `GET /api/rooms` body at a later offset). */
export function withMoreRooms(lobby, page) {
  const known = new Set([...lobby.rooms, ...lobby.more].map((room) => room.code));
  const fresh = (Array.isArray(page.rooms) ? page.rooms : []).filter((room) => !known.has(room.code));
  return {
    ...lobby, loadingMore: false, moreError: null, more: [...lobby.more, ...fresh],
    total: Number.isFinite(page.total) ? page.total : lobby.total,
  };
}

/** What the list shows: the live page, then the further pages in the order they came. */
export function shownRooms(lobby) {
  return [...lobby.rooms, ...lobby.more];
}

/** The offset of the next page to fetch. */
export function nextOffset(lobby) {
  return lobby.rooms.length + lobby.more.length;
}

/** How many rooms of the game are not shown yet. */
export function roomsNotShown(lobby) {
  return Math.max(0, (lobby.total ?? 0) - nextOffset(lobby));
}

function countByGame(rooms) {
  const counts = {};
  for (const room of rooms) counts[room.game] = (counts[room.game] ?? 0) + 1;
  return counts;
}
