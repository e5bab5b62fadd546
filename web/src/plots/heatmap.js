// A canvas heatmap of a (possibly downsampled) matrix with axes, axis labels, an optional
// highlighted row, a hover tooltip (row, col, value) and click-to-pick. Drawing is scheduled
// with requestAnimationFrame, so any number of setData() calls in one frame draw once.
// It does not compute colours domains or fetch data: the caller passes a grid (arrays.js
// strideSample shape), a domain and a colour lookup table (scales.js).
//
// Intended usage:
//   const hm = new Heatmap(cardBody, {xLabel: 'dimension', yLabel: 'token id', onPick: (row) => ...,
//                                     exportName: 'table'});
//   hm.setData(grid, {domain: [-2, 2], lut: makeLut('puor'), highlightRow: 3});
//   hm.setLegend(legend);   // its colour bar goes under the plot in PNG / SVG downloads
// PNG / SVG: plot-export.js; paint(ctx, L) draws the plot on a canvas or an svgcanvas Context.
// Colours and text size: theme.js (the page's theme and label size; the margins grow with the
// labels); downloads use the light palette.
//
// grid: {data (rows*cols), rows, cols, rowIndex (rows), colIndex (cols), totalRows, totalCols,
//        rowOffset = 0 (a window of a bigger matrix: row labels start there),
//        labels (optional, totalRows strings; a small square matrix such as token x token
//        similarities): every row and column is named on the axes instead of numbered, drawn as
//        canvas text (never HTML), cut to LABEL_CHARS characters}
// Cell (i, j) of the drawing is the real entry (rowIndex[i], colIndex[j]) of the full matrix.
import { onNextFrame } from './frame.js';
import { TABLE_MAX_ROWS, attachExport, figureExport, plotTitle, titled } from './plot-export.js';
import { formatNumber, indexTicks, lutIndex } from './scales.js';
import { plotTheme, watchTheme } from './theme.js';

// at medium labels; text-holding margins scale with the label size (layout())
const MARGIN = { left: 58, right: 10, top: 8, bottom: 42 };
const FONT_PX = 12;
const LABEL_CHARS = 14;
const cut = (s) => (s.length > LABEL_CHARS ? `${s.slice(0, LABEL_CHARS - 1)}…` : s);

export class Heatmap {
  constructor(parent, opts = {}) {
    this.opts = { xLabel: 'column', yLabel: 'row', maxHeight: 440, minHeight: 90, square: false, ...opts };
    this.root = document.createElement('div');
    this.root.className = 'heatmap';
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'heatmap-canvas';
    this.canvas.setAttribute('role', 'img');
    this.tip = document.createElement('div');
    this.tip.className = 'tooltip';
    this.tip.hidden = true;
    this.root.append(this.canvas, this.tip);
    parent.append(this.root);
    this.grid = null;
    this.schedule = onNextFrame(() => this.draw());
    this.image = document.createElement('canvas');
    this.canvas.addEventListener('mousemove', (e) => this.onHover(e));
    this.canvas.addEventListener('mouseleave', () => (this.tip.hidden = true));
    this.canvas.addEventListener('click', (e) => {
      const cell = this.cellAt(e);
      if (cell && this.opts.onPick) this.opts.onPick(cell.row, cell.col);
    });
    if (this.opts.onPick) {
      // keyboard: focus the plot, ArrowUp/ArrowDown (PageUp/PageDown: 10 rows) move the picked row
      this.canvas.tabIndex = 0;
      this.canvas.addEventListener('keydown', (e) => {
        const step = { ArrowUp: -1, ArrowDown: 1, PageUp: -10, PageDown: 10 }[e.key];
        if (!step || !this.grid || this.highlightRow === null) return;
        e.preventDefault();
        const g = this.grid;
        const lo = g.rowOffset || 0;
        const next = Math.max(lo, Math.min(lo + g.totalRows - 1, this.highlightRow + step));
        if (next === this.highlightRow) return;
        // the picked row moves at once: a second key pressed before the view's redraw (the
        // worker's reply) steps on from here, not from the row the last drawing showed
        this.highlightRow = next;
        this.schedule();
        this.opts.onPick(next, 0);
      });
    }
    new ResizeObserver(() => this.schedule()).observe(this.root);
    this.legend = null;
    watchTheme(this);
    attachExport(this.root, figureExport(() => this.figure(), { name: this.opts.exportName || 'heatmap', element: this.root, table: () => this.table() }));
  }

  themeChanged() {
    if (this.grid) this.schedule();
  }

  // legend (legend.js): drawn under the plot in downloads
  setLegend(legend) {
    this.legend = legend;
  }

  // The downloaded figure: title, the plot as on the page, its colour legend.
  figure() {
    if (!this.grid) throw new Error('export: nothing drawn yet');
    const L = this.layout(plotTheme(this.root, { light: true }));
    const parts = [{ width: L.width, height: L.height, paint: (ctx) => this.paint(ctx, L, { vector: true }) }];
    if (this.legend && this.legend.domain) parts.push(this.legend.part());
    return titled(plotTitle(this.root), parts);
  }

  // band: null | {from, to, label}: a bracket right of the plot over rows [from, to]
  // The drawn cells as a table: a row per drawn row, a column per drawn column (real indices,
  // or the names when the grid has labels)
  table() {
    const g = this.grid;
    if (!g) throw new Error('nothing drawn yet');
    const off = g.rowOffset || 0;
    const name = (k, idx) => (g.labels ? g.labels[idx[k]] : String(idx[k] + (idx === g.rowIndex ? off : 0)));
    const cols = Math.min(g.cols, 64);
    const rows = Math.min(g.rows, TABLE_MAX_ROWS);
    return {
      caption: `${this.opts.yLabel} (rows) by ${this.opts.xLabel} (columns)${g.sampled ? ', the drawn sample of rows and columns' : ''}${cols < g.cols ? `, the first ${cols} of ${g.cols} columns` : ''}`,
      columns: [`${this.opts.yLabel} / ${this.opts.xLabel}`, ...Array.from({ length: cols }, (_, j) => name(j, g.colIndex))],
      rows: Array.from({ length: rows }, (_, i) => [name(i, g.rowIndex), ...Array.from({ length: cols }, (_, j) => g.data[i * g.cols + j])]),
      total: g.rows,
    };
  }

  setData(grid, { domain, lut, highlightRow = null, label = '', band = null }) {
    this.grid = grid;
    this.band = band;
    this.domain = domain;
    this.lut = lut;
    this.highlightRow = highlightRow;
    this.tip.hidden = true;  // a tooltip from the previous data would show a stale value
    this.canvas.setAttribute('aria-label', label || `${this.opts.yLabel} by ${this.opts.xLabel} heatmap`);
    this.paintImage();
    this.schedule();
  }

  // Cells -> an offscreen canvas of cols x rows pixels (one pixel per drawn cell).
  paintImage() {
    const { rows, cols, data } = this.grid;
    const [lo, hi] = this.domain;
    this.image.width = cols;
    this.image.height = rows;
    const ctx = this.image.getContext('2d');
    const img = ctx.createImageData(cols, rows);
    const px = img.data;
    const lut = this.lut;
    const n = lut.length / 3;
    for (let k = 0; k < rows * cols; k++) {
      const i = lutIndex(data[k], lo, hi, n);
      if (i < 0) {
        px[k * 4] = px[k * 4 + 1] = px[k * 4 + 2] = 128;
      } else {
        px[k * 4] = lut[i * 3];
        px[k * 4 + 1] = lut[i * 3 + 1];
        px[k * 4 + 2] = lut[i * 3 + 2];
      }
      px[k * 4 + 3] = 255;
    }
    ctx.putImageData(img, 0, 0);
  }

  // th (theme.js) -> the layout at its label size: {width, height, x, y, w, h, labelW, bottom, th}
  layout(th = plotTheme(this.root)) {
    const width = Math.max(160, this.root.clientWidth);
    // room for the widest row tick label ("50000") plus the rotated axis title
    const ctx = this.canvas.getContext('2d');
    ctx.font = th.font(FONT_PX);
    const names = this.grid.labels ? this.grid.labels.map(cut) : null;
    const widest = names
      ? Math.max(0, ...names.map((t) => ctx.measureText(t).width))
      : ctx.measureText(String(Math.max(0, this.grid.totalRows - 1 + (this.grid.rowOffset || 0)))).width;
    const labelW = Math.ceil(widest);
    const left = Math.max(th.px(MARGIN.left), labelW + 22 + th.px(24));
    const right = this.band ? 12 + th.px(14) : MARGIN.right;
    const plotW = width - left - right;
    const { rows, cols } = this.grid;
    let plotH = this.opts.square ? plotW : (plotW * rows) / cols;
    plotH = Math.max(this.opts.minHeight, Math.min(this.opts.maxHeight, plotH));
    if (this.opts.square) plotH = Math.min(plotH, plotW);
    const plotWUsed = this.opts.square ? plotH : plotW;
    // named columns are written at 45 degrees under the plot: room for the longest
    const bottom = names ? Math.max(th.px(MARGIN.bottom), Math.ceil(labelW * Math.SQRT1_2) + 12 + th.px(18)) : 18 + th.px(MARGIN.bottom - 18);
    return { width, height: plotH + MARGIN.top + bottom, x: left, y: MARGIN.top, w: plotWUsed, h: plotH, labelW, bottom, th };
  }

  // Position (fraction of the axis) of real index k on an axis of `total` entries drawn as `shown` cells.
  static axisPos(k, total, shown) {
    const i = total === shown ? k : (k * (shown - 1)) / Math.max(1, total - 1);
    return (i + 0.5) / shown;
  }

  draw() {
    if (!this.grid) return;
    const L = (this.box = this.layout());
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(L.width * dpr);
    this.canvas.height = Math.round(L.height * dpr);
    this.canvas.style.width = `${L.width}px`;
    this.canvas.style.height = `${L.height}px`;
    const ctx = this.canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, L.width, L.height);
    this.paint(ctx, L);
  }

  // The plot in layout L on any 2-D context. vector: the context is an svgcanvas Context, whose
  // images are resampled by the SVG viewer, so the cells go in already scaled up (nearest
  // neighbour) to 2 pixels per CSS pixel and stay sharp.
  paint(ctx, L, { vector = false } = {}) {
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(vector ? this.scaledImage(L) : this.image, L.x, L.y, L.w, L.h);
    ctx.strokeStyle = L.th.frame;
    ctx.lineWidth = 1;
    ctx.strokeRect(L.x - 0.5, L.y - 0.5, L.w + 1, L.h + 1);
    this.drawAxes(ctx, L);
    this.drawCellValues(ctx, L);
    if (this.band) this.drawBand(ctx, L);
    if (this.highlightRow !== null && this.highlightRow !== undefined) this.drawHighlight(ctx, L);
  }

  scaledImage(L) {
    const c = document.createElement('canvas');
    c.width = Math.max(1, Math.round(L.w * 2));
    c.height = Math.max(1, Math.round(L.h * 2));
    const ctx = c.getContext('2d');
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(this.image, 0, 0, c.width, c.height);
    return c;
  }

  drawAxes(ctx, L) {
    const g = this.grid;
    if (g.labels) {
      this.drawNamedAxes(ctx, L);
      return;
    }
    const { th } = L;
    ctx.font = th.font(FONT_PX);
    ctx.fillStyle = th.text;
    ctx.strokeStyle = th.text;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    const xTicks = indexTicks(g.totalCols, Math.max(2, Math.floor(L.w / th.px(60))));
    for (const k of xTicks) {
      const x = L.x + Heatmap.axisPos(k, g.totalCols, g.cols) * L.w;
      ctx.beginPath();
      ctx.moveTo(x, L.y + L.h);
      ctx.lineTo(x, L.y + L.h + 4);
      ctx.stroke();
      ctx.fillText(String(k), x, L.y + L.h + 6);
    }
    ctx.fillText(this.opts.xLabel, L.x + L.w / 2, L.y + L.h + 12 + th.px(12));
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    const yTicks = indexTicks(g.totalRows, Math.max(2, Math.floor(L.h / th.px(28))));
    for (const k of yTicks) {
      const y = L.y + Heatmap.axisPos(k, g.totalRows, g.rows) * L.h;
      ctx.beginPath();
      ctx.moveTo(L.x - 4, y);
      ctx.lineTo(L.x, y);
      ctx.stroke();
      ctx.fillText(String(k + (g.rowOffset || 0)), L.x - 6, y);
    }
    ctx.save();
    ctx.translate(4 + th.px(7), L.y + L.h / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = 'center';
    ctx.fillText(this.opts.yLabel, 0, 0);
    ctx.restore();
  }

  // Every row and column named (grid.labels); a name is skipped when it would overlap the last one drawn.
  drawNamedAxes(ctx, L) {
    const g = this.grid;
    const names = g.labels.map(cut);
    const { th } = L;
    ctx.font = th.font(FONT_PX);
    ctx.fillStyle = th.text;
    const step = Math.max(1, Math.ceil(th.px(14) / (L.h / g.rows)));
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (let i = 0; i < g.rows; i += step) ctx.fillText(names[g.rowIndex[i]], L.x - 6, L.y + ((i + 0.5) / g.rows) * L.h);
    const xStep = Math.max(1, Math.ceil(th.px(14) / (L.w / g.cols)));
    for (let j = 0; j < g.cols; j += xStep) {
      ctx.save();
      ctx.translate(L.x + ((j + 0.5) / g.cols) * L.w, L.y + L.h + 6);
      ctx.rotate(-Math.PI / 4);
      ctx.fillText(names[g.colIndex[j]], 0, 0);
      ctx.restore();
    }
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    ctx.fillText(this.opts.xLabel, L.x + L.w / 2, L.y + L.h + L.bottom - 2);
    ctx.save();
    ctx.translate(4 + th.px(7), L.y + L.h / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(this.opts.yLabel, 0, 0);
    ctx.restore();
  }

  drawBand(ctx, L) {
    const g = this.grid;
    const { from, to, label } = this.band;
    if (to < from) return;
    const y0 = L.y + (Heatmap.axisPos(from, g.totalRows, g.rows) - 0.5 / g.rows) * L.h;
    const y1 = L.y + (Heatmap.axisPos(to, g.totalRows, g.rows) + 0.5 / g.rows) * L.h;
    const x = L.x + L.w + 5;
    ctx.fillStyle = L.th.band;
    ctx.fillRect(x, Math.max(L.y, y0), 5, Math.max(2, Math.min(L.y + L.h, y1) - Math.max(L.y, y0)));
    ctx.save();
    ctx.translate(x + 7 + L.th.px(7), (Math.max(L.y, y0) + Math.min(L.y + L.h, y1)) / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.font = L.th.font(FONT_PX);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    if (y1 - y0 > ctx.measureText(label).width + 4) ctx.fillText(label, 0, 0);
    ctx.restore();
  }

  // Small tables: print each value in its cell, dark or light text by the cell's luminance.
  drawCellValues(ctx, L) {
    const g = this.grid;
    const cw = L.w / g.cols;
    const ch = L.h / g.rows;
    if (g.sampled || cw < L.th.px(52) || ch < L.th.px(18)) return;
    const [lo, hi] = this.domain;
    const n = this.lut.length / 3;
    ctx.font = L.th.font(FONT_PX);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (let i = 0; i < g.rows; i++) {
      for (let j = 0; j < g.cols; j++) {
        const v = g.data[i * g.cols + j];
        const k = lutIndex(v, lo, hi, n);
        const lum = k < 0 ? 128 : 0.299 * this.lut[k * 3] + 0.587 * this.lut[k * 3 + 1] + 0.114 * this.lut[k * 3 + 2];
        ctx.fillStyle = lum < 120 ? '#fff' : '#1d2530';
        ctx.fillText(v.toFixed(4), L.x + (j + 0.5) * cw, L.y + (i + 0.5) * ch);
      }
    }
  }

  drawHighlight(ctx, L) {
    const g = this.grid;
    const cellH = L.h / g.rows;
    const k = this.highlightRow - (g.rowOffset || 0);
    if (k < 0 || k >= g.totalRows) return;
    const yc = L.y + Heatmap.axisPos(k, g.totalRows, g.rows) * L.h;
    const h = Math.max(3, cellH);
    ctx.lineWidth = 2;
    ctx.strokeStyle = L.th.strong;
    ctx.strokeRect(L.x - 1, yc - h / 2, L.w + 2, h);
    ctx.strokeStyle = L.th.strongInner;
    ctx.lineWidth = 1;
    ctx.strokeRect(L.x + 1, yc - h / 2 + 2, L.w - 2, Math.max(0, h - 4));
    ctx.fillStyle = L.th.strong;
    ctx.beginPath(); // a marker left of the axis title
    const mx = L.x - L.labelW - 12;
    ctx.moveTo(mx - 8, yc - 5);
    ctx.lineTo(mx, yc);
    ctx.lineTo(mx - 8, yc + 5);
    ctx.fill();
  }

  // mouse event -> {i, j, row, col, value} or null outside the plot.
  cellAt(e) {
    if (!this.grid || !this.box) return null;
    const r = this.canvas.getBoundingClientRect();
    const px = e.clientX - r.left - this.box.x;
    const py = e.clientY - r.top - this.box.y;
    if (px < 0 || py < 0 || px >= this.box.w || py >= this.box.h) return null;
    const g = this.grid;
    const i = Math.min(g.rows - 1, Math.floor((py / this.box.h) * g.rows));
    const j = Math.min(g.cols - 1, Math.floor((px / this.box.w) * g.cols));
    return { i, j, row: g.rowIndex[i], col: g.colIndex[j], value: g.data[i * g.cols + j] };
  }

  onHover(e) {
    const c = this.cellAt(e);
    if (!c) {
      this.tip.hidden = true;
      return;
    }
    const fmt = this.opts.formatTip;
    this.tip.textContent = fmt
      ? fmt(c)
      : `${this.opts.yLabel} ${c.row}, ${this.opts.xLabel} ${c.col}: ${formatNumber(c.value)}`;
    this.tip.hidden = false;
    const r = this.root.getBoundingClientRect();
    const x = e.clientX - r.left;
    const y = e.clientY - r.top;
    this.tip.style.left = `${Math.min(x + 12, r.width - this.tip.offsetWidth - 4)}px`;
    this.tip.style.top = `${y + 14}px`;
  }
}
