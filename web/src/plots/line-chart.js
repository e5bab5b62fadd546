// A uPlot line chart for curves over an index axis (RoPE q·k against m − n, bias against
// distance): LossChart (loss-chart.js, the one uPlot wrapper of the page) with series given as
// {label, stroke, width, dash, points}, legend values in formatNumber, and setSeries to change the set.
//
//   const c = new LineChart(el, {xLabel: 'm − n', yLabel: 'q·k', series: [{label: 'n = 0', stroke: '#0072B2', width: 5}]});
//   c.setData([xs, ys0, ys1, ...]);
//   c.setSeries([...]);      // a different set of series (rebuilds the chart)
import { LossChart } from './loss-chart.js';
import { formatNumber } from './scales.js';

const toSeries = (s) => ({ label: s.label, color: s.stroke, width: s.width, dash: s.dash, points: s.points, value: (v) => formatNumber(v) });

export class LineChart extends LossChart {
  // logY and xMarks ([{x, label}]) as LossChart's
  constructor(parent, { xLabel = 'x', yLabel = 'y', series = [], height = 240, exportName = 'chart', logY = false, xMarks = [] } = {}) {
    super(parent, { xLabel, yLabel, height, series: series.map(toSeries), exportName, logY, xMarks });
  }

  build() {
    super.build();
    this.plot.root.classList.add('line-chart');
  }

  setSeries(series) {
    this.names = series.map(toSeries);
    this.data = [[], ...series.map(() => [])];
    this.build();
  }
}
