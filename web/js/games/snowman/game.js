// Snowman's pure part (no DOM, tested with node --test): its description for the registry, its settings, the
// word packs, what its moves look like once applied, the sounds its changes make and the wording its view shows.
// index.js adds the views and registers it.

import { CUE } from '../../core/game-events.js';

/** Snowman's word packs (the server's `pack` setting), in the order the select lists them. */
export const WORD_PACKS = Object.freeze([
  Object.freeze({ id: 'general', label: 'General' }),
  Object.freeze({ id: 'animals', label: 'Animals' }),
  Object.freeze({ id: 'food', label: 'Food' }),
  Object.freeze({ id: 'nature', label: 'Nature' }),
  Object.freeze({ id: 'home', label: 'Around the house' }),
]);

/** Where the secret words come from (`wordSource`): the pack, only the host's words, or both. */
export const WORD_SOURCES = Object.freeze([
  Object.freeze({ id: 'custom', label: 'Only my words' }),
  Object.freeze({ id: 'mixed', label: 'Mixed with the pack' }),
]);

/** The label of pack `id` ("Around the house"), or the id itself for a pack this page does not know. */
export function packLabel(id) {
  return WORD_PACKS.find((pack) => pack.id === id)?.label ?? String(id ?? WORD_PACKS[0].label);
}

/**
 * The word settings of a `create` or `settings` message: `pack` (a known pack), and with a non-empty
 * `customWords` list, the list and `wordSource` (`custom` or `mixed`).
 */
export function wordSettings(settings) {
  if (!settings) return {};
  const result = {};
  if (WORD_PACKS.some((pack) => pack.id === settings.pack)) result.pack = settings.pack;
  const words = typeof settings.customWords === 'string' ? settings.customWords.trim() : '';
  if (words) {
    result.customWords = words;
    result.wordSource = WORD_SOURCES.some((source) => source.id === settings.wordSource) ? settings.wordSource : 'custom';
  }
  return result;
}

/** What the others read about the words: "The pack", "Host's words only (42)", "Host's words + pack (42)". */
export function wordSourceSummary(next) {
  const count = Number(next?.customWords) || 0;
  if (!count || next?.wordSource === 'pack' || !next?.wordSource) return 'The pack';
  return next.wordSource === 'mixed' ? `Host's words + pack (${count})` : `Host's words only (${count})`;
}

/** The hint under the guess box: what to do, for the device in hand (touch screens tap, keyboards type). */
export function guessHint({ touch = false, spectator = false, live = true, inProgress = true, myTurn = true } = {}) {
  if (spectator) return 'You are watching this game.';
  if (!live) return 'Waiting for the connection…';
  if (!inProgress) return touch ? 'Tap a letter when the next game starts.' : 'Type a letter when the next game starts.';
  if (!myTurn) return 'Wait for your turn.';
  return touch ? 'Tap a letter.' : 'Type a letter or click one.';
}

/** The cues between two Snowman states: a hit or a miss, the win or the loss, and a turn that became yours. */
export function snowmanCues(before, after, { you }) {
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

/** Snowman as the registry (core/game-registry.js) describes it, without its views. */
export const snowmanGame = Object.freeze({
  id: 'snowman',
  name: 'Snowman',
  blurb: 'Guess the secret word letter by letter before the snowman melts.',
  unit: 'game',
  /** The steppers' labels and units; their bounds come from the server (`GET /api/config`). */
  settings: Object.freeze([
    Object.freeze({ key: 'maxWrongGuesses', label: 'Wrong guesses allowed' }),
    Object.freeze({ key: 'turnSeconds', label: 'Turn timer', unit: 's' }),
  ]),
  /** A Snowman room opens on its waiting room until the host starts. */
  createFlags: Object.freeze({ waitForHost: true }),
  extraSettings: wordSettings,
  /** The host's pasted list: this browser keeps it for the new room (the server only tells how many words). */
  roomWords(settings) {
    return typeof settings?.customWords === 'string' && settings.customWords.trim() ? settings.customWords : '';
  },
  moves: Object.freeze(['guess']),
  /** Whether `part` shows `message` (a `guess`) applied. */
  moveArrived(part, message) {
    const letter = String(message.letter).trim().charAt(0).toUpperCase();
    return Boolean(part?.guesses?.some((guess) => guess.letter === letter));
  },
  cues: snowmanCues,
  isMyTurn(part, you) {
    return Boolean(part && part.status === 'inProgress' && you && part.turn === you);
  },
  celebration: 'snow',
});
