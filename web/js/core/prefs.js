// What the client remembers between visits: the player's preferences (name, appearance, accent, sound) and a random
// per-browser id (sent with every create and join, so a host's removal keeps that browser out) in localStorage,
// and per room the seat to resume (token, seq and the state at seq) in sessionStorage, so a reload of /r/CODE in
// the same tab comes back to the same seat while a second tab joins as another player.
//
// Storage objects are passed in (anything with getItem/setItem/removeItem), so this is tested without a browser.
// The same key and defaults are read by js/boot/theme.js before the first paint; keep the two in step.

export const PREFS_KEY = 'wordrooms.prefs';
export const CLIENT_KEY = 'wordrooms.client';
const SEAT_PREFIX = 'wordrooms.seat.';
/** A host's pasted word list, per room code: only in this browser, never sent to the other members. */
const CUSTOM_WORDS_PREFIX = 'wordrooms.words.';
/** Word lists remembered at most (the oldest rooms' lists are forgotten first). */
const MAX_CUSTOM_WORD_LISTS = 8;

export const THEMES = Object.freeze(['system', 'light', 'dark']);
export const ACCENTS = Object.freeze([
  Object.freeze({ id: 'blue', label: 'Blue' }),
  Object.freeze({ id: 'teal', label: 'Teal' }),
  Object.freeze({ id: 'green', label: 'Green' }),
  Object.freeze({ id: 'purple', label: 'Purple' }),
  Object.freeze({ id: 'rose', label: 'Rose' }),
  Object.freeze({ id: 'orange', label: 'Orange' }),
]);

export const DEFAULT_PREFS = Object.freeze({ name: '', theme: 'system', accent: 'blue', sound: true, volume: 0.6 });

/** A stored volume, 0..1 (anything else is the default). */
function storedVolume(value) {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1 ? value : DEFAULT_PREFS.volume;
}

function readJSON(storage, key) {
  try {
    const text = storage?.getItem(key);
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

function writeJSON(storage, key, value) {
  try {
    storage?.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    // Private browsing or a full quota: the game still works, it just forgets.
    return false;
  }
}

/** The stored preferences, each field checked and defaulted. */
export function loadPrefs(storage) {
  const stored = readJSON(storage, PREFS_KEY) ?? {};
  return {
    name: typeof stored.name === 'string' ? stored.name.slice(0, 40) : DEFAULT_PREFS.name,
    theme: THEMES.includes(stored.theme) ? stored.theme : DEFAULT_PREFS.theme,
    accent: ACCENTS.some((accent) => accent.id === stored.accent) ? stored.accent : DEFAULT_PREFS.accent,
    sound: typeof stored.sound === 'boolean' ? stored.sound : DEFAULT_PREFS.sound,
    volume: storedVolume(stored.volume),
  };
}

/** Merges `changes` into the stored preferences; returns the result. */
export function savePrefs(storage, changes) {
  const next = { ...loadPrefs(storage), ...changes };
  writeJSON(storage, PREFS_KEY, next);
  return next;
}

/** The seat remembered for room `code`: `{token, seq, state}` (seq and state may be null), or null. */
export function loadSeat(storage, code) {
  const seat = readJSON(storage, SEAT_PREFIX + code);
  if (!seat || typeof seat.token !== 'string' || !/^[0-9a-f]{32}$/i.test(seat.token)) return null;
  const hasState = Number.isInteger(seat.seq) && seat.state && typeof seat.state === 'object';
  // A private room's key: a resume needs it as much as a first join.
  const key = typeof seat.key === 'string' && /^[A-Za-z0-9_-]{16}$/.test(seat.key) ? seat.key : null;
  const seatState = { token: seat.token, seq: hasState ? seat.seq : null, state: hasState ? seat.state : null };
  return key ? { ...seatState, key } : seatState;
}

/** Remembers the seat of a joined room; a failed write (quota) drops the state and keeps the token. */
export function saveSeat(storage, room) {
  if (!room?.code || !room.token) return;
  const key = room.key ? { key: room.key } : {};
  const full = { token: room.token, seq: room.seq, state: room.state, ...key };
  if (!writeJSON(storage, SEAT_PREFIX + room.code, full)) {
    writeJSON(storage, SEAT_PREFIX + room.code, { token: room.token, ...key });
  }
}

export function forgetSeat(storage, code) {
  try {
    storage?.removeItem(SEAT_PREFIX + code);
  } catch {
    // Nothing to do: storage is unavailable.
  }
}

/** Client ids the server accepts (16-64 characters of the base64url alphabet). */
const CLIENT_ID = /^[A-Za-z0-9_-]{16,64}$/;
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** `bytes` in base64url without padding. */
export function base64url(bytes) {
  let text = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const chunk = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const characters = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let j = 0; j < characters; j += 1) text += BASE64URL[(chunk >> (18 - 6 * j)) & 63];
  }
  return text;
}

/** A fresh random client id: 16 random bytes as 22 base64url characters. */
export function newClientId(getRandomValues = (array) => globalThis.crypto.getRandomValues(array)) {
  return base64url(getRandomValues(new Uint8Array(16)));
}

/**
 * This browser's client id: the stored one, or a new one that is stored for next time. Without storage (some
 * private modes) the id lasts as long as the page.
 */
export function loadClientId(storage, getRandomValues) {
  try {
    const stored = storage?.getItem(CLIENT_KEY);
    if (typeof stored === 'string' && CLIENT_ID.test(stored)) return stored;
  } catch {
    // Unavailable storage: make one for this page.
  }
  const id = newClientId(getRandomValues);
  try {
    storage?.setItem(CLIENT_KEY, id);
  } catch {
    // Full or refused: the id still works for this page.
  }
  return id;
}

/** The word list the host pasted for room `code` in this browser, or '' (kept in localStorage across reloads). */
export function loadCustomWords(storage, code) {
  const saved = readJSON(storage, CUSTOM_WORDS_PREFIX + code);
  return typeof saved?.text === 'string' ? saved.text : '';
}

/**
 * Remembers (or, with '', forgets) the list pasted for room `code`, stamped with `at` (milliseconds); only the
 * newest few rooms' lists are kept.
 */
export function saveCustomWords(storage, code, text, at = Date.now()) {
  if (!storage || !code) return;
  try {
    if (!text) {
      storage.removeItem(CUSTOM_WORDS_PREFIX + code);
      return;
    }
    writeJSON(storage, CUSTOM_WORDS_PREFIX + code, { text: String(text), at });
    const keys = [];
    for (let i = 0; i < (storage.length ?? 0); i += 1) {
      const key = storage.key(i);
      if (key?.startsWith(CUSTOM_WORDS_PREFIX)) keys.push([key, readJSON(storage, key)?.at ?? 0]);
    }
    keys.sort((a, b) => b[1] - a[1]);
    for (const [key] of keys.slice(MAX_CUSTOM_WORD_LISTS)) storage.removeItem(key);
  } catch {
    // Storage refused: the list is simply not remembered.
  }
}
