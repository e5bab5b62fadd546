// A small horizontal bar chart in SVG: one bar per item with its value written at the end, an
// optional reference line (e.g. chance = ln V) and items without a value shown as a text
// (e.g. "no position rows beyond T") instead of a bar. Labels are set with textContent, never
// as HTML. Redraws on resize; scales from d3-scale.
//
//   const bars = new BarChart(el, {xLabel: 'held-out loss (nats)'});
//   bars.setData([{label: 'rope', value: 2.31, color: '#0072B2', suffix: ' (+0.02)'}, {label: 'learned', value: null, note: '...'}],
//                {reference: {value: 4.17, label: 'chance ln V'}});
// PNG / SVG downloads (plot-export.js): the chart's own SVG, with the card's title on top and
// the page's CSS for it written into the elements (a standalone file has no stylesheet); the
// PNG is that SVG drawn on a canvas. Text and lines are coloured by style.css (theme) and the
// text is sized by the label size (theme.js), which also widens the rows and margins; the
// download is always in the light palette, at the label size shown.
import { scaleLinear } from 'd3-scale';
import { EXPORT_FONT, attachExport, plotTitle, svgToPng } from './plot-export.js';
import { LIGHT, plotTheme, watchTheme } from './theme.js';

const NS = 'http://www.w3.org/2000/svg';
const ROW = 26;
const MARGIN = { left: 120, right: 64, top: 8, bottom: 36 }; // at medium labels
const FONT_PX = 12;
const TITLE_H = 26;
// style.css's rules for .bar-chart in the light theme, as attributes of a standalone SVG
const CLASS_STYLE = {
  'bar-label': { fill: LIGHT.ink },
  'bar-value': { fill: LIGHT.text },
  'bar-value best': { fill: LIGHT.ink, 'font-weight': '700' },
  'bar-note': { fill: LIGHT.muted },
  'bar-tick': { fill: LIGHT.muted },
  'bar-axis': { fill: LIGHT.muted },
  'bar-grid': { stroke: LIGHT.grid },
  'bar-ref': { stroke: LIGHT.text },
};

function el(name, attrs = {}, text = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== null) e.textContent = text;
  return e;
}

export class BarChart {
  constructor(parent, { xLabel = 'value', format = (v) => v.toFixed(3), exportName = 'bars' } = {}) {
    this.parent = parent;
    this.opts = { xLabel, format };
    this.svg = el('svg', { class: 'bar-chart', role: 'img' });
    parent.append(this.svg);
    this.items = [];
    this.reference = null;
    new ResizeObserver(() => this.draw()).observe(parent);
    watchTheme(this);
    attachExport(parent, {
      name: exportName,
      element: parent,
      toSvg: () => this.standalone().svg,
      toPng: () => {
        const { svg, width, height } = this.standalone();
        return svgToPng(svg, width, height);
      },
      toTable: () => {
        if (!this.items.length) throw new Error('nothing drawn yet');
        return {
          caption: this.opts.xLabel + (this.reference ? ` (${this.reference.label} = ${this.reference.value})` : ''),
          columns: ['', this.opts.xLabel],
          rows: this.items.map((it) => [it.label, it.value ?? it.note ?? '']),
        };
      },
    });
  }

  themeChanged() {
    this.draw();
  }

  // -> {svg: text, width, height}: a copy of the chart under the card's title, styled without
  // the page's CSS. Labels are text nodes, escaped by the serializer.
  standalone() {
    if (!this.items.length) throw new Error('export: nothing drawn yet');
    const width = Number(this.svg.getAttribute('width'));
    const height = Number(this.svg.getAttribute('height')) + TITLE_H;
    const out = el('svg', { width, height, viewBox: `0 0 ${width} ${height}`, 'font-family': EXPORT_FONT.replace(/^\S+ /, ''), 'font-size': this.fontPx || FONT_PX });
    out.append(el('rect', { x: 0, y: 0, width, height, fill: '#ffffff' }));
    out.append(el('text', { x: 8, y: 18, 'font-size': 14, 'font-weight': 600, fill: '#1d2530' }, plotTitle(this.parent)));
    const body = el('g', { transform: `translate(0, ${TITLE_H})` });
    for (const child of this.svg.childNodes) body.append(child.cloneNode(true));
    for (const t of body.querySelectorAll('[class]')) {
      for (const [k, v] of Object.entries(CLASS_STYLE[t.getAttribute('class')] || {})) t.setAttribute(k, v);
      t.removeAttribute('class');
    }
    out.append(body);
    return { svg: new XMLSerializer().serializeToString(out), width, height };
  }

  setData(items, { reference = null, title = '' } = {}) {
    this.items = items;
    this.reference = reference;
    this.svg.setAttribute('aria-label', title || this.opts.xLabel);
    this.draw();
  }

  draw() {
    const width = Math.max(260, this.parent.clientWidth);
    const th = plotTheme(this.parent);
    this.fontPx = Math.round(FONT_PX * th.scale); // style.css sizes the text the same way
    const measure = document.createElement('canvas').getContext('2d');
    measure.font = th.font(FONT_PX);
    const widest = Math.max(0, ...this.items.map((d) => measure.measureText(d.label).width));
    // a reference line's label goes above the bars, clear of their values
    const top = MARGIN.top + (this.reference ? th.px(16) : 0);
    const M = { left: Math.max(th.px(MARGIN.left), Math.ceil(widest) + 16), right: th.px(MARGIN.right), top, bottom: th.px(MARGIN.bottom) };
    const row = th.px(ROW);
    const height = M.top + M.bottom + row * Math.max(1, this.items.length);
    this.svg.setAttribute('width', width);
    this.svg.setAttribute('height', height);
    this.svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    this.svg.replaceChildren();
    const values = this.items.map((d) => d.value).filter((v) => v !== null && Number.isFinite(v));
    if (this.reference) values.push(this.reference.value);
    if (!values.length) return;
    const x = scaleLinear().domain([0, Math.max(...values) * 1.05]).nice().range([M.left, width - M.right]);
    const base = 4 * th.scale; // text baseline below a row's middle
    const g = el('g');
    for (const t of x.ticks(5)) {
      g.append(el('line', { x1: x(t), x2: x(t), y1: M.top, y2: height - M.bottom, class: 'bar-grid' }));
      g.append(el('text', { x: x(t), y: height - M.bottom + th.px(14), 'text-anchor': 'middle', class: 'bar-tick' }, String(t)));
    }
    g.append(el('text', { x: (M.left + width - M.right) / 2, y: height - 4, 'text-anchor': 'middle', class: 'bar-axis' }, this.opts.xLabel));
    this.items.forEach((d, i) => {
      const y = M.top + i * row;
      g.append(el('text', { x: M.left - 8, y: y + row / 2 + base, 'text-anchor': 'end', class: 'bar-label' }, d.label));
      if (d.value === null || !Number.isFinite(d.value)) {
        g.append(el('text', { x: M.left + 4, y: y + row / 2 + base, class: 'bar-note' }, d.note || 'no value'));
        return;
      }
      const bar = el('rect', { x: M.left, y: y + 4, width: Math.max(1, x(d.value) - M.left), height: row - 8, fill: th.colour(d.color || '#0072B2') });
      bar.append(el('title', {}, `${d.label}: ${this.opts.format(d.value)}`));
      g.append(bar);
      g.append(el('text', { x: x(d.value) + 4, y: y + row / 2 + base, class: d.best ? 'bar-value best' : 'bar-value' }, this.opts.format(d.value) + (d.suffix || '')));
    });
    if (this.reference) {
      const rx = x(this.reference.value);
      g.append(el('line', { x1: rx, x2: rx, y1: M.top - 4, y2: height - M.bottom, class: 'bar-ref', 'stroke-dasharray': '5 4' }));
      g.append(el('text', { x: rx - 4, y: M.top - 6, 'text-anchor': 'end', class: 'bar-note' }, this.reference.label));
    }
    this.svg.append(g);
  }
}
