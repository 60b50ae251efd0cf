// The room settings a host can choose and the stepping rules of their controls. The server's `GET /api/config`
// sends every game's settings with their bounds (`applyServerGames`), so the steppers and the server's checks share
// one source of truth; a game module only says how its steppers read (core/game-registry.js `settings`: the label
// when the server sends none, the unit).

import { allGames, gameById } from './game-registry.js';

/** The settings the server sent for each game id (`/api/config` `games[].settings`), once it has. */
const fromServer = new Map();
/** `gameSettings`' answers, kept so that a game's list stays the same array until the server sends another. */
const merged = new Map();

/** The fields of one setting that the server's list may carry; anything else in it is ignored. */
const SETTING_FIELDS = ['key', 'label', 'min', 'max', 'step', 'initial', 'unit', 'off'];

/** A setting from the server with what the page needs, or null when it cannot be a stepper. */
function serverSpec(raw) {
  if (!raw || typeof raw.key !== 'string') return null;
  const numbers = ['min', 'max', 'step', 'initial'].every((field) => Number.isFinite(raw[field]));
  if (!numbers || raw.min > raw.max || raw.step <= 0) return null;
  const spec = {};
  for (const field of SETTING_FIELDS) {
    if (Object.prototype.hasOwnProperty.call(raw, field)) spec[field] = raw[field];
  }
  // `off` says the setting can be switched off; its value is `null` on the wire: the stepper shows "Off", sends null.
  if ('off' in spec) spec.off = null;
  return spec;
}

/**
 * Takes the server's games (`GET /api/config` `games`: `[{id, title, settings: [{key, label, min, max, step,
 * initial, unit?, off?}]}]`). Each game's settings become the server's list, with the game module's label and
 * unit where the server has none; a setting without usable bounds is left out.
 * @returns {boolean} whether any game's settings changed
 */
export function applyServerGames(games) {
  if (!Array.isArray(games)) return false;
  let changed = false;
  for (const entry of games) {
    if (!entry || typeof entry.id !== 'string' || !Array.isArray(entry.settings)) continue;
    const specs = entry.settings.map(serverSpec).filter(Boolean);
    fromServer.set(entry.id, specs);
    merged.delete(entry.id);
    changed = true;
  }
  return changed;
}

/** Forgets the server's settings (tests). */
export function forgetServerGames() {
  fromServer.clear();
  merged.clear();
}

/**
 * The settings of game `id`, in the order its steppers show them: none until the server's have arrived. One
 * setting: `min`/`max` are the server's bounds; `step` is how far one press of − or + moves; `off` (when present)
 * means a value below `min` is "none", sent as `null`.
 */
export function gameSettings(id) {
  if (merged.has(id)) return merged.get(id);
  const declared = gameById(id)?.settings ?? [];
  const list = (fromServer.get(id) ?? []).map((spec) => {
    const own = declared.find((entry) => entry.key === spec.key);
    const label = spec.label || own?.label || spec.key;
    return Object.freeze({ ...(own?.unit ? { unit: own.unit } : {}), ...spec, label });
  });
  const frozen = Object.freeze(list);
  if (gameById(id)) merged.set(id, frozen);
  return frozen;
}

/** Every registered game's settings, by id. */
export function allGameSettings() {
  return Object.fromEntries(allGames().map((game) => [game.id, gameSettings(game.id)]));
}

/** The specification of `key` in `game`, or undefined. */
export function settingSpec(game, key) {
  return gameSettings(game).find((spec) => spec.key === key);
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
  return Object.fromEntries(gameSettings(game).map((spec) => [spec.key, spec.initial]));
}

/**
 * `settings` with every stepper's key clamped and the game's other settings checked (its `extraSettings` hook),
 * unknown keys dropped, ready to send.
 */
export function normalizeSettings(game, settings) {
  return {
    ...Object.fromEntries(gameSettings(game).map((spec) => [
      spec.key, clampSetting(spec, settings?.[spec.key] ?? (hasOff(spec) && settings?.[spec.key] === null ? null : spec.initial)),
    ])),
    ...(gameById(game)?.extraSettings?.(settings ?? {}) ?? {}),
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
