// Sleuth's pure part (no DOM, tested with node --test): its description for the registry, what a try's marks
// mean and how they read aloud, your own tries (from your private view while a round runs), the keyboard's best
// known state of each letter, the sounds its changes make and the wording its view shows. index.js adds the view.

import { CUE } from '../../core/game-events.js';

/** Letters in a word, and tries in a round (the server's `wordLength` and `maxTries` say the same). */
export const WORD_LENGTH = 5;
export const MAX_TRIES = 6;

/** A try's marks, one character per letter of its `pattern` (Sources/WordGames/Sleuth/PROTOCOL.md). */
export const MARK = Object.freeze({ RIGHT: 'r', PRESENT: 'p', ABSENT: 'a' });

/** What each mark is called, in labels and the key. */
const MARK_NAMES = Object.freeze({ r: 'right place', p: 'in the word', a: 'not in the word' });

/** The symbol drawn on a tile besides its colour, so that colour is never the only cue. */
const MARK_SYMBOLS = Object.freeze({ r: '●', p: '○', a: '×' });

/** How strong a mark is: a letter's best known state is its strongest mark. */
const MARK_RANK = Object.freeze({ a: 1, p: 2, r: 3 });

/** A mark's name ("right place"), or '' for none. */
export function markName(mark) {
  return MARK_NAMES[mark] ?? '';
}

/** A mark's symbol (● right place, ○ in the word, × not in it), or '' for none. */
export function markSymbol(mark) {
  return MARK_SYMBOLS[mark] ?? '';
}

/** The marks of a pattern ("rpaar") as a list, `WORD_LENGTH` long (unknown characters are left out). */
export function marksOf(pattern) {
  return [...String(pattern ?? '')].filter((mark) => mark in MARK_NAMES).slice(0, WORD_LENGTH);
}

/** A tile's accessible label: "E, right place"; a tile without its letter (another player's): "right place". */
export function tileLabel(letter, mark) {
  const name = markName(mark);
  if (!letter) return name;
  return name ? `${letter.toUpperCase()}, ${name}` : letter.toUpperCase();
}

/** A whole try read aloud: "CRANE: C right place, R in the word, …" or, without letters, "2 right place, 1 in the word, 2 not in the word". */
export function tryLabel(pattern, word = null) {
  const marks = marksOf(pattern);
  if (word) {
    const letters = [...word.toUpperCase()];
    return `${word.toUpperCase()}: ${marks.map((mark, index) => tileLabel(letters[index], mark)).join(', ')}`;
  }
  const counts = [MARK.RIGHT, MARK.PRESENT, MARK.ABSENT].map((mark) => [mark, marks.filter((m) => m === mark).length]);
  return counts.filter(([, count]) => count > 0).map(([mark, count]) => `${count} ${markName(mark)}`).join(', ');
}

/**
 * Your own tries of the round shown in `part`, with their letters: the round's public tries once it is over,
 * else your private view's (only when it belongs to this round: a private view from the round before is stale).
 * @returns {Array<{word: string, pattern: string}>}
 */
export function ownTries(part, privateView, you) {
  if (!part || part.phase === 'lobby') return [];
  if (part.phase === 'over') {
    return (part.tries ?? []).filter((entry) => entry.player === you && entry.word)
      .map((entry) => ({ word: entry.word, pattern: entry.pattern }));
  }
  if (!privateView || privateView.round !== part.round || !Array.isArray(privateView.tries)) return [];
  return privateView.tries.filter((entry) => typeof entry?.word === 'string')
    .map((entry) => ({ word: entry.word, pattern: entry.pattern }));
}

/** Each player's patterns this round, in the order of their tries: Map player id → [{pattern, word}]. */
export function triesByPlayer(part) {
  const byPlayer = new Map();
  for (const entry of part?.tries ?? []) {
    if (!byPlayer.has(entry.player)) byPlayer.set(entry.player, []);
    byPlayer.get(entry.player).push({ pattern: entry.pattern, word: entry.word ?? null });
  }
  return byPlayer;
}

/**
 * The keyboard: each letter's best known state over `tries` (right place beats in the word beats not in it).
 * @param {Array<{word: string, pattern: string}>} tries
 * @returns {Map<string, string>} uppercase letter → mark; letters never tried are absent from the map
 */
export function keyboardStates(tries) {
  const states = new Map();
  for (const { word, pattern } of tries) {
    const letters = [...String(word ?? '').toUpperCase()];
    marksOf(pattern).forEach((mark, index) => {
      const letter = letters[index];
      if (!letter) return;
      const known = states.get(letter);
      if (!known || MARK_RANK[mark] > MARK_RANK[known]) states.set(letter, mark);
    });
  }
  return states;
}

/** A key's accessible label: "E, in the word", or just "E" for a letter not tried yet. */
export function keyLabel(letter, mark) {
  return tileLabel(letter, mark);
}

/**
 * The word being typed after a key: a letter is added (up to five), Backspace takes the last one away, anything
 * else changes nothing.
 */
export function typedAfterKey(typed, key) {
  const current = String(typed ?? '');
  if (key === 'Backspace') return current.slice(0, -1);
  if (/^[a-zA-Z]$/.test(key) && current.length < WORD_LENGTH) return current + key.toLowerCase();
  return current;
}

/** Whether `you` can try a word now: a round runs, you play it, you have neither solved it nor run out. */
export function canTry(part, you) {
  if (!part || part.phase !== 'playing') return false;
  const board = part.boards?.find((entry) => entry.player === you);
  return Boolean(board && !board.done);
}

/** The badges beside a member's name: "3/6" while they play, "solved in 3" or "out of tries" once done. */
export function sleuthBadges(part, member) {
  if (!part || part.phase === 'lobby' || !member) return [];
  const board = part.boards?.find((entry) => entry.player === member.id);
  if (!board) return [];
  if (board.solved) return [`solved in ${board.tries}`];
  if (board.done) return ['out of tries'];
  return [`${board.tries}/${part.maxTries ?? MAX_TRIES}`];
}

/** The line under the title: what to do now, for a player, a spectator or the host. */
export function sleuthStatus(part, { you, isPlayer, hosting }) {
  if (!part) return '';
  if (part.phase === 'lobby') return hosting ? 'Start the first round when everyone is here' : part.statusLine;
  if (part.phase === 'over') return part.statusLine;
  const board = part.boards?.find((entry) => entry.player === you);
  if (!isPlayer || !board) return 'You are watching: tries show their marks now, their letters when the round ends.';
  if (board.solved) return `Solved in ${board.tries}! Waiting for the others.`;
  if (board.done) return 'No tries left. The word shows when the round ends.';
  const left = (part.maxTries ?? MAX_TRIES) - board.tries;
  return `Find the ${part.wordLength ?? WORD_LENGTH}-letter word: ${left} ${left === 1 ? 'try' : 'tries'} left`;
}

/** How a round scores, for the rules line (Sources/WordGames/Sleuth/PROTOCOL.md). */
export const SCORING_TEXT = 'Solve in fewer tries for more points: 60 on the first try down to 10 on the sixth, plus up to 10 for time left.';

/** The cues between two states: a try of yours answered (a hit if any letter is in the word), your solve, the round's end. */
export function sleuthCues(before, after, { you, isPlayer }) {
  const cues = [];
  if (!before || !after) return cues;
  const sameRound = before.round === after.round && before.phase === 'playing';
  const mineBefore = before.boards?.find((entry) => entry.player === you);
  const mineAfter = after.boards?.find((entry) => entry.player === you);
  if (sameRound && mineBefore && mineAfter && mineAfter.tries > mineBefore.tries) {
    if (mineAfter.solved) {
      cues.push(CUE.WIN);
    } else {
      const patterns = (after.tries ?? []).filter((entry) => entry.player === you);
      const newest = marksOf(patterns[patterns.length - 1]?.pattern);
      cues.push(newest.some((mark) => mark !== MARK.ABSENT) ? CUE.HIT : CUE.MISS);
    }
  }
  if (sameRound && after.phase === 'over' && isPlayer && mineAfter && !mineAfter.solved) cues.push(CUE.LOSS);
  return cues;
}

/**
 * Whether a `try` move shows in the state: the round's public tries show its word only once the round is over,
 * so while it runs your private view (the registry hook's third argument) is read.
 */
export function tryArrived(part, privateView, message) {
  const word = String(message?.word ?? '').trim().toLowerCase();
  if (!part || !word) return false;
  if (part.phase === 'over') return (part.tries ?? []).some((entry) => entry.word === word);
  return Boolean(privateView && privateView.round === part.round
    && privateView.tries?.some((entry) => entry.word === word));
}

/** Sleuth as the registry (core/game-registry.js) describes it, without its view. */
export const sleuthGame = Object.freeze({
  id: 'sleuth',
  name: 'Sleuth',
  blurb: 'Everyone hunts the same five-letter word: six tries, and only your marks are public.',
  unit: 'round',
  /** The steppers' labels and units; their bounds come from the server (`GET /api/config`). */
  settings: Object.freeze([
    Object.freeze({ key: 'roundSeconds', label: 'Round length', unit: 's' }),
  ]),
  moves: Object.freeze(['try']),
  moveArrived: (part, message, privateView = null) => tryArrived(part, privateView, message),
  cues: sleuthCues,
  /** A round being played against the clock: its key (one cue a round) and end. */
  timedRound(part) {
    if (!part || part.phase !== 'playing' || part.roundEndsAt === null || part.roundEndsAt === undefined) return null;
    return { key: `sleuth:${part.round}`, endsAt: part.roundEndsAt };
  },
  memberBadges: sleuthBadges,
  celebration: 'confetti',
});
