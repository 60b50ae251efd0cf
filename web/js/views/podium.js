// Standings as a podium: the first three places stand on steps (second, first, third from left to right, the first
// highest), everyone else follows in rows below. Players with equal points share a rank and a step, and nobody
// with 0 points stands on one (core/podium-places.js). One ordered list, best first, so a screen reader reads the
// standings in order while the steps are only layout (app.css, "Podium").

import { h, setText, setTextWithNames, syncList } from './dom.js';
import { podiumPlaces } from '../core/podium-places.js';

/**
 * @param {{id: string, label: string, rest?: boolean}} options the list's id and accessible name; `rest: false`
 *   leaves out the players off the steps (when a full list follows anyway)
 * @returns {{element: Element, update(lines: Array<{key: string, name: string, points: number, value: string,
 *   label?: string, detail?: string, isYou?: boolean}>): void}}
 */
export function createPodium({ id, label, rest = true }) {
  const element = h('ol', { class: 'podium-steps', id, 'aria-label': label });
  return {
    element,
    update(lines) {
      const places = podiumPlaces(lines).filter((line) => rest || line.step !== null);
      // Players tied for second with nobody third: half of them stand right of the first, who stays in the
      // middle (app.css orders the steps by `data-place` and `data-side`).
      const seconds = places.filter((line) => line.step === 2);
      const splitSeconds = !places.some((line) => line.step === 3) && seconds.length > 1;
      const rightOfFirst = new Set(splitSeconds ? seconds.slice(Math.ceil(seconds.length / 2)).map((line) => line.key) : []);
      syncList(element, places, (line) => line.key, () => h('li', { class: 'podium-place' },
        h('span', { class: 'medal' }), h('span', { class: 'podium-name' }), h('span', { class: 'podium-value' }),
        h('span', { class: 'podium-detail' }), h('span', { class: 'podium-step', 'aria-hidden': 'true' })),
      (item, line) => {
        item.dataset.place = String(line.step ?? 'rest');
        item.dataset.side = rightOfFirst.has(line.key) ? 'right' : 'left';
        item.classList.toggle('is-rest', line.step === null);
        item.classList.toggle('is-you', Boolean(line.isYou));
        const medal = item.querySelector('.medal');
        setText(medal, String(line.rank));
        medal.dataset.rank = String(Math.min(line.rank, 4));
        setTextWithNames(item.querySelector('.podium-name'), `${line.name}${line.isYou ? ' (you)' : ''}`, [line.name]);
        const value = item.querySelector('.podium-value');
        setText(value, line.value);
        if (line.label) value.setAttribute('aria-label', line.label);
        setText(item.querySelector('.podium-detail'), line.detail ?? '');
      });
    },
  };
}
