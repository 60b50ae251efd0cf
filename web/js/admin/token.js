// Where the page keeps the admin token: taken from the link's `#token=` once (then the fragment is removed from
// the address bar, so it is not left on screen or in a bookmark), kept in sessionStorage for this tab only.

const KEY = 'wordrooms.adminToken';

/**
 * The token of a `#token=` fragment, moved into `storage` (and the fragment off the address bar); null when the
 * fragment has none. Also what a link pasted into a tab already showing /admin brings (`hashchange`).
 */
export function takeTokenFromHash(location, history, storage) {
  const match = /(?:^#|&)token=([^&]+)/.exec(location.hash || '');
  if (!match) return null;
  let token;
  try {
    token = decodeURIComponent(match[1]);
  } catch {
    token = match[1];
  }
  save(storage, token);
  history.replaceState(null, '', location.pathname + location.search);
  return token;
}

/** The token from `location.hash`, moved into `storage`; else the stored one; else null. */
export function takeToken(location, history, storage) {
  const fromHash = takeTokenFromHash(location, history, storage);
  if (fromHash !== null) return fromHash;
  try {
    return storage.getItem(KEY);
  } catch {
    return null;
  }
}

export function save(storage, token) {
  try {
    storage.setItem(KEY, token);
  } catch {
    // Private modes may refuse storage: the token then lives until the page is closed.
  }
}

export function forget(storage) {
  try {
    storage.removeItem(KEY);
  } catch {
    // Nothing stored.
  }
}
