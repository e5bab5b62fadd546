// A horizontal colour-bar legend: the colour map across [lo, hi], nice tick values under it
// and a caption ("weight value", "cosine"). Canvas, redrawn at most once per frame.
// It does not choose the domain (scales.js colorDomain does).
//
//   const lg = new Legend(card, {caption: 'weight value'});
//   lg.set({domain: [-2, 2], lut: makeLut('puor'), note: 'symmetric about 0'});
import { onNextFrame } from './frame.js';
import { formatNumber, lutIndex, valueTicks } from './scales.js';

const FONT = '11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

export class Legend {
  constructor(parent, { caption = 'value', width = 260 } = {}) {
    this.caption = caption;
    this.width = width;
    this.root = document.createElement('div');
    this.root.className = 'legend';
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'legend-canvas';
    this.root.append(this.canvas);
    parent.append(this.root);
    this.schedule = onNextFrame(() => this.draw());
  }

  set({ domain, lut, note = '' }) {
    this.domain = domain;
    this.lut = lut;
    this.note = note;
    this.schedule();
  }

  size() {
    const ctx = this.canvas.getContext('2d');
    ctx.font = FONT;
    const title = this.note ? `${this.caption} (${this.note})` : this.caption;
    return { W: Math.max(this.width, Math.ceil(ctx.measureText(title).width) + 24), H: 44 };
  }

  draw() {
    const ctx = this.canvas.getContext('2d');
    const { W, H } = this.size();
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(W * dpr);
    this.canvas.height = Math.round(H * dpr);
    this.canvas.style.width = `${W}px`;
    this.canvas.style.height = `${H}px`;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, W, H);
    this.paint(ctx, W);
  }

  // For a plot's download (plot-export.js titled): {width, height, paint(ctx)}.
  part() {
    const { W, H } = this.size();
    return { width: W, height: H, paint: (ctx) => this.paint(ctx, W) };
  }

  // The colour bar, its ticks and caption, W wide, on any 2-D context.
  paint(ctx, W) {
    const title = this.note ? `${this.caption} (${this.note})` : this.caption;
    const pad = 10;
    const [lo, hi] = this.domain;
    const n = this.lut.length / 3;
    const barW = W - 2 * pad;
    for (let x = 0; x < barW; x++) {
      const v = lo + ((x + 0.5) / barW) * (hi - lo);
      const i = lutIndex(v, lo, hi, n);
      ctx.fillStyle = `rgb(${this.lut[i * 3]},${this.lut[i * 3 + 1]},${this.lut[i * 3 + 2]})`;
      ctx.fillRect(pad + x, 14, 1, 10);
    }
    ctx.strokeStyle = '#9aa3ad';
    ctx.strokeRect(pad - 0.5, 13.5, barW + 1, 11);
    ctx.font = FONT;
    ctx.fillStyle = '#3b4450';
    ctx.textBaseline = 'top';
    ctx.textAlign = 'left';
    ctx.fillText(title, pad, 0);
    ctx.textAlign = 'center';
    for (const t of valueTicks(lo, hi, 5)) {
      const x = pad + ((t - lo) / (hi - lo)) * barW;
      ctx.fillRect(x - 0.5, 24, 1, 3);
      ctx.fillText(formatNumber(t), x, 29);
    }
  }
}
