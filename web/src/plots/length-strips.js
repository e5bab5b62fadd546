// Histograms of vector lengths, one row per group, on a shared log-scale x axis, with a
// vertical reference line (the sinusoidal position vectors' length). Used by the "why √D"
// card. Canvas, redrawn at most once per frame; hover names the group and the bin.
//
//   const st = new LengthStrips(el);
//   st.setData({groups: [{label, lengths: Float32Array}], reference: {value: 5.66, label: 'position rows'}});
import { onNextFrame } from './frame.js';
import { formatNumber } from './scales.js';
import { OKABE_ITO } from './loss-chart.js';

const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const BINS = 60;
const ROW_H = 46;
const LEFT = 230;

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
    const width = Math.max(320, this.root.clientWidth);
    const rows = this.data.groups.length;
    const height = rows * ROW_H + 48;
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(width * dpr);
    this.canvas.height = Math.round(height * dpr);
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    const ctx = this.canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const w = width - LEFT - 16;
    const x = (v) => LEFT + ((Math.log10(v) - this.lo) / (this.hi - this.lo)) * w;
    this.geom = { w, rows };
    ctx.font = FONT;
    this.data.groups.forEach((g, r) => {
      const y0 = 8 + r * ROW_H;
      const h = this.hists[r];
      const max = Math.max(...h);
      ctx.fillStyle = OKABE_ITO[r % OKABE_ITO.length];
      for (let b = 0; b < BINS; b++) {
        const bh = (h[b] / max) * (ROW_H - 12);
        ctx.fillRect(LEFT + (b / BINS) * w, y0 + ROW_H - 8 - bh, w / BINS - 1, bh);
      }
      ctx.fillStyle = '#1d2530';
      ctx.textAlign = 'right';
      ctx.textBaseline = 'middle';
      ctx.fillText(g.label, LEFT - 10, y0 + ROW_H / 2 - 6);
      ctx.fillStyle = '#5b6775';
      ctx.fillText(`median ${formatNumber(median(g.lengths))}`, LEFT - 10, y0 + ROW_H / 2 + 9);
    });
    const axisY = 8 + rows * ROW_H;
    ctx.strokeStyle = '#9aa3ad';
    ctx.beginPath();
    ctx.moveTo(LEFT, axisY);
    ctx.lineTo(LEFT + w, axisY);
    ctx.stroke();
    ctx.fillStyle = '#3b4450';
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
    ctx.fillText('vector length ‖x‖ (log scale)', LEFT + w / 2, axisY + 22);
    const ref = this.data.reference;
    ctx.strokeStyle = '#000';
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(x(ref.value), 4);
    ctx.lineTo(x(ref.value), axisY);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.textAlign = 'left';
    ctx.fillStyle = '#000';
    ctx.fillText(`${ref.label} = ${formatNumber(ref.value)}`, x(ref.value) + 4, 0);
  }

  onHover(e) {
    if (!this.geom) return;
    const r = this.canvas.getBoundingClientRect();
    const mx = e.clientX - r.left;
    const row = Math.floor((e.clientY - r.top - 8) / ROW_H);
    if (mx < LEFT || row < 0 || row >= this.geom.rows) {
      this.tip.hidden = true;
      return;
    }
    const b = Math.min(BINS - 1, Math.floor(((mx - LEFT) / this.geom.w) * BINS));
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
