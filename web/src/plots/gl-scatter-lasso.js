// The lasso of the WebGL scatter (gl-scatter.js): shift+drag (or any drag in lasso mode) draws a
// path on a 2-D canvas over the frame; on release the rows inside it (point-index.js
// rowsInPolygon, in data coordinates) become the selection, and the polygon stays outlined until
// the next lasso or until the points move. Not here: what the page does with the rows (onSelect).
//
// Methods of GlScatter (gl-scatter.js copies them onto its prototype: mix-methods.js), so `this`
// is the scatter: this.path (the path being drawn, frame pixels), this.polygon (the
// last lasso, data coordinates), this.lasso (its canvas), this.lassoMode and this.onSelect.
//
//   sc.setLassoMode(true);   // a drag draws a lasso; onSelect(rows, polygon) on release
import { rowsInPolygon } from './point-index.js';

export class ScatterLasso {
  setLassoMode(on) {
    this.lassoMode = !!on;
    this.root.classList.toggle('lasso-mode', this.lassoMode);
  }

  lassoStart(e) {
    if (!this.data || e.button !== 0 || !(this.lassoMode || e.shiftKey)) return false;
    e.preventDefault();
    this.frame.setPointerCapture(e.pointerId);
    this.path = [this.local(e)];
    this.hideTip();
    this.drawLasso();
    return true;
  }

  lassoMove(e) {
    const p = this.local(e);
    const last = this.path[this.path.length - 1];
    if (Math.hypot(p[0] - last[0], p[1] - last[1]) >= 2) this.path.push(p);
    this.drawLasso();
  }

  lassoEnd() {
    const path = this.path;
    this.path = null;
    this.drawLasso();
    if (path.length < 3) return;
    const polygon = path.map(([px, py]) => this.unproject(px, py));
    const rows = rowsInPolygon(this.data.points, polygon);
    this.setSelection(rows);
    this.polygon = polygon; // kept (in data coordinates) and outlined until the next lasso or the points move
    this.root.dataset.lassoOutline = 'true';
    this.drawLasso();
    this.onSelect(rows, polygon);
  }

  local(e) {
    const r = this.frame.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  }

  drawLasso() {
    const [w, h] = this.size();
    const dpr = window.devicePixelRatio || 1;
    if (this.lasso.width !== Math.round(w * dpr) || this.lasso.height !== Math.round(h * dpr)) {
      this.lasso.width = Math.round(w * dpr);
      this.lasso.height = Math.round(h * dpr);
    }
    const ctx = this.lasso.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    const path = this.path || this.polygon?.map(([x, y]) => this.project(x, y));
    if (!path) return;
    ctx.beginPath();
    path.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
    ctx.closePath();
    if (this.path) {
      ctx.fillStyle = 'rgba(213, 94, 0, 0.08)';
      ctx.fill();
    }
    ctx.setLineDash([5, 4]);
    ctx.strokeStyle = '#D55E00';
    ctx.lineWidth = 1.5;
    ctx.stroke();
  }
}
