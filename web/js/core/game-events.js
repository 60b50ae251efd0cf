// What just happened in a game, for the sounds, the buzz and the celebrations: each new app state is compared with
// the one before it, and the differences become cues (the names of web/js/core/sounds.js). Each game says what its
// own changes sound like (its `cues` hook, core/game-registry.js); this file adds what every room shares. Pure: no
// DOM, no clock (the round-ending cue takes the server time as an argument), so it is tested with node --test.

import { gameById, gameOfMove, gamePart } from './game-registry.js';

/** The cues, as web/js/core/sounds.js names them. */
export const CUE = Object.freeze({
  YOUR_TURN: 'yourTurn',
  HIT: 'hit',
  MISS: 'miss',
  WORD_FOUND: 'wordFound',
  REFUSED: 'refused',
  ROUND_ENDING: 'roundEnding',
  WIN: 'win',
  LOSS: 'loss',
});

/** A timed round "is ending" this many seconds before it ends. */
export const ROUND_ENDING_SECONDS = 5;

/** Moves whose refusal (an error notice) plays the refused cue: the registered games' moves. */
function refusable(move) {
  return Boolean(move && gameOfMove(move));
}

/** The room state of `state` when it is a seated room's (else null). */
function roomStateOf(state) {
  return state?.room?.state ?? null;
}

function memberRole(roomState, id) {
  return roomState?.members?.find((member) => member.id === id)?.role ?? null;
}

/**
 * The cues between two app states (the store's): what the room's game hears in its change (its `cues` hook: a
 * turn that became yours, a guess that hit or missed, a word found, the end of a game), and a move of yours the
 * server refused. Entering a room (no room state before, or another room) gives none, so joining mid-game is quiet.
 * @param {object} previous the app state before
 * @param {object} next the app state now
 * @returns {string[]} cue names, in the order to play them
 */
export function gameCues(previous, next) {
  const cues = [];
  const after = roomStateOf(next);
  const before = roomStateOf(previous);
  const you = next?.room?.you;
  if (after && before && previous.room.code === next.room.code && before.game === after.game && you) {
    const game = gameById(after.game);
    const context = { you, isPlayer: memberRole(after, you) === 'player' };
    if (game?.cues) cues.push(...game.cues(gamePart(before), gamePart(after), context));
  }
  const notice = next?.notice;
  if (notice && notice !== previous?.notice && refusable(notice.move)) cues.push(CUE.REFUSED);
  return cues;
}

/** The round of the room's game running against the clock (its `timedRound` hook): `{key, endsAt}` or null. */
export function timedRound(roomState) {
  const round = gameById(roomState?.game)?.timedRound?.(gamePart(roomState)) ?? null;
  return round && Number.isFinite(round.endsAt) ? round : null;
}

/**
 * Whether a timed round is in its last seconds: the round's key (to play the cue once a round) or null.
 * @param {object|null} roomState
 * @param {number} serverNowSeconds the server's clock (store.js `serverNow`)
 */
export function roundEndingKey(roomState, serverNowSeconds) {
  const round = timedRound(roomState);
  if (!round) return null;
  const left = round.endsAt - serverNowSeconds;
  return left > 0 && left <= ROUND_ENDING_SECONDS ? round.key : null;
}

/** Whether it is `state`'s player's turn in the room's game (its `isMyTurn` hook; games without turns: never). */
export function isMyTurn(state) {
  const roomState = state?.room?.state;
  const you = state?.room?.you;
  return Boolean(roomState && you && gameById(roomState.game)?.isMyTurn?.(gamePart(roomState), you));
}

/** The tab title: "Your turn · <game> ABCD" on your turn, else `fallback`. */
export function turnTitle(state, fallback) {
  if (!isMyTurn(state)) return fallback;
  const game = gameById(state.room.state.game);
  return `Your turn · ${game?.name ?? state.room.state.game} ${state.room.code}`;
}

/** Whether the room is in its waiting room (the room's `status`, PROTOCOL.md). */
export function isWaiting(roomState) {
  return roomState?.status === 'waiting';
}
