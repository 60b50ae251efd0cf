// Moves are never dropped silently: each chat line or game move stays pending until the room's state shows it or
// the server refuses it. If the socket drops first, pending moves are checked against the state once the seat is
// resumed and sent again only if the server never saw them. Which moves a game's state shows, and how to see
// one, is the game's business (its `moves` and `moveArrived` hooks, core/game-registry.js).

import { canAct } from '../core/store.js';
import { gameOfMove } from '../core/game-registry.js';

/** After a resume, how long to wait for the missed patches before checking pending moves against the state. */
const RESUME_SETTLE_MS = 600;
/** Moves remembered at most; older ones are assumed answered. */
const MAX_PENDING = 20;

/** Whether a message's arrival can be seen in the room state, so it is tracked until seen: chat and games' moves. */
export function isTracked(type) {
  return type === 'chat' || gameOfMove(type) !== undefined;
}

/**
 * Whether `state` shows the effect of `message` (sent by `you`); for chat, a line newer than `afterChatId`.
 * A game's hook also gets your private view (`state.privateView`, null when you have none): a game that keeps
 * your moves private shows them there only.
 */
export function moveArrived(state, you, message, afterChatId = 0) {
  const roomState = state?.room?.state;
  if (!roomState) return false;
  if (message.type === 'chat') {
    const text = String(message.text).trim().replace(/\s+/g, ' ');
    return Boolean(roomState.chat?.some((line) => line.player === you && line.text === text && line.id > afterChatId));
  }
  const game = gameOfMove(message.type);
  return game ? game.moveArrived(roomState[game.id] ?? null, message, state.privateView ?? null) : true;
}

/**
 * The moves sent and not yet seen.
 * @param {object} deps
 * @param {object} deps.store
 * @param {(message: object) => void} deps.send
 * @param {{setTimeout, clearTimeout}} deps.browser
 */
export function createPendingMoves({ store, send, browser }) {
  /** `{message, afterChatId}` for each move not yet seen in the state. */
  let pending = [];
  let settleTimer = null;

  /** Drops pending moves the state shows; with `resend`, sends the others again. */
  function settle(state, resend) {
    if (pending.length === 0) return;
    const you = state.room?.you;
    pending = pending.filter((item) => !moveArrived(state, you, item.message, item.afterChatId));
    if (resend && canAct(state)) {
      const again = pending;
      pending = [];
      for (const item of again) track(item.message);
    }
  }

  /** Sends `message`, remembering it until the state shows it when it is a tracked move. */
  function track(message) {
    if (isTracked(message.type)) {
      const chat = store.getState().room?.state?.chat ?? [];
      pending.push({ message, afterChatId: chat.length ? chat[chat.length - 1].id : 0 });
      if (pending.length > MAX_PENDING) pending.shift();
    }
    send(message);
  }

  return {
    track,
    settle,

    /** The seat was resumed: once the missed patches are in, sends again what the state still lacks. */
    resumed() {
      if (settleTimer !== null) browser.clearTimeout(settleTimer);
      settleTimer = browser.setTimeout(() => {
        settleTimer = null;
        settle(store.getState(), true);
      }, RESUME_SETTLE_MS);
    },

    /** The server refused a move (an error notice naming it): the oldest pending move of that type is answered. */
    refused(move) {
      if (!move || !isTracked(move)) return;
      const index = pending.findIndex((item) => item.message.type === move);
      if (index >= 0) pending.splice(index, 1);
    },

    /** The moves still waiting to show up in the state. */
    get messages() {
      return pending.map((item) => item.message);
    },
  };
}
