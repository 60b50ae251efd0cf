// RFC 6902 patch application and RFC 6901 pointers: the examples of RFC 6902 Appendix A, then the edges.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatch, parsePointer, escapeToken, getValue, jsonEqual, PatchError } from '../../web/js/core/json-patch.js';

/** Applies `patch` and checks the result, and that the input document was left as it was. */
function expectPatched(document, patch, expected) {
  const before = structuredClone(document);
  assert.deepEqual(applyPatch(document, patch), expected);
  assert.deepEqual(document, before, 'the input document must not change');
}

function expectRejected(document, patch) {
  const before = structuredClone(document);
  assert.throws(() => applyPatch(document, patch), PatchError);
  assert.deepEqual(document, before, 'a failed patch must leave the document unchanged');
}

describe('RFC 6902 Appendix A', () => {
  test('A.1 adds an object member', () => {
    expectPatched({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }], { baz: 'qux', foo: 'bar' });
  });

  test('A.2 adds an array element', () => {
    expectPatched({ foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }], { foo: ['bar', 'qux', 'baz'] });
  });

  test('A.3 removes an object member', () => {
    expectPatched({ baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }], { foo: 'bar' });
  });

  test('A.4 removes an array element', () => {
    expectPatched({ foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }], { foo: ['bar', 'baz'] });
  });

  test('A.5 replaces a value', () => {
    expectPatched({ baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }], { baz: 'boo', foo: 'bar' });
  });

  test('A.6 moves a value', () => {
    expectPatched(
      { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
      [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
      { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
    );
  });

  test('A.7 moves an array element', () => {
    expectPatched(
      { foo: ['all', 'grass', 'cows', 'eat'] },
      [{ op: 'move', from: '/foo/1', path: '/foo/3' }],
      { foo: ['all', 'cows', 'eat', 'grass'] },
    );
  });

  test('A.8 tests a value: success', () => {
    const document = { baz: 'qux', foo: ['a', 2, 'c'] };
    expectPatched(document, [
      { op: 'test', path: '/baz', value: 'qux' },
      { op: 'test', path: '/foo/1', value: 2 },
    ], document);
  });

  test('A.9 tests a value: error', () => {
    expectRejected({ baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }]);
  });

  test('A.10 adds a nested member object', () => {
    expectPatched({ foo: 'bar' }, [{ op: 'add', path: '/child', value: { grandchild: {} } }],
      { foo: 'bar', child: { grandchild: {} } });
  });

  test('A.11 ignores unrecognized elements', () => {
    expectPatched({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }], { foo: 'bar', baz: 'qux' });
  });

  test('A.12 refuses to add to a nonexistent target', () => {
    expectRejected({ foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }]);
  });

  test('A.13 an operation with a repeated "op" is not applied as an add', () => {
    // JSON.parse keeps the last duplicate member, so this reads as a remove of a member that does not exist.
    const patch = JSON.parse('[{"op":"add","path":"/baz","value":"qux","op":"remove"}]');
    expectRejected({ foo: 'bar' }, patch);
  });

  test('A.14 decodes ~01 as ~1, not as /', () => {
    const document = { '/': 9, '~1': 10 };
    expectPatched(document, [{ op: 'test', path: '/~01', value: 10 }], document);
  });

  test('A.15 compares strings and numbers strictly', () => {
    expectRejected({ '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: '10' }]);
  });

  test('A.16 adds an array value with -', () => {
    expectPatched({ foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }], { foo: ['bar', ['abc', 'def']] });
  });
});

describe('JSON Pointer', () => {
  test('parses and unescapes tokens', () => {
    assert.deepEqual(parsePointer(''), []);
    assert.deepEqual(parsePointer('/'), ['']);
    assert.deepEqual(parsePointer('/a~1b/m~0n/~01'), ['a/b', 'm~n', '~1']);
  });

  test('refuses pointers without a leading slash and bad escapes', () => {
    for (const pointer of ['a', '/a~', '/a~2b']) {
      assert.throws(() => parsePointer(pointer), PatchError, pointer);
    }
  });

  test('escapes tokens so they parse back', () => {
    for (const token of ['a/b', 'm~n', '~1', '', '~/~']) {
      assert.deepEqual(parsePointer(`/${escapeToken(token)}`), [token]);
    }
  });

  test('reads values of RFC 6901 section 5', () => {
    const document = { foo: ['bar', 'baz'], '': 0, 'a/b': 1, 'c%d': 2, 'e^f': 3, 'g|h': 4, 'i\\j': 5, 'k"l': 6, ' ': 7, 'm~n': 8 };
    assert.equal(getValue(document, ''), document);
    assert.deepEqual(getValue(document, '/foo'), ['bar', 'baz']);
    assert.equal(getValue(document, '/foo/0'), 'bar');
    assert.equal(getValue(document, '/'), 0);
    assert.equal(getValue(document, '/a~1b'), 1);
    assert.equal(getValue(document, '/c%d'), 2);
    assert.equal(getValue(document, '/ '), 7);
    assert.equal(getValue(document, '/m~0n'), 8);
  });

  test('refuses array indices with leading zeros, signs or past the end', () => {
    const document = { a: [1, 2] };
    for (const pointer of ['/a/01', '/a/-1', '/a/2', '/a/-', '/a/x']) {
      assert.throws(() => getValue(document, pointer), PatchError, pointer);
    }
  });
});

describe('operations', () => {
  test('add replaces an existing member and the whole document at ""', () => {
    expectPatched({ a: 1 }, [{ op: 'add', path: '/a', value: 2 }], { a: 2 });
    expectPatched({ a: 1 }, [{ op: 'add', path: '', value: [1] }], [1]);
  });

  test('add appends at the index equal to the length, and refuses past it', () => {
    expectPatched([1, 2], [{ op: 'add', path: '/2', value: 3 }], [1, 2, 3]);
    expectRejected([1, 2], [{ op: 'add', path: '/3', value: 3 }]);
    expectPatched([], [{ op: 'add', path: '/-', value: 'x' }], ['x']);
  });

  test('remove and replace need an existing target', () => {
    expectRejected({ a: 1 }, [{ op: 'remove', path: '/b' }]);
    expectRejected({ a: 1 }, [{ op: 'replace', path: '/b', value: 1 }]);
    expectRejected({ a: [1] }, [{ op: 'remove', path: '/a/-' }]);
    expectPatched({ a: 1 }, [{ op: 'replace', path: '', value: 'x' }], 'x');
  });

  test('copy deep-copies, so a later change to the copy leaves the source', () => {
    expectPatched(
      { a: { b: [1] } },
      [{ op: 'copy', from: '/a', path: '/c' }, { op: 'add', path: '/c/b/-', value: 2 }],
      { a: { b: [1] }, c: { b: [1, 2] } },
    );
  });

  test('move refuses to move a value into its own child, and moving to itself changes nothing', () => {
    expectRejected({ a: { b: 1 } }, [{ op: 'move', from: '/a', path: '/a/b/c' }]);
    expectPatched({ a: 1 }, [{ op: 'move', from: '/a', path: '/a' }], { a: 1 });
    expectPatched({ a: 1, ab: 2 }, [{ op: 'move', from: '/a', path: '/ab' }], { ab: 1 });
  });

  test('test compares objects regardless of member order and arrays by order', () => {
    const document = { x: { a: 1, b: [1, { c: null }] } };
    expectPatched(document, [{ op: 'test', path: '/x', value: { b: [1, { c: null }], a: 1 } }], document);
    expectRejected(document, [{ op: 'test', path: '/x/b', value: [{ c: null }, 1] }]);
    expectRejected({ n: null }, [{ op: 'test', path: '/n', value: false }]);
    assert.equal(jsonEqual(1, 1.0), true);
    assert.equal(jsonEqual([], {}), false);
  });

  test('a failing operation undoes the ones before it', () => {
    expectRejected({ a: 1 }, [{ op: 'add', path: '/b', value: 2 }, { op: 'remove', path: '/zz' }]);
  });

  test('errors name the failing operation', () => {
    assert.throws(() => applyPatch({}, [{ op: 'add', path: '/a', value: 1 }, { op: 'frobnicate', path: '/a' }]),
      /operation 1: unknown op "frobnicate"/);
    assert.throws(() => applyPatch({}, [{ op: 'add', path: '/a' }]), /needs "value"/);
    assert.throws(() => applyPatch({}, { op: 'add' }), PatchError);
  });

  test('untouched subtrees are shared with the original', () => {
    const document = { left: { deep: [1, 2] }, right: { n: 1 } };
    const patched = applyPatch(document, [{ op: 'replace', path: '/right/n', value: 2 }]);
    assert.equal(patched.left, document.left);
    assert.notEqual(patched.right, document.right);
  });

  test('a member named __proto__ is a plain member', () => {
    const patched = applyPatch({}, [{ op: 'add', path: '/__proto__', value: { polluted: true } }]);
    assert.deepEqual(Object.keys(patched), ['__proto__']);
    assert.equal({}.polluted, undefined);
    assert.equal(Object.getPrototypeOf(patched), Object.prototype);
  });
});
