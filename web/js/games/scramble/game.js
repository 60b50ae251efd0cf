// Word Scramble's pure part (no DOM, tested with node --test): its description for the registry, its settings,
// what a found word looks like in the state, the sounds its changes make and the wording its view shows.
// index.js adds the view and registers it.

import { CUE } from '../../core/game-events.js';

/** The box's placeholder: short on a touch screen (a phone's width, and its keyboard has no Enter key label). */
export function wordPlaceholder({ touch = false, spectator = false, live = true } = {}) {
  if (spectator) return 'You are watching this match';
  if (!live) return 'Waiting for the connection…';
  return touch ? 'Type a word' : 'Type a word and press Enter';
}

/** The status line: the host is told what to do rather than to wait for themself. */
export function scrambleStatusLine(game, hosting) {
  if (hosting && game?.phase === 'lobby' && game.canStartNext) return 'Start the match when everyone is here';
  return game?.statusLine ?? '';
}

/** What the list of found words says when it is empty, by phase (`secondsLeft` of the intermission if known). */
export function foundEmptyText(phase, round, secondsLeft = null) {
  if (phase === 'intermission') {
    const next = Number.isFinite(secondsLeft) ? `Next round starts in ${Math.max(0, Math.ceil(secondsLeft))} s.` : 'The next round starts soon.';
    return `Nobody found a word in round ${round}. ${next}`;
  }
  if (phase === 'finished') return 'No words in the last round.';
  return 'No words yet — be the first!';
}

/** The heading of the found words card, by phase. */
export function foundHeading(phase, round) {
  return phase === 'intermission' ? `Round ${round} results` : 'Words found';
}

/** The cues between two states: a word you found this round, and the end of the match (won or not). */
export function scrambleCues(before, after, { you, isPlayer }) {
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

/** Word Scramble as the registry (core/game-registry.js) describes it, without its view. */
export const scrambleGame = Object.freeze({
  id: 'scramble',
  name: 'Word Scramble',
  blurb: 'Race your friends to find words hidden in eight letters.',
  unit: 'match',
  /** The steppers' labels and units; their bounds come from the server (`GET /api/config`). */
  settings: Object.freeze([
    Object.freeze({ key: 'rounds', label: 'Rounds' }),
    Object.freeze({ key: 'roundSeconds', label: 'Round length', unit: 's' }),
    Object.freeze({ key: 'minWordLength', label: 'Shortest word', unit: 'letters' }),
    Object.freeze({ key: 'breakSeconds', label: 'Break between rounds', unit: 's' }),
  ]),
  moves: Object.freeze(['word']),
  /** Whether `part` shows `message` (a `word`) found, this round or in the round just over. */
  moveArrived(part, message) {
    const word = String(message.word).trim().toLowerCase();
    return Boolean(part?.found?.some((found) => found.word === word)
      || part?.lastRound?.found?.some((found) => found.word === word));
  },
  cues: scrambleCues,
  /** A round being played against the clock: its key (`"match:round"`, one cue a round) and end. */
  timedRound(part) {
    if (!part || part.phase !== 'playing' || part.phaseEndsAt === null || part.phaseEndsAt === undefined) return null;
    return { key: `${part.matchNumber}:${part.round}`, endsAt: part.phaseEndsAt };
  },
  celebration: 'confetti',
});
