// The page frame: header (brand, room link, connection, settings), the connection banner, the page of the
// current route, notices, and the dialogs. The only view that subscribes to the store; it passes each new state
// down to the views it has mounted. It also gives the player their cues: the tab title and a gentle pulse when
// it is their turn, and (game-cues.js) the sounds, the buzz and the celebrations.

import { h, icon, setText, show } from './dom.js';
import { CONNECTION, ROOM } from '../core/store.js';
import { createLobbyView } from './lobby.js';
import { createRoomView, createBadCodeView } from './room.js';
import { createSettingsDialog } from './settings-dialog.js';
import { createCreateDialog } from './create-dialog.js';
import { createShareDialog } from './share-sheet.js';
import { createCelebration } from './celebration.js';
import { createGameCues } from './game-cues.js';
import { createSounds } from '../core/sounds.js';
import { isMyTurn, turnTitle } from '../core/game-events.js';
import { gameOfMove } from '../core/game-registry.js';

/**
 * Notices shown inside a view (next to what caused them) rather than as a toast. A game's own moves (its `moves`)
 * are refused in place by its view too, whichever game it is.
 */
const NOTICES_SHOWN_IN_PLACE = new Set(['chat', 'create', 'join', 'settings', 'peek', 'rename', 'seat', 'react']);
const TOAST_SECONDS = 6;

/** A short, human status of the socket for the header pill. */
function connectionLabel(connection) {
  switch (connection.status) {
    case CONNECTION.ONLINE: return 'Online';
    case CONNECTION.CONNECTING: return 'Connecting…';
    case CONNECTION.REPLACED: return 'Paused';
    case CONNECTION.FAILED: return 'No connection';
    default: return 'Offline';
  }
}

function createBanner(actions) {
  const message = h('span', { class: 'banner-text' });
  const retry = h('button', { type: 'button', class: 'button button-small button-light', on: { click: () => actions.retryConnection() } });
  const element = h('div', { class: 'banner', id: 'connection-banner', role: 'status', 'aria-live': 'polite', hidden: true },
    h('span', { class: 'banner-spinner', 'aria-hidden': 'true' }), message, retry);
  let timer = null;
  let current = null;

  /** What the banner says for a connection that is not online, or null to hide it. */
  function banner(connection) {
    switch (connection.status) {
      case CONNECTION.REPLACED:
        return { kind: 'paused', text: 'This seat moved to another tab or device, so this page is paused.',
          button: 'Play here', retry: true };
      case CONNECTION.FAILED:
        // Many tries failed: say so plainly (it goes on trying every 30 s), and let the player try at once.
        return { kind: 'failed', text: "Can't reach the server. Still trying every 30 s; check your connection.",
          button: 'Try again', retry: true };
      case CONNECTION.RECONNECTING: {
        const seconds = connection.retryAt ? Math.max(0, Math.ceil((connection.retryAt - Date.now()) / 1000)) : 0;
        return { kind: 'reconnecting',
          text: seconds > 0 ? `Connection lost. Reconnecting in ${seconds} s…` : 'Connection lost. Reconnecting…',
          button: 'Retry now', retry: seconds > 0 };
      }
      default:
        return null;
    }
  }

  function render() {
    if (!current) return;
    const shown = banner(current);
    if (shown) {
      element.dataset.kind = shown.kind;
      setText(message, shown.text);
      setText(retry, shown.button);
      show(retry, shown.retry);
    }
    show(element, shown !== null);
  }

  return {
    element,
    update(state) {
      current = state.connection;
      document.body.classList.toggle('is-offline', current.status !== CONNECTION.ONLINE);
      render();
      const ticking = current.status === CONNECTION.RECONNECTING && current.retryAt;
      if (ticking && timer === null) timer = setInterval(render, 250);
      if (!ticking && timer !== null) {
        clearInterval(timer);
        timer = null;
      }
    },
  };
}

function createToast(actions) {
  const title = h('strong', { class: 'toast-title' });
  const message = h('span', { class: 'toast-message' });
  const close = h('button', { type: 'button', class: 'icon-button', 'aria-label': 'Dismiss' }, icon('close', 16));
  const element = h('div', { class: 'toast', role: 'alert', hidden: true }, icon('warning', 20), h('div', {}, title, message), close);
  let shownId = null;
  let timer = null;
  close.addEventListener('click', () => actions.dismissNotice(shownId));
  return {
    element,
    update(state) {
      const notice = state.notice;
      const visible = Boolean(notice && !NOTICES_SHOWN_IN_PLACE.has(notice.move) && !gameOfMove(notice.move) && notice.code !== 'replaced'
        && !(state.room?.status === ROOM.FAILED && state.room.error?.id === notice.id));
      show(element, visible);
      if (!visible || notice.id === shownId) return;
      shownId = notice.id;
      setText(title, notice.title);
      setText(message, notice.message);
      clearTimeout(timer);
      timer = setTimeout(() => actions.dismissNotice(notice.id), TOAST_SECONDS * 1000);
    },
  };
}

/**
 * Mounts the app into `document.body`'s placeholders and keeps it in step with the store.
 * @param {Document} document
 * @param {{store: object, actions: object}} app
 */
export function mountApp(document, { store, actions }) {
  const header = document.getElementById('topbar');
  const main = document.getElementById('main');
  const brand = header.querySelector('.brand');
  brand.addEventListener('click', (event) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    actions.navigate({ name: 'lobby' });
  });

  const pill = h('span', { class: 'connection-pill', role: 'status' }, h('span', { class: 'dot', 'aria-hidden': 'true' }), h('span', { class: 'pill-text' }));
  const settingsButton = h('button', {
    type: 'button', class: 'icon-button', id: 'open-settings', 'aria-label': 'Settings', title: 'Settings',
    on: { click: () => actions.openDialog('settings') },
  }, icon('gear', 22));
  header.querySelector('.topbar-actions').append(pill, settingsButton);

  const banner = createBanner(actions);
  header.after(banner.element);
  const toast = createToast(actions);
  document.body.append(toast.element);

  const settingsDialog = createSettingsDialog(actions);
  const createDialog = createCreateDialog(actions);
  const shareDialog = createShareDialog(actions);
  const celebration = createCelebration();
  document.body.append(settingsDialog.element, createDialog.element, shareDialog.element, celebration.element);
  const { sound, volume } = store.getState().settings;
  const cues = createGameCues({ sounds: createSounds({ enabled: sound, volume }), celebration });
  // Browsers let a page make sound only from a tap or a key (and may suspend it again): each one unlocks.
  document.addEventListener('pointerdown', () => cues.unlock(), true);
  document.addEventListener('keydown', () => cues.unlock(), true);

  let page = null;
  let pageName = null;

  function mountPage(state) {
    const name = state.route.name;
    if (name === pageName) return;
    page?.destroy?.();
    page = name === 'room' ? createRoomView(actions) : name === 'bad-code' ? createBadCodeView(actions) : createLobbyView(actions);
    pageName = name;
    main.replaceChildren(page.element);
    document.documentElement.dataset.page = name;
  }

  function render(state, previous) {
    mountPage(state);
    page.update(state, previous);
    banner.update(state);
    toast.update(state);
    pill.dataset.status = state.connection.status;
    setText(pill.querySelector('.pill-text'), connectionLabel(state.connection));
    settingsDialog.update(state);
    createDialog.update(state);
    shareDialog.update(state);
    cues.update(state, previous);
    const root = document.documentElement;
    if (root.dataset.theme !== state.settings.theme) root.dataset.theme = state.settings.theme;
    if (root.dataset.accent !== state.settings.accent) root.dataset.accent = state.settings.accent;
    const code = state.room?.code;
    const title = turnTitle(state, state.route.name === 'room' && code ? `Room ${code} · WordRooms`
      : state.route.name === 'bad-code' ? 'Not a room code · WordRooms' : 'WordRooms');
    // The page pulses gently while it is your turn (not with reduced motion: app.css).
    const myTurn = String(state.route.name === 'room' && isMyTurn(state));
    if (root.dataset.myTurn !== myTurn) root.dataset.myTurn = myTurn;
    if (document.title !== title) document.title = title;
  }

  render(store.getState(), store.getState());
  store.subscribe(render);
}
