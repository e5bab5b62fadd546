// Colouring scatter points by a metadata column (one string per row). Pure (no DOM): tested in
// Node (tests/js/colour-by.test.mjs). It decides how a column can be shown and bakes one RGBA
// colour per row; it does not draw the legend (the import view does).
//
//   a column with at most 20 distinct values is categorical: Tableau10 for up to 10 values, then
//     Set3 (lighter) for the 11th..20th, most frequent value first (ties: first seen);
//   else, when every non-empty value is a finite number, numeric: viridis over [min, max]
//     (empty cells grey);
//   else it cannot be coloured: too many distinct strings to tell apart.
//
//   colourColumn(['a', 'b', 'a'])
//     -> {kind: 'categorical', colours: Uint8Array(12), categories: [{value: 'a', count: 2, colour: '#4e79a7'},
//                                                                   {value: 'b', count: 1, colour: '#f28e2c'}]}
//   colourColumn(['1', '2.5', '', ...30 distinct]) -> {kind: 'numeric', colours, domain: [1, ...], empty: 1}
//   colourColumn(manyWords) -> {kind: 'none', distinct: '> 20', reason: '...'}
import { rgb } from 'd3-color';
import { interpolateViridis, schemeSet3, schemeTableau10 } from 'd3-scale-chromatic';

export const MAX_CATEGORIES = 20;
export const CATEGORY_COLOURS = [...schemeTableau10, ...schemeSet3.slice(0, MAX_CATEGORIES - schemeTableau10.length)];
const EMPTY = [170, 170, 170]; // grey for empty numeric cells

export function colourColumn(values, { alpha = 255 } = {}) {
  const n = values.length;
  const counts = new Map();
  for (let i = 0; i < n && counts.size <= MAX_CATEGORIES; i++) counts.set(values[i], (counts.get(values[i]) || 0) + 1);
  const colours = new Uint8Array(n * 4);
  if (counts.size <= MAX_CATEGORIES) {
    const categories = [...counts].map(([value, count], first) => ({ value, count, first }))
      .sort((a, b) => b.count - a.count || a.first - b.first)
      .map(({ value, count }, k) => ({ value, count, colour: CATEGORY_COLOURS[k] }));
    const index = new Map(categories.map((c, k) => [c.value, rgb(CATEGORY_COLOURS[k])]));
    for (let i = 0; i < n; i++) put(colours, i, index.get(values[i]), alpha);
    return { kind: 'categorical', colours, categories };
  }
  const nums = new Float64Array(n);
  let lo = Infinity;
  let hi = -Infinity;
  let empty = 0;
  for (let i = 0; i < n; i++) {
    const s = String(values[i]).trim();
    if (s === '') {
      nums[i] = NaN;
      empty++;
      continue;
    }
    const v = Number(s);
    if (!Number.isFinite(v)) {
      return { kind: 'none', distinct: `> ${MAX_CATEGORIES}`, reason: `more than ${MAX_CATEGORIES} distinct values and not all numbers (row ${i}: ${JSON.stringify(s.slice(0, 40))}), so colours could not tell them apart` };
    }
    nums[i] = v;
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  const span = hi > lo ? hi - lo : 1;
  const lut = Array.from({ length: 256 }, (_, k) => rgb(interpolateViridis(k / 255)));
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(nums[i])) put(colours, i, { r: EMPTY[0], g: EMPTY[1], b: EMPTY[2] }, alpha);
    else put(colours, i, lut[Math.round(((nums[i] - lo) / span) * 255)], alpha);
  }
  return { kind: 'numeric', colours, domain: hi > lo ? [lo, hi] : [lo - 1, lo + 1], empty };
}

function put(out, i, c, alpha) {
  out[4 * i] = c.r;
  out[4 * i + 1] = c.g;
  out[4 * i + 2] = c.b;
  out[4 * i + 3] = alpha;
}
