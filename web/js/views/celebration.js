// A short burst over the page when a game is won: snowflakes or confetti, as the game's `celebration` says. Pure CSS
// animation of a few dozen spans (app.css, "Celebrations"); nothing at all when the player asks for reduced motion.
// It never takes a click (pointer-events: none) and removes itself when done.

import { h } from './dom.js';

const PIECES = 36;
const DURATION_MS = 2600;
const COLOURS = ['var(--gold)', 'var(--accent)', 'var(--scarf)', 'var(--success)', 'var(--carrot)'];
const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/** Evenly spread, slightly jittered positions, so a burst covers the width without a random generator in tests. */
function spread(index, count, seed) {
  const jitter = ((index * 7919 + seed * 104729) % 1000) / 1000;
  return (index + jitter) / count;
}

export function createCelebration({ matchMedia = globalThis.matchMedia?.bind(globalThis), timers = globalThis } = {}) {
  const element = h('div', { class: 'celebration', id: 'celebration', 'aria-hidden': 'true', hidden: true });
  let timer = null;
  let bursts = 0;
  return {
    element,
    /** Plays a burst of `kind` (`snow` or `confetti`). */
    play(kind) {
      if (matchMedia?.(REDUCED_MOTION)?.matches) return;
      bursts += 1;
      element.dataset.kind = kind;
      element.replaceChildren(...Array.from({ length: PIECES }, (_, index) => {
        const piece = h('span', { class: 'celebration-piece' });
        piece.style.setProperty('--x', `${(spread(index, PIECES, bursts) * 100).toFixed(1)}%`);
        piece.style.setProperty('--delay', `${((index * 37) % 600)}ms`);
        piece.style.setProperty('--drift', `${((index % 5) - 2) * 18}px`);
        piece.style.setProperty('--spin', `${(index % 2 ? 1 : -1) * (180 + (index * 47) % 360)}deg`);
        piece.style.setProperty('--size', `${6 + (index * 13) % 8}px`);
        piece.style.setProperty('--colour', COLOURS[index % COLOURS.length]);
        return piece;
      }));
      element.hidden = false;
      timers.clearTimeout(timer);
      timer = timers.setTimeout(() => {
        element.hidden = true;
        element.replaceChildren();
      }, DURATION_MS + 700);
    },
  };
}
