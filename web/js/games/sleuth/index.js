// Sleuth, registered: its pure part (game.js), its view and its stylesheet. web/js/games.js imports this file.

import { registerGame } from '../../core/game-registry.js';
import { sleuthGame } from './game.js';
import { createSleuthView } from './view.js';

export const sleuth = registerGame({
  ...sleuthGame,
  stylesheet: new URL('./sleuth.css', import.meta.url).href,
  createView: createSleuthView,
});
