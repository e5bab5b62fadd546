// Loss curves with uPlot (bundled from npm): step on x, loss on y, linear or log y, one or
// more series in colour-blind-safe Okabe-Ito colours, with a legend showing values under the
// cursor. Updates are coalesced to one redraw per animation frame, so a training loop can
// push points as fast as replies arrive.
//
//   const chart = new LossChart(el, {series: ['loss'], logY: false});
//   chart.setData([steps, losses]);      // arrays of equal length (null = gap)
//   chart.setLog(true);
// A series may also be an object: {label, color (index into OKABE_ITO or a CSS colour), dash
// ([5, 4]), width, points (true: draw the points), value: (v, i) => legend text}; options
// xLabel ('training step') and xLog2 (a base-2 log x axis, for window lengths).
// PNG / SVG downloads: plot-export.js, the figure painted again by line-figure.js (title,
// axes, series and their legend), under the chart's exportName (default 'loss').
import { onNextFrame } from './frame.js';
import { lineFigure } from './line-figure.js';
import { TABLE_MAX_ROWS, attachExport, figureExport, plotTitle, titled } from './plot-export.js';
import uPlot from 'uplot';

// Okabe & Ito (2008), distinguishable with all common colour-vision deficiencies.
export const OKABE_ITO = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#000000'];

export class LossChart {
  // empty: a sentence shown over the chart while it has no point (what will be drawn, and how to start)
  constructor(parent, { series = ['loss'], logY = false, height = 260, yLabel = 'loss (cross-entropy, nats)', xLabel = 'training step', xLog2 = false, exportName = 'loss', empty = '' } = {}) {
    this.parent = parent;
    if (empty) {
      parent.classList.add('has-empty-note');
      this.emptyNote = document.createElement('p');
      this.emptyNote.className = 'plot-empty';
      this.emptyNote.textContent = empty;
      parent.append(this.emptyNote);
    }
    this.names = series.map((s) => (typeof s === 'string' ? { label: s } : s));
    this.xLabel = xLabel;
    this.xLog2 = xLog2;
    this.logY = logY;
    this.height = height;
    this.yLabel = yLabel;
    this.data = [[], ...series.map(() => [])];
    this.schedule = onNextFrame(() => this.plot.setData(this.data));
    this.plot = null;
    this.exportBar = attachExport(parent, figureExport(() => this.figure(), { name: exportName, element: parent, table: () => this.table() }));
    this.build();
    new ResizeObserver(() => {
      if (this.plot) this.plot.setSize({ width: this.width(), height: this.height });
    }).observe(parent);
  }

  width() {
    return Math.max(240, this.parent.clientWidth);
  }

  // series i's line colour: an index into OKABE_ITO (default i) or a CSS colour
  stroke(i) {
    const s = this.names[i];
    return typeof s.color === 'string' ? s.color : OKABE_ITO[(s.color ?? i) % OKABE_ITO.length];
  }

  // The downloaded figure (line-figure.js): the data and scales as shown.
  figure() {
    const sc = this.plot.scales;
    const f = lineFigure({
      width: this.width(), height: this.height, xLabel: this.xLabel, yLabel: this.yLabel, logY: this.logY, xLog2: this.xLog2,
      series: this.names.map((s, i) => ({ label: s.label, stroke: this.stroke(i), width: s.width ?? 1.6, dash: s.dash, points: !!s.points, spanGaps: !!s.points })),
      data: this.data, x: [sc.x.min, sc.x.max], y: [sc.y.min, sc.y.max],
    });
    return titled(plotTitle(this.parent), [f]);
  }

  build() {
    if (this.plot) this.plot.destroy();
    const opts = {
      width: this.width(),
      height: this.height,
      scales: { x: this.xLog2 ? { time: false, distr: 3, log: 2 } : { time: false }, y: this.logY ? { distr: 3, log: 10 } : { auto: true } },
      series: [
        { label: this.xLabel },
        ...this.names.map((s, i) => ({
          label: s.label,
          stroke: this.stroke(i),
          width: s.width ?? 1.6,
          dash: s.dash,
          spanGaps: !!s.points,
          points: { show: !!s.points, size: 6 },
          value: (u, v, si, idx) => (v === null || v === undefined ? '–' : s.value ? s.value(v, idx) : v.toFixed(4)),
        })),
      ],
      axes: [
        { label: this.xLabel, stroke: '#3b4450', grid: { stroke: '#eef0f3' } },
        { label: this.logY ? `${this.yLabel}, log scale` : this.yLabel, stroke: '#3b4450', grid: { stroke: '#eef0f3' }, size: 60 },
      ],
      legend: { live: true },
      cursor: { drag: { x: true, y: false } },
    };
    this.plot = new uPlot(opts, this.data, this.parent);
    this.plot.root.classList.add('loss-chart');
    this.parent.append(this.exportBar); // under the chart, also after a rebuild
  }

  setData(data) {
    this.data = data;
    if (this.emptyNote) this.emptyNote.hidden = data[0].length > 0;
    this.schedule();
  }

  // x and one column per series (empty where a series has no point)
  table() {
    const [xs, ...ys] = this.data;
    if (!xs.length) throw new Error('nothing drawn yet');
    const rows = [];
    for (let i = 0; i < Math.min(xs.length, TABLE_MAX_ROWS); i++) rows.push([xs[i], ...ys.map((y) => y[i] ?? '')]);
    return { caption: `${this.yLabel} against ${this.xLabel}`, columns: [this.xLabel, ...this.names.map((n) => n.label)], rows, total: xs.length };
  }

  setLog(on) {
    if (on === this.logY) return;
    this.logY = on;
    this.build();
  }

  // Pixel statistics are taken from this canvas by the browser tests.
  get canvas() {
    return this.plot.root.querySelector('canvas');
  }
}
