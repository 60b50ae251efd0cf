// Game night, round two (issue 43): the invite link of a page opened on localhost, names isolated from the text
// around them, the podium's standard competition ranking, and the admin link pasted into an open /admin tab.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { inviteBase, inviteLink, isLoopbackHost } from '../../web/js/core/invite-link.js';
import { nameSegments } from '../../web/js/core/name-segments.js';
import { podiumPlaces } from '../../web/js/core/podium-places.js';
import { takeTokenFromHash, takeToken } from '../../web/js/admin/token.js';
import { memoryStorage } from './memory-storage.mjs';

/** A page's `location` at `url`. */
function at(url) {
  const parsed = new URL(url);
  return { protocol: parsed.protocol, hostname: parsed.hostname, port: parsed.port, origin: parsed.origin };
}

describe('the invite link (item 3)', () => {
  test('loopback hosts are recognised, network ones are not', () => {
    for (const host of ['localhost', 'LOCALHOST', 'game.localhost', '127.0.0.1', '127.8.9.10', '[::1]', '::1']) {
      assert.equal(isLoopbackHost(host), true, host);
    }
    for (const host of ['192.168.1.20', 'play.example.com', '[2001:db8::5]', '10.0.0.127', 'localhost.example.com', '']) {
      assert.equal(isLoopbackHost(host), false, host);
    }
  });

  test('a page on localhost links to the server\'s network address, IPv4 first, same protocol and port', () => {
    const config = { publicUrl: null, networkAddresses: ['2001:db8::5', '192.168.1.20', '10.0.0.7'] };
    assert.deepEqual(inviteLink(config, at('http://localhost:8080/r/QHTW'), 'QHTW'),
      { link: 'http://192.168.1.20:8080/r/QHTW', loopbackOnly: false });
    assert.deepEqual(inviteBase({ networkAddresses: ['2001:db8::5'] }, at('http://127.0.0.1:9000/')),
      { base: 'http://[2001:db8::5]:9000', loopbackOnly: false });
    assert.deepEqual(inviteBase(config, at('http://localhost/')), { base: 'http://192.168.1.20', loopbackOnly: false });
  });

  test('--public-url wins; a page opened on a network address keeps it', () => {
    const config = { publicUrl: 'https://play.example.com/', networkAddresses: ['192.168.1.20'] };
    assert.deepEqual(inviteLink(config, at('http://localhost:8080/'), 'ABCD'),
      { link: 'https://play.example.com/r/ABCD', loopbackOnly: false });
    assert.deepEqual(inviteBase({ networkAddresses: ['192.168.1.20'] }, at('http://10.0.0.7:8080/')),
      { base: 'http://10.0.0.7:8080', loopbackOnly: false });
  });

  test('only loopback: the link is the page\'s own and says so; before /api/config answers, no warning', () => {
    assert.deepEqual(inviteBase({ networkAddresses: [] }, at('http://localhost:8080/')),
      { base: 'http://localhost:8080', loopbackOnly: true });
    assert.deepEqual(inviteBase({ networkAddresses: ['127.0.0.1', '::1'] }, at('http://localhost:8080/')),
      { base: 'http://localhost:8080', loopbackOnly: true });
    assert.deepEqual(inviteBase({}, at('http://localhost:8080/')), { base: 'http://localhost:8080', loopbackOnly: false });
    assert.deepEqual(inviteBase(undefined, at('http://localhost:8080/')), { base: 'http://localhost:8080', loopbackOnly: false });
  });
});

describe('names isolated from the text around them (item 6)', () => {
  test('each name becomes its own segment; joined, the segments give the text back', () => {
    const text = 'سارة (2)’s turn — guess a letter';
    const segments = nameSegments(text, ['Bob', 'سارة (2)']);
    assert.deepEqual(segments, [{ text: 'سارة (2)', name: true }, { text: '’s turn — guess a letter', name: false }]);
    assert.equal(segments.map((segment) => segment.text).join(''), text);
  });

  test('the longer name wins; every occurrence counts; empty names are ignored', () => {
    assert.deepEqual(nameSegments('Ana Lu skipped Ana', ['Ana', 'Ana Lu', '', null]), [
      { text: 'Ana Lu', name: true }, { text: ' skipped ', name: false }, { text: 'Ana', name: true },
    ]);
    assert.deepEqual(nameSegments('Waiting for the host', []), [{ text: 'Waiting for the host', name: false }]);
    assert.deepEqual(nameSegments('', ['Ana']), []);
  });
});

describe('the podium (item 13)', () => {
  const lines = (...points) => points.map((value, index) => ({ key: String(index), points: value }));

  test('three tied for second all stand on the second step; 0 points never on a step', () => {
    const places = podiumPlaces(lines(12, 7, 7, 7, 0));
    assert.deepEqual(places.map((line) => [line.rank, line.step]), [[1, 1], [2, 2], [2, 2], [2, 2], [5, null]]);
  });

  test('standard competition ranking ("1224"), best first whatever the input order', () => {
    const places = podiumPlaces(lines(3, 10, 1, 10));
    assert.deepEqual(places.map((line) => [line.key, line.rank, line.step]),
      [['1', 1, 1], ['3', 1, 1], ['0', 3, 3], ['2', 4, null]]);
  });

  test('nobody with points: an empty podium', () => {
    assert.deepEqual(podiumPlaces(lines(0, 0)).map((line) => line.step), [null, null]);
    assert.deepEqual(podiumPlaces(lines(5, 0)).map((line) => [line.rank, line.step]), [[1, 1], [2, null]]);
    assert.deepEqual(podiumPlaces([]), []);
  });
});

describe('the admin link pasted into an open /admin tab (item 9)', () => {
  test('a #token= fragment is taken, stored and cleared; none leaves the stored token alone', () => {
    const storage = memoryStorage();
    const replaced = [];
    const history = { replaceState: (_, __, url) => replaced.push(url) };
    assert.equal(takeTokenFromHash({ hash: '', pathname: '/admin', search: '' }, history, storage), null);
    assert.equal(takeTokenFromHash({ hash: '#token=new%2Btoken', pathname: '/admin', search: '' }, history, storage), 'new+token');
    assert.deepEqual(replaced, ['/admin']);
    assert.equal(takeToken({ hash: '', pathname: '/admin', search: '' }, history, storage), 'new+token');
    assert.equal(takeTokenFromHash({ hash: '#token=%E0%A4%A', pathname: '/admin', search: '' }, history, storage), '%E0%A4%A',
      'a malformed escape is kept as typed (the server refuses it with a message)');
  });
});
