// URLs of the app: `/` is the lobby, `/r/CODE` a room; `/r/` followed by something that cannot be a code is the
// "not a room code" page (it keeps its address, so the player sees what was typed). The path is parsed here; the
// browser history is written by the caller (main.js), so this module stays free of the DOM.

import { parseRoomCode } from './game-settings.js';

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
export function routeFromPath(pathname) {
  const match = /^\/r(?:\/(.*))?$/.exec(pathname ?? '');
  if (match) {
    const raw = (match[1] ?? '').replace(/\/+$/, '');
    const code = parseRoomCode(decode(raw));
    if (code && !raw.includes('/')) return { name: 'room', code };
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

/** Whether two routes show the same page. */
export function sameRoute(a, b) {
  return pathForRoute(a) === pathForRoute(b);
}

/** The shareable link of room `code` on the server at `origin`. */
export function roomLink(origin, code) {
  return `${origin}/r/${code}`;
}
