// Small helpers for building DOM without HTML strings: text from the server is only ever set as text.

import { nameSegments } from '../core/name-segments.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

function applyProps(element, props) {
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') element.setAttribute('class', Array.isArray(value) ? value.filter(Boolean).join(' ') : value);
    else if (key === 'text') element.textContent = value;
    else if (key === 'on') for (const [event, handler] of Object.entries(value)) element.addEventListener(event, handler);
    else if (key === 'dataset') Object.assign(element.dataset, value);
    else if (key in element && !key.includes('-') && typeof value !== 'string' && element.namespaceURI !== SVG_NS) element[key] = value;
    else element.setAttribute(key, value === true ? '' : String(value));
  }
}

function appendChildren(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
}

/**
 * Creates an HTML element. `props`: `class` (string or list), `text`, `on` (event → handler), `dataset`, and
 * attributes; `true` sets an empty attribute, `false`/`null` leaves it out.
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  applyProps(element, props);
  appendChildren(element, children);
  return element;
}

/** Creates an SVG element; every prop is an attribute except `class`, `text` and `on`. */
export function s(tag, props = {}, ...children) {
  const element = document.createElementNS(SVG_NS, tag);
  applyProps(element, props);
  appendChildren(element, children);
  return element;
}

/** Sets text only when it changed (keeps screen readers from re-announcing live regions). */
export function setText(element, text) {
  const value = String(text ?? '');
  if (element.textContent !== value) element.textContent = value;
}

/** The segments each element drawn by `setTextWithNames` shows, to redraw only on a change. */
const drawnNames = new WeakMap();

/**
 * Sets `element`'s text as `setText` does, each of `names` in it wrapped in `<bdi>` so that a right-to-left name
 * with digits keeps its order and leaves the text around it alone (core/name-segments.js). The text content is
 * exactly `text`. A lone name: `setTextWithNames(span, `${name} (you)`, [name])`.
 */
export function setTextWithNames(element, text, names) {
  const value = String(text ?? '');
  const segments = nameSegments(value, names);
  const key = JSON.stringify(segments);
  if (drawnNames.get(element) === key && element.textContent === value) return;
  drawnNames.set(element, key);
  element.replaceChildren(...segments.map((segment) => (segment.name ? nameElement(segment.text) : segment.text)));
}

/**
 * A name isolated in `<bdi>`, with a line break allowed after its dots, dashes, underscores and at signs
 * ("christopher.<wbr>williams"), so that a long name without spaces wraps there on a phone rather than mid-word.
 */
function nameElement(name) {
  const parts = name.split(/(?<=[._@-])(?=.)/u);
  return h('bdi', {}, parts.flatMap((part, index) => (index ? [h('wbr'), part] : [part])));
}

/** Toggles `hidden`. */
export function show(element, visible) {
  element.hidden = !visible;
}

/**
 * Makes `container`'s children match `items`, reusing the element of each key so focus and animations survive.
 * @param {Element} container
 * @param {Array} items
 * @param {(item) => string} keyOf
 * @param {(item) => Element} create a new element for an item
 * @param {(element: Element, item) => void} [update] refreshes an element (also called after create)
 */
export function syncList(container, items, keyOf, create, update = () => {}) {
  const existing = new Map();
  for (const child of container.children) existing.set(child.dataset.key, child);
  let cursor = container.firstElementChild;
  for (const item of items) {
    const key = String(keyOf(item));
    let element = existing.get(key);
    if (element) {
      existing.delete(key);
    } else {
      element = create(item);
      element.dataset.key = key;
    }
    update(element, item);
    if (element !== cursor) container.insertBefore(element, cursor);
    else cursor = cursor.nextElementSibling;
  }
  for (const stale of existing.values()) stale.remove();
}

/** Whether keyboard input is going to a text field (so page-wide letter shortcuts must not fire). */
export function isTyping(target) {
  if (!(target instanceof Element)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) {
    return !['button', 'checkbox', 'radio', 'range', 'submit', 'reset', 'color'].includes(target.type);
  }
  return false;
}

/** "3 players", "1 player". */
export function plural(count, singular, pluralForm = `${singular}s`) {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** Seconds as "1:05" (or "0:07"). */
export function clock(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** A small inline icon from the sprite-free set below, decorative (hidden from screen readers). */
export function icon(name, size = 18) {
  const paths = ICONS[name] ?? [];
  return s('svg', { class: `icon icon-${name}`, width: size, height: size, viewBox: '0 0 24 24', 'aria-hidden': 'true', focusable: 'false' },
    paths.map((d) => s('path', { d })));
}

/** Stroke icons drawn on a 24-unit grid. */
const ICONS = {
  link: ['M10 14a4 4 0 0 0 5.66 0l3-3a4 4 0 0 0-5.66-5.66l-1 1', 'M14 10a4 4 0 0 0-5.66 0l-3 3a4 4 0 0 0 5.66 5.66l1-1'],
  check: ['M5 12.5l4.5 4.5L19 7.5'],
  gear: ['M12 15.5a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7z', 'M19.4 13a7.6 7.6 0 0 0 0-2l2-1.6-2-3.4-2.4 1a7.4 7.4 0 0 0-1.7-1L15 3.5h-4L10.7 6a7.4 7.4 0 0 0-1.7 1l-2.4-1-2 3.4 2 1.6a7.6 7.6 0 0 0 0 2l-2 1.6 2 3.4 2.4-1a7.4 7.4 0 0 0 1.7 1l.3 2.5h4l.3-2.5a7.4 7.4 0 0 0 1.7-1l2.4 1 2-3.4z'],
  leave: ['M15 12H4', 'M8 8l-4 4 4 4', 'M13 4h5a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-5'],
  plus: ['M12 5v14', 'M5 12h14'],
  minus: ['M5 12h14'],
  crown: ['M4 18h16', 'M4 15l-1-8 5 4 4-6 4 6 5-4-1 8z'],
  send: ['M4 12l16-8-6 16-2.5-6.5z', 'M11.5 13.5L20 4'],
  refresh: ['M20 11a8 8 0 1 0-2.3 5.7', 'M20 5v6h-6'],
  users: ['M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7z', 'M2.5 20a6.5 6.5 0 0 1 13 0', 'M16 4.3a3.5 3.5 0 0 1 0 6.4', 'M18 14.2a6.5 6.5 0 0 1 3.5 5.8'],
  close: ['M6 6l12 12', 'M18 6L6 18'],
  eye: ['M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z', 'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z'],
  clock: ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M12 7v5l3 2'],
  warning: ['M12 3l10 18H2z', 'M12 10v4', 'M12 17.5v.5'],
  wifi: ['M2 8.5a15 15 0 0 1 20 0', 'M5.5 12a10 10 0 0 1 13 0', 'M9 15.5a5 5 0 0 1 6 0', 'M12 19h.01'],
  trophy: ['M8 4h8v5a4 4 0 0 1-8 0z', 'M8 6H5a3 3 0 0 0 3 4', 'M16 6h3a3 3 0 0 1-3 4', 'M12 13v4', 'M8 20h8'],
  lock: ['M7 11h10a2 2 0 0 1 2 2v6a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2v-6a2 2 0 0 1 2-2z', 'M8 11V8a4 4 0 0 1 8 0v3'],
  skip: ['M5 5l9 7-9 7z', 'M18 5v14'],
};
