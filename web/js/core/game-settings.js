// The room settings a host can choose (each game's module declares its own, with the ranges of PROTOCOL.md), and
// the stepping rules of their controls.

import { GAMES } from '../games.js';

export { GAMES };

/**
 * Settings of the party round (PARTY-SPEC.md) that a game module may not declare yet; each is added to its game's
 * list unless the module already has that key.
 */
const PARTY_SETTINGS = Object.freeze({
  scramble: Object.freeze([
    Object.freeze({ key: 'breakSeconds', label: 'Break between rounds', min: 5, max: 60, step: 5, initial: 20, unit: 's' }),
  ]),
});

/**
 * The settings of each game, by game id, as its module declares them. One setting: `min`/`max` are the
 * protocol's bounds; `step` is how far one press of − or + moves; `off` (when present) is the value below `min`
 * that means "none" and is sent as `null`.
 */
export const SETTINGS = Object.freeze(Object.fromEntries(GAMES.map((game) => {
  const extras = (PARTY_SETTINGS[game.id] ?? []).filter((extra) => !game.settings.some((spec) => spec.key === extra.key));
  return [game.id, extras.length ? Object.freeze([...game.settings, ...extras]) : game.settings];
})));

/** Snowman's word packs (the server's `pack` setting), in the order the select lists them. */
export const WORD_PACKS = Object.freeze([
  Object.freeze({ id: 'general', label: 'General' }),
  Object.freeze({ id: 'animals', label: 'Animals' }),
  Object.freeze({ id: 'food', label: 'Food' }),
  Object.freeze({ id: 'nature', label: 'Nature' }),
  Object.freeze({ id: 'home', label: 'Around the house' }),
]);

/** Where Snowman's secret words come from (`wordSource`): the pack, only the host's words, or both. */
export const WORD_SOURCES = Object.freeze([
  Object.freeze({ id: 'custom', label: 'Only my words' }),
  Object.freeze({ id: 'mixed', label: 'Mixed with the pack' }),
]);

/** The label of pack `id` ("Around the house"), or the id itself for a pack this page does not know. */
export function packLabel(id) {
  return WORD_PACKS.find((pack) => pack.id === id)?.label ?? String(id ?? WORD_PACKS[0].label);
}

/**
 * The word settings of a Snowman `create` or `settings` message: `pack` (a known pack), and with a non-empty
 * `customWords` list, the list and `wordSource` (`custom` or `mixed`). Other games have none.
 */
export function wordSettings(game, settings) {
  if (game !== 'snowman' || !settings) return {};
  const result = {};
  if (WORD_PACKS.some((pack) => pack.id === settings.pack)) result.pack = settings.pack;
  const words = typeof settings.customWords === 'string' ? settings.customWords.trim() : '';
  if (words) {
    result.customWords = words;
    result.wordSource = WORD_SOURCES.some((source) => source.id === settings.wordSource) ? settings.wordSource : 'custom';
  }
  return result;
}

/** The specification of `key` in `game`, or undefined. */
export function settingSpec(game, key) {
  return (SETTINGS[game] ?? []).find((spec) => spec.key === key);
}

/** Whether the setting can be switched off (its value `null`). */
function hasOff(spec) {
  return Object.prototype.hasOwnProperty.call(spec, 'off');
}

/**
 * Brings any value into the setting's range: numbers are rounded and clamped; for a setting that can be off,
 * `null`, `0` and anything below `min` mean off.
 */
export function clampSetting(spec, value) {
  if (hasOff(spec) && (value === null || value === undefined || value === 0 || Number(value) < spec.min)) return null;
  const number = Math.round(Number(value));
  if (!Number.isFinite(number)) return hasOff(spec) ? null : spec.initial;
  return Math.min(spec.max, Math.max(spec.min, number));
}

/**
 * The value after pressing + (`direction` 1) or − (`direction` -1) `times` times; stays within the range.
 * Values off the step grid snap to it (e.g. 47 → 60 with +, 47 → 45 with −, for a step of 15 from 30).
 */
export function stepSetting(spec, value, direction, times = 1) {
  let current = clampSetting(spec, value);
  for (let i = 0; i < times; i += 1) {
    if (current === null) {
      if (direction > 0) current = spec.min;
      continue;
    }
    if (direction < 0 && current === spec.min && hasOff(spec)) {
      current = null;
      continue;
    }
    const offset = (current - spec.min) / spec.step;
    const target = direction > 0 ? Math.floor(offset) + 1 : Math.ceil(offset) - 1;
    current = Math.min(spec.max, Math.max(spec.min, spec.min + target * spec.step));
  }
  return current;
}

/** Lowest and highest values: for Home and End keys. */
export function settingBounds(spec) {
  return { lowest: hasOff(spec) ? null : spec.min, highest: spec.max };
}

/** How a value reads in a control: "Off", "45 s", "7". */
export function formatSetting(spec, value) {
  if (value === null || value === undefined) return 'Off';
  return spec.unit === 's' ? `${value} s` : String(value);
}

/** The initial settings of a game, as sent in `create`. */
export function defaultSettings(game) {
  return Object.fromEntries((SETTINGS[game] ?? []).map((spec) => [spec.key, spec.initial]));
}

/** `settings` with every known key clamped (and Snowman's word settings checked), unknown keys dropped, ready to send. */
export function normalizeSettings(game, settings) {
  return {
    ...Object.fromEntries((SETTINGS[game] ?? []).map((spec) => [
      spec.key, clampSetting(spec, settings?.[spec.key] ?? (hasOff(spec) && settings?.[spec.key] === null ? null : spec.initial)),
    ])),
    ...wordSettings(game, settings),
  };
}

/**
 * Room codes are 4 letters (PROTOCOL.md); a server split over several instances puts a fifth letter in front
 * naming the instance, so 5 letters are accepted too. Which letters exist is the server's business: a code it
 * never issued gets `room-not-found`.
 */
export const ROOM_CODE_LENGTHS = Object.freeze([4, 5]);

/** The code typed by a person, uppercase and without spaces, or null if it cannot be a room code. */
export function parseRoomCode(text) {
  const code = String(text ?? '').replace(/\s+/g, '').toUpperCase();
  return /^[A-Z]{4,5}$/.test(code) ? code : null;
}

/** Limits shared with the server (ClientMessage and NameRules). Names count grapheme clusters (what a person
 * sees as one character: `👩‍💻` and `🏳️‍🌈` are one each), as the server does. */
export const MAX_NAME_LENGTH = 20;
export const MAX_CHAT_LENGTH = 200;
/**
 * `maxlength` for name inputs. The browser counts UTF-16 code units there (one family emoji is 11 of them), so the
 * input allows more and the 20-character rule is checked on submit by `nameProblem`.
 */
export const NAME_INPUT_MAX_LENGTH = 120;

const graphemes = typeof Intl !== 'undefined' && typeof Intl.Segmenter === 'function'
  ? new Intl.Segmenter(undefined, { granularity: 'grapheme' })
  : null;

/** Code points that extend the character before them (when Intl.Segmenter is missing). */
const EXTENDING = /[\p{M}\u200D\uFE00-\uFE0F\u{1F3FB}-\u{1F3FF}\u{E0020}-\u{E007F}]/u;
const REGIONAL_INDICATOR = /[\u{1F1E6}-\u{1F1FF}]/u;

/**
 * How many characters a person sees in `text`: grapheme clusters by Intl.Segmenter, or, in browsers without it
 * (or with `segmenter: null`), an approximation that joins marks, variation selectors, skin tones, tags, ZWJ
 * sequences and flag pairs to the character they belong to.
 */
export function graphemeCount(text, { segmenter = graphemes } = {}) {
  const value = String(text ?? '');
  if (segmenter) {
    let count = 0;
    for (const _ of segmenter.segment(value)) count += 1;
    return count;
  }
  let count = 0;
  let joined = false;
  let pendingFlag = false;
  for (const point of value) {
    if (joined) {
      joined = false;
    } else if (EXTENDING.test(point)) {
      joined = point === '\u200D';
    } else if (REGIONAL_INDICATOR.test(point) && pendingFlag) {
      pendingFlag = false;
    } else {
      pendingFlag = REGIONAL_INDICATOR.test(point);
      count += 1;
    }
  }
  return count;
}

/** C0 and C1 controls (tabs and newlines are collapsed to spaces before this is checked). */
const CONTROL = /\p{Cc}/u;
/** Bidirectional overrides, embeddings and isolates: they can make a name read as someone else's. */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;
/** Private-use code points: other devices draw them as boxes, or as something else. */
const PRIVATE_USE = /\p{Co}/u;
/** What draws nothing: format characters, spaces, variation selectors, the Hangul fillers. */
const INVISIBLE = /^[\p{Cf}\p{Z}\p{M}\uFE00-\uFE0F\u115F\u1160\u3164\uFFA0\u{E0000}-\u{E0FFF}]*$/u;

/** A name as typed, with the whitespace trimmed and inner runs collapsed to one space (as the server does). */
function collapse(text) {
  return String(text ?? '').trim().replace(/\s+/g, ' ');
}

/**
 * Why the server would refuse `text` as a name (the sentence its NameRules send), or null when it is fine. Emoji,
 * accents and every other printable character are allowed; refused are empty or over-long names, control
 * characters, bidirectional controls, private-use characters and names that are only invisible characters.
 * (Unassigned code points are left to the server, whose Unicode version may differ from the browser's.)
 */
export function nameProblem(text) {
  const name = collapse(text);
  if (name.length === 0) return 'Type a name of 1 to 20 characters.';
  if (graphemeCount(name) > MAX_NAME_LENGTH) return `Names can be at most ${MAX_NAME_LENGTH} characters.`;
  if (CONTROL.test(name)) return 'Names cannot contain control characters such as tabs or line breaks.';
  if (BIDI_CONTROL.test(name)) return 'Names cannot contain characters that reverse the direction of text.';
  if (PRIVATE_USE.test(name)) return 'Names cannot contain private-use characters, which other devices cannot show.';
  if (INVISIBLE.test(name)) return 'Names cannot be only spaces or invisible characters.';
  return null;
}

/** A player name as the server will accept it (whitespace collapsed), or null when `nameProblem` has a reason. */
export function cleanName(text) {
  return nameProblem(text) === null ? collapse(text) : null;
}
