// Finding scatter points without the GPU (web/src/plots/point-index.js) and colouring them by a
// metadata column (web/src/plots/colour-by.js).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PointGrid, matchRows, rowsInPolygon } from '../../web/src/plots/point-index.js';
import { colourColumn } from '../../web/src/plots/colour-by.js';

function cloud(n, seed = 1) {
  const p = new Float32Array(2 * n);
  let s = seed;
  for (let i = 0; i < p.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    p[i] = (s / 4294967296 - 0.5) * (i % 2 ? 2 : 8);
  }
  p[0] = 1000; // an outlier far outside the grid's box
  p[1] = -1000;
  return p;
}

describe('point-index.PointGrid', () => {
  const p = cloud(20000);
  const grid = new PointGrid(p);
  const brute = (x, y, r) => {
    let best = -1;
    let bd = r * r;
    for (let i = 0; i < p.length / 2; i++) {
      const d = (p[2 * i] - x) ** 2 + (p[2 * i + 1] - y) ** 2;
      if (d < bd) [bd, best] = [d, i];
    }
    return best;
  };
  it('nearest agrees with a plain loop, inside and outside the grid box', () => {
    for (const [x, y, r] of [[0, 0, 0.05], [3.9, 0.9, 0.1], [-4.2, -1.1, 0.3], [1000, -1000, 1], [5, 5, 0.01], [0.5, 0.2, 2]]) {
      assert.equal(grid.nearest(x, y, r), brute(x, y, r), `(${x}, ${y}) r ${r}`);
    }
  });
  it('a point itself is its own nearest within any radius', () => {
    for (const i of [1, 77, 19999]) assert.equal(grid.nearest(p[2 * i], p[2 * i + 1], 1e-9), i);
  });
  it('nothing within the radius gives -1', () => {
    assert.equal(grid.nearest(50, 50, 1), -1);
  });
});

describe('point-index.rowsInPolygon', () => {
  // rows 0..3 at (0.5, 0.5), (2, 2), (0.1, 0.8), (-1, 0): the triangle (0,0) (1,0) (0,1) holds rows 0 and 2
  const p = new Float32Array([0.25, 0.25, 2, 2, 0.1, 0.8, -1, 0]);
  it('keeps the rows inside, ascending', () => {
    assert.deepEqual([...rowsInPolygon(p, [[0, 0], [1, 0], [0, 1]])], [0, 2]);
  });
  it('fewer than three vertices select nothing', () => {
    assert.equal(rowsInPolygon(p, [[0, 0], [1, 1]]).length, 0);
  });
});

describe('point-index.matchRows', () => {
  const labels = ['The', ' the', 'cat', 'Theatre', '7', 'x'];
  it('substring, case-insensitive', () => {
    assert.deepEqual([...matchRows(labels, 'the')], [0, 1, 3]);
  });
  it('a whole number also matches that row', () => {
    assert.deepEqual([...matchRows(labels, '2')], [2]);
    assert.deepEqual([...matchRows(labels, '7')], [4]);
  });
  it('an empty query matches nothing', () => {
    assert.equal(matchRows(labels, '  ').length, 0);
  });
});

describe('colour-by.colourColumn', () => {
  it('a few distinct values are categories, the most frequent first, one RGBA per row', () => {
    const c = colourColumn(['b', 'a', 'a'], { alpha: 200 });
    assert.equal(c.kind, 'categorical');
    assert.deepEqual(c.categories.map((x) => [x.value, x.count, x.colour]), [['a', 2, '#4e79a7'], ['b', 1, '#f28e2c']]);
    assert.deepEqual([...c.colours.slice(4, 8)], [0x4e, 0x79, 0xa7, 200]);
  });
  it('many distinct numbers are numeric on viridis, empty cells grey', () => {
    const values = Array.from({ length: 30 }, (_, i) => String(i));
    values[5] = '';
    const c = colourColumn(values);
    assert.equal(c.kind, 'numeric');
    assert.deepEqual(c.domain, [0, 29]);
    assert.equal(c.empty, 1);
    assert.deepEqual([...c.colours.slice(0, 3)], [68, 1, 84]); // viridis(0) = #440154
    assert.deepEqual([...c.colours.slice(20, 23)], [170, 170, 170]);
  });
  it('many distinct strings cannot be coloured, and the reason names a row', () => {
    const c = colourColumn(Array.from({ length: 30 }, (_, i) => `w${i}`));
    assert.equal(c.kind, 'none');
    assert.match(c.reason, /more than 20 distinct values and not all numbers \(row 0: "w0"\)/);
  });
});
