// The view of the WebGL scatter (gl-scatter.js): the fitted zoom, pan and zoom by drag and wheel,
// the transform between data and frame pixels (project / unproject), and the axes drawn on a 2-D
// canvas around the WebGL frame. Not here: the keys that pan and zoom (gl-scatter-keys.js), the
// points' layers (gl-scatter.js).
//
// Pan and zoom are ours: every change of the view is sent to the drawing worker as a frame (at
// most one per animation frame; the worker draws the newest it has). Until the worker has drawn
// it, the last drawn frame is moved and scaled with a CSS transform (compositor only), so the
// map follows the pointer even when a frame takes longer than the pointer's move; the transform
// is dropped when the frame of the current view arrives.
//
// Methods of GlScatter (gl-scatter.js copies them onto its prototype: mix-methods.js), so `this`
// is the scatter: this.viewState ({target, zoom, minZoom, maxZoom}), this.drawnView,
// this.frame, this.axes, this.canvas, this.data and this.drag are its fields.
//
//   sc.resetView();   sc.project(x, y) -> [px, py];   sc.unproject(px, py) -> [x, y]
import { formatNumber, valueTicks } from './scales.js';
import { plotTheme } from './theme.js';

export const FONT_PX = 11;
export const RADIUS = 1.5; // px at the fitted zoom; grows (up to 4x) as one zooms in
const WHEEL_ZOOM = 1 / 400; // zoom levels (factors of 2) per pixel of wheel delta

export class ScatterView {
  size() {
    return [Math.max(1, this.frame.clientWidth), Math.max(1, this.frame.clientHeight)];
  }

  // The zoom (log2 of pixels per data unit) at which the 99th percentile (under 1,000 rows: the
// largest) of |x| and of |y|,
  // padded by 15%, fit the frame (a few outliers do not squeeze the cloud into a corner).
  fitZoom() {
    const { points, n } = this.data;
    const [w, h] = this.size();
    const ext = [0, 1].map((k) => {
      const step = Math.max(1, Math.floor(n / 65536));
      const a = new Float32Array(Math.ceil(n / step));
      for (let i = 0, j = 0; i < n; i += step, j++) a[j] = Math.abs(points[2 * i + k]);
      a.sort();
      // every point of a small table is shown; of a large one, a few outliers may sit outside
      return Math.max(1e-6, a[Math.floor((n < 1000 ? 1 : 0.99) * (a.length - 1))] * 1.15);
    });
    return Math.log2(Math.min(w / (2 * ext[0]), h / (2 * ext[1])));
  }

  resetView() {
    if (!this.data) return;
    this.userMoved = false; // an animated map is refitted again
    this.fit = this.fitZoom();
    this.setView({ target: [0, 0, 0], zoom: this.fit, minZoom: this.fit - 4, maxZoom: this.fit + 14 });
  }

  // The view the user asked for: drawn at the next animation frame, shown moved until then.
  setView(viewState) {
    const z = Math.min(viewState.maxZoom ?? Infinity, Math.max(viewState.minZoom ?? -Infinity, viewState.zoom));
    this.viewState = { ...viewState, zoom: z };
    this.hideTip();
    this.scheduleAxes();
    this.scheduleFrame();
    this.preview();
  }

  // CSS transform (origin 0 0) taking the drawn frame to the current view: a data point at
  // pixel p in the drawn view is at k p + (w/2 (1 - k) + (tx - tx') s', h/2 (1 - k) - (ty - ty') s')
  // in the current one, k = s' / s.
  preview() {
    const { canvas } = this;
    const [w, h] = this.size();
    const [a, b] = [this.drawnView, this.viewState];
    const s1 = 2 ** b.zoom;
    const k = s1 / 2 ** a.zoom;
    const dx = (w / 2) * (1 - k) + (a.target[0] - b.target[0]) * s1;
    const dy = (h / 2) * (1 - k) - (a.target[1] - b.target[1]) * s1;
    canvas.style.transformOrigin = '0 0';
    canvas.style.transform = k === 1 && dx === 0 && dy === 0 ? '' : `translate(${dx}px, ${dy}px) scale(${k})`;
  }

  panStart(e) {
    if (!this.data || e.button !== 0) return;
    this.frame.setPointerCapture(e.pointerId);
    this.drag = { x: e.clientX, y: e.clientY, target: this.viewState.target };
    this.frame.classList.add('dragging');
    this.hideTip();
  }

  panMove(e) {
    this.userMoved = true;
    const s = 2 ** this.viewState.zoom;
    const { x, y, target } = this.drag;
    this.setView({ ...this.viewState, target: [target[0] - (e.clientX - x) / s, target[1] + (e.clientY - y) / s, 0] });
  }

  panEnd() {
    if (!this.drag) return;
    this.drag = null;
    this.frame.classList.remove('dragging');
  }

  // the wheel zooms about the pointer: the data point under it stays under it
  wheel(e) {
    if (!this.data) return;
    e.preventDefault();
    this.userMoved = true;
    const [px, py] = this.local(e);
    const [x, y] = this.unproject(px, py);
    const { zoom, minZoom = -Infinity, maxZoom = Infinity } = this.viewState;
    const z = Math.min(maxZoom, Math.max(minZoom, zoom - e.deltaY * (e.deltaMode ? 40 : 1) * WHEEL_ZOOM));
    const f = 2 ** (zoom - z);
    this.setView({ ...this.viewState, zoom: z, target: [x - (x - this.viewState.target[0]) * f, y - (y - this.viewState.target[1]) * f, 0] });
  }

  // points grow (at most 4x) as one zooms in, in steps of 1/8
  radiusScaleFor(zoom) {
    return Math.round(Math.min(4, 2 ** Math.max(0, (zoom - (this.fit ?? 0)) / 3)) * 8) / 8;
  }

  radiusScale() {
    this.shownRadiusScale = this.radiusScaleFor(this.viewState.zoom);
    return this.shownRadiusScale;
  }

  // data (x, y) -> CSS pixels in the frame, and back (the OrthographicViewport's transform with
  // flipY false: y grows upwards)
  project(x, y) {
    const [w, h] = this.size();
    const s = 2 ** this.viewState.zoom;
    const [tx, ty] = this.viewState.target;
    return [w / 2 + (x - tx) * s, h / 2 - (y - ty) * s];
  }

  unproject(px, py) {
    const [w, h] = this.size();
    const s = 2 ** this.viewState.zoom;
    const [tx, ty] = this.viewState.target;
    return [tx + (px - w / 2) / s, ty - (py - h / 2) / s];
  }

  drawAxes() {
    const width = Math.max(200, this.root.clientWidth);
    const height = this.height;
    const dpr = window.devicePixelRatio || 1;
    // resized only when the size changes: setting width reallocates the canvas (every frame of a moving map)
    if (this.axes.width !== Math.round(width * dpr)) this.axes.width = Math.round(width * dpr);
    if (this.axes.height !== Math.round(height * dpr)) this.axes.height = Math.round(height * dpr);
    const ctx = this.axes.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    this.drawLasso();
    this.paintAxes(ctx, plotTheme(this.root));
  }

  // The frame, ticks and axis titles of the current view on a 2-D context (the page's overlay
  // canvas, or an exported figure), in theme th.
  paintAxes(ctx, th) {
    if (!this.data) return;
    const M = this.margins();
    const [w, h] = this.size();
    const [x0, y1] = this.unproject(0, 0);
    const [x1, y0] = this.unproject(w, h);
    ctx.font = th.font(FONT_PX);
    ctx.fillStyle = th.text;
    ctx.strokeStyle = th.frame;
    ctx.strokeRect(M.left - 0.5, M.top - 0.5, w + 1, h + 1);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (const t of valueTicks(x0, x1, 6)) {
      const [px] = this.project(t, 0);
      ctx.fillRect(M.left + px - 0.5, M.top + h, 1, 4);
      ctx.fillText(formatNumber(t), M.left + px, M.top + h + 6);
    }
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const t of valueTicks(y0, y1, 6)) {
      const [, py] = this.project(0, t);
      ctx.fillRect(M.left - 4, M.top + py - 0.5, 4, 1);
      ctx.fillText(formatNumber(t), M.left - 6, M.top + py);
    }
    const [e1, e2] = this.data.explained || [NaN, NaN];
    const pct = (e) => (Number.isFinite(e) ? ` (${(100 * e).toFixed(1)}% of the variance)` : '');
    const [a1, a2] = this.data.axes || [`PC1${pct(e1)}`, `PC2${pct(e2)}`];
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.fillText(`${a1} · both axes to the same scale`, M.left + w / 2, M.top + h + 8 + th.px(14));
    ctx.save();
    ctx.translate(4 + th.px(7), M.top + h / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textBaseline = 'middle';
    ctx.fillText(a2, 0, 0);
    ctx.restore();
  }
}
