// The game socket: one WebSocket to /ws, reopened with exponential backoff whenever it drops, and a queue for
// moves made while it is down. What to send after (re)opening (the join that resumes the seat, the lobby
// subscription) is the caller's `onOpen`; the queue is flushed after it, so queued moves reach the room after the
// resume (the server holds messages that arrive while a join is on its way).
//
// The WebSocket constructor and the timer functions are passed in, so the reconnect logic is tested in Node.

/** Close code the server uses when a newer connection resumed the same seat (PROTOCOL.md). */
export const CLOSE_REPLACED = 4000;
/** Close code the server uses after the host removed the player: the room is over for us, the server is not. */
export const CLOSE_REMOVED = 4001;

/** First retry delay, doubling up to the maximum; ±20 % jitter spreads the retries of many clients. */
export const BACKOFF = Object.freeze({ initialMs: 500, maxMs: 10_000, jitter: 0.2 });

/** Moves worth sending late; joins, lobby subscriptions and resyncs are made afresh on every open instead. */
const QUEUEABLE = new Set(['guess', 'word', 'chat', 'new_game', 'settings', 'kick', 'host', 'leave']);
const MAX_QUEUED = 32;

/**
 * Milliseconds to wait before reconnect attempt `attempt` (1 for the first retry).
 * @param {number} attempt
 * @param {() => number} random uniform in [0, 1)
 */
export function backoffDelay(attempt, random = Math.random) {
  const base = Math.min(BACKOFF.maxMs, BACKOFF.initialMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (1 - BACKOFF.jitter + 2 * BACKOFF.jitter * random()));
}

/**
 * The game socket's URL for a page at `location` (ws: for http:, wss: for https:). On a room page it names the
 * room (`/ws/CODE`), so that when several server instances share the rooms, a router can send the socket to the
 * instance that owns the room.
 */
export function socketURL(location) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const room = /^\/r\/([A-Za-z]{4,5})\/?$/.exec(location.pathname ?? '');
  return `${scheme}//${location.host}/ws${room ? `/${room[1].toUpperCase()}` : ''}`;
}

/**
 * Creates the connection; call `start()` to open it.
 * @param {object} options
 * @param {string | (() => string)} options.url the socket's URL, or a function giving it at each (re)connect
 * @param {Function} options.WebSocketImpl the WebSocket constructor
 * @param {(message: object) => void} options.onMessage each JSON message received
 * @param {(status: object) => void} options.onStatus `{status, attempt, retryAt, closeCode}`
 * @param {() => void} options.onOpen called when the socket opens, before queued moves are sent
 * @param {object} [options.timers] `{setTimeout, clearTimeout, now}` (now in milliseconds)
 * @param {() => number} [options.random]
 */
export function createConnection({
  url, WebSocketImpl, onMessage, onStatus, onOpen,
  timers = { setTimeout: (...a) => setTimeout(...a), clearTimeout: (...a) => clearTimeout(...a), now: () => Date.now() },
  random = Math.random,
}) {
  let socket = null;
  let attempt = 0;
  let retryTimer = null;
  let stopped = false;
  let queue = [];

  function report(status, extra = {}) {
    onStatus({ status, attempt, retryAt: null, closeCode: null, ...extra });
  }

  function detach(old) {
    old.onopen = null;
    old.onmessage = null;
    old.onclose = null;
    old.onerror = null;
  }

  function open() {
    retryTimer = null;
    if (stopped) return;
    report(attempt === 0 ? 'connecting' : 'reconnecting');
    let created;
    try {
      created = new WebSocketImpl(typeof url === 'function' ? url() : url);
    } catch {
      scheduleRetry(null);
      return;
    }
    socket = created;
    created.onopen = () => {
      attempt = 0;
      report('online');
      onOpen?.();
      const pending = queue;
      queue = [];
      for (const message of pending) transmit(message);
    };
    created.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      onMessage(message);
    };
    created.onclose = (event) => {
      detach(created);
      if (socket === created) socket = null;
      if (event?.code === CLOSE_REPLACED) {
        report('replaced', { closeCode: event.code });
        return;
      }
      if (event?.code === CLOSE_REMOVED) {
        // Nothing went wrong with the network: reconnect at once for the lobby, without a "reconnecting" state.
        attempt = 0;
        open();
        return;
      }
      scheduleRetry(event?.code ?? null);
    };
    created.onerror = () => {
      // A close event always follows; the retry is scheduled there.
    };
  }

  function scheduleRetry(closeCode) {
    if (stopped || retryTimer !== null) return;
    attempt += 1;
    const delay = backoffDelay(attempt, random);
    report('reconnecting', { retryAt: timers.now() + delay, closeCode });
    retryTimer = timers.setTimeout(open, delay);
  }

  function transmit(message) {
    if (!socket || socket.readyState !== 1) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  return {
    start() {
      stopped = false;
      if (!socket && retryTimer === null) open();
    },

    /**
     * Sends a message now, or queues a move to send once the socket is back.
     * @returns {boolean} true if it went out now.
     */
    send(message) {
      if (transmit(message)) return true;
      if (QUEUEABLE.has(message.type) && queue.length < MAX_QUEUED) queue.push(message);
      return false;
    },

    /** Whether the socket is open. */
    get isOpen() {
      return Boolean(socket && socket.readyState === 1);
    },

    /** Moves waiting for the socket. */
    get queued() {
      return queue.slice();
    },

    /**
     * Treats the socket as gone now (the browser reported going offline): drops it without waiting for a close
     * handshake that cannot complete, and schedules a reconnect.
     */
    drop() {
      if (!socket) return;
      const old = socket;
      socket = null;
      detach(old);
      try {
        old.close();
      } catch {
        // Already closing.
      }
      scheduleRetry(null);
    },

    /** Reconnects at once (the network is back, or the player pressed "Retry now" / "Play here"). */
    retryNow() {
      if (socket) return;
      if (retryTimer !== null) {
        timers.clearTimeout(retryTimer);
        retryTimer = null;
      }
      stopped = false;
      open();
    },

    /** Closes for good (no reconnect). */
    stop() {
      stopped = true;
      if (retryTimer !== null) timers.clearTimeout(retryTimer);
      retryTimer = null;
      if (socket) {
        const old = socket;
        socket = null;
        detach(old);
        old.close(1000);
      }
    },
  };
}
