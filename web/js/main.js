// Entry point: reads the remembered preferences, creates the store, the socket and the controller, mounts the
// views, and connects browser events (back/forward, online/offline) to them. Nothing here is global.

import { createStore, initialState } from './core/store.js';
import { createConnection, socketURL } from './core/connection.js';
import { loadPrefs, loadClientId } from './core/prefs.js';
import { routeFromPath, pathForRoute, hrefForRoute } from './core/router.js';
import { createController } from './controller.js';
import { mountApp } from './views/app.js';
import { linkGameStyles } from './views/game-styles.js';
import { applyServerGames } from './core/game-settings.js';
import './games.js';

/** How long the page waits for the games' stylesheets and settings before drawing anyway. */
const BOOT_WAIT_MS = 1500;

/** localStorage or sessionStorage, or null where the browser refuses them (some private modes). */
function safeStorage(name) {
  try {
    const storage = window[name];
    const probe = '__wordrooms_probe__';
    storage.setItem(probe, '1');
    storage.removeItem(probe);
    return storage;
  } catch {
    return null;
  }
}

/** Copies text without the async clipboard API (plain http on another host, older browsers). */
function copyWithSelection(text) {
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.className = 'offscreen';
  document.body.append(field);
  field.select();
  let copied = false;
  try {
    copied = document.execCommand('copy');
  } catch {
    copied = false;
  }
  field.remove();
  return copied;
}

const storage = { local: safeStorage('localStorage'), session: safeStorage('sessionStorage') };
const prefs = loadPrefs(storage.local);
// A random id for this browser, sent with every create and join: a host's removal keeps this browser out.
const client = loadClientId(storage.local);
const startRoute = routeFromPath(window.location.pathname, window.location.hash);
// Tidy the address (lowercase codes, a trailing slash); a bad code keeps what was typed, for its page to show.
if (startRoute.name !== 'bad-code' && pathForRoute(startRoute) !== window.location.pathname) {
  window.history.replaceState({}, '', hrefForRoute(startRoute));
}

const store = createStore({ initial: initialState({ ...prefs, client }) });
let controller = null;
const connection = createConnection({
  url: () => socketURL(window.location),
  WebSocketImpl: window.WebSocket,
  onMessage: (message) => {
    for (const reply of store.receive(message)) connection.send(reply);
  },
  onStatus: ({ status, attempt, retryAt }) => store.setConnection({ status, attempt, retryAt }),
  onOpen: () => controller.connected(),
  // A hidden page keeps no heartbeat: its player is away (PROTOCOL.md, "Heartbeat").
  isVisible: () => document.visibilityState !== 'hidden',
});
controller = createController({
  store,
  connection,
  storage,
  browser: {
    location: window.location,
    history: window.history,
    fetch: (...args) => window.fetch(...args),
    clipboard: navigator.clipboard ?? { writeText: () => Promise.reject(new Error('no clipboard')) },
    copyFallback: copyWithSelection,
    setTimeout: (...args) => window.setTimeout(...args),
    clearTimeout: (...args) => window.clearTimeout(...args),
  },
});

// The server's public address (--public-url) and network addresses, for the room links and QR codes to share
// (core/invite-link.js), and each game's settings with their bounds (core/game-settings.js): the steppers are
// built from them.
const configLoaded = window.fetch('/api/config', { headers: { Accept: 'application/json' } })
  .then((response) => (response.ok ? response.json() : null))
  .then((config) => {
    if (!config) return;
    applyServerGames(config.games);
    // A new ui redraws the views, which rebuild their steppers from the server's settings.
    store.setUI({
      publicUrl: typeof config.publicUrl === 'string' && config.publicUrl ? config.publicUrl : null,
      networkAddresses: Array.isArray(config.networkAddresses) ? config.networkAddresses : [],
    });
  })
  .catch(() => {});

// The games' stylesheets and settings come before the first drawing, so a room never shows unstyled and the
// create dialog has its steppers; a slow answer draws the page anyway (the views rebuild when they arrive).
await Promise.race([
  Promise.all([linkGameStyles(document), configLoaded]),
  new Promise((resolve) => window.setTimeout(resolve, BOOT_WAIT_MS)),
]);
mountApp(document, { store, actions: controller });
controller.start(startRoute);
connection.start();

// Back and Forward (a phone's back swipe too) move between the lobby and rooms; stepping out keeps the seat.
window.addEventListener('popstate', () => controller.navigate(routeFromPath(window.location.pathname, window.location.hash)));
// The browser knows about a lost network long before the socket times out: drop it and show "reconnecting".
window.addEventListener('offline', () => connection.drop());
// Back online, or back to the tab (a phone that slept may hold a dead socket): reconnect at once, backoff reset,
// or check an open socket with a ping.
window.addEventListener('online', () => connection.wake());
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') connection.wake();
});
// Leaving the page (for another site, or into the back/forward cache where it can answer nothing): close the
// socket now, so the server sees the player away at once; back from the cache, reconnect and resume the seat.
window.addEventListener('pagehide', () => connection.suspend());
window.addEventListener('pageshow', (event) => {
  if (event.persisted) connection.wake();
});
