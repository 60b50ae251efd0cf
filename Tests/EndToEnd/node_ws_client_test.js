#!/usr/bin/env node
// End-to-end checks of a running WordRooms server with Node's `ws` (Debian's node-ws) as a third-party peer,
// permessage-deflate on (RFC 7692):
//   - game sockets (/ws): players on `perMessageDeflate: true` (and one on plain frames) play a Snowman game
//     through, one joining mid-game; each applies every patch (with the web client's own json-patch.js) and ends
//     equal to a fresh snapshot; the response's Sec-WebSocket-Extensions is the game sockets' answer, and every
//     patch arrived compressed;
//   - /echo: compressible and incompressible messages, fragmented ones, a repeated line (context takeover both
//     ways), with ws's default offer and with no-context-takeover and window limits.
//
//   node node_ws_client_test.js --url http://127.0.0.1:PORT/ [--only TEXT]...
//
// Prints `PASS name` / `FAIL name: why` per check, then `node-ws-client: N passed, M failed`.
// Exit status: 0 when every check passed, 1 otherwise, 2 on bad arguments or a missing `ws`.
'use strict';

const crypto = require('node:crypto');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

// `ws` itself, and its PerMessageDeflate (lib/permessage-deflate.js next to the package's index.js), from
// NODE_PATH or where Debian's node-ws puts it.
function loadWs() {
  for (const name of ['ws', '/usr/share/nodejs/ws']) {
    let main;
    try {
      main = require.resolve(name);
    } catch {
      continue;
    }
    return [require(main), require(path.join(path.dirname(main), 'lib', 'permessage-deflate.js'))];
  }
  console.error('node-ws-client: the `ws` package is missing (apt-get install node-ws)');
  process.exit(2);
}
const [WebSocket, PerMessageDeflate] = loadWs();

const GAME_EXTENSIONS = 'permessage-deflate; client_no_context_takeover; server_max_window_bits=11';
const FREQUENCY = 'ESIARNTOLCDUGPMHBYFVKWZXQJ';
const CHECK_TIMEOUT_MS = 60000;

class CheckFailed extends Error {}

function expect(condition, message) {
  if (!condition) throw new CheckFailed(message);
}

// Counts what ws inflates and deflates on each connection: PerMessageDeflate.decompress sees each compressed
// frame's payload as it came off the wire (only RSV1 messages get there), compress each outgoing one.
function countCompression() {
  const { decompress, compress } = PerMessageDeflate.prototype;
  PerMessageDeflate.prototype.decompress = function countingDecompress(data, fin, callback) {
    this.wrWire = (this.wrWire || 0) + data.length;
    if (fin) {
      this.wrInflated = (this.wrInflated || 0) + 1;
      (this.wrSizes = this.wrSizes || []).push(this.wrWire);
      this.wrWire = 0;
    }
    return decompress.call(this, data, fin, callback);
  };
  PerMessageDeflate.prototype.compress = function countingCompress(data, fin, callback) {
    if (fin) this.wrDeflated = (this.wrDeflated || 0) + 1;
    return compress.call(this, data, fin, callback);
  };
}

function deflateOf(ws) {
  return ws._extensions[PerMessageDeflate.extensionName] || null;
}

function compressedIn(ws) {
  return deflateOf(ws)?.wrInflated || 0;
}

/** Opens a socket; resolves with it and the response's Sec-WebSocket-Extensions once it is open. */
function open(url, options) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { handshakeTimeout: 10000, maxPayload: 64 << 20, ...options });
    let extensions = null;
    ws.once('upgrade', (response) => {
      extensions = response.headers['sec-websocket-extensions'] ?? null;
    });
    ws.once('open', () => resolve({ ws, extensions }));
    ws.once('error', reject);
  });
}

function closeQuietly(ws) {
  if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(1000);
}

// --- Game sockets ------------------------------------------------------------------------------------------------

/** One member of a room: keeps the state by applying every patch, and lets a check wait for a condition. */
class Player {
  constructor(name, ws, extensions, applyPatch) {
    Object.assign(this, { name, ws, extensions, applyPatch });
    this.state = null;
    this.seq = null;
    this.you = null;
    this.code = null;
    this.messages = 0;
    this.sent = 0;
    this.patches = 0;
    this.snapshots = [];
    this.errors = [];
    this.problems = [];
    this.ended = null;
    this.waiters = new Set();
    ws.on('message', (data, isBinary) => {
      this.messages += 1;
      try {
        expect(!isBinary, 'a binary message');
        this.handle(JSON.parse(data.toString('utf8')));
      } catch (error) {
        this.problems.push(`${error.name}: ${error.message}`);
      }
      this.wake();
    });
    ws.on('close', (code, reason) => {
      this.ended = `closed ${code} ${reason}`;
      this.wake();
    });
    ws.on('error', (error) => {
      this.problems.push(`socket error: ${error.message}`);
    });
  }

  static async open(name, url, applyPatch, perMessageDeflate = true) {
    const { ws, extensions } = await open(url, { perMessageDeflate });
    return new Player(name, ws, extensions, applyPatch);
  }

  handle(message) {
    switch (message.type) {
      case 'welcome':
        // A private room's key comes with the welcome; whoever joins it needs it.
        Object.assign(this, { you: message.you, code: message.code, seq: message.seq, key: message.key ?? null });
        if ('state' in message) this.state = message.state;
        break;
      case 'patch':
        expect(this.seq !== null && message.seq === this.seq + 1, `patch seq ${message.seq} after ${this.seq}`);
        this.state = this.applyPatch(this.state, message.ops);
        this.seq = message.seq;
        this.patches += 1;
        break;
      case 'snapshot':
        this.snapshots.push({ seq: message.seq, state: message.state, ownSeq: this.seq, own: this.state });
        break;
      case 'error':
        this.errors.push(message);
        break;
      default:
        break;
    }
  }

  wake() {
    for (const waiter of [...this.waiters]) waiter();
  }

  until(predicate, what, timeoutMs = 15000) {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (predicate()) {
          finish();
          resolve();
        } else if (this.ended) {
          finish();
          reject(new CheckFailed(`${this.name}: socket ${this.ended} before ${what}`));
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(new CheckFailed(`${this.name}: no ${what} within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }

  send(message) {
    this.sent += 1;
    this.ws.send(JSON.stringify(message));
  }

  async enter(message) {
    this.send({ ...message, name: this.name });
    await this.until(() => this.you || this.errors.length, 'welcome');
    expect(this.you, `${this.name}: ${message.type} refused: ${JSON.stringify(this.errors.at(-1))}`);
  }

  async resync() {
    const count = this.snapshots.length;
    this.send({ type: 'resync' });
    await this.until(() => this.snapshots.length > count, 'snapshot');
    return this.snapshots[count];
  }
}

async function settle(players) {
  const newest = Math.max(...players.map((player) => player.seq));
  for (const player of players) await player.until(() => player.seq >= newest, `seq ${newest}`);
}

async function guessOnce(players) {
  const { snowman } = players[0].state;
  const player = players.find((candidate) => candidate.you === snowman.turn);
  expect(player, `nobody here has the turn (${snowman.turn})`);
  const guessed = new Set(snowman.guesses.map((guess) => guess.letter));
  const letter = [...FREQUENCY].find((candidate) => !guessed.has(candidate));
  const [before, errors] = [player.seq, player.errors.length];
  player.send({ type: 'guess', letter: letter.toLowerCase() });
  await player.until(() => player.seq > before || player.errors.length > errors, `the answer to guess ${letter}`);
  expect(player.errors.length === errors, `${player.name}: guess ${letter} refused: ${JSON.stringify(player.errors.at(-1))}`);
  await settle(players);
}

async function checkGameSnowman(args) {
  const url = `${args.ws}/ws`;
  const players = [];
  const join = async (name, perMessageDeflate = true) => {
    const player = await Player.open(name, url, args.applyPatch, perMessageDeflate);
    players.push(player);
    await player.enter({ type: 'join', code: players[0].code, key: players[0].key });
    await settle(players);
    return player;
  };
  try {
    const host = await Player.open('Ana', url, args.applyPatch);
    players.push(host);
    await host.enter({ type: 'create', game: 'snowman', public: false,
      settings: { maxWrongGuesses: 10, turnSeconds: 0 } });
    await join('Bob');
    // Plain frames in the same room (ws without the extension), and a player whose own messages ws compresses
    // whatever their size (without context takeover, which the server asks for, ws compresses only messages of
    // 1 KiB or more by default, above any game message).
    const plain = await join('Plain', false);
    let late = null;
    let moves = 0;
    for (;;) {
      await settle(players);
      if (host.state.snowman.status !== 'inProgress') {
        if (late) break;
        host.send({ type: 'new_game' });   // over before the late player came: the next game
        await host.until(() => host.state.snowman.status === 'inProgress', 'the next game');
        continue;
      }
      if (moves === 2 && !late) late = await join('Cleo', { threshold: 0 });
      if (moves % 3 === 1) {
        const speaker = players[moves % players.length];
        const before = speaker.seq;
        speaker.send({ type: 'chat', text: `${speaker.name}: nice one, that letter was a good guess!` });
        // Its patch first: settling at once could pass before it, and the next guess would read an old turn.
        await speaker.until(() => speaker.seq > before, 'the chat line\'s patch');
        await settle(players);
      }
      await guessOnce(players);
      moves += 1;
      expect(moves < 60, 'the game does not end');
    }
    await settle(players);
    const states = [];
    for (const player of players) {
      const snapshot = await player.resync();
      expect(snapshot.ownSeq === snapshot.seq, `${player.name}: snapshot of seq ${snapshot.seq} arrived at ${snapshot.ownSeq}`);
      expect(deepEqual(snapshot.own, snapshot.state),
        `${player.name}: patched state differs from the snapshot at seq ${snapshot.seq}`);
      expect(!player.problems.length, `${player.name}: ${player.problems.slice(0, 3).join('; ')}`);
      states.push(snapshot.state);
    }
    expect(states.every((state) => deepEqual(state, states[0])), "the players' states differ");
    for (const player of players) {
      if (player === plain) {
        expect(player.extensions === null && player.ws.extensions === '',
          `Plain offered nothing, yet got ${player.extensions}`);
        continue;
      }
      expect(player.extensions === GAME_EXTENSIONS, `${player.name}: Sec-WebSocket-Extensions ${player.extensions}`);
      const params = deflateOf(player.ws)?.params;
      expect(player.ws.extensions === 'permessage-deflate' && params.client_no_context_takeover === true
        && params.server_max_window_bits === 11, `${player.name}: ws runs ${JSON.stringify(params)}`);
      expect(compressedIn(player.ws) === player.patches && player.patches > 0,
        `${player.name}: ${compressedIn(player.ws)} compressed messages for ${player.patches} patches`);
    }
    expect(deflateOf(late.ws).wrDeflated === late.sent,
      `Cleo deflated ${deflateOf(late.ws).wrDeflated} of the ${late.sent} messages it sent`);
    return `${moves} guesses, ${host.state.snowman.status}; compressed/messages: ${players.map(
      (p) => `${p.name} ${compressedIn(p.ws)}/${p.messages}`).join(', ')}`;
  } finally {
    players.forEach((player) => closeQuietly(player.ws));
  }
}

function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]));
}

// --- /echo -------------------------------------------------------------------------------------------------------

/** Sends each message and waits for its echo, in order; fragmented ones as [fragment, ...]. */
async function echoAll(ws, messages) {
  const replies = [];
  const done = new Promise((resolve, reject) => {
    ws.on('message', (data, isBinary) => {
      replies.push(isBinary ? Buffer.from(data) : data.toString('utf8'));
      if (replies.length === messages.length) resolve();
    });
    ws.once('close', (code, reason) => reject(new CheckFailed(`closed ${code} ${reason} after ${replies.length} echoes`)));
  });
  for (const message of messages) {
    if (Array.isArray(message)) {
      message.forEach((fragment, index) => ws.send(fragment, { fin: index === message.length - 1 }));
    } else {
      ws.send(message);
    }
  }
  let timer;
  await Promise.race([done, new Promise((_, reject) => {
    timer = setTimeout(() => reject(new CheckFailed(`${replies.length} of ${messages.length} echoes in 20 s`)), 20000);
  })]).finally(() => clearTimeout(timer));
  messages.forEach((message, index) => {
    const want = Array.isArray(message) ? message.join('') : message;
    const got = replies[index];
    const same = Buffer.isBuffer(want) ? Buffer.isBuffer(got) && want.equals(got) : got === want;
    expect(same, `echo ${index} (${describe(want)}) differs: ${describe(got)}`);
  });
}

function describe(data) {
  return Buffer.isBuffer(data) ? `binary of ${data.length} bytes` : `text of ${Buffer.byteLength(data)} bytes`;
}

function seededBytes(seed, length) {
  // Deterministic and incompressible: SHA-256 in counter mode.
  const out = Buffer.alloc(length);
  for (let offset = 0, block = 0; offset < length; block += 1) {
    offset += crypto.createHash('sha256').update(`${seed}:${block}`).digest().copy(out, offset);
  }
  return out;
}

function echoMessages() {
  const sentence = 'The quick brown fox jumps over the lazy dog, ünd ßo wëiter ✓ 😀. ';
  const words = [...sentence.split(' ').filter(Boolean), 'snowman', 'scramble', 'room', 'letter', 'guess'];
  const prose = [];
  const bytes = seededBytes('prose', 200000);
  for (const byte of bytes) prose.push(words[byte % words.length]);
  return [
    '',
    'a',
    'short and compressible, short and compressible',
    sentence.repeat(1500),                          // 100 KiB of text that deflates well
    seededBytes('binary', 65536),                   // incompressible binary
    seededBytes('text', 300000).toString('base64'), // text deflate barely shrinks
    prose.join(' ').slice(0, 1 << 20),              // about 1 MiB of words
    ['fragmented ', 'message ', 'ünd ', '✓ '.repeat(2000), 'end'],
  ];
}

/** /echo round trips with this perMessageDeflate offer; `want` is the expected response header. */
function makeEchoCheck(label, perMessageDeflate, want) {
  return async function check(args) {
    const { ws, extensions } = await open(`${args.ws}/echo`, { perMessageDeflate });
    try {
      expect(extensions === want, `offer ${JSON.stringify(perMessageDeflate)}: Sec-WebSocket-Extensions ${extensions}, want ${want}`);
      expect(ws.extensions === 'permessage-deflate', `ws runs ${ws.extensions || 'no extension'}`);
      await echoAll(ws, echoMessages());
      // A line twice: with the server's context kept, its second echo refers back to the first.
      const line = seededBytes('line', 1000).toString('base64');
      const before = deflateOf(ws).wrSizes.length;
      await echoAll(ws, [line, line]);
      const [first, second] = deflateOf(ws).wrSizes.slice(before);
      const serverKeeps = !/server_no_context_takeover/.test(want);
      if (serverKeeps) {
        expect(second * 4 < first, `context takeover, yet the repeat took ${second} bytes after ${first}`);
      } else {
        expect(second * 10 > first * 9, `server_no_context_takeover, yet the repeat took ${second} bytes after ${first}`);
      }
      const deflate = deflateOf(ws);
      return `${deflate.wrInflated} echoes inflated, ${deflate.wrDeflated || 0} messages deflated; repeat ${first} -> ${second} bytes`;
    } finally {
      closeQuietly(ws);
    }
  };
}

const CHECKS = [
  ['game_snowman_compressed', checkGameSnowman],
  ['echo_deflate_default_offer', makeEchoCheck('default', true, 'permessage-deflate')],
  // Without its own context ws sends messages under 1 KiB plain: plain and compressed ones mixed.
  ['echo_deflate_client_no_context_takeover', makeEchoCheck('client no context takeover',
    { clientNoContextTakeover: true }, 'permessage-deflate; client_no_context_takeover')],
  ['echo_deflate_no_context_takeover', makeEchoCheck('no context takeover',
    { threshold: 0, serverNoContextTakeover: true, clientNoContextTakeover: true },
    'permessage-deflate; server_no_context_takeover; client_no_context_takeover')],
  ['echo_deflate_window_bits', makeEchoCheck('window bits',
    { threshold: 0, serverMaxWindowBits: 12, clientMaxWindowBits: 10 },
    'permessage-deflate; server_max_window_bits=12; client_max_window_bits=10')],
];

function parseArgs(argv) {
  const args = { only: [] };
  for (let index = 0; index < argv.length; index += 1) {
    if (argv[index] === '--url') args.url = argv[++index];
    else if (argv[index] === '--only') args.only.push(argv[++index]);
    else {
      console.error(`unknown argument ${argv[index]}`);
      process.exit(2);
    }
  }
  const match = /^(?:http|ws):\/\/([^/]+)/.exec(args.url || '');
  if (!match) {
    console.error('usage: node_ws_client_test.js --url http://HOST:PORT/ [--only TEXT]...');
    process.exit(2);
  }
  args.ws = `ws://${match[1]}`;
  return args;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const patchModule = path.join(__dirname, '..', '..', 'web', 'js', 'core', 'json-patch.js');
  args.applyPatch = (await import(pathToFileURL(patchModule).href)).applyPatch;
  countCompression();
  let passed = 0;
  let failed = 0;
  for (const [name, check] of CHECKS) {
    if (args.only.length && !args.only.some((text) => name.includes(text))) continue;
    const started = Date.now();
    let verdict = 'PASS';
    let detail = '';
    let timer;
    try {
      detail = await Promise.race([check(args), new Promise((_, reject) => {
        timer = setTimeout(() => reject(new CheckFailed(`timed out after ${CHECK_TIMEOUT_MS / 1000} s`)), CHECK_TIMEOUT_MS);
      })]) || '';
    } catch (error) {
      verdict = 'FAIL';
      detail = error instanceof CheckFailed ? error.message : `unexpected ${error.name}: ${error.message}`;
    } finally {
      clearTimeout(timer);
    }
    if (verdict === 'PASS') passed += 1;
    else failed += 1;
    const line = `${verdict} ${name.padEnd(40)} ${String(Date.now() - started).padStart(6)} ms`;
    console.log(detail ? `${line}  ${detail}` : line);
  }
  console.log(`node-ws-client: ${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 && passed > 0 ? 0 : 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
