// The room settings a host can choose, with the ranges of PROTOCOL.md, and the stepping rules of their controls.

/**
 * One setting. `min`/`max` are the protocol's bounds; `step` is how far one press of − or + moves; `off` (when
 * present) is the value below `min` that means "none" and is sent as `null`.
 */
export const SETTINGS = Object.freeze({
  snowman: Object.freeze([
    Object.freeze({ key: 'maxWrongGuesses', label: 'Wrong guesses allowed', min: 3, max: 10, step: 1, initial: 7 }),
    Object.freeze({
      key: 'turnSeconds', label: 'Turn timer', min: 10, max: 120, step: 5, initial: null, off: null, unit: 's',
    }),
  ]),
  scramble: Object.freeze([
    Object.freeze({ key: 'rounds', label: 'Rounds', min: 3, max: 20, step: 1, initial: 6 }),
    Object.freeze({ key: 'roundSeconds', label: 'Round length', min: 30, max: 300, step: 15, initial: 90, unit: 's' }),
    Object.freeze({ key: 'minWordLength', label: 'Shortest word', min: 3, max: 6, step: 1, initial: 3, unit: 'letters' }),
  ]),
});

export const GAMES = Object.freeze([
  Object.freeze({ id: 'snowman', name: 'Snowman', blurb: 'Guess the secret word letter by letter before the snowman melts.' }),
  Object.freeze({ id: 'scramble', name: 'Word Scramble', blurb: 'Race your friends to find words hidden in eight letters.' }),
]);

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

/** `settings` with every known key clamped and unknown keys dropped, ready to send. */
export function normalizeSettings(game, settings) {
  return Object.fromEntries((SETTINGS[game] ?? []).map((spec) => [
    spec.key, clampSetting(spec, settings?.[spec.key] ?? spec.initial),
  ]));
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

/** Limits shared with the server (ClientMessage and NameRules). */
export const MAX_NAME_LENGTH = 20;
export const MAX_CHAT_LENGTH = 200;

/** A player name as the server will accept it (whitespace collapsed), or null when empty or too long. */
export function cleanName(text) {
  const name = String(text ?? '').trim().replace(/\s+/g, ' ');
  if (name.length === 0 || [...name].length > MAX_NAME_LENGTH) return null;
  return name;
}
