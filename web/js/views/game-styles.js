// Links each registered game's stylesheet (its `stylesheet`, a file in its folder) once, after the page's own
// app.css, so a game's rules live beside its code. Same origin, so the page's Content-Security-Policy
// (`default-src 'self'`) allows them.

import { allGames } from '../core/game-registry.js';

/**
 * Adds a `<link rel="stylesheet">` per game not linked yet.
 * @param {Document} document
 * @returns {Promise<void>} settles when every new stylesheet has loaded or failed (a missing file must not stop the page)
 */
export function linkGameStyles(document) {
  const pending = [];
  for (const game of allGames()) {
    if (!game.stylesheet || document.head.querySelector(`link[data-game-style="${game.id}"]`)) continue;
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = game.stylesheet;
    link.dataset.gameStyle = game.id;
    pending.push(new Promise((resolve) => {
      link.addEventListener('load', resolve, { once: true });
      link.addEventListener('error', resolve, { once: true });
    }));
    document.head.append(link);
  }
  return Promise.all(pending).then(() => undefined);
}
