// Finding points of a 2-D scatter without the GPU: the nearest point to the mouse (a uniform
// grid over the points), the rows inside a lasso polygon (d3-polygon), the rows whose label
// matches a search. Pure (no DOM): tested in Node (tests/js/point-index.test.mjs). It does not
// draw and does not know about screen pixels: callers pass data coordinates and a radius in
// data units.
//
//   points: Float32Array (n*2), row r at (points[2r], points[2r+1])
//   const grid = new PointGrid(points);          // O(n) build: two passes, counting sort by cell
//   grid.nearest(0.1, -0.2, 0.05) -> row | -1     // the closest row within radius 0.05, ties: lower row
//   rowsInPolygon(points, [[0,0],[1,0],[0,1]]) -> Int32Array of rows inside, ascending
//   matchRows(['The', 'cat'], 'th') -> Int32Array [0]; matchRows(labels, '1') also matches row 1
import { polygonContains } from 'd3-polygon';

// A grid of about `perCell` points per cell over the 0.5th..99.5th percentile box of the
// points (outliers land in the edge cells, so a handful of far points do not make the grid
// empty where the cloud is dense). Rows of cell c are order[start[c] .. start[c + 1]).
export class PointGrid {
  constructor(points, { perCell = 8 } = {}) {
    const n = points.length >> 1;
    this.points = points;
    const box = [0, 1].map((k) => percentileBox(points, k));
    [[this.x0, this.x1], [this.y0, this.y1]] = box;
    const g = Math.max(1, Math.min(2048, Math.round(Math.sqrt(n / perCell))));
    this.g = g;
    this.sx = g / Math.max(this.x1 - this.x0, 1e-30);
    this.sy = g / Math.max(this.y1 - this.y0, 1e-30);
    const cellOf = new Uint32Array(n);
    const start = new Uint32Array(g * g + 1);
    for (let i = 0; i < n; i++) {
      const c = this.cy(points[2 * i + 1]) * g + this.cx(points[2 * i]);
      cellOf[i] = c;
      start[c + 1]++;
    }
    for (let c = 0; c < g * g; c++) start[c + 1] += start[c];
    const fill = start.slice(0, g * g);
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[fill[cellOf[i]]++] = i;
    this.start = start;
    this.order = order;
  }

  cx(x) {
    const c = Math.floor((x - this.x0) * this.sx);
    return c < 0 || Number.isNaN(c) ? 0 : c >= this.g ? this.g - 1 : c;
  }

  cy(y) {
    const c = Math.floor((y - this.y0) * this.sy);
    return c < 0 || Number.isNaN(c) ? 0 : c >= this.g ? this.g - 1 : c;
  }

  // The closest row to (x, y) within radius r (data units), or -1. Visits the cells the
  // circle's bounding box touches (edge cells also hold the outliers beyond the box).
  nearest(x, y, r) {
    const p = this.points;
    const [a0, a1, b0, b1] = [this.cx(x - r), this.cx(x + r), this.cy(y - r), this.cy(y + r)];
    let best = -1;
    let bd = r * r;
    for (let b = b0; b <= b1; b++) {
      for (let a = a0; a <= a1; a++) {
        const c = b * this.g + a;
        for (let k = this.start[c]; k < this.start[c + 1]; k++) {
          const i = this.order[k];
          const d = (p[2 * i] - x) ** 2 + (p[2 * i + 1] - y) ** 2;
          if (d < bd || (d === bd && best >= 0 && i < best)) {
            bd = d;
            best = i;
          }
        }
      }
    }
    return best;
  }
}

// [lo, hi] of coordinate k (0: x, 1: y) over the 0.5th..99.5th percentiles, never empty.
function percentileBox(points, k) {
  const n = points.length >> 1;
  if (!n) return [0, 1];
  const step = Math.max(1, Math.floor(n / 65536)); // a sample is enough for a grid's extent
  const a = new Float32Array(Math.ceil(n / step));
  for (let i = 0, j = 0; i < n; i += step, j++) a[j] = points[2 * i + k];
  a.sort();
  const lo = a[Math.floor(0.005 * (a.length - 1))];
  const hi = a[Math.ceil(0.995 * (a.length - 1))];
  return hi > lo ? [lo, hi] : [lo - 1, lo + 1];
}

// polygon: [[x, y], ...] in data coordinates (closed implicitly) -> Int32Array of the rows inside,
// ascending. Rows outside the polygon's bounding box are skipped before the exact test.
export function rowsInPolygon(points, polygon) {
  if (polygon.length < 3) return new Int32Array(0);
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of polygon) {
    x0 = Math.min(x0, x);
    x1 = Math.max(x1, x);
    y0 = Math.min(y0, y);
    y1 = Math.max(y1, y);
  }
  const out = [];
  const q = [0, 0];
  for (let i = 0; i < points.length >> 1; i++) {
    const x = points[2 * i];
    const y = points[2 * i + 1];
    if (x < x0 || x > x1 || y < y0 || y > y1) continue;
    q[0] = x;
    q[1] = y;
    if (polygonContains(polygon, q)) out.push(i);
  }
  return Int32Array.from(out);
}

// The rows whose label contains `query` (case-insensitive), plus the row numbered `query` when
// it is a whole number below n. lower: the labels lower-cased once (lowerLabels), so typing
// does not lower-case 262,144 strings per key. An empty query matches nothing.
export function matchRows(labels, query, n = labels.length, lower = lowerLabels(labels)) {
  const q = String(query).toLowerCase();
  if (!q.trim()) return new Int32Array(0);
  const out = [];
  const asRow = /^\s*\d+\s*$/.test(q) ? Number(q) : -1;
  for (let i = 0; i < n; i++) if (i === asRow || (lower[i] !== undefined && lower[i].includes(q))) out.push(i);
  return Int32Array.from(out);
}

export function lowerLabels(labels) {
  return Array.from(labels, (s) => String(s ?? '').toLowerCase());
}
