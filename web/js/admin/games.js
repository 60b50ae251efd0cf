// The games as the dashboard names them: from the page's registry (web/js/games.js), so a new game shows up in
// the room table, its filter and the rooms plot without a change here.

import { allGames, gameById } from '../core/game-registry.js';

/** A game's name, or its id for a game this page does not know. */
export function gameName(id) {
  return gameById(id)?.name ?? String(id ?? '');
}

/** Adds an `<option>` per registered game to the room table's game filter. */
export function fillGameFilter(select) {
  for (const game of allGames()) {
    const option = select.ownerDocument.createElement('option');
    option.value = game.id;
    option.textContent = game.name;
    select.append(option);
  }
}
