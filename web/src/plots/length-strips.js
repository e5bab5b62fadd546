// Histograms of vector lengths, one row per group, on a shared log-scale x axis, with a
// vertical reference line (the sinusoidal position vectors' length). Used by the "why √D"
// card. Canvas, redrawn at most once per frame; hover names the group and the bin. Narrower
// than 560 px (phones) the labels move above each strip so the histograms keep the width.
// Colours and text size: theme.js (the label column and rows grow with the labels).
//
//   const st = new LengthStrips(el);
//   st.setData({groups: [{label, lengths: Float32Array}], reference: {value: 5.66, label: 'position rows'}});
import { onNextFrame } from './frame.js';
import { attachExport, figureExport, plotTitle, titled } from './plot-export.js';
import { formatNumber } from './scales.js';
import { OKABE_ITO } from './loss-chart.js';
import { plotTheme, watchTheme } from './theme.js';

const FONT_PX = 12;
const BINS = 60;
const ROW_H = 46;
const LEFT = 230; // labels left of the histograms (at medium labels)...
const NARROW = 560; // ...unless the chart is narrower than this: then labels go above each strip
const LABEL_H = 30; // narrow layout: the two label lines above a strip (at medium labels)

export class LengthStrips {
  constructor(parent) {
    this.root = document.createElement('div');
    this.root.className = 'heatmap';
    this.canvas = document.createElement('canvas');
    this.canvas.setAttribute('role', 'img');
    this.canvas.className = 'strips-canvas';
    this.tip = document.createElement('div');
    this.tip.className = 'tooltip';
    this.tip.hidden = true;
    this.root.append(this.canvas, this.tip);
    parent.append(this.root);
    this.schedule = onNextFrame(() => this.draw());
    this.canvas.addEventListener('mousemove', (e) => this.onHover(e));
    this.canvas.addEventListener('mouseleave', () => (this.tip.hidden = true));
    new ResizeObserver(() => this.schedule()).observe(this.root);
    watchTheme(this);
    attachExport(this.root, figureExport(() => this.figure(), { name: 'lengths', element: this.root, table: () => this.table() }));
  }

  // one row per strip: how many lengths, their median, min and max
  table() {
    if (!this.data) throw new Error('nothing drawn yet');
    const stat = (a) => {
      const s = Float32Array.from(a).sort();
      return [s.length, s[s.length >> 1], s[0], s[s.length - 1]];
    };
    return {
      caption: `vector lengths (the reference: ${this.data.reference.label} = ${this.data.reference.value})`,
      columns: ['rows', 'count', 'median length', 'min', 'max'],
      rows: this.data.groups.map((g) => [g.label, ...stat(g.lengths)]),
    };
  }

  themeChanged() {
    if (this.data) this.schedule();
  }

  figure() {
    if (!this.data) throw new Error('export: nothing drawn yet');
    const width = Math.max(300, this.root.clientWidth);
    const th = plotTheme(this.root, { light: true });
    return titled(plotTitle(this.root), [{ width, height: this.layout(width, th).height, paint: (ctx) => this.paint(ctx, width, th) }]);
  }

  // width, th (theme.js) -> {narrow, left, rowH, labelH, top, height}: wide, labels in a 230 px
  // column (more for bigger labels); narrow (phones), labels above their strip, bars full width
  layout(width, th) {
    const narrow = width < th.px(NARROW);
    const labelH = th.px(LABEL_H);
    const rowH = narrow ? ROW_H + labelH : Math.max(ROW_H, th.px(ROW_H));
    const top = narrow ? th.px(24) : 8; // narrow: the reference line's label gets a line of its own
    return { narrow, left: narrow ? 8 : th.px(LEFT), rowH, labelH, top, height: this.data.groups.length * rowH + th.px(40) + top };
  }

  setData(data) {
    this.data = data;
    const all = data.groups.flatMap((g) => [Math.min(...g.lengths), Math.max(...g.lengths)]).concat([data.reference.value]);
    this.lo = Math.log10(Math.max(1e-3, Math.min(...all)) / 1.3);
    this.hi = Math.log10(Math.max(...all) * 1.3);
    this.hists = data.groups.map((g) => {
      const h = new Uint32Array(BINS);
      for (const v of g.lengths) h[Math.min(BINS - 1, Math.max(0, Math.floor(((Math.log10(v) - this.lo) / (this.hi - this.lo)) * BINS)))]++;
      return h;
    });
    this.canvas.setAttribute('aria-label', data.groups.map((g) => `${g.label}: median length ${formatNumber(median(g.lengths))}`).join('; '));
    this.schedule();
  }

  draw() {
    if (!this.data) return;
    const width = Math.max(300, this.root.clientWidth);
    const th = plotTheme(this.root);
    const { height } = this.layout(width, th);
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(width * dpr);
    this.canvas.height = Math.round(height * dpr);
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    const ctx = this.canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    this.geom = this.paint(ctx, width, th);
  }

  // The strips, axis and reference line, width wide, on any 2-D context, in theme th -> the
  // geometry hover uses.
  paint(ctx, width, th) {
    const { narrow, left, rowH, labelH, top } = this.layout(width, th);
    const rows = this.data.groups.length;
    const w = width - left - 16;
    const x = (v) => left + ((Math.log10(v) - this.lo) / (this.hi - this.lo)) * w;
    const geom = { w, rows, left, rowH, top };
    ctx.font = th.font(FONT_PX);
    const stripH = narrow ? ROW_H : rowH; // the histogram's own height
    this.data.groups.forEach((g, r) => {
      const y0 = top + r * rowH + (narrow ? labelH : 0); // top of the strip
      const h = this.hists[r];
      const max = Math.max(...h);
      ctx.fillStyle = th.colour(OKABE_ITO[r % OKABE_ITO.length]);
      for (let b = 0; b < BINS; b++) {
        const bh = (h[b] / max) * (stripH - 12);
        ctx.fillRect(left + (b / BINS) * w, y0 + stripH - 8 - bh, Math.max(0.5, w / BINS - 1), bh);
      }
      ctx.fillStyle = th.ink;
      ctx.textBaseline = 'middle';
      if (narrow) {
        ctx.textAlign = 'left';
        ctx.fillText(g.label, left, y0 - labelH + th.px(8));
        ctx.fillStyle = th.muted;
        ctx.fillText(`median ${formatNumber(median(g.lengths))}`, left, y0 - labelH + th.px(22));
      } else {
        ctx.textAlign = 'right';
        ctx.fillText(g.label, left - 10, y0 + stripH / 2 - th.px(6));
        ctx.fillStyle = th.muted;
        ctx.fillText(`median ${formatNumber(median(g.lengths))}`, left - 10, y0 + stripH / 2 + th.px(9));
      }
    });
    const axisY = top + rows * rowH;
    ctx.strokeStyle = th.frame;
    ctx.beginPath();
    ctx.moveTo(left, axisY);
    ctx.lineTo(left + w, axisY);
    ctx.stroke();
    ctx.fillStyle = th.text;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (let e = Math.ceil(this.lo); e <= Math.floor(this.hi); e++) {
      for (const m of [1, 2, 5]) {
        const v = m * 10 ** e;
        if (Math.log10(v) < this.lo || Math.log10(v) > this.hi) continue;
        ctx.fillRect(x(v) - 0.5, axisY, 1, 4);
        ctx.fillText(formatNumber(v), x(v), axisY + 6);
      }
    }
    ctx.fillText('vector length ‖x‖ (log scale)', left + w / 2, axisY + 8 + th.px(14));
    const ref = this.data.reference;
    ctx.strokeStyle = th.ink;
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(x(ref.value), 4);
    ctx.lineTo(x(ref.value), axisY);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.textAlign = 'left';
    ctx.fillStyle = th.ink;
    ctx.fillText(`${ref.label} = ${formatNumber(ref.value)}`, x(ref.value) + 4, 0);
    return geom;
  }

  onHover(e) {
    if (!this.geom) return;
    const r = this.canvas.getBoundingClientRect();
    const mx = e.clientX - r.left;
    const { left, rowH, top } = this.geom;
    const row = Math.floor((e.clientY - r.top - top) / rowH);
    if (mx < left || row < 0 || row >= this.geom.rows) {
      this.tip.hidden = true;
      return;
    }
    const b = Math.min(BINS - 1, Math.floor(((mx - left) / this.geom.w) * BINS));
    const a = 10 ** (this.lo + (b / BINS) * (this.hi - this.lo));
    const z = 10 ** (this.lo + ((b + 1) / BINS) * (this.hi - this.lo));
    this.tip.textContent = `${this.data.groups[row].label}: ${this.hists[row][b]} rows with length ${formatNumber(a)}–${formatNumber(z)}`;
    this.tip.hidden = false;
    this.tip.style.left = `${Math.min(mx + 12, r.width - this.tip.offsetWidth - 4)}px`;
    this.tip.style.top = `${e.clientY - r.top + 14}px`;
  }
}

function median(a) {
  const s = Float32Array.from(a).sort();
  return s.length ? s[Math.floor(s.length / 2)] : 0;
}
