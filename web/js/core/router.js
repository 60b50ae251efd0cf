// URLs of the app: `/` is the lobby, `/r/CODE` a room. The path is parsed here; the browser history is written
// by the caller (main.js), so this module stays free of the DOM.

import { parseRoomCode } from './game-settings.js';

/** The route a path stands for; unknown paths show the lobby. */
export function routeFromPath(pathname) {
  const match = /^\/r\/([^/]+)\/?$/.exec(pathname ?? '');
  if (match) {
    const code = parseRoomCode(decodeURIComponent(match[1]));
    if (code) return { name: 'room', code };
  }
  return { name: 'lobby' };
}

/** The path of a route. */
export function pathForRoute(route) {
  return route?.name === 'room' ? `/r/${route.code}` : '/';
}

/** Whether two routes show the same page. */
export function sameRoute(a, b) {
  return pathForRoute(a) === pathForRoute(b);
}

/** The shareable link of room `code` on the server at `origin`. */
export function roomLink(origin, code) {
  return `${origin}/r/${code}`;
}
