// A 2-D scatter of table rows (a PCA projection) on a canvas: axes with the explained
// variance, a label on the first `labelled` rows of `order` (the most frequent tokens first;
// default: row order) that do not collide, hover shows the nearest point's label and
// coordinates. Each axis spans the 99th percentile of its |coordinate|, so outliers are clipped.
// With frozen axes (a fixed PCA basis) the view still follows the points, but smoothly: each
// frame moves its centre and scale a fifth of the way to the new ones, so the cloud and its
// trails stay in the frame as the vectors grow (word2vec starts at +-0.5/D) without jumping.
// Trails (frozen axes or a moving layout): only the TRAIL_ROWS most frequent rows get one, fading
// with age (faint: older), and the view's target covers those trails as well as the cloud. While
// the view is still easing towards it, a trail whose point is outside the frame is cut at the
// edge and marked there with an arrow pointing to where it went. Redraws at most once
// per frame. It does not compute the projection (the worker's M.pca does).
//
//   const sc = new Scatter(el, {labelled: 30});
//   sc.setData({points: Float32Array (n*2), labels: [n], explained: [e1, e2], order: Int32Array, frozen});
//   sc.setData({points, labels, axes: ['<map> 1', '<map> 2'], method, trails: true, order});   // named axes (a registry map); trails: successive frames of one moving layout (kept as trails, the view eases as with frozen axes)
//   sc.setData({points, labels, explained, order, path: makeLut('viridis')});   // a sequence (positions):
//     the points joined in row order, coloured by row from the LUT's first colour to its last
// PNG / SVG downloads (plot-export.js) paint the same picture, the view as shown, through paint().
// Colours and text size: theme.js (margins grow with the labels; downloads in the light palette).
import { onNextFrame } from './frame.js';
import { attachExport, figureExport, plotTitle, pointTable, titled } from './plot-export.js';
import { formatNumber, valueTicks } from './scales.js';
import { plotTheme, watchTheme } from './theme.js';

const FONT_PX = 11;
const M0 = { left: 48, right: 12, top: 10, bottom: 40 }; // at medium labels; paint() scales the ones that hold text
const MAX_TRAIL = 60; // frames of history per labelled point
const MAX_LAYOUT_TRAIL = 10; // of a moving registry-map layout (its updates jitter; older ones only add noise)
export const TRAIL_ROWS = 10; // rows (the most frequent first) that get a trail (more only tangle)
const EASE = 0.2; // frozen axes: the fraction of the way to the new extent per frame

export class Scatter {
  // exportName: the downloads' name part; default: after the map drawn (data.method: 'pca2', '<method>2')
  constructor(parent, { labelled = 30, height = 420, exportName = null } = {}) {
    this.labelled = labelled;
    this.height = height;
    this.root = document.createElement('div');
    this.root.className = 'heatmap';
    this.root.scatter = this; // for the browser tests (data.points)
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'scatter-canvas';
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', 'scatter of the table rows (a 2-D map)');
    this.tip = document.createElement('div');
    this.tip.className = 'tooltip';
    this.tip.hidden = true;
    this.root.append(this.canvas, this.tip);
    parent.append(this.root);
    this.data = null;
    this.trails = [];
    this.schedule = onNextFrame(() => this.draw());
    this.canvas.addEventListener('mousemove', (e) => this.onHover(e));
    this.canvas.addEventListener('mouseleave', () => (this.tip.hidden = true));
    new ResizeObserver(() => this.schedule()).observe(this.root);
    watchTheme(this);
    attachExport(this.root, figureExport(() => this.figure(), { name: exportName ?? (() => `${this.data?.method || 'pca'}2`), element: this.root, table: () => pointTable(this.data) }));
  }

  themeChanged() {
    if (this.data) this.schedule();
  }

  figure() {
    if (!this.data) throw new Error('export: nothing drawn yet');
    const width = Math.max(200, this.root.clientWidth);
    const view = this.shown || this.targetView();
    const th = plotTheme(this.root, { light: true });
    return titled(plotTitle(this.root), [{ width, height: this.height, paint: (ctx) => this.paint(ctx, width, this.height, view, th) }]);
  }

  // Rows to label, most important first: data.order, else row order.
  labelledRows() {
    const n = this.data.points.length / 2;
    const order = this.data.order || Array.from({ length: Math.min(n, this.labelled) }, (_, i) => i);
    return Array.from(order).filter((r) => r < n).slice(0, this.labelled);
  }

  // data.frozen: the basis is fixed, so the labelled points' past positions are kept as trails.
  setData(data) {
    this.data = data;
    if (!data.frozen && !data.trails) {
      this.trails = [];
      this.shown = null;
    } else {
      const rows = this.labelledRows();
      const f = new Float32Array(rows.length * 2);
      rows.forEach((r, i) => {
        f[2 * i] = data.points[2 * r];
        f[2 * i + 1] = data.points[2 * r + 1];
      });
      this.trails.push(f);
      while (this.trails.length > (data.frozen ? MAX_TRAIL : MAX_LAYOUT_TRAIL)) this.trails.shift();
    }
    this.schedule();
  }

  clearTrails() {
    this.trails = [];
  }

  // The view of each axis as [centre, half-width]. Refitted PCA coordinates are centred, so the
  // centre is 0 and the half-width the 99th percentile of |coordinate| (a few outliers do not
  // squeeze the cloud into a corner; points beyond are clipped), padded by 15%. On frozen axes
  // the cloud may drift from 0 (the table's mean moves), so the centre is the middle of the
  // 0.5th..99.5th percentiles and the half-width half their distance, padded by 15%.
  // With trails, the range also covers every point of the drawn trails (trailExtent).
  targetView() {
    const p = this.data.points;
    const n = p.length / 2;
    const frozen = !!(this.data.frozen || this.data.trails);
    const trails = frozen ? this.trailExtent() : null;
    return [0, 1].map((k) => {
      const a = new Float32Array(n);
      for (let i = 0; i < n; i++) a[i] = frozen ? p[2 * i + k] : Math.abs(p[2 * i + k]);
      a.sort();
      if (!frozen) return [0, Math.max(1e-6, a[Math.max(0, Math.floor(0.99 * (n - 1)))] * 1.15)];
      let lo = a[Math.floor(0.005 * (n - 1))];
      let hi = a[Math.ceil(0.995 * (n - 1))];
      if (trails) {
        lo = Math.min(lo, trails[k][0]);
        hi = Math.max(hi, trails[k][1]);
      }
      return [(lo + hi) / 2, Math.max(1e-6, ((hi - lo) / 2) * 1.15)];
    });
  }

  // The rows that get a trail: the first TRAIL_ROWS of the kept frames (labelledRows order).
  trailRows() {
    return this.trails.length > 1 ? Math.min(this.trails[0].length / 2, TRAIL_ROWS) : 0;
  }

  // -> [[xmin, xmax], [ymin, ymax]] of every point of the drawn trails, or null (none drawn)
  trailExtent() {
    const m = this.trailRows();
    if (!m) return null;
    const e = [[Infinity, -Infinity], [Infinity, -Infinity]];
    for (const f of this.trails) {
      for (let i = 0; i < m; i++) {
        for (let k = 0; k < 2; k++) {
          const v = f[2 * i + k];
          if (v < e[k][0]) e[k][0] = v;
          if (v > e[k][1]) e[k][1] = v;
        }
      }
    }
    return e;
  }

  // Refitted axes jump to the target; frozen ones ease towards it (and ask for another frame
  // until they are there), so on-screen motion stays readable as motion in the table.
  view() {
    const target = this.targetView();
    if (!(this.data.frozen || this.data.trails) || !this.shown) {
      this.easing = false;
      this.shown = target;
      this.root.dataset.eased = 'true';
      return target;
    }
    this.shown = this.shown.map((v, k) => v.map((x, j) => x + (target[k][j] - x) * EASE));
    this.easing = this.shown.some((v, k) => Math.abs(v[0] - target[k][0]) + Math.abs(v[1] - target[k][1]) > 1e-3 * target[k][1]);
    if (this.easing) this.schedule();
    this.root.dataset.eased = String(!this.easing); // for the browser tests: the view has reached its target
    return this.shown;
  }

  draw() {
    if (!this.data) return;
    const width = Math.max(200, this.root.clientWidth);
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(width * dpr);
    this.canvas.height = Math.round(this.height * dpr);
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${this.height}px`;
    const ctx = this.canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, this.height);
    const view = this.view();
    const r = this.paint(ctx, width, this.height, view, plotTheme(this.root));
    this.map = r.map;
    this.root.dataset.inView = String(r.inView); // for the browser tests
    // trails: rows drawn, the fraction of their points in the frame, the trails cut at the edge (marked)
    this.root.dataset.trailRows = String(r.trail.rows);
    this.root.dataset.trailsInView = String(r.trail.vertices ? r.trail.inside / r.trail.vertices : 1);
    this.root.dataset.trailsCut = String(r.trail.cut);
    this.root.dataset.easing = String(!!this.easing);
    this.root.dataset.labelled = JSON.stringify(r.shownRows); // for the browser tests
  }

  // The picture on any 2-D context, width x height, for the view [[cx, ex], [cy, ey]], in theme
  // th -> {map: {sx, sy}, inView (fraction of the points), shownRows (labelled rows)}.
  paint(ctx, width, height, view, th) {
    const [[cx, ex], [cy, ey]] = view;
    ctx.font = th.font(FONT_PX);
    // left: room for the widest y tick label, its tick and the rotated axis title
    const yTicks = valueTicks(cy - ey, cy + ey, 6);
    const widest = Math.max(0, ...yTicks.map((t) => ctx.measureText(formatNumber(t)).width));
    const M = { left: Math.max(th.px(M0.left), Math.ceil(widest) + 9 + th.px(16)), right: M0.right, top: M0.top, bottom: th.px(M0.bottom) };
    const w = width - M.left - M.right;
    const h = height - M.top - M.bottom;
    const sx = (v) => M.left + ((v - cx + ex) / (2 * ex)) * w;
    const sy = (v) => M.top + ((ey - v + cy) / (2 * ey)) * h;
    ctx.strokeStyle = th.frame;
    ctx.strokeRect(M.left - 0.5, M.top - 0.5, w + 1, h + 1);
    ctx.font = th.font(FONT_PX);
    ctx.fillStyle = th.text;
    ctx.strokeStyle = th.grid;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (const t of valueTicks(cx - ex, cx + ex, 6)) {
      ctx.beginPath();
      ctx.moveTo(sx(t), M.top);
      ctx.lineTo(sx(t), M.top + h);
      ctx.stroke();
      ctx.fillText(formatNumber(t), sx(t), M.top + h + 4);
    }
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const t of yTicks) {
      ctx.beginPath();
      ctx.moveTo(M.left, sy(t));
      ctx.lineTo(M.left + w, sy(t));
      ctx.stroke();
      ctx.fillText(formatNumber(t), M.left - 5, sy(t));
    }
    const [e1, e2] = this.data.explained || [NaN, NaN];
    const [a1, a2] = this.data.axes || [`PC1 (${(100 * e1).toFixed(1)}% of the variance)`, `PC2 (${(100 * e2).toFixed(1)}%)`];
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.fillText(a1, M.left + w / 2, M.top + h + 8 + th.px(14));
    ctx.save();
    ctx.translate(4 + th.px(7), M.top + h / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textBaseline = 'middle';
    ctx.fillText(a2, 0, 0);
    ctx.restore();
    const p = this.data.points;
    const n = p.length / 2;
    let inside = 0;
    for (let i = 0; i < n; i++) if (Math.abs(p[2 * i] - cx) <= ex && Math.abs(p[2 * i + 1] - cy) <= ey) inside++;
    ctx.save();
    ctx.beginPath();
    ctx.rect(M.left, M.top, w, h);
    ctx.clip();
    if (this.data.path) {
      this.drawPath(ctx, sx, sy);
    } else {
      const [r, g, b] = th.point;
      ctx.fillStyle = `rgba(${r}, ${g}, ${b}, ${th.dark ? 0.55 : 0.4})`; // Okabe-Ito blue (sky blue on dark)
      for (let i = 0; i < n; i++) ctx.fillRect(sx(p[2 * i]) - 1.5, sy(p[2 * i + 1]) - 1.5, 3, 3);
    }
    // trails: where the most frequent rows were in earlier frames (frozen axes or a moving layout).
    // A moving registry-map layout also jitters (negative sampling), and 30 trails of 60 frames
    // tangle: only TRAIL_ROWS rows get one, fading with age (faint: older, strong: the latest step).
    const m = this.trailRows();
    const trail = { vertices: 0, inside: 0, cut: 0 };
    const inFrame = (x, y) => Math.abs(x - cx) <= ex && Math.abs(y - cy) <= ey;
    if (m) {
      ctx.lineWidth = 1.4;
      const last = this.trails.length - 1;
      for (let k = 1; k <= last; k++) {
        ctx.strokeStyle = `rgba(213, 94, 0, ${(0.12 + 0.7 * (k / last)).toFixed(3)})`;
        const [a, b] = [this.trails[k - 1], this.trails[k]];
        ctx.beginPath();
        for (let i = 0; i < m; i++) {
          ctx.moveTo(sx(a[2 * i]), sy(a[2 * i + 1]));
          ctx.lineTo(sx(b[2 * i]), sy(b[2 * i + 1]));
        }
        ctx.stroke();
      }
      for (const f of this.trails) {
        for (let i = 0; i < m; i++) {
          trail.vertices++;
          if (inFrame(f[2 * i], f[2 * i + 1])) trail.inside++;
        }
      }
    }
    ctx.restore();
    // a trail whose latest point is outside the frame (the view is still easing out): an arrow at the
    // edge, on the line from the frame's centre to that point, pointing out (drawn over the clip)
    if (m) {
      const f = this.trails[this.trails.length - 1];
      ctx.fillStyle = '#D55E00';
      for (let i = 0; i < m; i++) {
        const [x, y] = [f[2 * i], f[2 * i + 1]];
        if (inFrame(x, y)) continue;
        trail.cut++;
        const dx = (x - cx) / ex;
        const dy = (y - cy) / ey;
        const t = 1 / Math.max(Math.abs(dx), Math.abs(dy)); // to the frame's edge
        const px = sx(cx + dx * t * ex);
        const py = sy(cy + dy * t * ey);
        const ang = Math.atan2(py - sy(cy), px - sx(cx));
        ctx.beginPath();
        ctx.moveTo(px + 7 * Math.cos(ang), py + 7 * Math.sin(ang));
        ctx.lineTo(px + 5 * Math.cos(ang + 2.3), py + 5 * Math.sin(ang + 2.3));
        ctx.lineTo(px + 5 * Math.cos(ang - 2.3), py + 5 * Math.sin(ang - 2.3));
        ctx.closePath();
        ctx.fill();
      }
    }
    ctx.save();
    ctx.beginPath();
    ctx.rect(M.left, M.top, w, h);
    ctx.clip();
    // labels for the first rows of the order, skipping any that would overlap one already placed
    ctx.textAlign = 'left';
    ctx.textBaseline = 'bottom';
    const placed = [];
    const shownRows = [];
    for (const i of this.labelledRows()) {
      const x = sx(p[2 * i]);
      const y = sy(p[2 * i + 1]);
      ctx.fillStyle = '#D55E00';
      ctx.fillRect(x - 2, y - 2, 4, 4);
      const text = this.data.labels[i] ?? '';
      const box = { x0: x + 3, y0: y - 1 - th.px(14), x1: x + 5 + ctx.measureText(text).width, y1: y - 1 };
      if (placed.some((b) => box.x0 < b.x1 && b.x0 < box.x1 && box.y0 < b.y1 && b.y0 < box.y1)) continue;
      placed.push(box);
      shownRows.push(i);
      ctx.fillStyle = th.halo;
      ctx.fillRect(box.x0 - 1, box.y0 + 1, box.x1 - box.x0, box.y1 - box.y0);
      ctx.fillStyle = th.label;
      ctx.fillText(text, x + 4, y - 2);
    }
    ctx.restore();
    return { map: { sx, sy }, inView: n ? inside / n : 1, shownRows, trail: { rows: m, ...trail } };
  }

  // Row i joined to row i + 1, each segment and point in the colour of its row (data.path, a LUT).
  drawPath(ctx, sx, sy) {
    const p = this.data.points;
    const lut = this.data.path;
    const n = p.length / 2;
    const m = lut.length / 3;
    const color = (i) => {
      const k = Math.round((i / Math.max(1, n - 1)) * (m - 1)) * 3;
      return `rgb(${lut[k]},${lut[k + 1]},${lut[k + 2]})`;
    };
    ctx.lineWidth = 1.5;
    for (let i = 1; i < n; i++) {
      ctx.strokeStyle = color(i);
      ctx.beginPath();
      ctx.moveTo(sx(p[2 * i - 2]), sy(p[2 * i - 1]));
      ctx.lineTo(sx(p[2 * i]), sy(p[2 * i + 1]));
      ctx.stroke();
    }
    for (let i = 0; i < n; i++) {
      ctx.fillStyle = color(i);
      ctx.fillRect(sx(p[2 * i]) - 1.5, sy(p[2 * i + 1]) - 1.5, 3, 3);
    }
  }

  onHover(e) {
    if (!this.data || !this.map) return;
    const r = this.canvas.getBoundingClientRect();
    const mx = e.clientX - r.left;
    const my = e.clientY - r.top;
    const p = this.data.points;
    let best = -1;
    let bd = 64; // within 8 px
    for (let i = 0; i < p.length / 2; i++) {
      const d = (this.map.sx(p[2 * i]) - mx) ** 2 + (this.map.sy(p[2 * i + 1]) - my) ** 2;
      if (d < bd) {
        bd = d;
        best = i;
      }
    }
    if (best < 0) {
      this.tip.hidden = true;
      return;
    }
    this.tip.textContent = `${this.data.labels[best] ?? `row ${best}`}: (${formatNumber(p[2 * best])}, ${formatNumber(p[2 * best + 1])})`;
    this.tip.hidden = false;
    this.tip.style.left = `${Math.min(mx + 12, r.width - this.tip.offsetWidth - 4)}px`;
    this.tip.style.top = `${my + 14}px`;
  }
}
