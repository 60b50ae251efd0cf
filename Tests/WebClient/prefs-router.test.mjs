// Preferences and seats survive in storage; paths map to routes.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { loadPrefs, savePrefs, loadSeat, saveSeat, forgetSeat, PREFS_KEY } from '../../web/js/core/prefs.js';
import { routeFromPath, pathForRoute, sameRoute, roomLink } from '../../web/js/core/router.js';

/** A Storage stand-in; `full` makes writes throw like an exceeded quota. */
function memoryStorage({ full = false } = {}) {
  const items = new Map();
  return {
    items,
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => { if (full) throw new Error('QuotaExceededError'); items.set(key, String(value)); },
    removeItem: (key) => items.delete(key),
  };
}

describe('preferences', () => {
  test('default when nothing or garbage is stored', () => {
    assert.deepEqual(loadPrefs(memoryStorage()), { name: '', theme: 'system', accent: 'blue' });
    const storage = memoryStorage();
    storage.setItem(PREFS_KEY, '{not json');
    assert.deepEqual(loadPrefs(storage), { name: '', theme: 'system', accent: 'blue' });
    storage.setItem(PREFS_KEY, JSON.stringify({ theme: 'neon', accent: 'plaid', name: 42 }));
    assert.deepEqual(loadPrefs(storage), { name: '', theme: 'system', accent: 'blue' });
    assert.deepEqual(loadPrefs(null), { name: '', theme: 'system', accent: 'blue' });
  });

  test('saving merges and reloads', () => {
    const storage = memoryStorage();
    savePrefs(storage, { name: 'Ana' });
    savePrefs(storage, { theme: 'dark', accent: 'teal' });
    assert.deepEqual(loadPrefs(storage), { name: 'Ana', theme: 'dark', accent: 'teal' });
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
    assert.deepEqual(routeFromPath('/r/TOOLONG'), { name: 'lobby' });
    assert.deepEqual(routeFromPath('/elsewhere'), { name: 'lobby' });
    assert.equal(pathForRoute({ name: 'room', code: 'QHTW' }), '/r/QHTW');
    assert.equal(pathForRoute({ name: 'lobby' }), '/');
    assert.equal(sameRoute({ name: 'room', code: 'QHTW' }, routeFromPath('/r/qhtw')), true);
    assert.equal(roomLink('http://h:1', 'QHTW'), 'http://h:1/r/QHTW');
  });
});
