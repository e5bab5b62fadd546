// Colour and axis scales of the page plots (web/src/plots/scales.js).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { COLORMAPS, colorDomain, formatNumber, histogramBins, indexTicks, lutIndex, makeLut, scaleRange, similarityScale, valueTicks } from '../../web/src/plots/scales.js';

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

describe('scales.similarityScale (position similarity colours that show the structure)', () => {
  // cosine between sinusoidal rows m and n of width D (Vaswani et al. 2017, sec. 3.5): the mean of cos((m - n) w_i)
  const sinCos = (T, D) => {
    const out = new Float64Array(T * T);
    for (let m = 0; m < T; m++) {
      for (let n = 0; n < T; n++) {
        let s = 0;
        for (let i = 0; i < D / 2; i++) s += Math.cos((m - n) * 10000 ** (-2 * i / D));
        out[m * T + n] = s / (D / 2);
      }
    }
    return out;
  };
  const stats = (a) => ({ min: Math.min(...a), max: Math.max(...a), absMax: Math.max(...a.map(Math.abs)) });

  it('a non-negative matrix (sinusoidal cosines, about 0.4 to 1) gets a sequential map fitted to its range', () => {
    const sim = sinCos(64, 64);
    const st = stats(Array.from(sim));
    assert.ok(st.min > 0.3 && st.min < 0.6 && st.max === 1, JSON.stringify(st));
    const sc = similarityScale(st, 'puor');
    assert.deepEqual(sc, { name: 'viridis', domain: [st.min, 1], fitted: true });
    assert.equal(similarityScale(st, 'cividis').name, 'cividis'); // a sequential choice is kept
    // the structure shows: the cells span the whole colour table, against less than a third of it on -1..1
    const span = (lo, hi) => {
      const idx = Array.from(sim, (v) => lutIndex(v, lo, hi));
      return Math.max(...idx) - Math.min(...idx);
    };
    assert.equal(span(...sc.domain), 255);
    assert.ok(span(-1, 1) < 85, `-1..1: the cells span ${span(-1, 1)} of 255 colour steps`);
    // the legend's ticks describe the same mapping: inside the domain, and the words name its ends
    for (const t of valueTicks(...sc.domain)) assert.ok(t >= sc.domain[0] && t <= 1);
    assert.equal(scaleRange(sc, 'cosine'), `cosine from ${formatNumber(st.min)} (dark) to 1 (light), this matrix's range`);
  });

  it('a signed matrix (learned positions, dot products) keeps the chosen map, symmetric about 0 when diverging', () => {
    assert.deepEqual(similarityScale({ min: -0.3, max: 1, absMax: 1 }, 'puor'), { name: 'puor', domain: [-1, 1], fitted: false });
    assert.equal(scaleRange({ name: 'puor', domain: [-1, 1], fitted: false }, 'cosine'), 'cosine from -1 to 1, 0 at the light middle');
    assert.deepEqual(similarityScale({ min: -2, max: 5, absMax: 5 }, 'viridis'), { name: 'viridis', domain: [-2, 5], fitted: false });
    assert.equal(scaleRange({ name: 'viridis', domain: [-2, 5], fitted: false }, 'dot product'), 'dot product from -2 (dark) to 5 (light)');
  });

  it('a constant matrix falls back to the usual domain (never an empty one)', () => {
    assert.deepEqual(similarityScale({ min: 1, max: 1, absMax: 1 }, 'puor'), { name: 'puor', domain: [-1, 1], fitted: false });
  });
});
