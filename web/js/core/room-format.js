// Pure wording and shaping for the room's views (no DOM): countdowns, member presence while offline, the room
// leaderboard's rows, chat lines and the settings card's wording. Kept here so node tests cover what players read;
// each game's own wording lives in its folder (web/js/games/<id>/game.js).

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
  const system = line?.system === true;
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

/** The keyboard's letters in alphabetical order, for the order of keys in the phone layout. */
export const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
