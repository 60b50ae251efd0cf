// The games this page can play, as plug-ins. A game lives in web/js/games/<id>/: its `index.js` calls
// `registerGame` with its description and hooks, and web/js/games.js imports each game's index (one line a game,
// in the order the lobby lists them). Shared code asks the registry and never names a game, so core/ needs no
// view code and a new game touches nothing outside its folder and that one line.
//
// A game's description (only `id`, `name` and `createView` are required):
// - `id`, `name`, `blurb`; `unit`: what a room plays one after another ("game", "match"): "Next game", "Start the game".
// - `settings`: how its steppers read, `{key, label, unit?}`; their bounds (`min`, `max`, `step`, `initial`, `off`)
//   come from the server's `GET /api/config` (core/game-settings.js `applyServerGames`), the one source of truth.
// - `createFlags`: fields every `create` of this game carries (`{waitForHost: true}`).
// - `extraSettings(settings)`: its settings that are not steppers, checked, as a `create` or `settings` sends them.
// - `roomWords(settings)`: the text a `create` asks this browser to remember for the new room ('' when none).
// - `moves` and `moveArrived(part, message, privateView)`: its messages the room state shows once applied (resent
//   after a lost socket until seen), and whether `part` (the room state's entry under the game's id) or
//   `privateView` (this member's private view, `state.privateView`, null when none) shows one: a move the game
//   keeps private shows only in the latter. A refusal of one of them is the game view's to show (beside its
//   input), never a toast. Two games never share a move.
// - `cues(before, after, {you, isPlayer})`: sound cue names (core/game-events.js `CUE`) between two states.
// - `timedRound(part)`: `{key, endsAt}` of a round running against the clock (for the round-ending cue), or null.
// - `isMyTurn(part, you)`: whether it is `you`'s turn now (tab title, your-turn styling).
// - `memberBadges(part, member)`: short texts shown beside a member's name in the room's list ("3/6", "solved").
// - `celebration`: what a win looks like (the celebration view's kinds: `snow`, `confetti`).
// - `stylesheet`: the URL of its CSS, linked once by the page (game-styles.js, beside the views).
// - `createView(actions)`, `createSideViews(actions)`, `createSettingsFields(actions, {id, onChange})`: its views
//   (the last one: settings beyond steppers, in the create dialog and the host's settings card).

const games = [];

/**
 * Adds a game (its folder's `index.js` calls this once). A second game with the same id is refused: two folders
 * would fight over one room state.
 * @param {object} game the game's description and hooks
 * @returns {object} the frozen description
 */
export function registerGame(game) {
  if (!game || typeof game.id !== 'string' || !game.id) throw new TypeError('a game needs a string id');
  if (games.some((known) => known.id === game.id)) throw new Error(`game "${game.id}" is registered twice`);
  // A message type names one game's move: the server refuses two games declaring the same one, and so does this.
  for (const move of game.moves ?? []) {
    const owner = games.find((known) => known.moves.includes(move));
    if (owner) throw new Error(`move "${move}" of game "${game.id}" is already game "${owner.id}"'s`);
  }
  const entry = Object.freeze({ settings: Object.freeze([]), moves: Object.freeze([]), unit: 'game', ...game });
  games.push(entry);
  return entry;
}

/** Removes a game (tests register fakes and take them away again). */
export function unregisterGame(id) {
  const index = games.findIndex((game) => game.id === id);
  if (index >= 0) games.splice(index, 1);
}

/** Every registered game, in registration order (the lobby's). */
export function allGames() {
  return games.slice();
}

/** The game with id `id` (a room state's `game`), or undefined. */
export function gameById(id) {
  return games.find((game) => game.id === id);
}

/** The game one of whose moves is the message type `type`, or undefined. */
export function gameOfMove(type) {
  return games.find((game) => game.moves.includes(type));
}

/** The game listed first (the lobby's first tab), or undefined before any is registered. */
export function firstGameId() {
  return games[0]?.id;
}

/** The room game's badges for `member` (its `memberBadges` hook): short texts, none for a game without the hook. */
export function memberBadges(roomState, member) {
  const badges = gameById(roomState?.game)?.memberBadges?.(gamePart(roomState), member) ?? [];
  return Array.isArray(badges) ? badges.filter((text) => typeof text === 'string' && text) : [];
}

/** A game's part of a room state: the entry under its id (`roomState[roomState.game]`), or null. */
export function gamePart(roomState) {
  const game = roomState?.game;
  return typeof game === 'string' ? roomState[game] ?? null : null;
}
