// URLs of the app: `/` is the lobby, `/r/CODE` a room; `/r/` followed by something that cannot be a code is the
// "not a room code" page (it keeps its address, so the player sees what was typed). A private room's link carries
// its key in the fragment, `/r/CODE#k=KEY`: browsers never send a fragment, so the key stays out of the server's
// and proxies' logs, and the page hands it to the server in `join` and `peek`. The path is parsed here; the
// browser history is written by the caller (main.js), so this module stays free of the DOM.

import { parseRoomCode } from './game-settings.js';

/** A private room's key: 16 base64url characters (the server's `RoomKey`). */
const ROOM_KEY = /^[A-Za-z0-9_-]{16}$/;

/** The key in a fragment such as `#k=KEY` (other fragment parameters are ignored), or null. */
export function keyFromHash(hash) {
  const params = new URLSearchParams(String(hash ?? '').replace(/^#/, ''));
  const key = params.get('k');
  return key && ROOM_KEY.test(key) ? key : null;
}

/** Longest text of a bad code kept for the page that shows it. */
const MAX_BAD_CODE = 40;

function decode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The route a path stands for: `{name: 'room', code}`, `{name: 'bad-code', text}` for `/r/` and anything that is not
 * a room code, else the lobby (the server answers unknown paths with its 404 page before the app loads).
 */
export function routeFromPath(pathname, hash = '') {
  const match = /^\/r(?:\/(.*))?$/.exec(pathname ?? '');
  if (match) {
    const raw = (match[1] ?? '').replace(/\/+$/, '');
    const code = parseRoomCode(decode(raw));
    if (code && !raw.includes('/')) {
      const key = keyFromHash(hash);
      return key ? { name: 'room', code, key } : { name: 'room', code };
    }
    return { name: 'bad-code', text: decode(raw).slice(0, MAX_BAD_CODE) };
  }
  return { name: 'lobby' };
}

/** The path of a route. */
export function pathForRoute(route) {
  if (route?.name === 'room') return `/r/${route.code}`;
  if (route?.name === 'bad-code') return `/r/${encodeURIComponent(route.text ?? '')}`;
  return '/';
}

/** The address of a route: its path, and a private room's key in the fragment. */
export function hrefForRoute(route) {
  const path = pathForRoute(route);
  return route?.name === 'room' && route.key ? `${path}#k=${route.key}` : path;
}

/**
 * What was typed or pasted in a "Have a code?" box: a code (`QHTW`), or a room's link (`https://host/r/QHTW#k=KEY`,
 * `/r/QHTW#k=KEY`), as `{code, key}` (key null without one); null when it is neither.
 */
export function parseRoomInput(text) {
  const trimmed = String(text ?? '').trim();
  const code = parseRoomCode(trimmed);
  if (code) return { code, key: null };
  const link = /(?:^|\/)r\/([A-Za-z]{4,5})\/?(?:[?][^#]*)?(#.*)?$/.exec(trimmed);
  if (!link) return null;
  return { code: link[1].toUpperCase(), key: keyFromHash(link[2] ?? '') };
}

/** Whether two routes show the same page. */
export function sameRoute(a, b) {
  return pathForRoute(a) === pathForRoute(b);
}

/** The shareable link of room `code` on the server at `origin`, with a private room's `key`. */
export function roomLink(origin, code, key = null) {
  return key ? `${origin}/r/${code}#k=${key}` : `${origin}/r/${code}`;
}
