// Loss curves with uPlot (bundled from npm): step on x, loss on y, linear or log y, one or
// more series in colour-blind-safe Okabe-Ito colours, with a legend showing values under the
// cursor. Updates are coalesced to one redraw per animation frame, so a training loop can
// push points as fast as replies arrive.
//
//   const chart = new LossChart(el, {series: ['loss'], logY: false});
//   chart.setData([steps, losses]);      // arrays of equal length (null = gap)
//   chart.setLog(true);
//   chart.setSeries(['loss', {label: 'held out', dash: [5, 4], points: true}]);  // other lines: rebuilt
// A series may also be an object: {label, color (index into OKABE_ITO or a CSS colour), dash
// ([5, 4]), width, points (true: draw the points), value: (v, i) => legend text}; options
// xLabel ('training step') and xLog2 (a base-2 log x axis, for window lengths), and xMarks
// ([{x, label}]: dashed vertical lines at those x with their labels, also in the downloads).
// PNG / SVG downloads: plot-export.js, the figure painted again by line-figure.js (title,
// axes, series and their legend), under the chart's exportName (default 'loss').
// Theme and label size (theme.js): axis text, grid and tick colours and the axes' fonts and
// sizes are uPlot options, so a change rebuilds the chart; the legend is HTML (style.css).
import { onNextFrame } from './frame.js';
import { lineFigure } from './line-figure.js';
import { TABLE_MAX_ROWS, attachExport, figureExport, plotTitle, titled } from './plot-export.js';
import { plotTheme, watchTheme } from './theme.js';
import uPlot from 'uplot';

// Okabe & Ito (2008), distinguishable with all common colour-vision deficiencies.
export const OKABE_ITO = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#000000'];

export class LossChart {
  // empty: a sentence shown over the chart while it has no point (what will be drawn, and how to start)
  constructor(parent, { series = ['loss'], logY = false, height = 260, yLabel = 'loss (cross-entropy, nats)', xLabel = 'training step', xLog2 = false, exportName = 'loss', empty = '', xMarks = [] } = {}) {
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
    this.xMarks = xMarks;
    this.logY = logY;
    this.height = height;
    this.yLabel = yLabel;
    this.data = [[], ...series.map(() => [])];
    this.schedule = onNextFrame(() => this.plot.setData(this.data));
    this.plot = null;
    this.exportBar = attachExport(parent, figureExport(() => this.figure(), { name: exportName, element: parent, table: () => this.table() }));
    this.build();
    new ResizeObserver(() => {
      if (this.plot) this.plot.setSize({ width: this.width(), height: this.chartHeight(this.builtFor) });
    }).observe(parent);
    watchTheme(this);
  }

  themeChanged() {
    const th = plotTheme(this.parent);
    if (this.plot && (th.name !== this.builtFor.name || th.scale !== this.builtFor.scale)) this.build();
  }

  width() {
    return Math.max(240, this.parent.clientWidth);
  }

  // taller with bigger labels: the axes take more room and the y axis title must fit the plot's side
  chartHeight(th) {
    return Math.round(this.height * Math.max(1, th.scale));
  }

  // series i's line colour: an index into OKABE_ITO (default i) or a CSS colour; th (theme.js):
  // as drawn in that theme (black and the page's grey become the theme's text colours)
  stroke(i, th) {
    const s = this.names[i];
    const c = typeof s.color === 'string' ? s.color : OKABE_ITO[(s.color ?? i) % OKABE_ITO.length];
    return th ? th.colour(c) : c;
  }

  // The downloaded figure (line-figure.js): the data and scales as shown.
  figure() {
    const sc = this.plot.scales;
    const f = lineFigure({
      width: this.width(), height: this.height, xLabel: this.xLabel, yLabel: this.yLabel, logY: this.logY, xLog2: this.xLog2,
      series: this.names.map((s, i) => ({ label: s.label, stroke: this.stroke(i), width: s.width ?? 1.6, dash: s.dash, points: !!s.points, spanGaps: !!s.points })),
      data: this.data, x: [sc.x.min, sc.x.max], y: [sc.y.min, sc.y.max], th: plotTheme(this.parent, { light: true }), xMarks: this.xMarks,
    });
    return titled(plotTitle(this.parent), [f]);
  }

  build() {
    if (this.plot) this.plot.destroy();
    const th = (this.builtFor = plotTheme(this.parent));
    // uPlot's sizes at 12 px text (x axis 50, label 30, y axis at least 60) grow with the text
    const grow = th.px(12) - 12;
    const axis = (label, size) => ({
      label, stroke: th.text, font: th.font(12), labelFont: th.font(12, '600'), labelSize: 30 + grow,
      grid: { stroke: th.grid }, ticks: { stroke: th.grid }, size: (u, values, axisIdx, cycleNum) => axisSize(u, values, axisIdx, cycleNum, size + grow),
    });
    const opts = {
      width: this.width(),
      height: this.chartHeight(th),
      scales: { x: this.xLog2 ? { time: false, distr: 3, log: 2 } : { time: false }, y: this.logY ? { distr: 3, log: 10 } : { auto: true } },
      series: [
        { label: this.xLabel },
        ...this.names.map((s, i) => ({
          label: s.label,
          stroke: this.stroke(i, th),
          width: s.width ?? 1.6,
          dash: s.dash,
          spanGaps: !!s.points,
          points: { show: !!s.points, size: 6, fill: th.surface }, // hollow, on the card's colour
          value: (u, v, si, idx) => (v === null || v === undefined ? '–' : s.value ? s.value(v, idx) : v.toFixed(4)),
        })),
      ],
      axes: [axis(this.xLabel, 50), axis(this.logY ? `${this.yLabel}, log scale` : this.yLabel, 60)],
      legend: { live: true },
      cursor: { drag: { x: true, y: false } },
      hooks: { setSeries: [(u, i) => this.legendPressed(i)], draw: [(u) => this.drawMarks(u, th)] },
    };
    this.plot = new uPlot(opts, this.data, this.parent);
    this.plot.root.classList.add('loss-chart');
    this.legendButtons();
    this.parent.append(this.exportBar); // under the chart, also after a rebuild
  }

  // The xMarks on uPlot's canvas (after the series): a dashed line across the plot at each x
  // inside the x range, its label at the top right of the line.
  drawMarks(u, th) {
    if (!this.xMarks.length) return;
    const { ctx } = u;
    const { left, top, width, height } = u.bbox;
    const px = window.devicePixelRatio || 1;
    ctx.save();
    ctx.strokeStyle = th.text;
    ctx.fillStyle = th.text;
    ctx.lineWidth = px;
    ctx.setLineDash([5 * px, 4 * px]);
    ctx.font = th.font(11 * px);
    ctx.textBaseline = 'top';
    for (const m of this.xMarks) {
      if (!(m.x >= u.scales.x.min && m.x <= u.scales.x.max)) continue;
      const x = Math.round(u.valToPos(m.x, 'x', true));
      ctx.beginPath();
      ctx.moveTo(x, top);
      ctx.lineTo(x, top + height);
      ctx.stroke();
      if (m.label) ctx.fillText(m.label, Math.min(x + 4 * px, left + width - ctx.measureText(m.label).width), top + 2 * px);
    }
    ctx.restore();
  }

  // New x marks ([{x, label}]): drawn with the next frame's redraw, the data and series kept.
  // subtle: not plot.redraw(false): before the first data uPlot has no paths to reuse and throws.
  setMarks(marks) {
    this.xMarks = marks || [];
    this.schedule();
  }

  // uPlot shows or hides a series when its name in the legend is clicked; the names become
  // buttons (Tab, then Enter or Space) whose aria-pressed says whether the line is shown.
  legendButtons() {
    const rows = this.plot.root.querySelectorAll('.u-legend tr.u-series');
    this.plot.series.forEach((s, i) => {
      const th = i > 0 && rows[i] && rows[i].querySelector('th');
      if (!th) return;
      th.tabIndex = 0;
      th.setAttribute('role', 'button');
      th.addEventListener('keydown', (e) => {
        if (e.key !== 'Enter' && e.key !== ' ') return;
        e.preventDefault();
        th.click();
      });
      this.legendPressed(i);
    });
  }

  legendPressed(i) {
    const rows = this.plot ? this.plot.root.querySelectorAll('.u-legend tr.u-series') : [];
    const th = i > 0 && rows[i] && rows[i].querySelector('th[role=button]');
    if (th) th.setAttribute('aria-pressed', String(this.plot.series[i].show));
  }

  // New series (same forms as the constructor's): the chart is rebuilt when they differ from
  // the ones drawn (labels, colours, dashes), with empty data until the next setData. The
  // series' labels are on the parent as data-series ("training loss|held-out loss|…") for tests.
  setSeries(series) {
    const names = series.map((s) => (typeof s === 'string' ? { label: s } : s));
    const key = (ns) => JSON.stringify(ns.map(({ value, ...rest }) => rest));
    this.parent.dataset.series = names.map((n) => n.label).join('|');
    if (key(names) === key(this.names)) return;
    this.names = names;
    this.data = [[], ...names.map(() => [])];
    this.build();
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

// uPlot axis size (px across the axis): at least min, and enough for the longest tick label
// (y axes) or the labels' height (x axes) in the axis font (uPlot's docs, "axis size" example).
function axisSize(u, values, axisIdx, cycleNum, min) {
  const axis = u.axes[axisIdx];
  if (cycleNum > 1) return axis._size;
  if (axis.side % 2 === 0) return min; // top or bottom: the font's height is in min
  let size = axis.ticks.size + axis.gap;
  const longest = (values || []).reduce((a, v) => (String(v).length > a.length ? String(v) : a), '');
  if (longest) {
    u.ctx.font = axis.font[0];
    size += u.ctx.measureText(longest).width / (window.devicePixelRatio || 1);
  }
  return Math.max(min, Math.ceil(size));
}
