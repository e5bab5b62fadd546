// Colour and axis scales of the page plots (web/src/plots/scales.js).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { COLORMAPS, colorDomain, formatNumber, histogramBins, indexTicks, lutIndex, makeLut, valueTicks } from '../../web/src/plots/scales.js';

describe('scales.colorDomain', () => {
  const stats = { min: -2, max: 1, absMax: 2 };
  it('diverging maps are symmetric about 0', () => {
    assert.deepEqual(colorDomain(stats, 'puor'), [-2, 2]);
    assert.deepEqual(colorDomain(stats, 'rdbu'), [-2, 2]);
  });
  it('sequential maps span min..max', () => {
    assert.deepEqual(colorDomain(stats, 'viridis'), [-2, 1]);
  });
  it('a constant table never gets an empty domain', () => {
    assert.deepEqual(colorDomain({ min: 0, max: 0, absMax: 0 }, 'puor'), [-1, 1]);
    assert.deepEqual(colorDomain({ min: 5, max: 5, absMax: 5 }, 'cividis'), [4, 6]);
  });
  it('an unknown map name falls back to PuOr', () => {
    assert.deepEqual(colorDomain(stats, 'jet'), [-2, 2]);
  });
});

describe('scales.makeLut / lutIndex', () => {
  it('bakes 256 RGB entries; viridis starts dark purple and ends yellow', () => {
    const lut = makeLut('viridis');
    assert.equal(lut.length, 256 * 3);
    assert.deepEqual([...lut.slice(0, 3)], [68, 1, 84]);
    assert.deepEqual([...lut.slice(255 * 3)], [253, 231, 37]);
  });
  it('diverging maps are light in the middle (0 maps to a near-white cell)', () => {
    for (const name of ['puor', 'rdbu']) {
      const lut = makeLut(name);
      const i = lutIndex(0, -1, 1);
      assert.ok(lut[i * 3] > 220 && lut[i * 3 + 1] > 220 && lut[i * 3 + 2] > 220, name);
    }
  });
  it('clamps out-of-domain values and maps NaN to -1', () => {
    assert.equal(lutIndex(0, -2, 2), 128);
    assert.equal(lutIndex(-9, -2, 2), 0);
    assert.equal(lutIndex(9, -2, 2), 255);
    assert.equal(lutIndex(NaN, -2, 2), -1);
  });
  it('every map is marked diverging or sequential', () => {
    for (const m of Object.values(COLORMAPS)) assert.equal(typeof m.diverging, 'boolean');
  });
});

describe('scales ticks and numbers', () => {
  it('index ticks are integers inside [0, n-1]', () => {
    assert.deepEqual(indexTicks(6, 10), [0, 1, 2, 3, 4, 5]);
    const t = indexTicks(50257, 6);
    assert.ok(t.length >= 3 && t.every((v) => Number.isInteger(v) && v >= 0 && v <= 50256));
    assert.deepEqual(indexTicks(1, 6), [0]);
    assert.deepEqual(indexTicks(0, 6), []);
  });
  it('value ticks are d3 nice steps', () => {
    assert.deepEqual(valueTicks(-2, 2, 5), [-2, -1, 0, 1, 2]);
  });
  it('formats with 4 significant digits, exponents for tiny and huge values', () => {
    assert.equal(formatNumber(1.2753006), '1.275');
    assert.equal(formatNumber(-0.2009534), '-0.201');
    assert.equal(formatNumber(1.192e-7), '1.192e-7');
    assert.equal(formatNumber(123456), '1.235e+5');
    assert.equal(formatNumber(0), '0');
    assert.equal(formatNumber(NaN), 'NaN');
  });
});

describe('scales.histogramBins', () => {
  it('the worked example: nice edges, the last bin includes its upper edge', () => {
    assert.deepEqual(histogramBins([0, 1, 1.5, 2], 2), [{ x0: 0, x1: 1, count: 1 }, { x0: 1, x1: 2, count: 3 }]);
  });
  it('every finite value is counted once and the edges cover min and max', () => {
    const v = Float32Array.from({ length: 5000 }, (_, i) => 3 + Math.sin(i) * 1.7 + (i % 7) * 0.01);
    const bins = histogramBins([...v, NaN, Infinity], 12);
    assert.equal(bins.reduce((a, b) => a + b.count, 0), 5000);
    assert.ok(bins[0].x0 <= Math.min(...v) && bins[bins.length - 1].x1 >= Math.max(...v));
    assert.ok(bins.length >= 6 && bins.length <= 24, `${bins.length} bins`);
  });
  it('equal values make one bin; no values, none', () => {
    assert.deepEqual(histogramBins([1, 1, 1]), [{ x0: 1, x1: 1, count: 3 }]);
    assert.deepEqual(histogramBins([]), []);
  });
});
