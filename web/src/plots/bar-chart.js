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
// PNG is that SVG drawn on a canvas.
import { scaleLinear } from 'd3-scale';
import { EXPORT_FONT, attachExport, plotTitle, svgToPng } from './plot-export.js';

const NS = 'http://www.w3.org/2000/svg';
const ROW = 26;
const MARGIN = { left: 120, right: 64, top: 8, bottom: 36 };
const TITLE_H = 26;
// style.css's rules for .bar-chart, as attributes of a standalone SVG
const CLASS_STYLE = {
  'bar-label': { fill: '#1f2630' },
  'bar-value': { fill: '#3b4450' },
  'bar-value best': { fill: '#1f2630', 'font-weight': '700' },
  'bar-note': { fill: '#5a6472' },
  'bar-tick': { fill: '#5a6472' },
  'bar-axis': { fill: '#5a6472' },
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

  // -> {svg: text, width, height}: a copy of the chart under the card's title, styled without
  // the page's CSS. Labels are text nodes, escaped by the serializer.
  standalone() {
    if (!this.items.length) throw new Error('export: nothing drawn yet');
    const width = Number(this.svg.getAttribute('width'));
    const height = Number(this.svg.getAttribute('height')) + TITLE_H;
    const out = el('svg', { width, height, viewBox: `0 0 ${width} ${height}`, 'font-family': EXPORT_FONT.replace(/^\S+ /, ''), 'font-size': 12 });
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
    const height = MARGIN.top + MARGIN.bottom + ROW * Math.max(1, this.items.length);
    this.svg.setAttribute('width', width);
    this.svg.setAttribute('height', height);
    this.svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    this.svg.replaceChildren();
    const values = this.items.map((d) => d.value).filter((v) => v !== null && Number.isFinite(v));
    if (this.reference) values.push(this.reference.value);
    if (!values.length) return;
    const x = scaleLinear().domain([0, Math.max(...values) * 1.05]).nice().range([MARGIN.left, width - MARGIN.right]);
    const g = el('g');
    for (const t of x.ticks(5)) {
      g.append(el('line', { x1: x(t), x2: x(t), y1: MARGIN.top, y2: height - MARGIN.bottom, stroke: '#eef0f3' }));
      g.append(el('text', { x: x(t), y: height - MARGIN.bottom + 14, 'text-anchor': 'middle', class: 'bar-tick' }, String(t)));
    }
    g.append(el('text', { x: (MARGIN.left + width - MARGIN.right) / 2, y: height - 4, 'text-anchor': 'middle', class: 'bar-axis' }, this.opts.xLabel));
    this.items.forEach((d, i) => {
      const y = MARGIN.top + i * ROW;
      g.append(el('text', { x: MARGIN.left - 8, y: y + ROW / 2 + 4, 'text-anchor': 'end', class: 'bar-label' }, d.label));
      if (d.value === null || !Number.isFinite(d.value)) {
        g.append(el('text', { x: MARGIN.left + 4, y: y + ROW / 2 + 4, class: 'bar-note' }, d.note || 'no value'));
        return;
      }
      const bar = el('rect', { x: MARGIN.left, y: y + 4, width: Math.max(1, x(d.value) - MARGIN.left), height: ROW - 8, fill: d.color || '#0072B2' });
      bar.append(el('title', {}, `${d.label}: ${this.opts.format(d.value)}`));
      g.append(bar);
      g.append(el('text', { x: x(d.value) + 4, y: y + ROW / 2 + 4, class: d.best ? 'bar-value best' : 'bar-value' }, this.opts.format(d.value) + (d.suffix || '')));
    });
    if (this.reference) {
      const rx = x(this.reference.value);
      g.append(el('line', { x1: rx, x2: rx, y1: MARGIN.top - 4, y2: height - MARGIN.bottom, stroke: '#3b4450', 'stroke-dasharray': '5 4' }));
      g.append(el('text', { x: rx - 4, y: height - MARGIN.bottom - 4, 'text-anchor': 'end', class: 'bar-note' }, this.reference.label));
    }
    this.svg.append(g);
  }
}
