// A Web Storage (`localStorage`, `sessionStorage`) in memory for the unit tests: what the pages keep (prefs, the
// client id, seats, the admin token) without a browser.

/**
 * An empty storage. Values are kept as strings, as a browser keeps them; `items` is the map behind it, for tests
 * that look inside. With `full`, every write throws, as a storage over its quota (or a private window's) does.
 */
export function memoryStorage({ full = false } = {}) {
  const items = new Map();
  return {
    items,
    get length() { return items.size; },
    key: (index) => [...items.keys()][index] ?? null,
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => { if (full) throw new Error('QuotaExceededError'); items.set(key, String(value)); },
    removeItem: (key) => items.delete(key),
  };
}
