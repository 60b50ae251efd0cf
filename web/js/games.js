// Every game the client can play, in the order the lobby shows them. A game is one view module in views/ that
// exports its description (id, name, blurb, settings, the unit it plays in, its moves) with `createView`; adding a
// game is that module and one line here.

import { snowman } from './views/snowman.js';
import { scramble } from './views/scramble.js';

export const GAMES = Object.freeze([
  snowman,
  scramble,
]);

/** The game with id `id` (a room state's `game`), or undefined. */
export function gameById(id) {
  return GAMES.find((game) => game.id === id);
}

/** The game one of whose moves is the message type `type` (`guess`, `word`), or undefined. */
export function gameOfMove(type) {
  return GAMES.find((game) => game.moves.includes(type));
}
