// A host's own Snowman words, checked in the browser with the server's rules (PROTOCOL.md, "Word packs and your
// own words") so the create dialog and the host settings can show every problem while the list is typed or pasted.
// The server checks again and has the last word (`bad-words`).
//
// Rules (Sources/WordGames/CustomWordList.swift): words are separated by newlines (\n, \r\n, \r) or commas;
// spaces and tabs around each are trimmed, blank ones ignored; each must be 4-10 letters A-Z (either case);
// duplicates are merged case-insensitively (and counted); 10-500 distinct words; at most 8192 bytes of UTF-8.

export const MIN_WORD_LETTERS = 4;
export const MAX_WORD_LETTERS = 10;
export const MIN_CUSTOM_WORDS = 10;
export const MAX_CUSTOM_WORDS = 500;
/** The longest list the server takes, in UTF-8 bytes (`CustomWordList.maxBytes`). */
export const MAX_CUSTOM_TEXT_LENGTH = 8192;
/** How many problems the server names before "and N more"; views show the same. */
export const PROBLEMS_SHOWN = 10;

/** Why `word` (trimmed, not blank) cannot be a secret word, or null when it can. */
function wordProblem(word) {
  if (/[ \t]/.test(word)) return 'one word per entry: no spaces inside';
  if (!/^[A-Za-z]+$/.test(word)) {
    const bad = [...word].find((c) => !/[A-Za-z]/.test(c));
    return `letters A-Z only (not “${bad}”)`;
  }
  const letters = word.length;
  if (letters < MIN_WORD_LETTERS) return `too short: ${letters} letter${letters === 1 ? '' : 's'}, at least ${MIN_WORD_LETTERS}`;
  if (letters > MAX_WORD_LETTERS) return `too long: ${letters} letters, at most ${MAX_WORD_LETTERS}`;
  return null;
}

/**
 * Checks a pasted list.
 *
 * - Returns: `{ words, problems, duplicates, countProblem, ok }`: `words` the distinct valid words in upper case,
 *   in the order first seen; `problems` one `{ line, text, reason }` per invalid entry (`line` counted from 1;
 *   several entries of one line each get theirs); `duplicates` how many entries repeated an earlier word;
 *   `countProblem` a sentence when there are too few or too many words (null otherwise; null too for an empty
 *   list, which means "no custom words"); `ok` whether the server will take the list.
 */
export function parseCustomWords(text) {
  const source = typeof text === 'string' ? text : '';
  const words = [];
  const seen = new Set();
  const problems = [];
  let duplicates = 0;
  source.split(/\r\n|\r|\n/).forEach((lineText, index) => {
    for (const entry of lineText.split(',')) {
      // Only spaces and tabs are trimmed, as on the server: any other invisible character is a problem to show.
      const word = entry.replace(/^[ \t]+|[ \t]+$/g, '');
      if (word === '') continue;
      const reason = wordProblem(word);
      if (reason) {
        problems.push({ line: index + 1, text: word, reason });
        continue;
      }
      const upper = word.toUpperCase();
      if (seen.has(upper)) {
        duplicates += 1;
      } else {
        seen.add(upper);
        words.push(upper);
      }
    }
  });
  let countProblem = null;
  const bytes = new TextEncoder().encode(source).length;
  if (bytes > MAX_CUSTOM_TEXT_LENGTH) {
    countProblem = `The list is too long: ${bytes} bytes, at most ${MAX_CUSTOM_TEXT_LENGTH}.`;
  } else if (words.length > MAX_CUSTOM_WORDS) {
    countProblem = `Too many words: ${words.length}, at most ${MAX_CUSTOM_WORDS}.`;
  } else if (words.length > 0 && words.length < MIN_CUSTOM_WORDS) {
    countProblem = `Too few words: ${words.length}, at least ${MIN_CUSTOM_WORDS}.`;
  } else if (words.length === 0 && problems.length > 0) {
    countProblem = `No valid words yet: at least ${MIN_CUSTOM_WORDS}.`;
  }
  const empty = words.length === 0 && problems.length === 0;
  return { words, problems, duplicates, countProblem, ok: !empty && problems.length === 0 && countProblem === null };
}

/** One line of a problem for people: `Line 3 “cat”: too short: 3 letters, at least 4`. */
export function describeProblem({ line, text, reason }) {
  return `Line ${line} “${text}”: ${reason}`;
}

/** A one-line summary of a checked list, for the count under the field. */
export function summarizeCustomWords({ words, problems, duplicates }) {
  const parts = [`${words.length} word${words.length === 1 ? '' : 's'}`];
  if (duplicates > 0) parts.push(`${duplicates} duplicate${duplicates === 1 ? '' : 's'} merged`);
  if (problems.length > 0) parts.push(`${problems.length} to fix`);
  return parts.join(' · ');
}
