// Pure matrix helpers of the page (web/src/arrays.js) and the page memory budget (handlers/limits.js).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bitsEqual, fnv1a, maxAbsDiff, sampleIndices, scaleFloat32, strideSample, summarize, toeplitzDeviation } from '../../web/src/arrays.js';
import { ENGINE_BUFFER_BYTES, PAGE_BYTES, checkPageBudget, formatBytes } from '../../web/src/handlers/limits.js';

describe('arrays.sampleIndices', () => {
  it('keeps everything when it fits', () => {
    assert.deepEqual([...sampleIndices(3, 8)], [0, 1, 2]);
  });
  it('spreads evenly and keeps both ends', () => {
    assert.deepEqual([...sampleIndices(10, 4)], [0, 3, 6, 9]);
    const s = sampleIndices(50257, 600);
    assert.equal(s.length, 600);
    assert.equal(s[0], 0);
    assert.equal(s[599], 50256);
    for (let i = 1; i < s.length; i++) assert.ok(s[i] > s[i - 1]);
  });
});

describe('arrays.strideSample', () => {
  // 4 x 3 matrix with value 10*row + col
  const m = Float32Array.from({ length: 12 }, (_, k) => 10 * Math.floor(k / 3) + (k % 3));
  it('returns a copy of the whole matrix when it fits', () => {
    const g = strideSample(m, 4, 3, 10, 10);
    assert.deepEqual([...g.data], [...m]);
    assert.notEqual(g.data.buffer, m.buffer);
    assert.equal(g.sampled, false);
  });
  it('every drawn cell is the real value at (rowIndex, colIndex)', () => {
    const g = strideSample(m, 4, 3, 2, 2);
    assert.deepEqual([...g.rowIndex], [0, 3]);
    assert.deepEqual([...g.colIndex], [0, 2]);
    assert.deepEqual([...g.data], [0, 2, 30, 32]);
    assert.equal(g.sampled, true);
    assert.equal(g.totalRows, 4);
  });
});

describe('arrays.summarize', () => {
  it('computes min, max, absMax, mean and population std, skipping NaN', () => {
    const s = summarize(new Float32Array([-2, 0, 2, NaN]));
    assert.deepEqual(s, { min: -2, max: 2, absMax: 2, mean: 0, std: Math.sqrt(8 / 3), nonFinite: 1 });
  });
  it('an empty array gives zeros', () => {
    assert.equal(summarize(new Float32Array(0)).absMax, 0);
  });
});

describe('arrays.bitsEqual / scaleFloat32', () => {
  it('compares bit patterns: 0 and -0 differ', () => {
    assert.equal(bitsEqual(new Float32Array([1, 0]), new Float32Array([1, 0])), true);
    assert.equal(bitsEqual(new Float32Array([0]), new Float32Array([-0])), false);
    assert.equal(bitsEqual(new Float32Array([1]), new Float32Array([1, 2])), false);
    assert.equal(maxAbsDiff(new Float32Array([1, 2]), new Float32Array([1, 2.5])), 0.5);
  });
  it('scales in float32 with one rounding, like C++ float * float', () => {
    const x = new Float32Array([1.2753006, -0.1]);
    const s = Math.sqrt(3);
    const out = scaleFloat32(x, s);
    assert.equal(out[0], Math.fround(x[0] * Math.fround(s)));
    assert.equal(out[1], Math.fround(x[1] * Math.fround(s)));
  });
});

describe('arrays.toeplitzDeviation', () => {
  it('is 0 for a matrix that depends only on m - n and > 0 otherwise', () => {
    const T = 4;
    const toe = Float32Array.from({ length: 16 }, (_, k) => Math.cos(Math.floor(k / T) - (k % T)));
    assert.equal(toeplitzDeviation(toe, T), 0);
    const not = toe.slice();
    not[5] += 1;
    assert.equal(toeplitzDeviation(not, T), 1);
  });
});

describe('arrays.fnv1a', () => {
  it('matches the FNV-1a reference values', () => {
    assert.equal(fnv1a(new Uint8Array([])), '811c9dc5');
    assert.equal(fnv1a(new TextEncoder().encode('a')), 'e40c292c');
    assert.equal(fnv1a(new TextEncoder().encode('foobar')), 'bf9cf968');
  });
});

describe('limits.formatBytes', () => {
  it('prints binary units with one decimal, like format_bytes in src/core/memory.cpp', () => {
    assert.equal(formatBytes(0), '0 B');
    assert.equal(formatBytes(1023), '1023 B');
    assert.equal(formatBytes(1024), '1.0 KiB');
    assert.equal(formatBytes(1048575), '1.0 MiB'); // 1023.999 KiB rounds up into the next unit
    assert.equal(formatBytes(PAGE_BYTES), '256.0 MiB');
    assert.equal(formatBytes(ENGINE_BUFFER_BYTES), '2.0 GiB');
    assert.equal(formatBytes(65536 * 65536 * 4), '16.0 GiB');
    assert.equal(formatBytes(2000000000 * 1000 * 4), '7.3 TiB');
  });
});

describe('limits.checkPageBudget', () => {
  it('lets small tables, tables beyond the engine limit and invalid sizes through (the engine names those)', () => {
    checkPageBudget('Embedding', 'table', [50257, 768]);
    checkPageBudget('Embedding', 'table', [2000000000, 1000]);
    checkPageBudget('positions', 'similarity matrix', [65536, 65536]);
    checkPageBudget('Embedding', 'table', [0, 3]);
    checkPageBudget('Embedding', 'table', [-5, 3]);
    checkPageBudget('Embedding', 'table', [1.5, 3]);
    checkPageBudget('Embedding', 'table', [NaN, 3]);
    checkPageBudget('Embedding', 'table', [2 ** 60, 2 ** 60]);
  });
  it('refuses what fits the engine but not a browser tab, in the engine\'s units', () => {
    assert.ok(200000 * 1024 * 4 > PAGE_BYTES && 200000 * 1024 * 4 <= ENGINE_BUFFER_BYTES);
    assert.throws(() => checkPageBudget('Embedding', 'table', [200000, 1024]), {
      message: 'Embedding: table 200000 x 1024 float32 need 781.3 MiB; this page draws at most 256.0 MiB ' +
        '(the engine allows buffers up to 2.0 GiB; use the CLI for bigger ones)',
    });
    assert.throws(() => checkPageBudget('positions', 'similarity matrix', [10000, 10000]), { message: /^positions: similarity matrix 10000 x 10000 float32 need 381\.5 MiB;/ });
  });
  it('the edges: exactly the page budget passes, one value more does not; just under 2 GiB is the page\'s to refuse', () => {
    checkPageBudget('t', 'table', [PAGE_BYTES / 4]);
    assert.throws(() => checkPageBudget('t', 'table', [PAGE_BYTES / 4 + 1]), /this page draws at most/);
    assert.throws(() => checkPageBudget('t', 'table', [(ENGINE_BUFFER_BYTES - 3) / 4]), /need 2\.0 GiB; this page/);
    checkPageBudget('t', 'table', [(ENGINE_BUFFER_BYTES + 1) / 4]); // 2 GiB exactly: the engine's to refuse
  });
});
