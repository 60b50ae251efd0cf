// The game socket: one WebSocket to /ws, reopened with backoff whenever it drops, and a queue for moves made while
// it is down. What to send after (re)opening (the join that resumes the seat, the lobby subscription) is the
// caller's `onOpen`; the queue is flushed after it, so queued moves reach the room after the resume (the server
// holds messages that arrive while a join is on its way).
//
// A socket can die without a close event (a server that vanished, a NAT that forgot the flow, a phone that slept):
// while open, the connection sends an application-level `ping` every 5 s (PROTOCOL.md), and when nothing at all
// has arrived for 15 s it drops the socket and reconnects. A socket that does not open within 10 s is given up
// the same way. After a number of failed tries it reports `failed`, so the page can say so and offer "Try again",
// and goes on trying every 30 s by itself, so a page recovers without anyone tapping when the server is back;
// `wake()` (the tab became visible, the network came back) and `retryNow()` start over at once with the backoff
// reset.
//
// The pings are also the page's heartbeat (PROTOCOL.md): a seated page that stops them is closed by the server
// (4002) and counts as away. So a hidden page sends none (its player is away: a phone throttles a hidden tab's
// timers to once a minute anyway), and a page leaving for the back/forward cache closes its socket (`suspend()`);
// a page the browser froze cannot send them. Back in view, `wake()` pings or reconnects and resumes the seat.
//
// The WebSocket constructor and the timer functions are passed in, so all of this is tested in Node.

/** Close code the server uses when a newer connection resumed the same seat (PROTOCOL.md). */
export const CLOSE_REPLACED = 4000;
/** Close code the server uses after the host removed the player: the room is over for us, the server is not. */
export const CLOSE_REMOVED = 4001;
/** Close code the server uses when a seated page stopped its heartbeat (hidden, frozen): resume once in view. */
export const CLOSE_SILENT = 4002;

/**
 * First retry delay, doubling up to the maximum; ±20 % jitter spreads the retries of many clients. Past
 * MAX_ATTEMPTS, one try every `slowMs` (jittered too) until the server is back.
 */
export const BACKOFF = Object.freeze({ initialMs: 500, maxMs: 10_000, jitter: 0.2, slowMs: 30_000 });
/**
 * Failed tries in a row before reporting `failed`: 0.5 + 1 + 2 + 4 + 8 + 10 + 10 + 10 s of waiting, plus up to
 * `connectTimeoutMs` per try against a server that accepts but does not answer: about a minute.
 */
export const MAX_ATTEMPTS = 8;

/**
 * The heartbeat: a `ping` every `intervalMs` while open; dead when nothing arrived for `timeoutMs` although a ping
 * has been unanswered for `timeoutMs - intervalMs` (so a background tab whose timers the browser slowed down is
 * not declared dead just because it pinged late); a socket still opening after `connectTimeoutMs` is given up;
 * `wake()` on an open socket pings at once and reconnects if nothing arrives within `probeMs`.
 */
export const HEARTBEAT = Object.freeze({ intervalMs: 5_000, timeoutMs: 15_000, connectTimeoutMs: 10_000, probeMs: 4_000 });

/**
 * Moves worth sending late; joins, lobby subscriptions and resyncs are made afresh on every open instead.
 * Reactions are not: an emoji that arrives a reconnect later answers nothing any more.
 */
const QUEUEABLE = new Set(['guess', 'word', 'chat', 'new_game', 'settings', 'kick', 'host', 'leave', 'lock', 'unban', 'skip', 'rename', 'seat']);
const MAX_QUEUED = 32;
const OPEN = 1;

/**
 * Milliseconds to wait before reconnect attempt `attempt` (1 for the first retry).
 * @param {number} attempt
 * @param {() => number} random uniform in [0, 1)
 */
export function backoffDelay(attempt, random = Math.random) {
  return jittered(Math.min(BACKOFF.maxMs, BACKOFF.initialMs * 2 ** Math.max(0, attempt - 1)), random);
}

/** `base` milliseconds give or take BACKOFF.jitter. */
function jittered(base, random) {
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

/** Whether `message` is the heartbeat's business only: a `pong`, or the refusal of a `ping` (`rate-limited`). */
export function isHeartbeatReply(message) {
  if (message?.type === 'pong') return true;
  return message?.type === 'error' && message.move === 'ping';
}

/**
 * Creates the connection; call `start()` to open it.
 * @param {object} options
 * @param {string | (() => string)} options.url the socket's URL, or a function giving it at each (re)connect
 * @param {Function} options.WebSocketImpl the WebSocket constructor
 * @param {(message: object) => void} options.onMessage each JSON message received (never heartbeat replies)
 * @param {(status: object) => void} options.onStatus `{status, attempt, retryAt, closeCode}`; status is
 *   `connecting`, `online`, `reconnecting`, `replaced` or `failed` (`maxAttempts` tries failed; it keeps trying
 *   every `slowMs`, and stays `failed` until a try opens)
 * @param {() => void} options.onOpen called when the socket opens, before queued moves are sent
 * @param {object} [options.timers] `{setTimeout, clearTimeout, now}` (now in milliseconds)
 * @param {() => number} [options.random]
 * @param {object} [options.heartbeat] see HEARTBEAT
 * @param {number} [options.maxAttempts] see MAX_ATTEMPTS
 * @param {() => boolean} [options.isVisible] whether the page is in view (hidden pages send no heartbeat)
 */
export function createConnection({
  url, WebSocketImpl, onMessage, onStatus, onOpen,
  timers = { setTimeout: (...a) => setTimeout(...a), clearTimeout: (...a) => clearTimeout(...a), now: () => Date.now() },
  random = Math.random,
  heartbeat = HEARTBEAT,
  maxAttempts = MAX_ATTEMPTS,
  isVisible = () => true,
}) {
  let socket = null;
  let attempt = 0;
  let retryTimer = null;
  let stopped = false;
  /** Another connection took our seat (close 4000): only `retryNow()` reconnects. */
  let replaced = false;
  /** Too many tries failed: still trying, slowly; `retryNow()` or `wake()` tries at once. */
  let failed = false;
  /** The page went to the back/forward cache (`suspend()`), or the server closed a hidden page: only `wake()`
   * reconnects. */
  let asleep = false;
  let everOpened = false;
  let queue = [];
  // Heartbeat state of the open socket.
  let pingTimer = null;
  let watchdogTimer = null;
  let connectTimer = null;
  let probeTimer = null;
  let lastHeardAt = 0;
  /** When the oldest ping not followed by any message went out, or null. */
  let unansweredSince = null;
  let pingId = 0;

  function report(status, extra = {}) {
    onStatus({ status, attempt, retryAt: null, closeCode: null, ...extra });
  }

  function clear(timer) {
    if (timer !== null) timers.clearTimeout(timer);
    return null;
  }

  function stopTimers() {
    pingTimer = clear(pingTimer);
    watchdogTimer = clear(watchdogTimer);
    connectTimer = clear(connectTimer);
    probeTimer = clear(probeTimer);
  }

  function detach(old) {
    old.onopen = null;
    old.onmessage = null;
    old.onclose = null;
    old.onerror = null;
  }

  /** Lets go of the current socket without waiting for a close handshake that may never complete. */
  function release(code) {
    stopTimers();
    if (!socket) return;
    const old = socket;
    socket = null;
    detach(old);
    try {
      if (code === undefined) old.close();
      else old.close(code);
    } catch {
      // Already closing.
    }
  }

  function ping() {
    if (!socket || socket.readyState !== OPEN || !isVisible()) return;
    pingId += 1;
    if (unansweredSince === null) unansweredSince = timers.now();
    transmit({ type: 'ping', id: pingId });
  }

  function schedulePing() {
    pingTimer = timers.setTimeout(() => {
      pingTimer = null;
      ping();
      schedulePing();
    }, heartbeat.intervalMs);
  }

  function scheduleWatchdog(delay) {
    watchdogTimer = timers.setTimeout(checkSilence, Math.max(1, delay));
  }

  function checkSilence() {
    watchdogTimer = null;
    const now = timers.now();
    const quiet = now - lastHeardAt;
    if (quiet < heartbeat.timeoutMs) {
      scheduleWatchdog(heartbeat.timeoutMs - quiet);
      return;
    }
    const answerMs = heartbeat.timeoutMs - heartbeat.intervalMs;
    if (!isVisible()) {
      // A hidden page keeps no heartbeat, so it cannot judge the silence: `wake()` checks once it is in view.
      scheduleWatchdog(heartbeat.timeoutMs);
      return;
    }
    if (unansweredSince === null) {
      // Silent, but we have not asked (our timers were held back): ask now and judge the answer.
      ping();
      scheduleWatchdog(answerMs);
      return;
    }
    const waited = now - unansweredSince;
    if (waited < answerMs) {
      scheduleWatchdog(answerMs - waited);
      return;
    }
    // Nothing for timeoutMs, and a ping unanswered: the socket is dead even if the browser has not noticed.
    release();
    scheduleRetry(null);
  }

  function heard() {
    lastHeardAt = timers.now();
    unansweredSince = null;
    probeTimer = clear(probeTimer);
  }

  function open({ fresh = false } = {}) {
    retryTimer = null;
    if (stopped || asleep) return;
    // While the slow tries go on, the page keeps saying the server cannot be reached.
    if (!failed) report(fresh || !everOpened ? 'connecting' : 'reconnecting');
    let created;
    try {
      created = new WebSocketImpl(typeof url === 'function' ? url() : url);
    } catch {
      scheduleRetry(null);
      return;
    }
    socket = created;
    connectTimer = timers.setTimeout(() => {
      connectTimer = null;
      if (socket !== created || created.readyState === OPEN) return;
      release();
      scheduleRetry(null);
    }, heartbeat.connectTimeoutMs);
    created.onopen = () => {
      connectTimer = clear(connectTimer);
      attempt = 0;
      failed = false;
      everOpened = true;
      heard();
      schedulePing();
      scheduleWatchdog(heartbeat.timeoutMs);
      report('online');
      onOpen?.();
      const pending = queue;
      queue = [];
      for (const message of pending) transmit(message);
      // The first heartbeat at once, behind the join: the server holds a seated page to it from then on, so a
      // page frozen in its first seconds is not exempt.
      ping();
    };
    created.onmessage = (event) => {
      heard();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (isHeartbeatReply(message)) return;
      onMessage(message);
    };
    created.onclose = (event) => {
      detach(created);
      if (socket !== created) return;
      socket = null;
      stopTimers();
      if (event?.code === CLOSE_REPLACED) {
        replaced = true;
        report('replaced', { closeCode: event.code });
        return;
      }
      if (event?.code === CLOSE_SILENT) {
        // The server stopped waiting for our heartbeat (the page was hidden or frozen): back at once if the page
        // is in view (a frozen page that thawed), else when it is.
        attempt = 0;
        if (isVisible()) {
          open();
        } else {
          asleep = true;
          report('reconnecting', { closeCode: event.code });
        }
        return;
      }
      if (event?.code === CLOSE_REMOVED) {
        // Nothing went wrong with the network: reconnect at once for the lobby, without a "reconnecting" state.
        attempt = 0;
        open({ fresh: true });
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
    if (attempt > maxAttempts) failed = true;
    const delay = failed ? jittered(BACKOFF.slowMs, random) : backoffDelay(attempt, random);
    report(failed ? 'failed' : 'reconnecting', { retryAt: timers.now() + delay, closeCode });
    retryTimer = timers.setTimeout(open, delay);
  }

  function transmit(message) {
    if (!socket || socket.readyState !== OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  /** Opens a new socket at once, with the backoff reset. */
  function restart({ fresh = false } = {}) {
    retryTimer = clear(retryTimer);
    attempt = 0;
    stopped = false;
    replaced = false;
    failed = false;
    asleep = false;
    open({ fresh });
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
      return Boolean(socket && socket.readyState === OPEN);
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
      release();
      scheduleRetry(null);
    },

    /**
     * The page came back (tab visible again, network back online): reconnect at once with the backoff reset if
     * the socket is down or we gave up; if it looks open, ping it and reconnect unless something arrives within
     * `probeMs`. A page whose seat another tab took stays paused.
     */
    wake() {
      if (replaced || stopped) return;
      if (socket && socket.readyState === OPEN) {
        if (probeTimer !== null) return;
        const probed = socket;
        ping();
        probeTimer = timers.setTimeout(() => {
          probeTimer = null;
          if (socket !== probed) return;
          release();
          restart();
        }, heartbeat.probeMs);
        return;
      }
      if (socket) {
        // Still opening: the connect timeout decides; the next failure waits as after a first one.
        attempt = 0;
        return;
      }
      restart();
    },

    /** Reconnects at once (the player pressed "Retry now", "Try again" or "Play here"). */
    retryNow() {
      if (socket) return;
      restart();
    },

    /**
     * Closes the current socket and opens a fresh one at once, with nothing queued: the page stepped out of a
     * room without leaving it (Back), so the server keeps the seat for its grace period while this page follows
     * the lobby on a socket that is in no room.
     */
    reopen() {
      queue = [];
      release(1000);
      restart({ fresh: true });
    },

    /**
     * The page is leaving (`pagehide`: unload, or the back/forward cache): close the socket now, so the server
     * sees the player away at once rather than a cached page that never answers; `wake()` (on `pageshow`)
     * reconnects and resumes.
     */
    suspend() {
      if (stopped) return;
      asleep = true;
      retryTimer = clear(retryTimer);
      release(1000);
    },

    /** Whether too many tries in a row failed (it still tries, every `slowMs`). */
    get failed() {
      return failed;
    },

    /** Closes for good (no reconnect). */
    stop() {
      stopped = true;
      retryTimer = clear(retryTimer);
      release(1000);
    },
  };
}
