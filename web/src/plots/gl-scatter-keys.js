// The keyboard and the pointer's hover on the WebGL scatter (gl-scatter.js): arrow keys walk
// from point to point (the nearest on screen in that direction) and name it, shift+arrows pan,
// + and - zoom, 0 resets the view, Escape leaves the point; hover names the nearest point within
// HOVER_PX. Both show the marker and the tooltip. Not here: pan and zoom themselves
// (gl-scatter-view.js setView).
//
// Hover does not use GPU picking: a pick renders the 262,144 points again into a picking buffer
// and reads it back synchronously, which blocks the main thread in software GL. A grid in data
// space (point-index.js) answers "the nearest point within 8 px" in well under a millisecond.
//
// Methods of GlScatter (gl-scatter.js copies them onto its prototype: mix-methods.js), so `this`
// is the scatter: this.data, this.grid / this.gridFor, this.focusRow, this.tip,
// this.marker, this.onHover and this.onFocusPoint are its fields.
import { PointGrid } from './point-index.js';
import { formatNumber } from './scales.js';

const HOVER_PX = 8; // hover finds the nearest point within this many pixels
const KEY_PAN = 0.15; // arrow keys move the view by this fraction of its size

export class ScatterKeys {
  key(e) {
    if (!this.data) return;
    const [w, h] = this.size();
    const s = 2 ** this.viewState.zoom;
    const [tx, ty] = this.viewState.target;
    const pan = { ArrowLeft: [-w, 0], ArrowRight: [w, 0], ArrowUp: [0, h], ArrowDown: [0, -h] }[e.key];
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
    if (step && !e.shiftKey) this.stepFocus(step);
    else if (pan) {
      this.userMoved = true;
      this.setView({ ...this.viewState, target: [tx + (pan[0] * KEY_PAN) / s, ty + (pan[1] * KEY_PAN) / s, 0] });
    }
    else if (e.key === 'Escape' && this.focusRow >= 0) {
      this.focusRow = -1;
      this.hideTip();
    }
    else if (e.key === '+' || e.key === '=' || e.key === '-' || e.key === '_') {
      this.userMoved = true;
      this.setView({ ...this.viewState, zoom: this.viewState.zoom + (e.key === '+' || e.key === '=' ? 0.5 : -0.5) });
    }
    else if (e.key === '0') this.resetView();
    else return;
    e.preventDefault();
  }

  // From the focused point (at first: the one nearest the centre of the view) to the nearest
  // point on screen in direction dir ([dx, dy] in screen pixels, y down) within 45 degrees of it;
  // ties go to the lower row. The view follows a point that leaves it.
  stepFocus(dir) {
    const { points, n } = this.data;
    const [w, h] = this.size();
    let from = this.focusRow;
    if (from < 0) {
      const [cx, cy] = this.unproject(w / 2, h / 2);
      let bd = Infinity;
      for (let i = 0; i < n; i++) {
        const d = (points[2 * i] - cx) ** 2 + (points[2 * i + 1] - cy) ** 2;
        if (d < bd) [bd, from] = [d, i];
      }
      this.focusPoint(from);
      return;
    }
    const s = 2 ** this.viewState.zoom;
    const fx = points[2 * from];
    const fy = points[2 * from + 1];
    let best = -1;
    let bestScore = Infinity;
    for (let i = 0; i < n; i++) {
      // screen offsets from the focused point (y grows downwards on screen)
      const dx = (points[2 * i] - fx) * s;
      const dy = -(points[2 * i + 1] - fy) * s;
      const along = dx * dir[0] + dy * dir[1];
      if (along <= 0) continue; // includes the point itself and points at the same pixel
      const across = Math.abs(dx * dir[1] - dy * dir[0]);
      if (across > along) continue;
      const score = along + 2 * across;
      if (score < bestScore) [bestScore, best] = [score, i];
    }
    if (best >= 0) this.focusPoint(best);
  }

  // Marks row and names it in the tooltip (and to the page: onFocusPoint); pans to keep it in view.
  focusPoint(row) {
    this.focusRow = row;
    const p = this.data.points;
    let [px, py] = this.project(p[2 * row], p[2 * row + 1]);
    const [w, h] = this.size();
    if (px < 0 || py < 0 || px > w || py > h) {
      this.setView({ ...this.viewState, target: [p[2 * row], p[2 * row + 1], 0] });
      [px, py] = this.project(p[2 * row], p[2 * row + 1]);
    }
    this.showTip(row, px, py, px, py);
    this.root.dataset.focusRow = String(row);
    this.onFocusPoint(row);
  }

  hover(e) {
    if (!this.data || e.buttons) return; // no lookups while a drag pans
    const r = this.frame.getBoundingClientRect();
    const mx = e.clientX - r.left;
    const my = e.clientY - r.top;
    const [x, y] = this.unproject(mx, my);
    if (this.gridFor !== this.data.points) {
      this.grid = new PointGrid(this.data.points);
      this.gridFor = this.data.points;
    }
    const row = this.grid.nearest(x, y, HOVER_PX / 2 ** this.viewState.zoom);
    if (row < 0) {
      this.hideTip();
      return;
    }
    const p = this.data.points;
    const [px, py] = this.project(p[2 * row], p[2 * row + 1]);
    this.showTip(row, px, py, mx, my);
    this.root.dataset.hoverRow = String(row);
    this.onHover(row);
  }

  // The marker on row (frame pixels px, py) and its label, row and coordinates in the tooltip
  // next to (tx, ty): the mouse when hovering, the point itself when walking with the keys.
  showTip(row, px, py, tx, ty) {
    const p = this.data.points;
    this.tip.textContent = `${this.data.labels[row] ?? `row ${row}`} · row ${row} · (${formatNumber(p[2 * row])}, ${formatNumber(p[2 * row + 1])})`;
    this.tip.hidden = false;
    this.marker.hidden = false;
    this.marker.style.left = `${px}px`;
    this.marker.style.top = `${py}px`;
    const M = this.margins();
    this.tip.style.left = `${Math.max(0, Math.min(M.left + tx + 12, this.root.clientWidth - this.tip.offsetWidth - 4))}px`;
    this.tip.style.top = `${M.top + ty + 14}px`;
  }

  hideTip() {
    this.tip.hidden = true;
    this.marker.hidden = true;
  }
}
