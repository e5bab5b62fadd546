// PNG and SVG downloads of the page's plots (issue 10). One helper for every plot: a plot is an
// export source {name, toPng(): Promise<Blob>, toSvg(): string} and attachExport() gives its
// container a small "PNG / SVG" control (buttons with aria-labels) that saves either file under
// the page's file name (file-names.js, through the namer main.js sets).
//
// Canvas plots split their drawing into a function of a 2-D context; figureExport() then paints
// the same figure twice: on a canvas at the device pixel ratio (PNG) and on an svgcanvas Context
// (SVG: vector paths and <text>, labels escaped by the DOM's serializer). A figure is stacked
// from parts with a title on top, so the exported image carries the card's title, the axes and
// their labels, and the colour legend or series legend.
// It does not draw any plot itself (each plot module does) and does not pick file names.
//
// Intended usage (a canvas plot):
//   attachExport(this.root, figureExport(() => titled(plotTitle(this.root), [{width, height, paint: (ctx) => this.paint(ctx, L)}]),
//                                        {name: 'similarity', element: this.root}));
// A plot that draws otherwise (WebGL, SVG) passes its own {name, toPng, toSvg, element}.
import { Context } from 'svgcanvas';
import { downloadBlob } from '../download.js';

export const EXPORT_FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const TITLE_FONT = '600 14px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const PAD = 12; // around the figure
const GAP = 8; // between parts

const ANCHOR = { left: 'start', right: 'end', center: 'middle', start: 'start', end: 'end' };
const BASELINE = { alphabetic: 'alphabetic', hanging: 'hanging', top: 'text-before-edge', bottom: 'text-after-edge', middle: 'central' };

// svgcanvas's Context with one change: svgcanvas 2.6 parses ctx.font by setting a style
// attribute on a <span>, which the page's CSP (style-src 'self', no 'unsafe-inline') blocks and
// reports on every fillText (also in a document from DOMImplementation, which inherits the
// policy); here the font goes through CSSOM (span.style.font), which the CSP allows. The <text>
// element gets the same attributes as svgcanvas gives it (its __applyText, minus underline and links).
class SvgContext extends Context {
  __applyText(text, x, y, action) {
    const span = document.createElement('span');
    span.style.font = this.font;
    const st = span.style;
    const parent = this.__closestGroupOrSvg();
    const el = this.__createElement('text', {
      'font-family': st.fontFamily, 'font-size': st.fontSize, 'font-style': st.fontStyle, 'font-weight': st.fontWeight,
      x, y, 'text-anchor': ANCHOR[this.textAlign] || 'start', 'dominant-baseline': BASELINE[this.textBaseline] || 'alphabetic',
    }, true);
    el.appendChild(this.__document.createTextNode(text));
    this.__currentElement = el;
    this.__applyTransformation(el);
    this.__applyStyleToCurrentElement(action);
    parent.appendChild(el);
  }
}

// (what, ext, element, extra {step}) -> file name; main.js sets the page's (file-names.js fileName).
let namer = (what, ext) => `embedlab-${what}.${ext}`;
export function setExportNamer(fn) {
  namer = fn;
}
export function exportFileName(source, ext, extra = {}) {
  return namer(source.name, ext, source.element, extra);
}

// The title a plot has on the page: its card's heading, then the subplot title above the plot
// ("cosine similarity: position m vs position n", "head 2: slope 0.25"), if any.
export function plotTitle(element) {
  const card = element.closest('article, .card');
  const head = card && card.querySelector('h3');
  const parts = head ? [head.textContent.trim().replace(/\s+/g, ' ')] : [];
  for (let el = element; el && el !== card; el = el.parentElement) {
    const prev = el.previousElementSibling;
    if (prev && prev.matches('.subplot-title, .bias-head-title') && prev.textContent.trim()) {
      parts.push(prev.textContent.trim());
      break;
    }
  }
  return parts.join(' — ');
}

// parts [{width, height, paint(ctx)}] -> one figure {width, height, paint(ctx)}: a title line,
// then the parts one under the other, left-aligned, on white.
export function titled(title, parts) {
  const measure = document.createElement('canvas').getContext('2d');
  measure.font = TITLE_FONT;
  const titleH = title ? 22 : 0;
  const width = Math.ceil(Math.max(title ? measure.measureText(title).width : 0, ...parts.map((p) => p.width)) + 2 * PAD);
  const height = Math.ceil(titleH + parts.reduce((s, p) => s + p.height, 0) + GAP * (parts.length - 1) + 2 * PAD);
  return {
    width,
    height,
    paint(ctx) {
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, width, height);
      if (title) {
        ctx.font = TITLE_FONT;
        ctx.fillStyle = '#1d2530';
        ctx.textAlign = 'left';
        ctx.textBaseline = 'top';
        ctx.fillText(title, PAD, PAD);
      }
      let y = PAD + titleH;
      for (const p of parts) {
        ctx.save();
        ctx.translate(PAD, y);
        p.paint(ctx);
        ctx.restore();
        y += p.height + GAP;
      }
    },
  };
}

// A figure (made fresh at each export: figure() -> {width, height, paint(ctx)}) -> an export source.
export function figureExport(figure, { name, element }) {
  return {
    name,
    element,
    toPng() {
      const f = figure();
      const dpr = window.devicePixelRatio || 1;
      const canvas = document.createElement('canvas');
      canvas.width = Math.round(f.width * dpr);
      canvas.height = Math.round(f.height * dpr);
      const ctx = canvas.getContext('2d');
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      f.paint(ctx);
      return canvasPng(canvas);
    },
    toSvg() {
      const f = figure();
      const ctx = new SvgContext({ width: f.width, height: f.height });
      f.paint(ctx);
      return ctx.getSerializedSvg();
    },
  };
}

export function canvasPng(canvas) {
  return new Promise((resolve, reject) => {
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('export: the browser could not encode the PNG'))), 'image/png');
  });
}

// An SVG string -> PNG Blob at the device pixel ratio, through an <img> of a data: URL (the
// page's CSP allows data: images, not blob: ones).
export async function svgToPng(svg, width, height) {
  const img = new Image();
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await img.decode();
  const dpr = window.devicePixelRatio || 1;
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * dpr);
  canvas.height = Math.round(height * dpr);
  canvas.getContext('2d').drawImage(img, 0, 0, canvas.width, canvas.height);
  return canvasPng(canvas);
}

// Saves source as PNG or SVG under the page's name for it.
export async function saveExport(source, ext) {
  const name = exportFileName(source, ext);
  if (ext === 'png') downloadBlob(await source.toPng(), name);
  else downloadBlob(new Blob([source.toSvg()], { type: 'image/svg+xml' }), name);
  return name;
}

// container gets a "PNG / SVG" control (top right, over the plot). source: {name, toPng, toSvg,
// element?}; its title (plotTitle) names the buttons for screen readers. -> the control element.
export function attachExport(container, source) {
  const bar = document.createElement('div');
  bar.className = 'plot-export';
  for (const ext of ['png', 'svg']) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = `plot-export-${ext}`;
    b.textContent = ext.toUpperCase();
    b.addEventListener('click', async () => {
      b.disabled = true;
      try {
        bar.dataset.saved = await saveExport(source, ext);
        delete bar.dataset.error;
      } catch (err) {
        bar.dataset.error = err.message;
        b.title = err.message;
      } finally {
        b.disabled = false;
      }
    });
    // named when focused or hovered: the title is only known once the card has its heading
    const name = () => b.setAttribute('aria-label', `Download ${plotTitle(source.element || container) || source.name} as ${ext.toUpperCase()}`);
    name();
    b.addEventListener('focus', name);
    b.addEventListener('pointerenter', name);
    bar.append(b);
  }
  container.append(bar);
  return bar;
}
