// Word Scramble's letter tiles: which of the root's letters the word being built uses (the typed word and the
// tapped tiles are one and the same text), and a shuffle of their order. Pure, for node --test.

/**
 * The tiles the word `typed` uses: each letter takes the leftmost free tile (in `order`) showing it; letters with
 * no free tile (typed on the keyboard, not in the root) are `stray`.
 * @param {string} root the round's letters, e.g. "PLASTERS"
 * @param {number[]} order tile positions as shown, indices into `root`
 * @param {string} typed the word so far (any case)
 * @returns {{used: Set<number>, stray: number[]}} used root indices; indices into `typed` of stray letters
 */
export function tilesInUse(root, order, typed) {
  const letters = String(root ?? '').toUpperCase();
  const used = new Set();
  const stray = [];
  [...String(typed ?? '').toUpperCase()].forEach((letter, position) => {
    const tile = order.find((index) => letters[index] === letter && !used.has(index));
    if (tile === undefined) stray.push(position);
    else used.add(tile);
  });
  return { used, stray };
}

/** The identity order of `length` tiles. */
export function tileOrder(length) {
  return Array.from({ length }, (_, index) => index);
}

/** `order` shuffled (Fisher-Yates with `random`), never left as it was when it has two different letters. */
export function shuffleTiles(order, root, random = Math.random) {
  const letters = String(root ?? '').toUpperCase();
  const shown = (list) => list.map((index) => letters[index]).join('');
  if (new Set(order.map((index) => letters[index])).size < 2) return [...order];
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const next = [...order];
    for (let i = next.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [next[i], next[j]] = [next[j], next[i]];
    }
    if (shown(next) !== shown(order)) return next;
  }
  return [...order.slice(1), order[0]];
}

/** `typed` without the letter at `position` (tapping a built letter takes it back). */
export function withoutLetter(typed, position) {
  const letters = [...String(typed ?? '')];
  letters.splice(position, 1);
  return letters.join('');
}
