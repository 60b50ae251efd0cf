// Getting friends into a room: the room code in large type, the link with Copy and (where the browser has a share
// sheet) Share, and a QR code of the link to scan from across the table. One panel serves the waiting room and the
// Share dialog the room header opens during play.
//
// The link is one friends can open (core/invite-link.js): the server's public address (`--public-url`), a network
// address of the server when this page was opened on `localhost`, else this page's address. When only this machine
// can open it, a note says so and what to do.

import { h, icon, s, setText, show } from './dom.js';
import { createModal } from './create-dialog.js';
import { inviteLink } from '../core/invite-link.js';
import { qrSVG } from '../core/qr.js';

const COPIED_SECONDS = 2;

/**
 * Makes `copy` copy the room's link (`actions.copyLink`), then say "Copied!" on its `label` and to screen readers
 * through `announcer` for a moment. The room header and the share panel both have such a button.
 */
export function wireCopyButton(copy, label, announcer, actions) {
  let resetTimer = null;
  copy.addEventListener('click', async () => {
    if (!(await actions.copyLink())) return;
    setText(label, 'Copied!');
    setText(announcer, 'Link copied to the clipboard');
    copy.classList.add('is-done');
    clearTimeout(resetTimer);
    resetTimer = setTimeout(() => {
      setText(label, 'Copy link');
      setText(announcer, '');
      copy.classList.remove('is-done');
    }, COPIED_SECONDS * 1000);
  });
}
/** The QR code's quiet zone, in modules (the standard asks for 4). */
const QR_MARGIN = 4;

/** A QR-code glyph for the header's Share button (dom.js has no such icon). */
export function qrIcon(size = 20) {
  return s('svg', { class: 'icon icon-qr', width: size, height: size, viewBox: '0 0 24 24', 'aria-hidden': 'true', focusable: 'false' },
    ['M4 4h6v6H4z', 'M14 4h6v6h-6z', 'M4 14h6v6H4z', 'M14 14h2v2h-2z', 'M18 14h2v2', 'M14 18h2v2', 'M18 18h2v2h-2z']
      .map((d) => s('path', { d })));
}

/**
 * Shows the link with line breaks allowed only after `//` and before each `/` of the path, never inside the host or
 * the port (`<wbr>`; the text, and so what a selection copies, is the link itself).
 */
function setLinkText(element, text) {
  if (element.textContent === text && element.childElementCount > 0) return;
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/]*)(.*)$/i.exec(text);
  const parts = match ? [match[1], match[2], ...match[3].split(/(?=\/)/).filter(Boolean)] : [text];
  element.replaceChildren(...parts.flatMap((part, index) => (index ? [h('wbr'), part] : [part])));
}

/**
 * The address of the room to hand out, with a private room's key, and whether only this machine can open it
 * (see core/invite-link.js).
 */
export function shareLink(state, location) {
  return inviteLink(state.ui, location, state.room?.code, state.room?.key ?? null);
}

/**
 * The code, the QR and the link with its buttons. `prefix` keeps ids apart (`waiting`, `share`).
 * @returns {{element: Element, update(state): void}}
 */
export function createSharePanel(actions, { prefix }) {
  const code = h('p', { class: 'big-code', id: `${prefix}-code` });
  // The SVG inside names itself ("QR code of LINK").
  const qr = h('div', { class: 'qr-box', id: `${prefix}-qr` });
  const link = h('code', { class: 'share-link', id: `${prefix}-link` });
  const copyLabel = h('span', { text: 'Copy link' });
  const copy = h('button', { type: 'button', class: 'button button-secondary', id: `${prefix}-copy` }, icon('link', 18), copyLabel);
  const share = h('button', { type: 'button', class: 'button button-secondary', id: `${prefix}-share`, hidden: true }, icon('send', 18), 'Share');
  const copied = h('span', { class: 'visually-hidden', 'aria-live': 'polite' });
  const loopback = h('p', { class: 'share-warning', id: `${prefix}-loopback`, role: 'note', hidden: true },
    icon('warning', 18),
    h('span', {},
      h('strong', { text: 'Friends can’t open this link' }),
      ' — it only works on this computer. Join the same Wi-Fi as your friends and start the server without ',
      h('code', { text: '--host 127.0.0.1' }), ' (or with ', h('code', { text: '--public-url' }),
      '), then share the ', h('code', { text: 'Network:' }), ' address it prints.'));
  const hint = h('p', { class: 'muted small share-hint' });
  const element = h('div', { class: 'share-panel' },
    h('div', { class: 'share-code-block' },
      h('p', { class: 'field-label', text: 'Room code' }), code,
      hint),
    qr,
    h('div', { class: 'share-link-block' }, link, h('div', { class: 'share-buttons' }, copy, share), copied, loopback));

  let current = { link: '', code: '' };
  let drawn = null;
  wireCopyButton(copy, copyLabel, copied, actions);
  share.addEventListener('click', () => {
    navigator.share?.({ title: `WordRooms room ${current.code}`, text: `Join my WordRooms room ${current.code}`, url: current.link })
      .catch(() => {});
  });

  function drawQR(text) {
    drawn = text;
    try {
      // qr.js builds the SVG text itself from the link (no markup from the server goes in).
      qr.innerHTML = qrSVG(text, { margin: QR_MARGIN, label: `QR code of the room link ${text}` });
      show(qr, true);
    } catch {
      // A link too long for a QR code (RangeError): the code and the link still show.
      show(qr, false);
    }
  }

  return {
    element,
    update(state) {
      const { link: text, loopbackOnly } = shareLink(state, window.location);
      show(loopback, loopbackOnly);
      current = { link: text, code: state.room?.code ?? '' };
      setText(code, current.code);
      code.setAttribute('aria-label', `Room code ${[...current.code].join(' ')}`);
      setLinkText(link, text);
      // A private room's code alone finds nothing: its key is in the link.
      setText(hint, state.room?.key ? 'Private room: share the link or the QR code; the code alone does not open it.'
        : 'Scan the code, open the link, or type the code in the lobby.');
      show(share, typeof navigator.share === 'function');
      if (drawn !== text) drawQR(text);
    },
  };
}

/** The Share dialog of the room header (`ui.dialog === 'share'`): the same panel, one tap away during play. */
export function createShareDialog(actions) {
  const panel = createSharePanel(actions, { prefix: 'share' });
  const body = h('div', { class: 'dialog-body share-dialog-body' }, panel.element);
  const modal = createModal({ id: 'share-dialog', title: 'Invite friends', actions, body });
  return {
    element: modal.element,
    update(state) {
      const open = state.ui.dialog === 'share' && Boolean(state.room?.code);
      if (open) panel.update(state);
      modal.setOpen(open, null);
    },
  };
}
