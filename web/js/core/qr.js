// A QR Code encoder (ISO/IEC 18004:2015), written for the room's share link: byte mode (UTF-8), error correction
// level M, the smallest version 1-40 that holds the text, Reed-Solomon over GF(256), block interleaving, format
// and version information, and the mask with the lowest penalty under the standard's four rules.
//
// Written here rather than taken from a package: the client loads nothing from outside hosts and has no build
// step, and the whole encoder for one mode and one level is a few hundred lines. Section numbers below are the
// standard's.

/** §7.5.1 Table 12: level M's two format bits (L=01, M=00, Q=11, H=10). */
const LEVEL_M_BITS = 0b00;

/** §7.4.2 Table 2: byte mode's indicator. */
const BYTE_MODE = 0b0100;

/** §7.4.10: the pad codewords, alternating, after the terminator. */
const PAD_CODEWORDS = [0xec, 0x11];

/** §7.9.1: the format information is XORed with 101010000010010 so it is never all zero. */
const FORMAT_MASK = 0x5412;
/** §7.9.1 and Annex C: the BCH(15,5) generator x^10 + x^8 + x^5 + x^4 + x^2 + x + 1. */
const FORMAT_GENERATOR = 0x537;
/** §7.10 and Annex D: the BCH(18,6) generator x^12 + x^11 + x^10 + x^9 + x^8 + x^5 + x^2 + 1. */
const VERSION_GENERATOR = 0x1f25;

/** §7.5.2 Table 9, level M: error correction codewords per block, by version (index 0 = version 1). */
const M_EC_PER_BLOCK = [
  10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
  26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
];
/** §7.5.2 Table 9, level M: number of error correction blocks, by version. */
const M_BLOCKS = [
  1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
  17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
];

export const MIN_VERSION = 1;
export const MAX_VERSION = 40;

// ---- GF(256) with the primitive polynomial x^8 + x^4 + x^3 + x^2 + 1 (§7.5.2) ----

const PRIMITIVE = 0x11d;
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
{
  let value = 1;
  for (let i = 0; i < 255; i += 1) {
    EXP[i] = value;
    LOG[value] = i;
    value <<= 1;
    if (value & 0x100) value ^= PRIMITIVE;
  }
  for (let i = 255; i < 512; i += 1) EXP[i] = EXP[i - 255];
}

function gfMultiply(a, b) {
  return a === 0 || b === 0 ? 0 : EXP[LOG[a] + LOG[b]];
}

/**
 * The generator polynomial (x - α^0)(x - α^1)…(x - α^(degree-1)) (§7.5.2, Annex A), highest power first, as
 * coefficients (the leading 1 included).
 */
export function generatorPolynomial(degree) {
  let poly = [1];
  for (let i = 0; i < degree; i += 1) {
    const next = new Array(poly.length + 1).fill(0);
    for (let j = 0; j < poly.length; j += 1) {
      next[j] ^= poly[j];
      next[j + 1] ^= gfMultiply(poly[j], EXP[i]);
    }
    poly = next;
  }
  return poly;
}

/** The exponents of α for a generator polynomial's coefficients (how Annex A lists them). */
export function generatorExponents(degree) {
  return generatorPolynomial(degree).map((coefficient) => LOG[coefficient]);
}

/** The `count` error correction codewords of `data`: the remainder of data·x^count divided by the generator. */
export function reedSolomon(data, count) {
  const generator = generatorPolynomial(count);
  const remainder = new Array(count).fill(0);
  for (const byte of data) {
    const factor = byte ^ remainder[0];
    remainder.shift();
    remainder.push(0);
    for (let i = 0; i < count; i += 1) remainder[i] ^= gfMultiply(generator[i + 1], factor);
  }
  return remainder;
}

// ---- Versions and their layout ----

/** §6.2: a version's symbol is 17 + 4·version modules wide. */
export function symbolSize(version) {
  return 17 + 4 * version;
}

/** Annex E: the centre rows/columns of the alignment patterns (none in version 1). */
export function alignmentPositions(version) {
  if (version === 1) return [];
  const size = symbolSize(version);
  const count = Math.floor(version / 7) + 2;
  // Evenly spaced from column 6 to size-7, the spacing even; version 32 is the table's one exception.
  const step = version === 32 ? 26 : Math.ceil((size - 13) / (count * 2 - 2)) * 2;
  const positions = [6];
  for (let position = size - 7; positions.length < count; position -= step) positions.splice(1, 0, position);
  return positions;
}

/** BCH remainder of `value` (already shifted left by the generator's degree) divided by `generator`. */
function bchRemainder(value, generator) {
  const degree = Math.floor(Math.log2(generator));
  let remainder = value;
  for (let bit = Math.floor(Math.log2(Math.max(remainder, 1))); bit >= degree; bit -= 1) {
    if (remainder & (1 << bit)) remainder ^= generator << (bit - degree);
  }
  return remainder;
}

/** §7.9.1: the 15 format bits for level M and `mask` (0-7), after the XOR mask. */
export function formatBits(mask) {
  const data = (LEVEL_M_BITS << 3) | mask;
  return ((data << 10) | bchRemainder(data << 10, FORMAT_GENERATOR)) ^ FORMAT_MASK;
}

/** §7.10: the 18 version bits (versions 7 and up). */
export function versionBits(version) {
  return (version << 12) | bchRemainder(version << 12, VERSION_GENERATOR);
}

/** A blank grid: `size` rows of `size` entries. */
function grid(size, value) {
  return Array.from({ length: size }, () => new Array(size).fill(value));
}

/**
 * The function patterns of `version` (§6.3: finders with separators, timing, alignment, the dark module, and
 * the areas reserved for format and version information): `modules` holds their colours and `reserved` says
 * which modules they cover, so data goes everywhere else.
 */
function functionPatterns(version) {
  const size = symbolSize(version);
  const modules = grid(size, false);
  const reserved = grid(size, false);
  const set = (x, y, dark) => {
    modules[y][x] = dark;
    reserved[y][x] = true;
  };

  // §6.3.6 timing patterns: row and column 6, dark on even positions.
  for (let i = 0; i < size; i += 1) {
    set(6, i, i % 2 === 0);
    set(i, 6, i % 2 === 0);
  }
  // §6.3.3 finder patterns (7×7 rings 1:1:3:1:1) with their light separators, in three corners.
  for (const [cx, cy] of [[3, 3], [size - 4, 3], [3, size - 4]]) {
    for (let dy = -4; dy <= 4; dy += 1) {
      for (let dx = -4; dx <= 4; dx += 1) {
        const x = cx + dx;
        const y = cy + dy;
        if (x < 0 || y < 0 || x >= size || y >= size) continue;
        const ring = Math.max(Math.abs(dx), Math.abs(dy));
        set(x, y, ring !== 2 && ring !== 4);
      }
    }
  }
  // §6.3.5 alignment patterns (5×5), everywhere on the position grid except over the finders.
  const positions = alignmentPositions(version);
  const last = positions.length - 1;
  positions.forEach((cy, row) => {
    positions.forEach((cx, column) => {
      const overFinder = (row === 0 && column === 0) || (row === 0 && column === last) || (row === last && column === 0);
      if (overFinder) return;
      for (let dy = -2; dy <= 2; dy += 1) {
        for (let dx = -2; dx <= 2; dx += 1) set(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
      }
    });
  });
  // §7.9.1 format information areas (filled in after masking) and the dark module beside the bottom-left finder.
  for (let i = 0; i < 9; i += 1) {
    if (!reserved[8][i]) set(i, 8, false);
    if (!reserved[i][8]) set(8, i, false);
  }
  for (let i = 0; i < 8; i += 1) {
    set(size - 1 - i, 8, false);
    set(8, size - 1 - i, false);
  }
  set(8, size - 8, true);
  // §7.10 version information: two 6×3 blocks, versions 7 and up.
  if (version >= 7) {
    const bits = versionBits(version);
    for (let i = 0; i < 18; i += 1) {
      const dark = ((bits >> i) & 1) === 1;
      const a = size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      set(a, b, dark);
      set(b, a, dark);
    }
  }
  return { size, modules, reserved };
}

/** The number of codewords a version holds (§7.5.1 Table 7): its free modules, in whole bytes. */
export function totalCodewords(version) {
  const { reserved } = functionPatterns(version);
  let free = 0;
  for (const row of reserved) for (const taken of row) if (!taken) free += 1;
  return Math.floor(free / 8);
}

/**
 * The block structure of `version` at level M: `blocks` (count), `ecPerBlock`, and the data codewords of the
 * short and long blocks (§7.5.2 Table 9: blocks differ by at most one codeword, the short ones first).
 */
export function blockLayout(version) {
  const total = totalCodewords(version);
  const blocks = M_BLOCKS[version - 1];
  const ecPerBlock = M_EC_PER_BLOCK[version - 1];
  const longBlocks = total % blocks;
  const shortBlockLength = Math.floor(total / blocks);
  return {
    total,
    blocks,
    ecPerBlock,
    shortBlocks: blocks - longBlocks,
    shortData: shortBlockLength - ecPerBlock,
    longData: longBlocks > 0 ? shortBlockLength + 1 - ecPerBlock : 0,
    dataCodewords: total - blocks * ecPerBlock,
  };
}

/** §7.4.1 Table 3: the byte mode character count has 8 bits in versions 1-9 and 16 bits from version 10. */
function countBits(version) {
  return version <= 9 ? 8 : 16;
}

/** How many bytes of text `version` holds at level M in byte mode (§7.4.10 Table 7). */
export function byteCapacity(version) {
  return Math.floor((blockLayout(version).dataCodewords * 8 - 4 - countBits(version)) / 8);
}

/** Bits appended most significant first. */
class BitBuffer {
  constructor() {
    this.bits = [];
  }

  append(value, length) {
    for (let i = length - 1; i >= 0; i -= 1) this.bits.push((value >>> i) & 1);
  }

  bytes() {
    const bytes = [];
    for (let i = 0; i < this.bits.length; i += 8) {
      let byte = 0;
      for (let j = 0; j < 8; j += 1) byte = (byte << 1) | (this.bits[i + j] ?? 0);
      bytes.push(byte);
    }
    return bytes;
  }
}

/** §7.4: the data codewords for `bytes` in byte mode, terminated and padded to the version's capacity. */
export function dataCodewords(bytes, version) {
  const capacityBits = blockLayout(version).dataCodewords * 8;
  const buffer = new BitBuffer();
  buffer.append(BYTE_MODE, 4);
  buffer.append(bytes.length, countBits(version));
  for (const byte of bytes) buffer.append(byte, 8);
  buffer.append(0, Math.min(4, capacityBits - buffer.bits.length)); // §7.4.9 terminator
  buffer.append(0, (8 - (buffer.bits.length % 8)) % 8);
  const codewords = buffer.bytes();
  for (let i = 0; codewords.length < capacityBits / 8; i += 1) codewords.push(PAD_CODEWORDS[i % 2]);
  return codewords;
}

/** §7.5.2 and §7.6: splits data into blocks, adds each block's error correction, and interleaves them. */
export function interleave(data, version) {
  const layout = blockLayout(version);
  const dataBlocks = [];
  const ecBlocks = [];
  let offset = 0;
  for (let i = 0; i < layout.blocks; i += 1) {
    const length = i < layout.shortBlocks ? layout.shortData : layout.longData;
    const block = data.slice(offset, offset + length);
    offset += length;
    dataBlocks.push(block);
    ecBlocks.push(reedSolomon(block, layout.ecPerBlock));
  }
  const result = [];
  const longest = Math.max(...dataBlocks.map((block) => block.length));
  for (let i = 0; i < longest; i += 1) for (const block of dataBlocks) if (i < block.length) result.push(block[i]);
  for (let i = 0; i < layout.ecPerBlock; i += 1) for (const block of ecBlocks) result.push(block[i]);
  return result;
}

/** §7.8.2 Table 10: the eight data mask conditions, for row `i` and column `j`. */
const MASKS = [
  (i, j) => (i + j) % 2 === 0,
  (i) => i % 2 === 0,
  (i, j) => j % 3 === 0,
  (i, j) => (i + j) % 3 === 0,
  (i, j) => (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0,
  (i, j) => ((i * j) % 2) + ((i * j) % 3) === 0,
  (i, j) => (((i * j) % 2) + ((i * j) % 3)) % 2 === 0,
  (i, j) => (((i + j) % 2) + ((i * j) % 3)) % 2 === 0,
];

/**
 * §7.7.3: places the codewords in two-module columns from the bottom right, up then down, skipping the vertical
 * timing pattern and every function module. Remainder bits stay light.
 */
function placeCodewords(modules, reserved, codewords) {
  const size = modules.length;
  const totalBits = codewords.length * 8;
  let bit = 0;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    const upward = ((size - 1 - right) >> 1) % 2 === 0;
    for (let step = 0; step < size; step += 1) {
      const y = upward ? size - 1 - step : step;
      for (let x = right; x >= right - 1; x -= 1) {
        if (reserved[y][x] || bit >= totalBits) continue;
        modules[y][x] = ((codewords[bit >> 3] >> (7 - (bit & 7))) & 1) === 1;
        bit += 1;
      }
    }
  }
}

/** Writes the 15 format bits for `mask` in both places (§7.9.1 Figure 25). */
function placeFormat(modules, mask) {
  const size = modules.length;
  const bits = formatBits(mask);
  const dark = (i) => ((bits >> i) & 1) === 1;
  // Around the top-left finder: bits 0-7 down column 8 (skipping the timing row), bits 8-14 leftwards on row 8.
  for (let i = 0; i <= 5; i += 1) modules[i][8] = dark(i);
  modules[7][8] = dark(6);
  modules[8][8] = dark(7);
  modules[8][7] = dark(8);
  for (let i = 9; i < 15; i += 1) modules[8][14 - i] = dark(i);
  // The copy: bits 0-7 leftwards from the right edge on row 8, bits 8-14 down column 8 at the bottom.
  for (let i = 0; i < 8; i += 1) modules[8][size - 1 - i] = dark(i);
  for (let i = 8; i < 15; i += 1) modules[size - 15 + i][8] = dark(i);
}

// ---- §7.8.3 mask evaluation ----

const N1 = 3;
const N2 = 3;
const N3 = 40;
const N4 = 10;
/** 1:1:3:1:1 dark-light-dark-light-dark with four light modules on one side (§7.8.3 Table 11, feature 3). */
const FINDER_LIKE = [
  [1, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0],
  [0, 0, 0, 0, 1, 0, 1, 1, 1, 0, 1],
];

function lineRunPenalty(line) {
  let penalty = 0;
  let run = 1;
  for (let i = 1; i <= line.length; i += 1) {
    if (i < line.length && line[i] === line[i - 1]) {
      run += 1;
    } else {
      if (run >= 5) penalty += N1 + (run - 5);
      run = 1;
    }
  }
  return penalty;
}

function linePatternPenalty(line) {
  // The quiet zone around the symbol counts as light.
  const padded = [0, 0, 0, 0, ...line.map(Number), 0, 0, 0, 0];
  let count = 0;
  for (let start = 0; start + 11 <= padded.length; start += 1) {
    for (const pattern of FINDER_LIKE) {
      if (pattern.every((value, k) => padded[start + k] === value)) count += 1;
    }
  }
  return count * N3;
}

/** The penalty score of a finished symbol under the four rules of §7.8.3. */
export function penaltyScore(modules) {
  const size = modules.length;
  const columns = Array.from({ length: size }, (_, x) => modules.map((row) => row[x]));
  let penalty = 0;
  for (const line of [...modules, ...columns]) penalty += lineRunPenalty(line) + linePatternPenalty(line);
  for (let y = 0; y + 1 < size; y += 1) {
    for (let x = 0; x + 1 < size; x += 1) {
      const colour = modules[y][x];
      if (modules[y][x + 1] === colour && modules[y + 1][x] === colour && modules[y + 1][x + 1] === colour) penalty += N2;
    }
  }
  let dark = 0;
  for (const row of modules) for (const module of row) if (module) dark += 1;
  const percent = (dark * 100) / (size * size);
  penalty += Math.floor(Math.abs(percent - 50) / 5) * N4;
  return penalty;
}

/** The symbol with data masked by `mask` and the matching format information. */
function maskedSymbol(base, reserved, mask) {
  const condition = MASKS[mask];
  const modules = base.map((row, i) => row.map((dark, j) => (reserved[i][j] ? dark : dark !== condition(i, j))));
  placeFormat(modules, mask);
  return modules;
}

/** The UTF-8 bytes of `text`. */
function utf8(text) {
  return Array.from(new TextEncoder().encode(String(text)));
}

/** The smallest version (1-40) that holds `byteLength` bytes at level M, or null. */
export function versionFor(byteLength) {
  for (let version = MIN_VERSION; version <= MAX_VERSION; version += 1) {
    if (byteCapacity(version) >= byteLength) return version;
  }
  return null;
}

/**
 * Encodes `text` (as UTF-8, byte mode, level M) in the smallest version that holds it.
 *
 * - Returns: `{ version, size, mask, modules }`, `modules` being `size` rows of booleans (true = dark).
 * - Throws: `RangeError` when the text needs more than version 40 holds.
 */
export function encodeQR(text, { mask: forcedMask } = {}) {
  const bytes = utf8(text);
  const version = versionFor(bytes.length);
  if (version === null) {
    throw new RangeError(`Text too long for a QR code: ${bytes.length} bytes, at most ${byteCapacity(MAX_VERSION)}.`);
  }
  const { size, modules: base, reserved } = functionPatterns(version);
  placeCodewords(base, reserved, interleave(dataCodewords(bytes, version), version));
  let best = null;
  for (let mask = 0; mask < MASKS.length; mask += 1) {
    if (forcedMask !== undefined && mask !== forcedMask) continue;
    const modules = maskedSymbol(base, reserved, mask);
    const score = penaltyScore(modules);
    if (best === null || score < best.score) best = { mask, modules, score };
  }
  return { version, size, mask: best.mask, modules: best.modules };
}

function escapeXML(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]);
}

/**
 * An SVG of `text`'s QR code: the viewBox in modules with a light `margin` (the quiet zone, 4 by the standard)
 * on every side, crisp edges, every dark module in one `<path>`. Black on white in both themes: scanners need
 * the contrast. `label` becomes the image's accessible name.
 */
export function qrSVG(text, { margin = 4, label } = {}) {
  const { size, modules } = encodeQR(text);
  const extent = size + 2 * margin;
  let path = '';
  modules.forEach((row, y) => {
    for (let x = 0; x < size; x += 1) {
      if (!row[x]) continue;
      let end = x;
      while (end + 1 < size && row[end + 1]) end += 1;
      path += `M${x + margin} ${y + margin}h${end - x + 1}v1h-${end - x + 1}z`;
      x = end;
    }
  });
  const name = label === undefined ? '' : ` role="img" aria-label="${escapeXML(label)}"`;
  const title = label === undefined ? '' : `<title>${escapeXML(label)}</title>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" class="qr-code" viewBox="0 0 ${extent} ${extent}"`
    + ` shape-rendering="crispEdges"${name}>${title}`
    + `<rect width="${extent}" height="${extent}" fill="#fff"/><path fill="#000" d="${path}"/></svg>`;
}
