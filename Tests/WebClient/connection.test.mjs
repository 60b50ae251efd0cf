// The game socket reconnects with backoff, stops when replaced, and sends queued moves after the resume.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createConnection, backoffDelay, socketURL, BACKOFF, CLOSE_REPLACED, CLOSE_REMOVED } from '../../web/js/core/connection.js';

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

/** Timers that run only when the test says so. */
function manualTimers() {
  let clock = 0;
  const pending = new Map();
  let next = 1;
  return {
    setTimeout(fn, ms) { const id = next++; pending.set(id, { fn, at: clock + ms }); return id; },
    clearTimeout(id) { pending.delete(id); },
    now: () => clock,
    advance(ms) {
      clock += ms;
      for (const [id, timer] of [...pending]) {
        if (timer.at <= clock) { pending.delete(id); timer.fn(); }
      }
    },
    get count() { return pending.size; },
  };
}

function setUp() {
  FakeSocket.instances = [];
  const timers = manualTimers();
  const statuses = [];
  const messages = [];
  let opens = 0;
  let connection;
  connection = createConnection({
    url: 'ws://example.test/ws', WebSocketImpl: FakeSocket, timers, random: () => 0.5,
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
    assert.deepEqual(latest().sent, [{ type: 'join', code: 'QHTW', token: 'T', seq: 3 }], 'onOpen resumes the seat');
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
    assert.deepEqual(latest().sent.map((m) => m.type), ['join', 'guess', 'chat']);
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
    assert.equal(timers.count, 0, 'the scheduled retry was cancelled');
  });

  test('stop() closes for good', () => {
    const { connection, timers, latest } = setUp();
    latest().serverOpens();
    connection.stop();
    timers.advance(60_000);
    assert.equal(FakeSocket.instances.length, 1);
  });
});
