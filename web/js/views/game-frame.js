// What every game view shares: it redraws when what it shows changed (the room state, the notice, the
// connection, a snapshot on its way, who you are), and runs its countdown while the game says a clock is running.

/**
 * The `update` and `destroy` of a game view.
 * @param {object} options
 * @param {string} options.id The game's id: its part of the room state is `state.room.state[id]`.
 * @param {(state: object, context: {live: boolean}) => void} options.accept Takes each new state (before drawing).
 * @param {() => void} options.render Draws the game from the last accepted state.
 * @param {(game: object) => boolean} options.ticking Whether a countdown is running in the game's part.
 * @param {() => void} options.tick Redraws the countdown.
 * @param {number} options.tickMs How often the countdown is redrawn.
 * @param {{setInterval: Function, clearInterval: Function}} [options.timers] The page's timers by default.
 */
export function createGameFrame({ id, accept, render, ticking, tick, tickMs, timers = globalThis }) {
  let current = null;
  let timer = null;
  return {
    update(state, previous, context) {
      const before = current;
      current = state;
      accept(state, context);
      const changed = !before || before.room?.state !== state.room.state || before.notice !== state.notice
        || before.connection !== state.connection || before.room?.awaitingSnapshot !== state.room.awaitingSnapshot
        || before.room?.you !== state.room.you;
      if (changed) render();
      const running = ticking(state.room.state[id]);
      if (running && timer === null) timer = timers.setInterval(tick, tickMs);
      if (!running && timer !== null) {
        timers.clearInterval(timer);
        timer = null;
      }
    },
    destroy() {
      if (timer !== null) timers.clearInterval(timer);
      timer = null;
    },
  };
}
