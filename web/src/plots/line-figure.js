// The downloadable picture of a uPlot chart (loss-chart.js, line-chart.js): uPlot draws on its
// own canvas and keeps its legend in HTML, so neither svgcanvas nor the canvas alone gives a
// complete figure. This paints the chart again from its data and series on any 2-D context
// (a canvas for PNG, an svgcanvas Context for SVG): plot frame and grid, ticks with their
// values, both axis labels, one path per series (dashes and points as on the page, gaps at
// null unless the series spans them), the x marks (spec.xMarks [{x, label}]: dashed vertical
// lines with their labels, as LossChart draws them) and the series legend under the plot.
// It does not read uPlot internals beyond the scales' current min and max (so a zoomed chart
// exports as zoomed). Colours and text size come from th (theme.js; downloads pass the light
// palette at the label size shown; margins and legend rows grow with the labels).
//
//   const f = lineFigure({width: 600, height: 260, xLabel: 'training step', yLabel: 'loss', logY: false, xLog2: false,
//                         series: [{label: 'loss', stroke: '#0072B2', width: 1.6, dash: undefined, points: false, spanGaps: false}],
//                         data: [xs, ys], x: [0, 100], y: [2.1, 4.2], th: plotTheme(el, {light: true})});
//   f.paint(ctx);   // f.width x f.height
import { formatNumber, valueTicks } from './scales.js';
import { themeOf } from './theme.js';

const M0 = { left: 66, right: 16, top: 8, bottom: 46 }; // at medium labels
const FONT_PX = 12;
const LEGEND_ROW = 18;

// th -> the margins and legend row height for its label size
function metrics(th) {
  return { M: { left: th.px(M0.left), right: M0.right, top: M0.top, bottom: th.px(M0.bottom) }, row: th.px(LEGEND_ROW) };
}

// Ticks of a log axis of base b in [lo, hi] (both > 0): the powers of b, with 2x and 5x between
// decades when a base-10 axis spans less than two decades.
function logTicks(lo, hi, b) {
  const out = [];
  const from = Math.floor(Math.log(lo) / Math.log(b));
  const to = Math.ceil(Math.log(hi) / Math.log(b));
  const mults = b === 10 && to - from <= 2 ? [1, 2, 5] : [1];
  for (let e = from; e <= to; e++) for (const m of mults) {
    const v = m * b ** e;
    if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) out.push(v);
  }
  return out;
}

function range(values, log) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v === null || v === undefined || !Number.isFinite(v) || (log && v <= 0)) continue;
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  if (lo === Infinity) return [log ? 1 : 0, log ? 10 : 1];
  if (lo === hi) return log ? [lo / 2, hi * 2] : [lo - 1, hi + 1];
  return [lo, hi];
}

// legend items [{label}] laid out in rows of width w -> [{item, x, row}] and the row count
function legendLayout(ctx, items, w) {
  const out = [];
  let x = 0;
  let row = 0;
  for (const item of items) {
    const iw = 26 + ctx.measureText(item.label).width + 16;
    if (x > 0 && x + iw > w) {
      x = 0;
      row++;
    }
    out.push({ item, x, row });
    x += iw;
  }
  return { cells: out, rows: items.length ? row + 1 : 0 };
}

export function lineFigure(spec) {
  const { width, height, series } = spec;
  const th = spec.th || themeOf(false);
  const { M, row } = metrics(th);
  const measure = document.createElement('canvas').getContext('2d');
  measure.font = th.font(FONT_PX);
  const legend = legendLayout(measure, series, width - M.left - M.right);
  const total = height + legend.rows * row + 6;
  return { width, height: total, paint: (ctx) => paintLines(ctx, spec, legend, th) };
}

function paintLines(ctx, spec, legend, th) {
  const { width, height, series, data, logY, xLog2 } = spec;
  const { M, row } = metrics(th);
  const w = width - M.left - M.right;
  const h = height - M.top - M.bottom;
  const [x0, x1] = spec.x && Number.isFinite(spec.x[0]) && spec.x[0] !== spec.x[1] ? spec.x : range(data[0], xLog2);
  const [y0, y1] = spec.y && Number.isFinite(spec.y[0]) && spec.y[0] !== spec.y[1] ? spec.y : range(data.slice(1).flat(), logY);
  const tx = xLog2 ? Math.log2 : (v) => v;
  const ty = logY ? Math.log10 : (v) => v;
  const sx = (v) => M.left + ((tx(v) - tx(x0)) / (tx(x1) - tx(x0))) * w;
  const sy = (v) => M.top + h - ((ty(v) - ty(y0)) / (ty(y1) - ty(y0))) * h;
  ctx.font = th.font(FONT_PX);
  ctx.lineWidth = 1;
  // grid and ticks
  const xTicks = xLog2 ? logTicks(x0, x1, 2) : valueTicks(x0, x1, Math.max(2, Math.floor(w / th.px(90))));
  const yTicks = logY ? logTicks(y0, y1, 10) : valueTicks(y0, y1, Math.max(2, Math.floor(h / th.px(45))));
  ctx.strokeStyle = th.grid;
  ctx.fillStyle = th.text;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const t of xTicks) {
    const x = sx(t);
    ctx.beginPath();
    ctx.moveTo(x, M.top);
    ctx.lineTo(x, M.top + h);
    ctx.stroke();
    ctx.fillText(formatNumber(t), x, M.top + h + 6);
  }
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const t of yTicks) {
    const y = sy(t);
    ctx.beginPath();
    ctx.moveTo(M.left, y);
    ctx.lineTo(M.left + w, y);
    ctx.stroke();
    ctx.fillText(formatNumber(t), M.left - 6, y);
  }
  ctx.strokeStyle = th.frame;
  ctx.strokeRect(M.left - 0.5, M.top - 0.5, w + 1, h + 1);
  // axis labels
  ctx.fillStyle = th.text;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  ctx.fillText(spec.xLabel, M.left + w / 2, M.top + h + 8 + th.px(18));
  ctx.save();
  ctx.translate(4 + th.px(8), M.top + h / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textBaseline = 'middle';
  ctx.fillText(logY ? `${spec.yLabel}, log scale` : spec.yLabel, 0, 0);
  ctx.restore();
  // series, clipped to the plot
  ctx.save();
  ctx.beginPath();
  ctx.rect(M.left, M.top, w, h);
  ctx.clip();
  series.forEach((s, k) => {
    const ys = data[k + 1] || [];
    ctx.strokeStyle = th.colour(s.stroke);
    ctx.fillStyle = th.colour(s.stroke);
    ctx.lineWidth = s.width ?? 1.6;
    ctx.setLineDash(s.dash || []);
    ctx.beginPath();
    let pen = false;
    for (let i = 0; i < ys.length; i++) {
      const v = ys[i];
      const ok = v !== null && v !== undefined && Number.isFinite(v) && !(logY && v <= 0);
      if (!ok) {
        if (!s.spanGaps) pen = false;
        continue;
      }
      if (pen) ctx.lineTo(sx(data[0][i]), sy(v));
      else ctx.moveTo(sx(data[0][i]), sy(v));
      pen = true;
    }
    ctx.stroke();
    ctx.setLineDash([]);
    if (s.points) {
      for (let i = 0; i < ys.length; i++) {
        const v = ys[i];
        if (v === null || v === undefined || !Number.isFinite(v)) continue;
        ctx.beginPath();
        ctx.arc(sx(data[0][i]), sy(v), 2.5, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
  });
  // x marks: dashed vertical lines inside the x range, each labelled at its top right
  ctx.strokeStyle = th.text;
  ctx.fillStyle = th.text;
  ctx.lineWidth = 1;
  ctx.setLineDash([5, 4]);
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  for (const m of spec.xMarks || []) {
    if (!(m.x >= Math.min(x0, x1) && m.x <= Math.max(x0, x1))) continue;
    const x = sx(m.x);
    ctx.beginPath();
    ctx.moveTo(x, M.top);
    ctx.lineTo(x, M.top + h);
    ctx.stroke();
    if (m.label) ctx.fillText(m.label, Math.min(x + 4, M.left + w - ctx.measureText(m.label).width), M.top + 2);
  }
  ctx.setLineDash([]);
  ctx.restore();
  // legend: a line swatch (dashed as the series) and the label, in rows under the plot
  ctx.font = th.font(FONT_PX);
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  for (const { item, x, row: r } of legend.cells) {
    const y = height + 4 + r * row + row / 2;
    ctx.strokeStyle = th.colour(item.stroke);
    ctx.lineWidth = Math.min(4, item.width ?? 1.6);
    ctx.setLineDash(item.dash || []);
    ctx.beginPath();
    ctx.moveTo(M.left + x, y);
    ctx.lineTo(M.left + x + 20, y);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = th.ink;
    ctx.fillText(item.label, M.left + x + 26, y);
  }
}
