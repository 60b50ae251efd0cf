// The game socket reconnects with backoff, stops when replaced, and sends queued moves after the resume; a
// heartbeat notices a silent server, tries are bounded, and waking the page reconnects at once.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  createConnection, backoffDelay, socketURL, isHeartbeatReply, BACKOFF, HEARTBEAT, MAX_ATTEMPTS, CLOSE_REPLACED, CLOSE_REMOVED,
  CLOSE_SILENT,
} from '../../web/js/core/connection.js';

/** A stand-in for the browser's WebSocket that the test opens, closes and reads. */
class FakeSocket {
  static instances = [];
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    FakeSocket.instances.push(this);
  }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() { this.readyState = 3; }
  serverOpens() { this.readyState = 1; this.onopen?.(); }
  serverSends(message) { this.onmessage?.({ data: JSON.stringify(message) }); }
  serverCloses(code = 1006) { this.readyState = 3; this.onclose?.({ code }); }
}

/** Timers that run only when the test says so, in time order (also those set while advancing). */
function manualTimers() {
  let clock = 0;
  const pending = new Map();
  let next = 1;
  return {
    setTimeout(fn, ms) { const id = next++; pending.set(id, { fn, at: clock + ms }); return id; },
    clearTimeout(id) { pending.delete(id); },
    now: () => clock,
    advance(ms) {
      const end = clock + ms;
      for (;;) {
        let due = null;
        for (const [id, timer] of pending) {
          if (timer.at <= end && (due === null || timer.at < pending.get(due).at)) due = id;
        }
        if (due === null) break;
        const timer = pending.get(due);
        pending.delete(due);
        clock = Math.max(clock, timer.at);
        timer.fn();
      }
      clock = end;
    },
    /** Moves the clock without running timers, then runs the overdue ones (a tab whose timers were held back). */
    jump(ms) {
      clock += ms;
      this.advance(0);
    },
    get count() { return pending.size; },
  };
}

function setUp({ random = () => 0.5, isVisible = () => true } = {}) {
  FakeSocket.instances = [];
  const timers = manualTimers();
  const statuses = [];
  const messages = [];
  let opens = 0;
  let connection;
  connection = createConnection({
    url: 'ws://example.test/ws', WebSocketImpl: FakeSocket, timers, random, isVisible,
    onMessage: (message) => messages.push(message),
    onStatus: (status) => statuses.push(status),
    onOpen: () => { opens += 1; connection.send({ type: 'join', code: 'QHTW', token: 'T', seq: 3 }); },
  });
  connection.start();
  return { connection, timers, statuses, messages, latest: () => FakeSocket.instances.at(-1), opens: () => opens };
}

describe('backoff', () => {
  test('doubles from the initial delay up to the maximum', () => {
    const middle = () => 0.5;
    assert.equal(backoffDelay(1, middle), BACKOFF.initialMs);
    assert.equal(backoffDelay(2, middle), BACKOFF.initialMs * 2);
    assert.equal(backoffDelay(3, middle), BACKOFF.initialMs * 4);
    assert.equal(backoffDelay(50, middle), BACKOFF.maxMs);
  });

  test('jitter stays within 20 percent', () => {
    assert.equal(backoffDelay(1, () => 0), BACKOFF.initialMs * 0.8);
    assert.ok(backoffDelay(1, () => 0.999999) <= BACKOFF.initialMs * 1.2);
  });

  test('socket URLs follow the page scheme', () => {
    assert.equal(socketURL({ protocol: 'http:', host: 'h:8080' }), 'ws://h:8080/ws');
    assert.equal(socketURL({ protocol: 'https:', host: 'h' }), 'wss://h/ws');
    assert.equal(socketURL({ protocol: 'http:', host: 'h', pathname: '/r/qhtw' }), 'ws://h/ws/QHTW');
    assert.equal(socketURL({ protocol: 'https:', host: 'h', pathname: '/r/CQHTW' }), 'wss://h/ws/CQHTW');
    assert.equal(socketURL({ protocol: 'http:', host: 'h', pathname: '/' }), 'ws://h/ws');
  });
});

describe('connection', () => {
  test('reports connecting, then online, and passes messages on', () => {
    const { statuses, messages, latest } = setUp();
    assert.equal(statuses.at(-1).status, 'connecting');
    latest().serverOpens();
    assert.equal(statuses.at(-1).status, 'online');
    latest().serverSends({ type: 'lobby', rooms: [] });
    latest().onmessage({ data: 'not json' });
    assert.deepEqual(messages, [{ type: 'lobby', rooms: [] }]);
  });

  test('reconnects with growing delays after drops and resets after a success', () => {
    const { timers, statuses, latest, opens } = setUp();
    latest().serverOpens();
    latest().serverCloses(1006);
    assert.equal(statuses.at(-1).status, 'reconnecting');
    assert.equal(statuses.at(-1).retryAt, 500);
    assert.equal(FakeSocket.instances.length, 1);
    timers.advance(499);
    assert.equal(FakeSocket.instances.length, 1, 'waits for the delay');
    timers.advance(1);
    assert.equal(FakeSocket.instances.length, 2);
    latest().serverCloses(1006);
    assert.equal(statuses.at(-1).retryAt - timers.now(), 1000, 'second retry waits twice as long');
    timers.advance(1000);
    latest().serverOpens();
    assert.equal(opens(), 2);
    assert.deepEqual(latest().sent, [{ type: 'join', code: 'QHTW', token: 'T', seq: 3 }, { type: 'ping', id: 2 }],
      'onOpen resumes the seat; the first heartbeat follows at once');
    latest().serverCloses(1001);
    assert.equal(statuses.at(-1).retryAt - timers.now(), 500, 'backoff starts over after a successful open');
  });

  test('moves made while down are sent after the resume join, in order', () => {
    const { connection, timers, latest } = setUp();
    latest().serverOpens();
    latest().serverCloses();
    assert.equal(connection.send({ type: 'guess', letter: 'e' }), false);
    assert.equal(connection.send({ type: 'chat', text: 'brb' }), false);
    assert.equal(connection.send({ type: 'resync' }), false);
    assert.deepEqual(connection.queued.map((m) => m.type), ['guess', 'chat'], 'resync is not queued');
    timers.advance(500);
    latest().serverOpens();
    assert.deepEqual(latest().sent.map((m) => m.type), ['join', 'guess', 'chat', 'ping']);
    assert.deepEqual(connection.queued, []);
  });

  test('a replaced connection does not reconnect by itself', () => {
    const { connection, timers, statuses, latest } = setUp();
    latest().serverOpens();
    latest().serverCloses(CLOSE_REPLACED);
    assert.equal(statuses.at(-1).status, 'replaced');
    timers.advance(60_000);
    assert.equal(FakeSocket.instances.length, 1);
    connection.retryNow();
    assert.equal(FakeSocket.instances.length, 2);
  });

  test('after being removed from a room the socket reopens at once, without a reconnecting state', () => {
    const { statuses, latest } = setUp();
    latest().serverOpens();
    latest().serverCloses(CLOSE_REMOVED);
    assert.equal(FakeSocket.instances.length, 2);
    assert.equal(statuses.at(-1).status, 'connecting');
    assert.ok(!statuses.some((status) => status.status === 'reconnecting'));
  });

  test('drop() gives up the socket at once and schedules a retry; retryNow() skips the wait', () => {
    const { connection, statuses, latest, timers } = setUp();
    latest().serverOpens();
    const first = latest();
    connection.drop();
    assert.equal(first.readyState, 3);
    assert.equal(statuses.at(-1).status, 'reconnecting');
    assert.equal(connection.isOpen, false);
    connection.retryNow();
    assert.equal(FakeSocket.instances.length, 2);
    timers.advance(BACKOFF.maxMs);
    assert.equal(FakeSocket.instances.length, 2, 'the scheduled retry was cancelled');
  });

  test('stop() closes for good', () => {
    const { connection, timers, latest } = setUp();
    latest().serverOpens();
    connection.stop();
    timers.advance(60_000);
    assert.equal(FakeSocket.instances.length, 1);
  });
});

/** Every socket the test made, sent pings only. */
const pingsOf = (socket) => socket.sent.filter((message) => message.type === 'ping');

describe('heartbeat', () => {
  test('while open, a ping with a growing id goes out at once, then every 5 s', () => {
    const { timers, latest } = setUp();
    latest().serverOpens();
    assert.deepEqual(pingsOf(latest()), [{ type: 'ping', id: 1 }], 'the first heartbeat right after the join');
    latest().serverSends({ type: 'pong', id: 1 });
    timers.advance(HEARTBEAT.intervalMs - 1);
    assert.deepEqual(pingsOf(latest()).length, 1);
    timers.advance(1);
    latest().serverSends({ type: 'pong', id: 2 });
    timers.advance(HEARTBEAT.intervalMs);
    assert.deepEqual(pingsOf(latest()), [{ type: 'ping', id: 1 }, { type: 'ping', id: 2 }, { type: 'ping', id: 3 }]);
  });

  test('pongs reach nobody; any message keeps the socket alive', () => {
    const { timers, messages, latest, statuses } = setUp();
    latest().serverOpens();
    for (let second = 0; second < 60; second += 1) {
      timers.advance(1000);
      if (second % 5 === 4) latest().serverSends({ type: 'pong', id: second });
    }
    assert.deepEqual(messages, [], 'pongs are not passed on');
    assert.equal(FakeSocket.instances.length, 1, 'still the first socket');
    assert.equal(statuses.at(-1).status, 'online');
    // A refused ping (too many) also proves the socket alive and is not passed on either.
    latest().serverSends({ type: 'error', code: 'rate-limited', title: 'Slow down', message: 'Too many messages.', move: 'ping' });
    assert.deepEqual(messages, []);
    latest().serverSends({ type: 'error', code: 'unknown-type', title: 'Unknown message', message: 'The server does not know messages of type "dance".' });
    assert.equal(messages.length, 1, 'other errors are passed on');
  });

  test('a socket that hears nothing for 15 s is dropped and reopened, without any close event', () => {
    const { timers, statuses, latest } = setUp();
    latest().serverOpens();
    const first = latest();
    timers.advance(HEARTBEAT.timeoutMs - 1);
    assert.equal(FakeSocket.instances.length, 1, 'not yet');
    assert.ok(pingsOf(first).length >= 2, 'pings went out');
    timers.advance(1);
    assert.equal(first.readyState, 3, 'the silent socket is closed');
    assert.equal(first.onmessage, null, 'and nothing from it is listened to any more');
    assert.equal(statuses.at(-1).status, 'reconnecting');
    timers.advance(BACKOFF.initialMs);
    assert.equal(FakeSocket.instances.length, 2, 'a new socket is opening');
  });

  test('the 15 s count from the last message, of any kind', () => {
    const { timers, latest } = setUp();
    latest().serverOpens();
    timers.advance(12_000);
    latest().serverSends({ type: 'patch', seq: 2, ops: [] });
    timers.advance(14_000);
    assert.equal(FakeSocket.instances.length, 1, '14 s after the patch: alive');
    timers.advance(1_000);
    assert.equal(latest().readyState, 3, '15 s after the patch: dead');
  });

  test('a background tab whose timers were held back pings before it judges the silence', () => {
    const { timers, latest } = setUp();
    latest().serverOpens();
    const socket = latest();
    // The browser ran no timer for 40 s; the socket is fine: the answer to a ping arrives at once.
    const originalSend = socket.send.bind(socket);
    socket.send = (text) => {
      originalSend(text);
      const message = JSON.parse(text);
      if (message.type === 'ping') socket.serverSends({ type: 'pong', id: message.id });
    };
    timers.jump(40_000);
    assert.equal(socket.readyState, 1, 'not declared dead for a silence it did not ask about');
    timers.advance(30_000);
    assert.equal(FakeSocket.instances.length, 1);
    // Held back again, and this time the server is gone: the unanswered ping decides, 10 s later.
    socket.send = originalSend;
    timers.jump(40_000);
    assert.equal(socket.readyState, 1);
    timers.advance(HEARTBEAT.timeoutMs - HEARTBEAT.intervalMs);
    assert.equal(socket.readyState, 3);
  });

  test('a socket that never opens is given up after 10 s', () => {
    const { timers, statuses, latest } = setUp();
    const stuck = latest();
    timers.advance(HEARTBEAT.connectTimeoutMs);
    assert.equal(stuck.readyState, 3);
    assert.equal(statuses.at(-1).status, 'reconnecting');
    timers.advance(BACKOFF.initialMs);
    assert.equal(FakeSocket.instances.length, 2);
  });
});

/** Opens the first socket, drops it, and lets every retry fail until the connection gives up. */
function failEveryTry({ timers, latest }) {
  latest().serverOpens();
  latest().serverCloses(1006);
  for (let i = 0; i < MAX_ATTEMPTS; i += 1) {
    timers.advance(BACKOFF.maxMs * 1.2);
    latest().serverCloses(1006);
  }
}

describe('bounded retries', () => {
  test('jitter makes the delays differ between clients', () => {
    const delays = new Set([0, 0.25, 0.5, 0.75, 0.99].map((value) => backoffDelay(3, () => value)));
    assert.equal(delays.size, 5);
  });

  test(`after ${MAX_ATTEMPTS} failed tries it says so and keeps trying every 30 s until the server is back`, () => {
    const { connection, timers, statuses, latest } = setUp();
    failEveryTry({ timers, latest });
    assert.equal(FakeSocket.instances.length, 1 + MAX_ATTEMPTS);
    assert.equal(statuses.at(-1).status, 'failed');
    assert.equal(connection.failed, true);
    /** Waits for the next try, refuses it at once, and returns how long it took to come. */
    function nextTry() {
      const before = FakeSocket.instances.length;
      const from = timers.now();
      while (FakeSocket.instances.length === before) timers.advance(100);
      latest().serverCloses(1006);
      return timers.now() - from;
    }
    nextTry();
    // Ten minutes of downtime: a try every 30 s (±20 %), and the page keeps saying it cannot reach the server.
    for (let i = 0; i < 20; i += 1) {
      const waited = nextTry();
      assert.ok(waited >= BACKOFF.slowMs * 0.8 && waited <= BACKOFF.slowMs * 1.2 + 100, `${waited} ms`);
    }
    assert.ok(statuses.slice(-20).every((status) => status.status === 'failed'), 'no flicker back to reconnecting');
    // The server is back: the next try opens by itself.
    timers.advance(BACKOFF.slowMs * 1.2);
    latest().serverOpens();
    assert.equal(statuses.at(-1).status, 'online');
    assert.equal(connection.failed, false);
    latest().serverCloses(1006);
    assert.equal(statuses.at(-1).retryAt - timers.now(), BACKOFF.initialMs, 'the backoff starts over');
  });

  test('retryNow() after the tries failed starts over at once', () => {
    const { connection, timers, statuses, latest } = setUp();
    failEveryTry({ timers, latest });
    connection.retryNow();
    assert.equal(FakeSocket.instances.length, 2 + MAX_ATTEMPTS);
    assert.equal(connection.failed, false);
    assert.equal(statuses.at(-1).status, 'reconnecting');
  });

  test('the tries take about a minute against a server that accepts but never answers', () => {
    const { timers, statuses, latest } = setUp();
    latest().serverOpens();
    latest().serverCloses(1006);
    const startedAt = timers.now();
    while (statuses.at(-1).status !== 'failed') {
      timers.advance(1000);
      assert.ok(timers.now() - startedAt < 3 * 60_000, 'gives up in the end');
    }
    const seconds = (timers.now() - startedAt) / 1000;
    assert.ok(seconds > 45 && seconds < 150, `${seconds} s`);
  });
});

describe('waking up', () => {
  test('visible again / online: a socket waiting for its retry reconnects at once, backoff reset', () => {
    const { connection, timers, statuses, latest } = setUp();
    latest().serverOpens();
    latest().serverCloses(1006);
    timers.advance(500);
    latest().serverCloses(1006);
    timers.advance(1000);
    latest().serverCloses(1006);
    assert.equal(statuses.at(-1).retryAt - timers.now(), 2000, 'third retry would wait 2 s');
    connection.wake();
    assert.equal(FakeSocket.instances.length, 4, 'opened at once');
    latest().serverCloses(1006);
    assert.equal(statuses.at(-1).retryAt - timers.now(), BACKOFF.initialMs, 'backoff reset');
  });

  test('waking after giving up reconnects', () => {
    const { connection, timers, statuses, latest } = setUp();
    failEveryTry({ timers, latest });
    assert.equal(statuses.at(-1).status, 'failed');
    connection.wake();
    assert.equal(statuses.at(-1).status, 'reconnecting');
    latest().serverOpens();
    assert.equal(statuses.at(-1).status, 'online');
  });

  test('waking with an open socket pings it and reconnects if it stays silent', () => {
    const { connection, timers, latest } = setUp();
    latest().serverOpens();
    const first = latest();
    timers.advance(1000);
    first.serverSends({ type: 'pong', id: 1 });
    connection.wake();
    assert.deepEqual(pingsOf(first).at(-1), { type: 'ping', id: 2 });
    first.serverSends({ type: 'pong', id: 2 });
    timers.advance(HEARTBEAT.probeMs);
    assert.equal(FakeSocket.instances.length, 1, 'an answer keeps it');
    connection.wake();
    timers.advance(HEARTBEAT.probeMs);
    assert.equal(first.readyState, 3, 'silence drops it');
    assert.equal(FakeSocket.instances.length, 2, 'and a new one opens at once');
  });

  test('a page whose seat another tab took does not wake up by itself', () => {
    const { connection, latest } = setUp();
    latest().serverOpens();
    latest().serverCloses(CLOSE_REPLACED);
    connection.wake();
    assert.equal(FakeSocket.instances.length, 1);
  });
});

describe('reopen (Back out of a room keeping the seat)', () => {
  test('closes the socket and opens a fresh one at once, dropping queued room moves', () => {
    const { connection, statuses, latest, timers } = setUp();
    latest().serverOpens();
    const first = latest();
    latest().serverCloses(1006);
    connection.send({ type: 'guess', letter: 'e' });
    timers.advance(500);
    latest().serverOpens();
    const second = latest();
    connection.reopen();
    assert.equal(second.readyState, 3);
    assert.notEqual(first, second);
    assert.equal(FakeSocket.instances.length, 3);
    assert.equal(statuses.at(-1).status, 'connecting', 'no "connection lost" for a step the page chose');
    connection.send({ type: 'chat', text: 'old room' });
    connection.reopen();
    latest().serverOpens();
    assert.deepEqual(latest().sent.filter((message) => !['join', 'ping'].includes(message.type)), [],
      'nothing of the old room is sent');
  });
});

test('isHeartbeatReply', () => {
  assert.equal(isHeartbeatReply({ type: 'pong', id: 3 }), true);
  assert.equal(isHeartbeatReply({ type: 'error', code: 'rate-limited', move: 'ping' }), true);
  assert.equal(isHeartbeatReply({ type: 'error', code: 'unknown-type', message: 'The server does not know messages of type "ping".' }), false,
    'every server answers pings: an unknown-type refusal is not the heartbeat\'s');
  assert.equal(isHeartbeatReply({ type: 'patch' }), false);
  assert.equal(isHeartbeatReply(null), false);
});

describe('heartbeat and the page life cycle', () => {
  test('a hidden page sends no heartbeat and does not judge the silence; in view again it pings at once', () => {
    let visible = false;
    const { connection, timers, latest } = setUp({ isVisible: () => visible });
    latest().serverOpens();
    timers.advance(HEARTBEAT.timeoutMs * 3);
    assert.equal(pingsOf(latest()).length, 0);
    assert.equal(FakeSocket.instances.length, 1, 'not dropped for its own silence');
    visible = true;
    connection.wake();
    assert.equal(pingsOf(latest()).length, 1);
  });

  test('closed for a missed heartbeat while hidden, it waits to be in view, then resumes', () => {
    let visible = false;
    const { connection, timers, statuses, latest, opens } = setUp({ isVisible: () => visible });
    latest().serverOpens();
    latest().serverCloses(CLOSE_SILENT);
    timers.advance(10 * 60_000);
    assert.equal(FakeSocket.instances.length, 1, 'no reconnect loop while hidden');
    visible = true;
    connection.wake();
    assert.equal(FakeSocket.instances.length, 2);
    latest().serverOpens();
    assert.equal(opens(), 2, 'the join that resumes the seat went out');
    assert.equal(statuses.at(-1).status, 'online');
  });

  test('closed for a missed heartbeat while in view (a frozen page thawed), it reconnects at once', () => {
    const { latest } = setUp();
    latest().serverOpens();
    latest().serverCloses(CLOSE_SILENT);
    assert.equal(FakeSocket.instances.length, 2);
  });

  test('suspend() (pagehide) closes the socket and stays down; wake() (pageshow) resumes', () => {
    const { connection, timers, latest } = setUp();
    latest().serverOpens();
    const first = latest();
    connection.suspend();
    assert.equal(first.readyState, 3, 'closed at once');
    timers.advance(10 * 60_000);
    assert.equal(FakeSocket.instances.length, 1);
    connection.wake();
    assert.equal(FakeSocket.instances.length, 2);
  });
});
