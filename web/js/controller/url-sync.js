// Keeps the address bar in step with the route: a new route pushes a history entry, and the same room's address
// gaining its key (after the welcome) replaces the entry, so Back stays one step.

import { pathForRoute, hrefForRoute, sameRoute } from '../core/router.js';

/** Whether the route (or its key) changed between two states. */
export function routeChanged(state, previous) {
  return !sameRoute(state.route, previous.route) || state.route.key !== previous.route.key;
}

/**
 * Writes `state.route` into the browser's history when it differs from the page's address.
 * @param {object} state the app state now
 * @param {{location: Location, history: History}} browser
 */
export function syncAddress(state, { location, history }) {
  const path = pathForRoute(state.route);
  const href = hrefForRoute(state.route);
  const here = location.pathname + (state.route.key ? location.hash ?? '' : '');
  if (here === href) return;
  if (location.pathname === path) history.replaceState({}, '', href);
  else history.pushState({}, '', href);
}
