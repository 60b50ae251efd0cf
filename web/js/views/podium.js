// Standings as a podium: the first three stand on steps (second, first, third from left to right, the first
// highest), everyone else follows in rows below. One ordered list, best first, so a screen reader reads the
// standings in order while the steps are only layout (app.css, "Podium").

import { h, setText, syncList } from './dom.js';

const STEPS = 3;

/**
 * @param {{id: string, label: string}} options the list's id and accessible name
 * @returns {{element: Element, update(lines: Array<{key: string, name: string, rank: number, value: string,
 *   label?: string, detail?: string, isYou?: boolean}>): void}}
 */
export function createPodium({ id, label }) {
  const element = h('ol', { class: 'podium-steps', id, 'aria-label': label });
  return {
    element,
    update(lines) {
      syncList(element, lines, (line) => line.key, () => h('li', { class: 'podium-place' },
        h('span', { class: 'medal' }), h('span', { class: 'podium-name' }), h('span', { class: 'podium-value' }),
        h('span', { class: 'podium-detail' }), h('span', { class: 'podium-step', 'aria-hidden': 'true' })),
      (item, line) => {
        const place = lines.indexOf(line) + 1;
        item.dataset.place = String(place <= STEPS ? place : 'rest');
        item.classList.toggle('is-rest', place > STEPS);
        item.classList.toggle('is-you', Boolean(line.isYou));
        const medal = item.querySelector('.medal');
        setText(medal, String(line.rank));
        medal.dataset.rank = String(Math.min(line.rank, 4));
        setText(item.querySelector('.podium-name'), `${line.name}${line.isYou ? ' (you)' : ''}`);
        const value = item.querySelector('.podium-value');
        setText(value, line.value);
        if (line.label) value.setAttribute('aria-label', line.label);
        setText(item.querySelector('.podium-detail'), line.detail ?? '');
      });
    },
  };
}
