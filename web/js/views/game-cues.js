// Plays what core/game-events.js derives from each state change: the sounds (web/js/core/sounds.js, unlocked by
// the player's taps and keys, as browsers require), a short buzz when the turn becomes yours (where the phone vibrates),
// the celebration of a win (the game's `celebration`), and the round-ending tick of a game with timed rounds (its
// `timedRound` hook), checked on a timer near the end of a round.

import { gameCues, roundEndingKey, timedRound, CUE } from '../core/game-events.js';
import { gameById } from '../core/game-registry.js';
import { serverNow } from '../core/store.js';

const YOUR_TURN_BUZZ_MS = [90, 60, 90];
const ROUND_CHECK_MS = 500;

/** Whether the player wants sounds (the `sound` preference, core/prefs.js). */
function soundWanted(settings) {
  return settings?.sound !== false;
}

/**
 * @param {object} deps
 * @param {{unlock(), play(cue), setEnabled(on), setVolume(level)}} deps.sounds web/js/core/sounds.js's createSounds
 * @param {{play(kind: string): void}} deps.celebration
 * @param {object} [deps.navigator] for `vibrate` and `userActivation`
 * @param {object} [deps.window] for the timers
 */
export function createGameCues({ sounds, celebration, navigator = globalThis.navigator, window = globalThis }) {
  let settings = null;
  let current = null;
  let lastRoundEnding = null;
  let roundTimer = null;

  function configure() {
    if (!settings) return;
    sounds.setEnabled(soundWanted(settings));
    const volume = Number(settings.volume);
    if (Number.isFinite(volume)) sounds.setVolume(volume);
  }

  function play(cue) {
    sounds.play(cue);
  }

  function buzz() {
    // Browsers refuse (and complain about) a vibration before the player has touched the page.
    if (navigator?.userActivation && !navigator.userActivation.hasBeenActive) return;
    navigator?.vibrate?.(YOUR_TURN_BUZZ_MS);
  }

  function checkRoundEnding() {
    const key = roundEndingKey(current?.room?.state, serverNow(current?.room, Date.now() / 1000));
    if (key && key !== lastRoundEnding) {
      lastRoundEnding = key;
      play(CUE.ROUND_ENDING);
    }
  }

  function watchRound(state) {
    const running = timedRound(state.room?.state) !== null;
    if (running && roundTimer === null) roundTimer = window.setInterval(checkRoundEnding, ROUND_CHECK_MS);
    if (!running && roundTimer !== null) {
      window.clearInterval(roundTimer);
      roundTimer = null;
    }
  }

  return {
    /** From a user gesture (a tap, a key): makes or resumes the audio, which browsers allow only then. */
    unlock() {
      sounds.unlock();
    },

    /** Each state change of the store. */
    update(state, previous) {
      current = state;
      if (state.settings !== settings) {
        settings = state.settings;
        configure();
      }
      if (state === previous) return;
      for (const cue of gameCues(previous, state)) {
        play(cue);
        if (cue === CUE.YOUR_TURN) buzz();
        if (cue === CUE.WIN) celebration.play(gameById(state.room?.state?.game)?.celebration ?? 'confetti');
      }
      watchRound(state);
    },
  };
}
