// Players' names inside a line of text, so that views can isolate each one (`<bdi>`, Unicode Bidirectional
// Algorithm, UAX #9 §2.7 isolates): a right-to-left name with digits such as "سارة (2)" must keep its own order
// and not pull the parentheses and the words around it into its direction ("(2) سارة is guessing").

/**
 * Splits `text` into segments, `{text, name: true}` for each occurrence of one of `names`, `{text, name: false}`
 * for the rest; joined, the segments give `text` back. Longer names win where names overlap ("Ana" inside
 * "Ana Lu"); empty names are ignored.
 * @param {string} text
 * @param {Iterable<string>} names
 * @returns {Array<{text: string, name: boolean}>}
 */
export function nameSegments(text, names) {
  const value = String(text ?? '');
  const candidates = [...new Set([...(names ?? [])].map((name) => String(name ?? '')).filter(Boolean))]
    .sort((a, b) => b.length - a.length);
  const segments = [];
  let plain = '';
  let index = 0;
  while (index < value.length) {
    const name = candidates.find((candidate) => value.startsWith(candidate, index));
    if (name) {
      if (plain) segments.push({ text: plain, name: false });
      plain = '';
      segments.push({ text: name, name: true });
      index += name.length;
    } else {
      plain += value[index];
      index += 1;
    }
  }
  if (plain) segments.push({ text: plain, name: false });
  return segments;
}
