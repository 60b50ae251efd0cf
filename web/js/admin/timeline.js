// The page's copy of the server's timeline: one column per series, as `history` sends them, extended by each
// second's `sample` and cut to the server's capacity (900 one-second points). Nested series (`rooms`, `closes`)
// are flattened to keys like `rooms.<game>` and `closes.1006`.

/** Series that count events (a missing value is 0, not "no data"). */
const COUNTED = /^closes\./;

/** A timeline from the server's `history.timeline`. */
export function fromHistory(history) {
  const columns = {};
  for (const [key, value] of Object.entries(history)) {
    if (key === 'capacity') continue;
    if (Array.isArray(value)) {
      columns[key] = value.slice();
    } else if (value && typeof value === 'object') {
      for (const [inner, series] of Object.entries(value)) columns[`${key}.${inner}`] = series.slice();
    }
  }
  return { capacity: history.capacity ?? 900, columns, length: (history.t ?? []).length };
}

/** `{rooms: {a: 2}}` -> `{"rooms.a": 2}`. */
export function flatten(sample) {
  const flat = {};
  for (const [key, value] of Object.entries(sample)) {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [inner, number] of Object.entries(value)) flat[`${key}.${inner}`] = number;
    } else {
      flat[key] = value;
    }
  }
  return flat;
}

/**
 * Appends one sample in place; a sample not newer than the last point is ignored (a socket that opened between
 * the server's history and its next update). Returns whether it was added.
 */
export function appendSample(timeline, sample) {
  const times = timeline.columns.t ?? [];
  if (times.length && sample.t <= times[times.length - 1]) return false;
  const flat = flatten(sample);
  const keys = new Set([...Object.keys(timeline.columns), ...Object.keys(flat)]);
  for (const key of keys) {
    const missing = COUNTED.test(key) ? 0 : null;
    let column = timeline.columns[key];
    if (!column) {
      column = new Array(timeline.length).fill(missing);
      timeline.columns[key] = column;
    }
    column.push(key in flat ? flat[key] : missing);
    if (column.length > timeline.capacity) column.splice(0, column.length - timeline.capacity);
  }
  timeline.length = Math.min(timeline.length + 1, timeline.capacity);
  return true;
}

/** The newest value of `key`, or null. */
export function latest(timeline, key) {
  const column = timeline.columns[key];
  return column && column.length ? column[column.length - 1] : null;
}

/** Keys that start with `prefix` (`closes.`), in numeric order of what follows. */
export function keysWithPrefix(timeline, prefix) {
  return Object.keys(timeline.columns).filter((key) => key.startsWith(prefix))
    .sort((a, b) => Number(a.slice(prefix.length)) - Number(b.slice(prefix.length)));
}
