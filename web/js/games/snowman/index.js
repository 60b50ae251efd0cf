// Snowman, registered: its pure part (game.js), its views and its stylesheet. web/js/games.js imports this file.

import { registerGame } from '../../core/game-registry.js';
import { snowmanGame } from './game.js';
import { createSnowmanView } from './view.js';
import { createSnowmanHistoryView } from './history.js';
import { createSnowmanSettingsFields } from './settings-fields.js';

export const snowman = registerGame({
  ...snowmanGame,
  stylesheet: new URL('./snowman.css', import.meta.url).href,
  createView: createSnowmanView,
  /** Cards beside the game, above the chat. */
  createSideViews: (actions) => [createSnowmanHistoryView(actions)],
  createSettingsFields: createSnowmanSettingsFields,
});
