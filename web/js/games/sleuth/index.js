// Sleuth, registered: its pure part (game.js), its view and its stylesheet. web/js/games.js imports this file.

import { registerGame } from '../../core/game-registry.js';
import { sleuthGame, tryArrived } from './game.js';
import { createSleuthView } from './view.js';

/** The view on the page, if any: a try shows in your private view while the round runs, which it last drew. */
let shown = null;

export const sleuth = registerGame({
  ...sleuthGame,
  moveArrived: (part, message) => tryArrived(part, shown?.privateView ?? null, message),
  stylesheet: new URL('./sleuth.css', import.meta.url).href,
  createView(actions) {
    const view = createSleuthView(actions);
    shown = view;
    return {
      element: view.element,
      update: view.update,
      destroy() {
        if (shown === view) shown = null;
        view.destroy();
      },
    };
  },
});
