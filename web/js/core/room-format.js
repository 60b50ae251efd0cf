// Pure wording and shaping for the room's views (no DOM): hints by input device, countdowns, member presence
// while offline, the Snowman leaderboard rows, chat lines, and Word Scramble's phase texts. Kept here so node
// tests cover what players read.

/** The hint under the guess box: what to do, for the device in hand (touch screens tap, keyboards type). */
export function guessHint({ touch = false, spectator = false, live = true, inProgress = true, myTurn = true } = {}) {
  if (spectator) return 'You are watching this game.';
  if (!live) return 'Waiting for the connection…';
  if (!inProgress) return touch ? 'Tap a letter when the next game starts.' : 'Type a letter when the next game starts.';
  if (!myTurn) return 'Wait for your turn.';
  return touch ? 'Tap a letter.' : 'Type a letter or click one.';
}

/** The Word Scramble box's placeholder: short on a touch screen (a phone's width, and its keyboard has no Enter key label). */
export function wordPlaceholder({ touch = false, spectator = false, live = true } = {}) {
  if (spectator) return 'You are watching this match';
  if (!live) return 'Waiting for the connection…';
  return touch ? 'Type a word' : 'Type a word and press Enter';
}

/** Seconds as "1:05" (or "0:07"), rounding up so 0:00 means time is up. */
export function clockText(seconds) {
  const whole = Math.max(0, Math.ceil(Number.isFinite(seconds) ? seconds : 0));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/**
 * A deadline seen from now (both in server seconds): `{text, seconds, urgent, label}`, or null without a deadline.
 * `urgent` from `urgentAt` seconds left.
 */
export function countdown(endsAt, now, urgentAt = 10) {
  if (endsAt === null || endsAt === undefined || !Number.isFinite(endsAt)) return null;
  const left = Math.max(0, endsAt - now);
  const seconds = Math.ceil(left);
  return { text: clockText(left), seconds, urgent: left <= urgentAt, label: `${seconds} ${seconds === 1 ? 'second' : 'seconds'} left` };
}

export const UNKNOWN_STATUS_TITLE = 'Status unknown while you are offline';

/**
 * How a member's presence is shown: `here`, `away`, or `unknown` while this page is offline (the last known
 * status may be stale, so none is claimed). `title` is the tooltip, `spoken` a suffix for screen readers.
 */
export function presence(member, online) {
  if (!online) return { state: 'unknown', title: UNKNOWN_STATUS_TITLE, spoken: ', status unknown' };
  if (member?.connected) return { state: 'here', title: `${member.name} is here`, spoken: '' };
  return { state: 'away', title: `${member?.name ?? 'Someone'} is away`, spoken: ', away' };
}

function plural(count, singular, pluralForm = `${singular}s`) {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/**
 * The room leaderboard as rows to show, in rank order: `{key, rank, name, isYou, total, totalText, record}`,
 * where `record` reads "2 wins · 3 games". Rows without a player id or name are dropped.
 */
export function leaderboardRows(leaderboard, you) {
  if (!Array.isArray(leaderboard)) return [];
  return leaderboard
    .filter((row) => row && typeof row.player === 'string' && typeof row.name === 'string')
    .map((row, index) => {
      const total = Number.isFinite(row.total) ? row.total : 0;
      const wins = Number.isFinite(row.wins) ? row.wins : 0;
      const games = Number.isFinite(row.games) ? row.games : 0;
      return {
        key: row.player,
        rank: Number.isFinite(row.rank) ? row.rank : index + 1,
        name: row.name,
        isYou: row.player === you,
        total,
        totalText: plural(total, 'point'),
        record: `${plural(wins, 'win')} · ${plural(games, 'game')}`,
      };
    })
    .sort((a, b) => a.rank - b.rank || b.total - a.total);
}

/** A chat line as shown: system announcements have no author and are centred. */
export function chatLine(line, you) {
  const system = line?.system === true || (line?.player === null && line?.name === null);
  return {
    system,
    mine: !system && line?.player === you,
    name: system ? '' : String(line?.name ?? ''),
    text: String(line?.text ?? ''),
  };
}

/** The title of the settings card, by what the room plays one after another (a game's `unit`): "game", "match". */
export function nextSettingsWording(unit = 'game') {
  return { heading: `Next ${unit}`, save: `Save for next ${unit}`, applies: `Applies from the next ${unit}.` };
}

/** Word Scramble's status line: the host is told what to do rather than to wait for themself. */
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

/** The keyboard's letters in alphabetical order, for the order of keys in the phone layout. */
export const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
