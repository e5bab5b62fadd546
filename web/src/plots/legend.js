// A horizontal colour-bar legend: the colour map across [lo, hi], nice tick values under it
// and a caption ("weight value", "cosine"). Canvas, redrawn at most once per frame.
// It does not choose the domain (scales.js colorDomain does). Text colour and size follow the
// theme and label size (theme.js); the bar grows taller with the text.
//
//   const lg = new Legend(card, {caption: 'weight value'});
//   lg.set({domain: [-2, 2], lut: makeLut('puor'), note: 'symmetric about 0'});
import { onNextFrame } from './frame.js';
import { formatNumber, lutIndex, valueTicks } from './scales.js';
import { plotTheme, watchTheme } from './theme.js';

const FONT_PX = 11;

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
    watchTheme(this);
  }

  themeChanged() {
    if (this.domain) this.schedule();
  }

  set({ domain, lut, note = '' }) {
    this.domain = domain;
    this.lut = lut;
    this.note = note;
    this.schedule();
  }

  // th (theme.js) -> {W, H}: wide enough for the caption, tall enough for caption, bar and ticks
  size(th) {
    const ctx = this.canvas.getContext('2d');
    ctx.font = th.font(FONT_PX);
    const title = this.note ? `${this.caption} (${this.note})` : this.caption;
    // no wider than the card it is in (a narrow card at large labels): the caption is then cut
    const W = Math.max(this.width, Math.ceil(ctx.measureText(title).width) + 24);
    return { W: this.room > 120 ? Math.min(W, this.room) : W, H: 20 + th.px(24) };
  }

  // The width of the legend's card, kept by a ResizeObserver (reading it while drawing would force
  // a layout on every frame of a training run); set up at the first draw, when the card exists.
  watchRoom() {
    const box = this.root.closest('.card') || this.root.parentElement;
    if (!box || this.roomObserver) return;
    this.roomObserver = new ResizeObserver(([e]) => {
      const room = Math.floor(e.contentRect.width);
      if (room === this.room) return;
      this.room = room;
      this.schedule();
    });
    this.roomObserver.observe(box);
  }

  draw() {
    this.watchRoom();
    const ctx = this.canvas.getContext('2d');
    const th = plotTheme(this.root);
    const { W, H } = this.size(th);
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(W * dpr);
    this.canvas.height = Math.round(H * dpr);
    this.canvas.style.width = `${W}px`;
    this.canvas.style.height = `${H}px`;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, W, H);
    this.paint(ctx, W, th);
  }

  // For a plot's download (plot-export.js titled): {width, height, paint(ctx)}.
  part() {
    const th = plotTheme(this.root, { light: true });
    const { W, H } = this.size(th);
    return { width: W, height: H, paint: (ctx) => this.paint(ctx, W, th) };
  }

  // The colour bar, its ticks and caption, W wide, on any 2-D context, in theme th.
  paint(ctx, W, th) {
    const title = this.note ? `${this.caption} (${this.note})` : this.caption;
    const pad = 10;
    const [lo, hi] = this.domain;
    const n = this.lut.length / 3;
    const barW = W - 2 * pad;
    const top = 2 + th.px(12); // the bar, under the caption
    for (let x = 0; x < barW; x++) {
      const v = lo + ((x + 0.5) / barW) * (hi - lo);
      const i = lutIndex(v, lo, hi, n);
      ctx.fillStyle = `rgb(${this.lut[i * 3]},${this.lut[i * 3 + 1]},${this.lut[i * 3 + 2]})`;
      ctx.fillRect(pad + x, top, 1, 10);
    }
    ctx.strokeStyle = th.frame;
    ctx.strokeRect(pad - 0.5, top - 0.5, barW + 1, 11);
    ctx.font = th.font(FONT_PX);
    ctx.fillStyle = th.text;
    ctx.textBaseline = 'top';
    ctx.textAlign = 'left';
    ctx.fillText(fitText(ctx, title, W - pad), pad, 0);
    ctx.textAlign = 'center';
    for (const t of valueTicks(lo, hi, 5)) {
      const x = pad + ((t - lo) / (hi - lo)) * barW;
      ctx.fillRect(x - 0.5, top + 10, 1, 3);
      ctx.fillText(formatNumber(t), x, top + 15);
    }
  }
}

// text cut to fit `width` px in ctx's font, ending in '…' when cut
function fitText(ctx, text, width) {
  if (ctx.measureText(text).width <= width) return text;
  let n = text.length;
  while (n > 1 && ctx.measureText(`${text.slice(0, n)}…`).width > width) n--;
  return `${text.slice(0, n).trimEnd()}…`;
}
