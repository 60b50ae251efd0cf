// The QR encoder against the standard's tables and examples (ISO/IEC 18004), and against a third-party decoder:
// zbarimg (Debian's zbar-tools) reads the symbols we draw.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  encodeQR, qrSVG, formatBits, versionBits, generatorExponents, reedSolomon, alignmentPositions, totalCodewords,
  blockLayout, byteCapacity, versionFor, dataCodewords, symbolSize, penaltyScore, interleave,
} from '../../web/js/core/qr.js';

const hex = (bytes) => bytes.map((byte) => byte.toString(16).padStart(2, '0')).join(' ');
const utf8Length = (text) => new TextEncoder().encode(text).length;

describe('format and version information', () => {
  // ISO/IEC 18004 Annex C Table C.1, level M, masks 0-7 (after the XOR with 101010000010010).
  const table = [
    '101010000010010', '101000100100101', '101111001111100', '101101101001011',
    '100010111111001', '100000011001110', '100111110010111', '100101010100000',
  ];
  table.forEach((bits, mask) => {
    test(`level M mask ${mask} is ${bits}`, () => {
      assert.equal(formatBits(mask).toString(2).padStart(15, '0'), bits);
    });
  });

  test('version information matches Annex D Table D.1', () => {
    // Version 7: 000111 110010 010100; 8: 001000 010110 111100; 10: 001010 010011 010011; 40: 101000 110001 101001.
    assert.equal(versionBits(7), 0x07c94);
    assert.equal(versionBits(8), 0x085bc);
    assert.equal(versionBits(10), 0x0a4d3);
    assert.equal(versionBits(40), 0x28c69);
  });
});

describe('Reed-Solomon over GF(256)', () => {
  test('the generator polynomial for 10 codewords matches Annex A (as powers of α)', () => {
    assert.deepEqual(generatorExponents(10), [0, 251, 67, 46, 61, 118, 70, 64, 94, 32, 45]);
  });

  test('the generator for 7 codewords matches Annex A', () => {
    assert.deepEqual(generatorExponents(7), [0, 87, 229, 146, 149, 238, 102, 21]);
  });

  test('Annex I example "01234567" (1-M): error correction codewords', () => {
    // Data codewords of Annex I.2 (numeric mode), and the ten error correction codewords it lists.
    const data = [0x10, 0x20, 0x0c, 0x56, 0x61, 0x80, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11];
    assert.equal(hex(reedSolomon(data, 10)), 'a5 24 d4 c1 ed 36 c7 87 2c 55');
  });

  test('"HELLO WORLD" 1-M (alphanumeric data): error correction codewords', () => {
    const data = [0x20, 0x5b, 0x0b, 0x78, 0xd1, 0x72, 0xdc, 0x4d, 0x43, 0x40, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11];
    assert.equal(hex(reedSolomon(data, 10)), 'c4 23 27 77 eb d7 e7 e2 5d 17');
  });
});

describe('versions and capacities', () => {
  test('codeword totals match Table 1 and the block tables add up for every version', () => {
    // Table 1: total codewords of versions 1-10, 20 and 40.
    const totals = { 1: 26, 2: 44, 3: 70, 4: 100, 5: 134, 6: 172, 7: 196, 8: 242, 9: 292, 10: 346, 20: 1085, 40: 3706 };
    for (const [version, total] of Object.entries(totals)) assert.equal(totalCodewords(Number(version)), total, `version ${version}`);
    for (let version = 1; version <= 40; version += 1) {
      const layout = blockLayout(version);
      const sum = layout.shortBlocks * layout.shortData + (layout.blocks - layout.shortBlocks) * layout.longData;
      assert.equal(sum, layout.dataCodewords, `version ${version}`);
      assert.ok(layout.shortData > 0);
    }
  });

  test('level M data codewords and byte capacities match Tables 7 and 9', () => {
    const data = [16, 28, 44, 64, 86, 108, 124, 154, 182, 216];
    const bytes = [14, 26, 42, 62, 84, 106, 122, 152, 180, 213];
    data.forEach((count, i) => assert.equal(blockLayout(i + 1).dataCodewords, count, `version ${i + 1}`));
    bytes.forEach((count, i) => assert.equal(byteCapacity(i + 1), count, `version ${i + 1}`));
    assert.equal(byteCapacity(40), 2331);
    // Version 8 at M: 2 blocks of 38 and 2 of 39 data codewords, 22 error correction codewords each.
    assert.deepEqual(blockLayout(8), {
      total: 242, blocks: 4, ecPerBlock: 22, shortBlocks: 2, shortData: 38, longData: 39, dataCodewords: 154,
    });
  });

  test('the smallest version is chosen at each capacity boundary', () => {
    for (let version = 1; version <= 12; version += 1) {
      const capacity = byteCapacity(version);
      assert.equal(encodeQR('a'.repeat(capacity)).version, version, `${capacity} bytes fit version ${version}`);
      assert.equal(encodeQR('a'.repeat(capacity + 1)).version, version + 1, `${capacity + 1} bytes need ${version + 1}`);
    }
    assert.equal(versionFor(0), 1);
    assert.equal(encodeQR('').version, 1);
  });

  test('room links: 180 characters fit version 9, 200 characters version 10 (53 and 57 modules)', () => {
    const link = (length) => 'https://wordrooms.example/r/QHTW?'.padEnd(length, 'x');
    assert.deepEqual((({ version, size }) => ({ version, size }))(encodeQR(link(180))), { version: 9, size: 53 });
    assert.deepEqual((({ version, size }) => ({ version, size }))(encodeQR(link(200))), { version: 10, size: 57 });
    assert.equal(symbolSize(10), 57);
  });

  test('UTF-8 text is counted in bytes', () => {
    assert.equal(utf8Length('é'.repeat(7)), 14);
    assert.equal(encodeQR('é'.repeat(7)).version, 1);
    assert.equal(encodeQR('é'.repeat(8)).version, 2);
  });

  test('too long text is a RangeError', () => {
    assert.throws(() => encodeQR('a'.repeat(2332)), RangeError);
    assert.throws(() => qrSVG('a'.repeat(5000)), RangeError);
    assert.equal(encodeQR('a'.repeat(2331)).version, 40);
  });

  test('alignment pattern centres match Annex E', () => {
    assert.deepEqual(alignmentPositions(1), []);
    assert.deepEqual(alignmentPositions(2), [6, 18]);
    assert.deepEqual(alignmentPositions(7), [6, 22, 38]);
    assert.deepEqual(alignmentPositions(10), [6, 28, 50]);
    assert.deepEqual(alignmentPositions(32), [6, 34, 60, 86, 112, 138]);
    assert.deepEqual(alignmentPositions(36), [6, 24, 50, 76, 102, 128, 154]);
    assert.deepEqual(alignmentPositions(40), [6, 30, 58, 86, 114, 142, 170]);
  });
});

describe('data codewords', () => {
  test('byte mode header, terminator and pad codewords', () => {
    // "AB" in version 1: 0100 00000010 01000001 01000010 0000, then EC 11 EC 11…
    const codewords = dataCodewords([0x41, 0x42], 1);
    assert.equal(codewords.length, 16);
    assert.equal(hex(codewords.slice(0, 5)), '40 24 14 20 ec');
    assert.equal(hex(codewords.slice(5, 7)), '11 ec');
  });

  test('interleaving takes codewords from each block in turn', () => {
    const data = Array.from({ length: 154 }, (_, i) => i);
    const result = interleave(data, 8);
    assert.equal(result.length, 242);
    // Blocks start at 0, 38, 76 and 115 (the last two hold 39): the first codewords are 0, 38, 76, 115, 1, …
    assert.deepEqual(result.slice(0, 5), [0, 38, 76, 115, 1]);
    // The extra codewords of the long blocks come last among the data: 114 and 153.
    assert.deepEqual(result.slice(152, 154), [114, 153]);
  });
});

describe('the symbol', () => {
  const { size, modules } = encodeQR('https://wordrooms.example/r/QHTW');

  test('is square, of the version size', () => {
    assert.equal(modules.length, size);
    for (const row of modules) assert.equal(row.length, size);
  });

  test('has the three finder patterns with separators', () => {
    const finder = [
      '1111111', '1000001', '1011101', '1011101', '1011101', '1000001', '1111111',
    ];
    const at = (x0, y0) => finder.forEach((line, dy) => {
      const drawn = modules[y0 + dy].slice(x0, x0 + 7).map((dark) => (dark ? '1' : '0')).join('');
      assert.equal(drawn, line, `finder at ${x0},${y0} row ${dy}`);
    });
    at(0, 0);
    at(size - 7, 0);
    at(0, size - 7);
    for (let i = 0; i < 8; i += 1) {
      assert.equal(modules[7][i], false, 'separator below top-left');
      assert.equal(modules[i][7], false, 'separator right of top-left');
      assert.equal(modules[7][size - 1 - i], false, 'separator below top-right');
      assert.equal(modules[size - 8][i], false, 'separator above bottom-left');
    }
  });

  test('has alternating timing patterns and the dark module', () => {
    for (let i = 8; i < size - 8; i += 1) {
      assert.equal(modules[6][i], i % 2 === 0, `row 6 column ${i}`);
      assert.equal(modules[i][6], i % 2 === 0, `column 6 row ${i}`);
    }
    assert.equal(modules[size - 8][8], true);
  });

  test('carries the format information of its mask in both copies', () => {
    const { modules: grid, mask } = encodeQR('hello');
    const bits = formatBits(mask);
    const bit = (i) => ((bits >> i) & 1) === 1;
    const n = grid.length;
    // Bit 14 (most significant) is at (0, 8) and at the bottom of column 8.
    assert.equal(grid[8][0], bit(14));
    assert.equal(grid[n - 1][8], bit(14));
    assert.equal(grid[0][8], bit(0));
    assert.equal(grid[8][n - 1], bit(0));
  });

  test('chooses the mask with the lowest penalty', () => {
    const text = 'Lowest penalty wins';
    const chosen = encodeQR(text);
    const scores = [0, 1, 2, 3, 4, 5, 6, 7].map((mask) => penaltyScore(encodeQR(text, { mask }).modules));
    assert.equal(chosen.mask, scores.indexOf(Math.min(...scores)));
    assert.equal(new Set(scores).size > 1, true, 'masks score differently');
  });

  test('penalty rules score known patterns', () => {
    // All light 21×21: rule 1 gives 42 lines × (3 + 16); rule 2 gives 400 blocks × 3; rule 4 gives 100; no 1:1:3:1:1.
    const blank = Array.from({ length: 21 }, () => new Array(21).fill(false));
    assert.equal(penaltyScore(blank), 42 * 19 + 400 * 3 + 100);
  });
});

describe('SVG', () => {
  test('is black on white with one path, viewBox in modules with the quiet zone', () => {
    const svg = qrSVG('hi', { label: 'Room link <QHTW>' });
    assert.match(svg, /^<svg [^>]*viewBox="0 0 29 29"/);
    assert.match(svg, /shape-rendering="crispEdges"/);
    assert.match(svg, /<rect width="29" height="29" fill="#fff"\/>/);
    assert.equal((svg.match(/<path /g) ?? []).length, 1);
    assert.match(svg, /fill="#000"/);
    assert.match(svg, /aria-label="Room link &lt;QHTW&gt;"/);
    assert.match(qrSVG('hi', { margin: 2 }), /viewBox="0 0 25 25"/);
  });

  test('the path covers exactly the dark modules', () => {
    const { modules } = encodeQR('cover');
    const svg = qrSVG('cover', { margin: 0 });
    const d = svg.match(/ d="([^"]*)"/)[1];
    let dark = 0;
    for (const match of d.matchAll(/M(\d+) (\d+)h(\d+)/g)) dark += Number(match[3]);
    assert.equal(dark, modules.flat().filter(Boolean).length);
  });
});

// ---- A real decoder ----

const zbar = spawnSync('zbarimg', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
const haveZbar = zbar.status === 0;

/** What zbarimg reads in `file` (its complaints about a missing D-Bus go nowhere). */
function zbarimg(file) {
  return execFileSync('zbarimg', ['--raw', '-q', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

/** A binary PGM (P5) of the symbol with a 4-module quiet zone, each module `scale` pixels. */
function pgm(modules, scale = 6, margin = 4) {
  const size = modules.length;
  const side = (size + 2 * margin) * scale;
  const pixels = Buffer.alloc(side * side, 255);
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      if (!modules[y][x]) continue;
      for (let dy = 0; dy < scale; dy += 1) {
        const row = ((y + margin) * scale + dy) * side;
        pixels.fill(0, row + (x + margin) * scale, row + (x + margin + 1) * scale);
      }
    }
  }
  return Buffer.concat([Buffer.from(`P5\n${side} ${side}\n255\n`), pixels]);
}

describe('zbarimg decodes what we draw', { skip: haveZbar ? false : 'zbarimg not installed (apt-get install zbar-tools)' }, () => {
  const texts = [
    ['a short word', 'HELLO'],
    ['a room link', 'https://wordrooms.example/r/QHTW'],
    ['a 200-character URL', `https://wordrooms.example/r/QHTW?ref=${'abcdefghij'.repeat(17)}0123456789abcdefghijklm`.slice(0, 200)],
    ['UTF-8 text', 'Schneemann ☃ — Ça va? 雪だるま 👩‍💻'],
    ['version 10+ (16-bit count)', 'x'.repeat(250)],
  ];
  const dir = mkdtempSync(join(tmpdir(), 'qr-'));
  test.after?.(() => rmSync(dir, { recursive: true, force: true }));

  for (const [name, text] of texts) {
    test(name, () => {
      const symbol = encodeQR(text);
      const file = join(dir, `${name.replace(/\W+/g, '-')}.pgm`);
      writeFileSync(file, pgm(symbol.modules));
      const decoded = zbarimg(file);
      assert.equal(decoded.replace(/\n$/, ''), text, `version ${symbol.version} mask ${symbol.mask}`);
    });
  }

  test('every mask decodes', () => {
    for (let mask = 0; mask < 8; mask += 1) {
      const text = `mask ${mask} https://wordrooms.example/r/ABCD`;
      const file = join(dir, `mask-${mask}.pgm`);
      writeFileSync(file, pgm(encodeQR(text, { mask }).modules));
      assert.equal(zbarimg(file).replace(/\n$/, ''), text);
    }
  });
});
