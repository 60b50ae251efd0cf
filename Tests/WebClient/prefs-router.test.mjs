// Preferences and seats survive in storage; paths map to routes.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  loadPrefs, savePrefs, loadSeat, saveSeat, forgetSeat, loadClientId, newClientId, base64url, PREFS_KEY, CLIENT_KEY,
} from '../../web/js/core/prefs.js';
import {
  routeFromPath, pathForRoute, hrefForRoute, sameRoute, roomLink, keyFromHash, parseRoomInput,
} from '../../web/js/core/router.js';
import { memoryStorage } from './memory-storage.mjs';

/** A Storage stand-in; `full` makes writes throw like an exceeded quota. */
const DEFAULTS = { name: '', theme: 'system', accent: 'blue', sound: true, volume: 0.6 };

describe('preferences', () => {
  test('default when nothing or garbage is stored', () => {
    assert.deepEqual(loadPrefs(memoryStorage()), DEFAULTS);
    const storage = memoryStorage();
    storage.setItem(PREFS_KEY, '{not json');
    assert.deepEqual(loadPrefs(storage), DEFAULTS);
    storage.setItem(PREFS_KEY, JSON.stringify({ theme: 'neon', accent: 'plaid', name: 42 }));
    assert.deepEqual(loadPrefs(storage), DEFAULTS);
    assert.deepEqual(loadPrefs(null), DEFAULTS);
  });

  test('saving merges and reloads', () => {
    const storage = memoryStorage();
    savePrefs(storage, { name: 'Ana' });
    savePrefs(storage, { theme: 'dark', accent: 'teal' });
    assert.deepEqual(loadPrefs(storage), { ...DEFAULTS, name: 'Ana', theme: 'dark', accent: 'teal' });
  });

  test('sound is on at 0.6 by default; stored choices come back, bad ones default', () => {
    const storage = memoryStorage();
    savePrefs(storage, { sound: false, volume: 0.25 });
    assert.deepEqual(loadPrefs(storage), { ...DEFAULTS, sound: false, volume: 0.25 });
    savePrefs(storage, { volume: 0 });
    assert.equal(loadPrefs(storage).volume, 0, 'silent is a volume');
    storage.setItem(PREFS_KEY, JSON.stringify({ sound: 'yes', volume: 4 }));
    assert.deepEqual(loadPrefs(storage), DEFAULTS);
    storage.setItem(PREFS_KEY, JSON.stringify({ volume: '0.3' }));
    assert.equal(loadPrefs(storage).volume, 0.6);
  });

  test('a full storage does not break saving', () => {
    assert.deepEqual(savePrefs(memoryStorage({ full: true }), { theme: 'light' }).theme, 'light');
  });
});

describe('seats', () => {
  const token = '0123456789abcdef0123456789abcdef';
  test('remember token, seq and state per room', () => {
    const storage = memoryStorage();
    saveSeat(storage, { code: 'QHTW', token, seq: 5, state: { code: 'QHTW' } });
    assert.deepEqual(loadSeat(storage, 'QHTW'), { token, seq: 5, state: { code: 'QHTW' } });
    assert.equal(loadSeat(storage, 'ABCD'), null);
    forgetSeat(storage, 'QHTW');
    assert.equal(loadSeat(storage, 'QHTW'), null);
  });

  test('a seat without state resumes with the token alone; a bad token is ignored', () => {
    const storage = memoryStorage();
    saveSeat(storage, { code: 'QHTW', token, seq: 5, state: null });
    assert.deepEqual(loadSeat(storage, 'QHTW'), { token, seq: null, state: null });
    storage.setItem('wordrooms.seat.ABCD', JSON.stringify({ token: 'nope' }));
    assert.equal(loadSeat(storage, 'ABCD'), null);
  });
});

describe('routes', () => {
  test('paths', () => {
    assert.deepEqual(routeFromPath('/'), { name: 'lobby' });
    assert.deepEqual(routeFromPath('/r/qhtw'), { name: 'room', code: 'QHTW' });
    assert.deepEqual(routeFromPath('/r/QHTW/'), { name: 'room', code: 'QHTW' });
    assert.deepEqual(routeFromPath('/r/TOOLONG'), { name: 'bad-code', text: 'TOOLONG' });
    assert.deepEqual(routeFromPath('/elsewhere'), { name: 'lobby' });
    assert.equal(pathForRoute({ name: 'room', code: 'QHTW' }), '/r/QHTW');
    assert.equal(pathForRoute({ name: 'lobby' }), '/');
    assert.equal(sameRoute({ name: 'room', code: 'QHTW' }, routeFromPath('/r/qhtw')), true);
    assert.equal(roomLink('http://h:1', 'QHTW'), 'http://h:1/r/QHTW');
  });
});

describe('bad room codes', () => {
  test('/r/ with something that is not a code is its own page, keeping its address', () => {
    assert.deepEqual(routeFromPath('/r/abc'), { name: 'bad-code', text: 'abc' });
    assert.equal(pathForRoute(routeFromPath('/r/abc')), '/r/abc');
    assert.deepEqual(routeFromPath('/r/'), { name: 'bad-code', text: '' });
    assert.deepEqual(routeFromPath('/r/QH7W'), { name: 'bad-code', text: 'QH7W' });
    assert.deepEqual(routeFromPath('/r/a%20b'), { name: 'bad-code', text: 'a b' });
    assert.deepEqual(routeFromPath('/r/%E0%A4%A'), { name: 'bad-code', text: '%E0%A4%A' }, 'a broken escape does not throw');
    assert.equal(routeFromPath(`/r/${'x'.repeat(500)}`).text.length, 40);
    assert.equal(sameRoute(routeFromPath('/r/abc'), { name: 'lobby' }), false);
  });
});

describe('client id', () => {
  test('is made once: 16 random bytes as 22 base64url characters, kept under wordrooms.client', () => {
    const storage = memoryStorage();
    let calls = 0;
    const random = (array) => { calls += 1; for (let i = 0; i < array.length; i += 1) array[i] = (i * 37 + 11) & 255; return array; };
    const id = loadClientId(storage, random);
    assert.match(id, /^[A-Za-z0-9_-]{22}$/);
    assert.equal(storage.getItem(CLIENT_KEY), id);
    assert.equal(loadClientId(storage, random), id, 'the same id on the next visit');
    assert.equal(calls, 1);
  });

  test('uses crypto.getRandomValues by default, and ids differ', () => {
    const a = newClientId();
    const b = newClientId();
    assert.match(a, /^[A-Za-z0-9_-]{22}$/);
    assert.notEqual(a, b);
  });

  test('a damaged stored id is replaced; no storage still gives an id', () => {
    const storage = memoryStorage();
    storage.setItem(CLIENT_KEY, 'short');
    assert.match(loadClientId(storage), /^[A-Za-z0-9_-]{22}$/);
    assert.notEqual(storage.getItem(CLIENT_KEY), 'short');
    assert.match(loadClientId(null), /^[A-Za-z0-9_-]{22}$/);
    assert.match(loadClientId(memoryStorage({ full: true })), /^[A-Za-z0-9_-]{22}$/);
  });

  test('base64url', () => {
    assert.equal(base64url(new Uint8Array([0xfb, 0xff, 0xbf])), '-_-_');
    assert.equal(base64url(new Uint8Array([0x4d, 0x61])), 'TWE');
    assert.equal(base64url(new Uint8Array([0x4d])), 'TQ');
    assert.equal(base64url(new Uint8Array(16)).length, 22);
  });
});

describe('private room links', () => {
  const KEY = 'abcDEF0123456-_x';

  test('the key travels in the fragment, never in the path', () => {
    assert.deepEqual(routeFromPath('/r/qhtw', `#k=${KEY}`), { name: 'room', code: 'QHTW', key: KEY });
    assert.deepEqual(routeFromPath('/r/QHTW', '#k=short'), { name: 'room', code: 'QHTW' }, 'not a key: ignored');
    assert.deepEqual(routeFromPath('/r/QHTW'), { name: 'room', code: 'QHTW' });
    assert.equal(hrefForRoute({ name: 'room', code: 'QHTW', key: KEY }), `/r/QHTW#k=${KEY}`);
    assert.equal(pathForRoute({ name: 'room', code: 'QHTW', key: KEY }), '/r/QHTW');
    assert.equal(roomLink('https://play.test', 'QHTW', KEY), `https://play.test/r/QHTW#k=${KEY}`);
    assert.equal(roomLink('https://play.test', 'QHTW'), 'https://play.test/r/QHTW');
    assert.equal(keyFromHash(`#x=1&k=${KEY}`), KEY);
  });

  test('the code box takes a code or a pasted link', () => {
    assert.deepEqual(parseRoomInput(' qhtw '), { code: 'QHTW', key: null });
    assert.deepEqual(parseRoomInput(`https://play.test/r/QHTW#k=${KEY}`), { code: 'QHTW', key: KEY });
    assert.deepEqual(parseRoomInput(`http://localhost:8080/r/bqhtw/#k=${KEY}`), { code: 'BQHTW', key: KEY });
    assert.deepEqual(parseRoomInput('https://play.test/r/QHTW'), { code: 'QHTW', key: null });
    assert.equal(parseRoomInput('https://play.test/about'), null);
    assert.equal(parseRoomInput('QH'), null);
  });

  test('a seat remembers the key it needs to resume', () => {
    const storage = memoryStorage();
    saveSeat(storage, { code: 'QHTW', token: '0123456789abcdef0123456789abcdef', seq: 1, state: {}, key: KEY });
    assert.equal(loadSeat(storage, 'QHTW').key, KEY);
  });
});
