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
// name: the file-name part, or a function giving it at each export (a map named after the
// method it draws: 'pca2', '<method>2').
export function figureExport(figure, { name, element, table }) {
  return {
    get name() {
      return typeof name === 'function' ? name() : name;
    },
    element,
    toTable: table,
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

// container gets a "PNG / SVG" control (top right, over the plot) and, when source.toTable is
// given, a "Table" toggle. source: {name, toPng, toSvg, toTable?, element?}; its title
// (plotTitle) names the buttons for screen readers. -> the control element.
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
  if (source.toTable) attachTable(bar, source);
  container.append(bar);
  return bar;
}

export const TABLE_MAX_ROWS = 500; // rows shown in a plot's data table (the downloads have all)
let tableIds = 0;

// A "Table" toggle for screen readers and anyone who wants the numbers: the plot's data as an
// HTML table under the plot (source.toTable() -> {caption, columns: [names], rows: [[cells]],
// total?}), rebuilt from the current data each time it opens. Cells are set as text.
function attachTable(bar, source) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'plot-export-table';
  b.textContent = 'Table';
  b.setAttribute('aria-pressed', 'false');
  const box = document.createElement('div');
  box.className = 'plot-data-table table-scroll';
  box.id = `plot-data-table-${++tableIds}`;
  box.tabIndex = 0;
  box.hidden = true;
  const name = () => b.setAttribute('aria-label', `Show the data of ${plotTitle(source.element || bar.parentElement) || source.name} as a table`);
  name();
  b.addEventListener('focus', name);
  b.addEventListener('click', () => {
    const open = b.getAttribute('aria-pressed') !== 'true';
    b.setAttribute('aria-pressed', String(open));
    box.hidden = !open;
    if (!open) return;
    bar.after(box); // right under the control, wherever the plot has put it
    b.setAttribute('aria-controls', box.id); // (only once the box is in the document)
    try {
      box.replaceChildren(dataTable(source.toTable()));
    } catch (err) {
      box.textContent = err.message;
    }
  });
  bar.append(b);
}

// {points (n * 2), labels, explained, axes?} of a map -> its data table: row, label, PC1, PC2
// (or the map's own axes: a registry map's table says so, not PC1 and PC2)
export function pointTable(data) {
  if (!data || !data.points) throw new Error('nothing drawn yet');
  const n = data.points.length / 2;
  const rows = [];
  for (let i = 0; i < Math.min(n, TABLE_MAX_ROWS); i++) rows.push([i, data.labels?.[i] ?? '', data.points[2 * i], data.points[2 * i + 1]]);
  const axes = data.axes || null;
  const caption = axes ? `Every row on the map as drawn (${axes[0]}, ${axes[1]})` : 'Every row on the first two principal components';
  return { caption, columns: ['row', 'label', ...(axes || ['PC1', 'PC2'])], rows, total: n };
}

function dataTable({ caption, columns, rows, total = rows.length }) {
  const table = document.createElement('table');
  table.className = 'values';
  const cap = document.createElement('caption');
  cap.textContent = rows.length < total
    ? `${caption} — the first ${rows.length.toLocaleString('en')} of ${total.toLocaleString('en')} rows (the downloads hold all)`
    : caption;
  const head = document.createElement('thead');
  const hr = document.createElement('tr');
  for (const c of columns) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = c;
    hr.append(th);
  }
  head.append(hr);
  const body = document.createElement('tbody');
  for (const r of rows) {
    const tr = document.createElement('tr');
    for (const v of r) {
      const td = document.createElement('td');
      td.textContent = typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toPrecision(6)) : String(v ?? '');
      tr.append(td);
    }
    body.append(tr);
  }
  table.append(cap, head, body);
  return table;
}
