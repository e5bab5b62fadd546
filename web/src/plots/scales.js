// Colour and axis scales for the plots. Pure (no DOM): tested in Node (tests/js/scales.test.mjs).
//
// Colour maps are colour-blind safe (d3-scale-chromatic): two diverging ones for signed values
// (PuOr, RdBu; 0 sits at the light middle) and two perceptually uniform sequential ones
// (viridis, cividis). A map is baked into a 256-entry RGB lookup table so drawing a
// 600 x 512 heatmap is a table lookup per cell.
//
//   colorDomain({min: -2, max: 1, absMax: 2}, 'puor') -> [-2, 2]   (diverging: symmetric about 0)
//   colorDomain({min: -2, max: 1, absMax: 2}, 'viridis') -> [-2, 1]
//   lutIndex(0, -2, 2, 256) -> 128
import { rgb } from 'd3-color';
import { scaleLinear } from 'd3-scale';
import { interpolateCividis, interpolatePuOr, interpolateRdBu, interpolateViridis } from 'd3-scale-chromatic';

// subtle: d3's diverging maps run from the warm end at t=0 to the cool end at t=1; we keep
// that orientation so the legend reads low (orange/red) -> high (purple/blue).
export const COLORMAPS = {
  puor: { label: 'PuOr (diverging)', interpolate: interpolatePuOr, diverging: true },
  rdbu: { label: 'RdBu (diverging)', interpolate: interpolateRdBu, diverging: true },
  viridis: { label: 'viridis (sequential)', interpolate: interpolateViridis, diverging: false },
  cividis: { label: 'cividis (sequential)', interpolate: interpolateCividis, diverging: false },
};

export const LUT_SIZE = 256;

export function colormap(name) {
  return COLORMAPS[name] || COLORMAPS.puor;
}

// -> Uint8ClampedArray (n * 3) of RGB for t = i / (n - 1)
export function makeLut(name, n = LUT_SIZE) {
  const { interpolate } = colormap(name);
  const lut = new Uint8ClampedArray(n * 3);
  for (let i = 0; i < n; i++) {
    const c = rgb(interpolate(i / (n - 1)));
    lut[i * 3] = c.r;
    lut[i * 3 + 1] = c.g;
    lut[i * 3 + 2] = c.b;
  }
  return lut;
}

// stats {min, max, absMax} -> [lo, hi], never empty (a constant table gets lo - 1 .. hi + 1,
// or -1 .. 1 around zero), symmetric about 0 for diverging maps.
export function colorDomain(stats, name) {
  let lo;
  let hi;
  if (colormap(name).diverging) {
    const m = stats.absMax > 0 ? stats.absMax : 1;
    lo = -m;
    hi = m;
  } else {
    lo = stats.min;
    hi = stats.max;
    if (!(hi > lo)) {
      lo -= 1;
      hi += 1;
    }
  }
  return [lo, hi];
}

// The colour scale of a similarity matrix (position x position), chosen to show its structure.
// All values >= 0 (sinusoidal and RoPE cosines span about 0.4 to 1): a sequential map fitted to
// the matrix's [min, max] (the chosen map when it is sequential, else viridis: a diverging map
// would put a meaningless middle at 0.7, and a fixed -1..1 scale draws the whole matrix in one
// pale half). Signed values: the chosen map's usual domain (diverging: symmetric about 0).
// stats {min, max, absMax}, name -> {name (the map to draw with), domain: [lo, hi], fitted}
//   similarityScale({min: 0.41, max: 1, absMax: 1}, 'puor') -> {name: 'viridis', domain: [0.41, 1], fitted: true}
//   similarityScale({min: -0.3, max: 1, absMax: 1}, 'puor') -> {name: 'puor', domain: [-1, 1], fitted: false}
export function similarityScale(stats, name) {
  if (stats.min >= 0 && stats.max > stats.min) {
    return { name: colormap(name).diverging ? 'viridis' : name, domain: [stats.min, stats.max], fitted: true };
  }
  return { name, domain: colorDomain(stats, name), fitted: false };
}

// The words for a scale of similarityScale: what the colours span (the legend's ticks and this
// text describe the same mapping).
//   scaleRange({name: 'viridis', domain: [0.41, 1], fitted: true}, 'cosine')
//     -> 'cosine from 0.41 (dark) to 1 (light), this matrix's range'
//   scaleRange({name: 'puor', domain: [-1, 1], fitted: false}, 'cosine') -> 'cosine from -1 to 1, 0 at the light middle'
export function scaleRange(scale, what) {
  const [lo, hi] = scale.domain.map(formatNumber);
  if (colormap(scale.name).diverging) return `${what} from ${lo} to ${hi}, 0 at the light middle`;
  return `${what} from ${lo} (dark) to ${hi} (light)${scale.fitted ? ", this matrix's range" : ''}`;
}

// value -> index into the LUT, clamped; NaN -> -1 (drawn as the "missing" colour).
export function lutIndex(v, lo, hi, n = LUT_SIZE) {
  if (Number.isNaN(v)) return -1;
  const t = (v - lo) / (hi - lo);
  const i = Math.round(t * (n - 1));
  return i < 0 ? 0 : i > n - 1 ? n - 1 : i;
}

// Nice tick values inside [lo, hi] (d3's algorithm), for legends and value axes.
export function valueTicks(lo, hi, count = 5) {
  return scaleLinear().domain([lo, hi]).ticks(count);
}

// Integer index ticks for an axis of n items (0-based ids), at most `count` of them,
// always inside [0, n - 1]. indexTicks(6, 10) -> [0, 1, 2, 3, 4, 5]
export function indexTicks(n, count = 6) {
  if (n <= 0) return [];
  const t = scaleLinear().domain([0, n - 1]).ticks(Math.min(count, n));
  return t.filter((v) => Number.isInteger(v) && v >= 0 && v <= n - 1);
}

// Compact number text for tooltips and lists: 4 significant digits, exponent when tiny/huge.
export function formatNumber(v) {
  if (!Number.isFinite(v)) return String(v);
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const a = Math.abs(v);
  if (a >= 1e5 || a < 1e-3) return v.toExponential(3);
  return Number(v.toPrecision(4)).toString();
}

// values -> [{x0, x1, count}]: about `count` bins of equal width on nice edges (d3's ticks of
// the nice-extended [min, max]); each value is in exactly one bin, the last one includes its
// upper edge. Non-finite values are left out. All values equal: one bin [v, v].
//   histogramBins([0, 1, 1.5, 2], 2) -> [{x0: 0, x1: 1, count: 1}, {x0: 1, x1: 2, count: 3}]
export function histogramBins(values, count = 12) {
  let lo = Infinity;
  let hi = -Infinity;
  let n = 0;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
    n++;
  }
  if (!n) return [];
  if (!(hi > lo)) return [{ x0: lo, x1: hi, count: n }];
  const edges = scaleLinear().domain([lo, hi]).nice(count).ticks(count);
  const step = edges[1] - edges[0];
  while (edges[0] > lo) edges.unshift(edges[0] - step);
  while (edges[edges.length - 1] < hi) edges.push(edges[edges.length - 1] + step);
  const bins = edges.slice(0, -1).map((x0, i) => ({ x0, x1: edges[i + 1], count: 0 }));
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    const i = Math.min(bins.length - 1, Math.max(0, Math.floor((v - edges[0]) / step)));
    bins[i].count++;
  }
  return bins;
}
