// Word Scramble, registered: its pure part (game.js), its view and its stylesheet. web/js/games.js imports this file.

import { registerGame } from '../../core/game-registry.js';
import { scrambleGame } from './game.js';
import { createScrambleView } from './view.js';

export const scramble = registerGame({
  ...scrambleGame,
  stylesheet: new URL('./scramble.css', import.meta.url).href,
  createView: createScrambleView,
});
