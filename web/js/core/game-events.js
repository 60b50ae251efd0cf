// What just happened in a game, for the sounds, the buzz and the celebrations: each new app state is compared with
// the one before it, and the differences become cues (the names of web/js/core/sounds.js). Pure: no DOM, no clock
// (the round-ending cue takes the server time as an argument), so it is tested with node --test.

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

/** A Word Scramble round "is ending" this many seconds before its `phaseEndsAt`. */
export const ROUND_ENDING_SECONDS = 5;

/** Moves whose refusal (an error notice) plays the refused cue. */
const REFUSABLE_MOVES = new Set(['guess', 'word']);

/** The room state of `state` when it is a seated room's (else null). */
function roomStateOf(state) {
  return state?.room?.state ?? null;
}

function memberRole(roomState, id) {
  return roomState?.members?.find((member) => member.id === id)?.role ?? null;
}

function snowmanCues(before, after, you) {
  const cues = [];
  if (!before || !after) return cues;
  const sameGame = before.gameNumber === after.gameNumber;
  if (sameGame && after.guesses.length > before.guesses.length) {
    const newest = after.guesses[after.guesses.length - 1];
    const ended = before.status === 'inProgress' && after.status !== 'inProgress';
    // The guess that ends a game is heard as the win or the loss, not as one more hit or miss.
    if (!ended) cues.push(newest.hit ? CUE.HIT : CUE.MISS);
  }
  if (sameGame && before.status === 'inProgress' && (after.status === 'won' || after.status === 'lost')) {
    cues.push(after.status === 'won' ? CUE.WIN : CUE.LOSS);
  }
  const myTurnNow = after.status === 'inProgress' && after.turn === you;
  const myTurnBefore = sameGame && before.status === 'inProgress' && before.turn === you;
  if (myTurnNow && !myTurnBefore) cues.push(CUE.YOUR_TURN);
  return cues;
}

function scrambleCues(before, after, you, isPlayer) {
  const cues = [];
  if (!before || !after) return cues;
  const sameRound = before.matchNumber === after.matchNumber && before.round === after.round
    && before.phase === 'playing' && after.phase === 'playing';
  if (sameRound) {
    const known = new Set(before.found.map((found) => found.word));
    if (after.found.some((found) => found.player === you && !known.has(found.word))) cues.push(CUE.WORD_FOUND);
  }
  if (before.phase !== 'finished' && after.phase === 'finished') {
    const mine = after.finalScoreboard?.find((line) => line.player === you);
    // A spectator enjoys the end of the match; a player hears whether they came first.
    cues.push(!isPlayer || mine?.rank === 1 ? CUE.WIN : CUE.LOSS);
  }
  return cues;
}

/**
 * The cues between two app states (the store's): a turn that became yours, a guess that hit or missed, a word you
 * found, a move of yours the server refused, and the end of a game or match. Entering a room (no room state
 * before, or another room) gives none, so joining mid-game is quiet.
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
    if (after.game === 'snowman') cues.push(...snowmanCues(before.snowman, after.snowman, you));
    if (after.game === 'scramble') {
      cues.push(...scrambleCues(before.scramble, after.scramble, you, memberRole(after, you) === 'player'));
    }
  }
  const notice = next?.notice;
  if (notice && notice !== previous?.notice && REFUSABLE_MOVES.has(notice.move)) cues.push(CUE.REFUSED);
  return cues;
}

/**
 * Whether a Word Scramble round is in its last seconds: the round's key (`"match:round"`, to play the cue once a
 * round) or null.
 * @param {object|null} roomState
 * @param {number} serverNowSeconds the server's clock (store.js `serverNow`)
 */
export function roundEndingKey(roomState, serverNowSeconds) {
  const game = roomState?.scramble;
  if (!game || game.phase !== 'playing' || game.phaseEndsAt === null || game.phaseEndsAt === undefined) return null;
  const left = game.phaseEndsAt - serverNowSeconds;
  return left > 0 && left <= ROUND_ENDING_SECONDS ? `${game.matchNumber}:${game.round}` : null;
}

/** Whether it is `state`'s player's turn in a Snowman game in progress. */
export function isMyTurn(state) {
  const game = state?.room?.state?.snowman;
  return Boolean(game && game.status === 'inProgress' && state.room.you && game.turn === state.room.you);
}

/** The tab title: "Your turn · Snowman ABCD" on your turn, else `fallback`. */
export function turnTitle(state, fallback) {
  return isMyTurn(state) ? `Your turn · Snowman ${state.room.code}` : fallback;
}

/** Whether the room is in its waiting room: the room's `status` (or, from older servers, the game's own state). */
export function isWaiting(roomState) {
  if (!roomState) return false;
  if (roomState.status) return roomState.status === 'waiting';
  if (roomState.game === 'snowman') return roomState.snowman?.status === 'waiting';
  if (roomState.game === 'scramble') return roomState.scramble?.phase === 'lobby';
  return false;
}
