// RFC 6902 JSON Patch and RFC 6901 JSON Pointer, applied without mutating the input.
//
// The patched document shares every subtree the patch did not touch with the original (only the containers on
// the path of each operation are copied), so views can tell what changed with `===` and skip redrawing the rest.
// A patch is atomic (RFC 6902 §5): if any operation fails, `applyPatch` throws and the caller keeps the original.

/** Why a pointer or a patch could not be applied; `index` is the failing operation's position in the patch. */
export class PatchError extends Error {
  constructor(message, index = null) {
    super(index === null ? message : `operation ${index}: ${message}`);
    this.name = 'PatchError';
    this.index = index;
  }
}

/**
 * Splits a JSON Pointer into its unescaped reference tokens.
 *
 * RFC 6901 §4: `~1` stands for `/` and `~0` for `~`, and `~1` is decoded first, so `~01` is the token `~1`.
 * @param {string} pointer `""` for the whole document, otherwise `/`-separated tokens.
 * @returns {string[]}
 */
export function parsePointer(pointer) {
  if (typeof pointer !== 'string') throw new PatchError(`a pointer must be a string, not ${typeof pointer}`);
  if (pointer === '') return [];
  if (pointer[0] !== '/') throw new PatchError(`pointer "${pointer}" must start with "/"`);
  return pointer.slice(1).split('/').map((token) => {
    if (/~[^01]|~$/.test(token)) throw new PatchError(`pointer "${pointer}" has an invalid ~ escape`);
    return token.replace(/~1/g, '/').replace(/~0/g, '~');
  });
}

/** Escapes one token for use in a pointer (the inverse of the decoding in `parsePointer`). */
export function escapeToken(token) {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** RFC 6901 §4: an array index is `0` or digits without a leading zero. */
const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;

function isContainer(value) {
  return value !== null && typeof value === 'object';
}

function hasOwn(object, key) {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** Sets an object member as data, so a member named `__proto__` is a member and never the prototype. */
function setMember(object, key, value) {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

/** The index that `token` names in `array`; `-` (one past the end) only when `allowEnd`, as for `add`. */
function arrayIndex(array, token, { allowEnd }) {
  if (token === '-' && allowEnd) return array.length;
  if (!ARRAY_INDEX.test(token)) throw new PatchError(`"${token}" is not an array index`);
  const index = Number(token);
  const limit = allowEnd ? array.length : array.length - 1;
  if (index > limit) throw new PatchError(`index ${index} is out of bounds (array length ${array.length})`);
  return index;
}

/**
 * The value `pointer` refers to in `document`.
 * @throws {PatchError} when the location does not exist.
 */
export function getValue(document, pointer) {
  let value = document;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(value)) {
      value = value[arrayIndex(value, token, { allowEnd: false })];
    } else if (isContainer(value) && hasOwn(value, token)) {
      value = value[token];
    } else {
      throw new PatchError(`"${pointer}" does not exist`);
    }
  }
  return value;
}

/**
 * Returns a copy of `document` in which the container at `tokens[0..<last]` was changed by `edit`, copying only
 * the containers along the path.
 */
function withEdited(document, tokens, pointer, edit) {
  if (tokens.length === 0) return edit(null, null);
  const [head, ...rest] = tokens;
  if (rest.length === 0) {
    if (!isContainer(document)) throw new PatchError(`the parent of "${pointer}" is not an object or array`);
    const copy = Array.isArray(document) ? document.slice() : { ...document };
    edit(copy, head);
    return copy;
  }
  let child;
  let key = head;
  if (Array.isArray(document)) {
    key = arrayIndex(document, head, { allowEnd: false });
    child = document[key];
  } else if (isContainer(document) && hasOwn(document, head)) {
    child = document[head];
  } else {
    throw new PatchError(`the parent of "${pointer}" does not exist`);
  }
  const copy = Array.isArray(document) ? document.slice() : { ...document };
  setMember(copy, key, withEdited(child, rest, pointer, edit));
  return copy;
}

function add(document, pointer, value) {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) return value;
  return withEdited(document, tokens, pointer, (parent, token) => {
    if (Array.isArray(parent)) {
      parent.splice(arrayIndex(parent, token, { allowEnd: true }), 0, value);
    } else {
      setMember(parent, token, value);
    }
  });
}

function remove(document, pointer) {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) throw new PatchError('cannot remove the whole document');
  return withEdited(document, tokens, pointer, (parent, token) => {
    if (Array.isArray(parent)) {
      parent.splice(arrayIndex(parent, token, { allowEnd: false }), 1);
    } else if (hasOwn(parent, token)) {
      delete parent[token];
    } else {
      throw new PatchError(`"${pointer}" does not exist`);
    }
  });
}

function replace(document, pointer, value) {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) return value;
  return withEdited(document, tokens, pointer, (parent, token) => {
    if (Array.isArray(parent)) {
      parent[arrayIndex(parent, token, { allowEnd: false })] = value;
    } else if (hasOwn(parent, token)) {
      setMember(parent, token, value);
    } else {
      throw new PatchError(`"${pointer}" does not exist`);
    }
  });
}

/** Deep copy of a JSON value, so a `copy` target never aliases its source. */
function cloneJSON(value) {
  if (Array.isArray(value)) return value.map(cloneJSON);
  if (isContainer(value)) {
    const copy = {};
    for (const key of Object.keys(value)) setMember(copy, key, cloneJSON(value[key]));
    return copy;
  }
  return value;
}

/**
 * JSON equality as RFC 6902 §4.6 defines it for `test`: same type, numbers by value, objects regardless of
 * member order, arrays element by element.
 */
export function jsonEqual(a, b) {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, index) => jsonEqual(item, b[index]));
  }
  if (isContainer(a) && isContainer(b) && !Array.isArray(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => hasOwn(b, key) && jsonEqual(a[key], b[key]));
  }
  return false;
}

function requireField(operation, field) {
  if (!hasOwn(operation, field)) throw new PatchError(`"${operation.op}" needs "${field}"`);
  return operation[field];
}

function applyOperation(document, operation) {
  if (!isContainer(operation) || Array.isArray(operation)) throw new PatchError('an operation must be an object');
  const path = requireField(operation, 'path');
  switch (operation.op) {
    case 'add':
      return add(document, path, requireField(operation, 'value'));
    case 'remove':
      return remove(document, path);
    case 'replace':
      return replace(document, path, requireField(operation, 'value'));
    case 'move': {
      const from = requireField(operation, 'from');
      if (from === path) return document;
      // RFC 6902 §4.4: the "from" location MUST NOT be a proper prefix of the "path" location.
      if (path.startsWith(`${from}/`)) throw new PatchError(`cannot move "${from}" into its own child "${path}"`);
      const value = getValue(document, from);
      return add(remove(document, from), path, value);
    }
    case 'copy':
      return add(document, path, cloneJSON(getValue(document, requireField(operation, 'from'))));
    case 'test': {
      const expected = requireField(operation, 'value');
      if (!jsonEqual(getValue(document, path), expected)) throw new PatchError(`test of "${path}" failed`);
      return document;
    }
    default:
      throw new PatchError(`unknown op ${JSON.stringify(operation.op)}`);
  }
}

/**
 * Applies an RFC 6902 patch.
 * @param {*} document The JSON document; never modified.
 * @param {object[]} patch The operations, applied in order.
 * @returns The patched document (sharing untouched subtrees with `document`).
 * @throws {PatchError} naming the failing operation; nothing is applied then.
 */
export function applyPatch(document, patch) {
  if (!Array.isArray(patch)) throw new PatchError('a patch must be an array of operations');
  let result = document;
  patch.forEach((operation, index) => {
    try {
      result = applyOperation(result, operation);
    } catch (error) {
      if (error instanceof PatchError && error.index === null) throw new PatchError(error.message, index);
      throw error;
    }
  });
  return result;
}
