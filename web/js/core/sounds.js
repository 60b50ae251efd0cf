// Short sound cues, synthesized with Web Audio oscillators and gain envelopes (no audio files to load).
//
// Browsers only let a page make sound after a user gesture, so no AudioContext exists until `unlock()` is called
// from one (a tap or a key press); before that, and while sounds are off, `play` does nothing. One context is
// made and reused; every cue goes through one master gain that holds the volume.
//
// The AudioContext class and the clock are passed in, so this is tested in node with a fake context.

/** The cues a view may play. */
export const CUES = Object.freeze(['yourTurn', 'hit', 'miss', 'wordFound', 'refused', 'roundEnding', 'win', 'loss']);

/** A cue played again within this many milliseconds is dropped (a burst of patches must not stutter). */
const REPEAT_GAP_MS = 60;
/** Envelope: a short rise to the note's level, then an exponential fall to near silence (which cannot be 0). */
const ATTACK_SECONDS = 0.012;
const SILENCE = 0.0001;

// Frequencies (Hz) of the notes used, equal temperament from A4 = 440.
const NOTE = Object.freeze({
  A3: 220.0, C4: 261.63, E4: 329.63, G4: 392.0, A4: 440.0, C5: 523.25, D5: 587.33, E5: 659.25,
  G5: 783.99, A5: 880.0, C6: 1046.5,
});

/**
 * Each cue: notes `[frequency, start, duration, options]` (seconds from the cue's start; options `type` of the
 * oscillator, `level` 0..1 of its peak, `slideTo` a frequency reached by the note's end).
 */
const CUE_NOTES = Object.freeze({
  // Two rising notes, bright: it is you now.
  yourTurn: [[NOTE.E5, 0, 0.12, { type: 'triangle' }], [NOTE.A5, 0.11, 0.2, { type: 'triangle' }]],
  // A quick pluck up: a letter that is in the word.
  hit: [[NOTE.C5, 0, 0.09, { type: 'sine' }], [NOTE.G5, 0.06, 0.14, { type: 'sine' }]],
  // A soft falling buzz: a letter that is not.
  miss: [[NOTE.E4, 0, 0.22, { type: 'square', level: 0.25, slideTo: NOTE.A3 }]],
  // Three quick steps up: a word found.
  wordFound: [[NOTE.C5, 0, 0.08], [NOTE.E5, 0.06, 0.08], [NOTE.G5, 0.12, 0.16]],
  // One low dull blip: a word refused.
  refused: [[NOTE.A3, 0, 0.16, { type: 'square', level: 0.2 }]],
  // Three ticks, the last higher: the round is about to end.
  roundEnding: [[NOTE.A4, 0, 0.06], [NOTE.A4, 0.25, 0.06], [NOTE.E5, 0.5, 0.12]],
  // A major arpeggio to the octave: you won.
  win: [[NOTE.C5, 0, 0.14], [NOTE.E5, 0.12, 0.14], [NOTE.G5, 0.24, 0.14], [NOTE.C6, 0.36, 0.4]],
  // Down a minor third and a fifth, slow: you lost.
  loss: [[NOTE.G4, 0, 0.22, { type: 'triangle' }], [NOTE.E4, 0.2, 0.22, { type: 'triangle' }],
    [NOTE.C4, 0.4, 0.5, { type: 'triangle', slideTo: NOTE.A3 }]],
});

const DEFAULT_TYPE = 'sine';
const DEFAULT_LEVEL = 0.5;

function clampVolume(value) {
  const number = Number(value);
  if (!Number.isFinite(number)) return 0;
  return Math.min(1, Math.max(0, number));
}

/**
 * The room's sounds.
 *
 * - Parameters: `AudioContextClass` (window.AudioContext, or a fake; missing means silence), `now` (a clock in
 *   milliseconds, for dropping repeats), `enabled` and `volume` (the stored preferences).
 * - Returns: `{ unlock(), play(cue), setEnabled(bool), setVolume(0..1), enabled, volume, unlocked }`.
 */
export function createSounds({
  AudioContextClass = globalThis.AudioContext ?? globalThis.webkitAudioContext,
  now = () => Date.now(),
  enabled = true,
  volume = 0.6,
} = {}) {
  let context = null;
  let master = null;
  let on = Boolean(enabled);
  let level = clampVolume(volume);
  const lastPlayed = new Map();

  function applyVolume() {
    if (!master) return;
    master.gain.setValueAtTime(level, context.currentTime);
  }

  /** Makes (once) and resumes the audio context; call it from a user gesture. */
  function unlock() {
    if (!AudioContextClass) return false;
    try {
      if (!context) {
        context = new AudioContextClass();
        master = context.createGain();
        master.gain.value = level;
        master.connect(context.destination);
      }
      if (context.state === 'suspended') context.resume?.()?.catch?.(() => {});
      return true;
    } catch {
      context = null;
      master = null;
      return false;
    }
  }

  function playNote(start, [frequency, offset, duration, options = {}]) {
    const at = start + offset;
    const end = at + duration;
    const oscillator = context.createOscillator();
    oscillator.type = options.type ?? DEFAULT_TYPE;
    oscillator.frequency.setValueAtTime(frequency, at);
    if (options.slideTo) oscillator.frequency.exponentialRampToValueAtTime(options.slideTo, end);
    const gain = context.createGain();
    gain.gain.setValueAtTime(SILENCE, at);
    gain.gain.linearRampToValueAtTime(options.level ?? DEFAULT_LEVEL, at + ATTACK_SECONDS);
    gain.gain.exponentialRampToValueAtTime(SILENCE, end);
    oscillator.connect(gain);
    gain.connect(master);
    oscillator.start(at);
    oscillator.stop(end + ATTACK_SECONDS);
  }

  /** Plays `cue` (one of CUES) at once; nothing when off, before `unlock()`, or for an unknown cue. */
  function play(cue) {
    if (!on || !context || level === 0) return false;
    const notes = CUE_NOTES[cue];
    if (!notes) return false;
    const time = now();
    if (time - (lastPlayed.get(cue) ?? -Infinity) < REPEAT_GAP_MS) return false;
    lastPlayed.set(cue, time);
    try {
      const start = context.currentTime;
      for (const note of notes) playNote(start, note);
      return true;
    } catch {
      return false;
    }
  }

  return {
    unlock,
    play,
    setEnabled(value) {
      on = Boolean(value);
    },
    setVolume(value) {
      level = clampVolume(value);
      applyVolume();
    },
    get enabled() {
      return on;
    },
    get volume() {
      return level;
    },
    get unlocked() {
      return context !== null;
    },
  };
}
