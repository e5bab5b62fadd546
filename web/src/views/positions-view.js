// View 2: sinusoidal, learned and RoPE positional encodings, one card each: the (T x D)
// table as a heatmap and the (T x T) position similarity under it, with the "depends only on
// distance" check; RoPE applied to a real pair q, k (q·k against m − n at several absolute
// offsets); one attention-bias panel per kind of the engine's registry that provides a bias
// (per-head bias matrices, bias against distance, slopes when linear). Draws the worker's
// 'positions', 'whyPositions' (the first card, why-positions-card.js), 'ropeDemo' and 'biases' replies (handlers/positions-handler.js),
// 'ropeScalings' (the RoPE scalings past T, rope-scalings-card.js, after the RoPE demo), and
// 'importedPositions': GPT-2's learned position table from a file imported in the table view,
// as an extra card (imported-positions-card.js) when there is one.
// The 'positions' job is long at large T: main.js shows its progress and Cancel.
//
//   const view = new PositionsView(document.getElementById('view-positions'), kinds);
//   view.render(reply, state);
import { Heatmap } from '../plots/heatmap.js';
import { Legend } from '../plots/legend.js';
import { LineChart } from '../plots/line-chart.js';
import { OKABE_ITO } from '../plots/loss-chart.js';
import { colorDomain, colormap, formatNumber, makeLut } from '../plots/scales.js';
import { summarize } from '../arrays.js';
import { EncodingCard } from './encoding-card.js';
import { ImportedPositionsCard } from './imported-positions-card.js';
import { RopeScalingsCard } from './rope-scalings-card.js';
import { WhyPositionsCard } from './why-positions-card.js';
import { positionParamsByKind } from '../state.js';
import { POSITION_KEYS } from './request-keys.js';

// (main.js and element.js append the positional parameters' keys, 'rope.base', once the engine
// has sent its registry: the cards are drawn with them)
export { POSITION_KEYS }; // request-keys.js: read before this module loads

// {base: 500} -> ', base 500' (the values a kind was drawn with, in its subtitle)
export function paramText(params) {
  return Object.entries(params || {}).map(([k, v]) => `, ${k.replace(/_/g, ' ')} ${formatNumber(v)}`).join('');
}

// RoPE on a real pair of vectors (the worker's 'ropeDemo'): q·k after rotation against the
// distance m − n, one line per absolute offset of the key; the lines coincide.
class RopeDemo {
  constructor(holder) {
    this.card = document.createElement('article');
    this.card.className = 'card rope-demo';
    const h = document.createElement('h3');
    h.textContent = 'RoPE on real vectors: q·k depends only on m − n';
    const p = document.createElement('p');
    p.className = 'explain';
    p.textContent =
      'Take one query vector q and one key vector k (two rows drawn like nn.Embedding(2, D) from the seed). ' +
      'Rotate q as if it stood at position m and k as if at position n (the engine\'s ropeApply), and take the dot product, ' +
      'which is the attention logit before scaling. Each line puts the key at a different absolute position n and the query d = m − n positions after it.';
    const plot = document.createElement('div');
    plot.className = 'plot';
    this.caption = document.createElement('p');
    this.caption.className = 'caption rope-caption';
    this.card.append(h, p, plot, this.caption);
    holder.append(this.card);
    this.plot = plot;
    this.chart = null;
    this.offsets = '';
  }

  render(r) {
    const key = r.offsets.join(',');
    const styles = [
      { stroke: OKABE_ITO[5], width: 7 },
      { stroke: OKABE_ITO[1], width: 3, dash: [8, 5] },
      { stroke: OKABE_ITO[6], width: 1.2 },
    ];
    const series = r.offsets.map((o, i) => ({ label: `key at n = ${o}`, ...styles[i % styles.length] }));
    if (!this.chart) this.chart = new LineChart(this.plot, { xLabel: 'distance m − n', yLabel: 'q·k after rotation', series, height: 240, exportName: 'rope-qk' });
    else if (key !== this.offsets) this.chart.setSeries(series);
    this.offsets = key;
    this.chart.setData([Array.from(r.distances), ...r.dots.map((d) => Array.from(d))]);
    const rel = r.maxAbs > 0 ? r.maxDiff / r.maxAbs : 0;
    this.caption.textContent =
      `The ${r.offsets.length} curves lie on top of each other: moving both positions by ${r.offsets.slice(1).join(' or ')} changes q·k by at most ` +
      `${formatNumber(r.maxDiff)} (values reach ${formatNumber(r.maxAbs)}, so ${formatNumber(rel)} of the scale: float32 rounding of the angles). ` +
      `So after RoPE, q·k depends only on the distance m − n, not on where the pair sits. D = ${r.D}; without rotation q·k = ${formatNumber(r.qk)}, the value at d = 0.`;
    this.card.dataset.maxDiff = String(r.maxDiff);
  }
}

// One kind's attention bias (a registry kind with provides === 'bias'): the (T x T) bias added
// to head h's attention logits as H small heatmaps (grey: masked, the key comes after the
// query), the bias against the distance i − j per head, and the slopes when it is linear.
class BiasPanel {
  constructor(holder, kind, H) {
    this.card = document.createElement('article');
    this.card.className = 'card bias-panel';
    this.card.dataset.kind = kind.name;
    const h = document.createElement('h3');
    h.textContent = `${kind.label}: attention bias per head`;
    const p = document.createElement('p');
    p.className = 'explain';
    p.textContent = kind.description;
    this.lesson = document.createElement('p');
    this.lesson.className = 'explain bias-lesson';
    const t1 = document.createElement('p');
    t1.className = 'subplot-title';
    this.t1 = t1;
    const grid = document.createElement('div');
    grid.className = 'bias-grid';
    this.heads = [];
    for (let i = 0; i < H; i++) {
      const cell = document.createElement('div');
      cell.className = 'bias-head';
      const title = document.createElement('p');
      title.className = 'bias-head-title';
      const plot = document.createElement('div');
      plot.className = 'plot';
      cell.append(title, plot);
      grid.append(cell);
      const hm = new Heatmap(plot, {
        xLabel: 'key j', yLabel: 'query i', square: true, maxHeight: 220, minHeight: 80, exportName: `bias-head${i + 1}`,
        formatTip: (c) => (Number.isNaN(c.value) ? `query ${c.row}, key ${c.col}: masked (key after the query)` : `query ${c.row}, key ${c.col}: bias ${formatNumber(c.value)}`),
      });
      this.heads.push({ title, hm });
    }
    const leg = document.createElement('div');
    this.legend = new Legend(leg, { caption: 'bias added to the logit', width: 240 });
    for (const { hm } of this.heads) hm.setLegend(this.legend);
    const t2 = document.createElement('p');
    t2.className = 'subplot-title';
    t2.textContent = 'bias against the distance i − j (last query row), one line per head';
    const chart = document.createElement('div');
    chart.className = 'plot';
    this.chartEl = chart;
    this.chart = null;
    this.slopes = document.createElement('div');
    this.slopes.className = 'bias-slopes';
    this.card.append(h, p, this.lesson, t1, grid, leg, t2, chart, this.slopes);
    holder.append(this.card);
  }

  render(kind, r, state) {
    const { H, T } = r;
    const lut = makeLut(state.cmap);
    const stats = summarize(kind.data);
    const domain = colorDomain(stats, state.cmap);
    const idx = Int32Array.from({ length: T }, (_, i) => i);
    this.t1.textContent = `bias[h, i, j] added to head h's logit of query i for key j (T = ${T}, H = ${H}${paramText(kind.params)}; grey: masked, the key comes after the query)`;
    this.card.dataset.params = JSON.stringify(kind.params || {});
    for (let h = 0; h < H; h++) {
      const data = new Float32Array(T * T);
      for (let k = 0; k < T * T; k++) {
        const v = kind.data[h * T * T + k];
        data[k] = Number.isFinite(v) ? v : NaN; // -inf above the diagonal: drawn grey
      }
      const head = this.heads[h];
      head.title.textContent = kind.slopes ? `head ${h + 1}: slope ${formatNumber(kind.slopes[h])}` : `head ${h + 1}`;
      head.hm.setData({ data, rows: T, cols: T, rowIndex: idx, colIndex: idx, totalRows: T, totalCols: T, sampled: false }, {
        domain, lut, label: `${kind.label} bias of head ${h + 1}, query by key`,
      });
    }
    this.legend.set({ domain, lut, note: colormap(state.cmap).diverging ? 'symmetric about 0' : 'min to max' });
    const series = Array.from({ length: H }, (_, h) => ({ label: `head ${h + 1}`, stroke: OKABE_ITO[h % OKABE_ITO.length], width: 1.8, dash: h >= OKABE_ITO.length ? [6, 4] : undefined }));
    if (!this.chart) this.chart = new LineChart(this.chartEl, { xLabel: 'distance i − j', yLabel: 'bias', series, height: 220, exportName: 'bias-by-distance' });
    const xs = Array.from({ length: T }, (_, d) => d);
    this.chart.setData([xs, ...series.map((_, h) => Array.from(kind.byDistance.subarray(h * T, (h + 1) * T)))]);
    this.renderLesson(kind, H, T);
    this.renderSlopes(kind, H);
  }

  renderLesson(kind, H, T) {
    if (kind.slopes) {
      const s = Array.from(kind.slopes);
      const steep = s.indexOf(Math.max(...s));
      const flat = s.indexOf(Math.min(...s));
      const d = Math.min(10, T - 1);
      const cut = (h) => s[h] * d;
      this.lesson.textContent =
        `Nothing here is learned: head h adds −slope_h × (i − j) to the logit of query i for key j, a fixed penalty that grows with the distance (straight lines below). ` +
        `Steeper heads look more locally: ${d} tokens back, head ${steep + 1} (slope ${formatNumber(s[steep])}) loses ${formatNumber(cut(steep))} from the logit, ` +
        `so that key's attention weight shrinks by e^−${formatNumber(cut(steep))} ≈ ${formatNumber(Math.exp(-cut(steep)))}; ` +
        `head ${flat + 1} (slope ${formatNumber(s[flat])}) loses only ${formatNumber(cut(flat))} and still looks far back. ` +
        'No position vectors are added, so nothing limits the length: a longer text only means larger distances.';
    } else {
      this.lesson.textContent =
        'Not linear in the distance: each head has its own bias for each distance, flat over ranges of distances that share a value (see the lines below). ' +
        (kind.trainable ? 'These biases are trained with the model; shown here as initialised from the seed, before training.' : '');
    }
  }

  renderSlopes(kind, H) {
    this.slopes.replaceChildren();
    if (!kind.slopes) return;
    const table = document.createElement('table');
    table.className = 'values slopes-table';
    const head = document.createElement('tr');
    const body = document.createElement('tr');
    const th0 = document.createElement('th');
    th0.textContent = 'head';
    const td0 = document.createElement('th');
    td0.textContent = 'slope (−bias[h, 1, 0])';
    head.append(th0);
    body.append(td0);
    for (let h = 0; h < H; h++) {
      const th = document.createElement('th');
      th.textContent = String(h + 1);
      const td = document.createElement('td');
      td.textContent = formatNumber(kind.slopes[h]);
      head.append(th);
      body.append(td);
    }
    const thead = document.createElement('thead');
    thead.append(head);
    const tbody = document.createElement('tbody');
    tbody.append(body);
    table.append(thead, tbody);
    const wrap = document.createElement('div');
    wrap.className = 'table-scroll slopes-scroll';
    wrap.tabIndex = 0;
    wrap.setAttribute('role', 'region');
    wrap.setAttribute('aria-label', `${kind.label} slopes per head`);
    wrap.append(table);
    this.slopes.append(wrap);
  }
}

export class PositionsView {
  static payload(state) {
    return { seed: state.seed, T: state.T, D: state.pd, sim: state.sim, maxSide: 384, params: positionParamsByKind(state) };
  }

  // payload argument -> page field, where the names differ (a failure blamed on D is shown on pd)
  static FIELDS = { D: 'pd' };

  // engine -> state -> Promise<reply | null>: the encodings (a long job at large T), RoPE on a real pair, the attention biases and the imported positions (the
  // worker answers {unchanged} when the page already holds them: `have`).
  static fetch(engine) {
    let have = null;
    return async (state) => {
      const p = PositionsView.payload(state);
      const f = PositionsView.FIELDS;
      const [r, why, rope, scalings, bias, imported] = await Promise.all([
        engine.latest('positions', 'positions', p, f),
        engine.request('whyPositions', {}),
        engine.request('ropeDemo', { seed: p.seed, D: p.D }, f),
        // its failure (8T x D past the budget) is shown in its card and on its field; the rest draws
        engine.request('ropeScalings', { seed: p.seed, D: p.D, T: p.T, params: p.params }, f)
          .catch((err) => ({ error: err.message, fields: err.fields || [] })),
        engine.request('biases', { seed: p.seed, params: p.params }),
        engine.latest('positions-imported', 'importedPositions', { sim: p.sim, maxSide: p.maxSide, have })
          .catch((err) => ({ error: err.message })),
      ]);
      if (imported && imported.key) have = imported.key;
      return r && { ...r, why, rope, scalings, bias, imported };
    };
  }

  constructor(root) {
    this.root = root;
    this.stale = root.querySelector('#positions-stale');
    this.why = new WhyPositionsCard(root.querySelector('.why-card'));
    const holder = root.querySelector('#positions-cards');
    this.cards = Object.fromEntries(['sinusoidal', 'learned', 'rope'].map((n) => [n, new EncodingCard(holder, n)]));
    const importedHolder = document.createElement('div');
    holder.after(importedHolder);
    this.imported = new ImportedPositionsCard(importedHolder);
    this.importedLast = null; // the last full importedPositions reply (kept while the worker says unchanged)
    this.rope = new RopeDemo(root.querySelector('#positions-rope'));
    this.scalings = new RopeScalingsCard(root.querySelector('#positions-rope'));
    this.biasHolder = root.querySelector('#positions-bias');
    this.biasPanels = new Map(); // kind name -> BiasPanel
    this.last = null;
  }

  setStale(text) {
    this.stale.textContent = text || '';
    this.stale.hidden = !text;
  }

  render(r, state) {
    this.last = r;
    this.root.dataset.renders = String(Number(this.root.dataset.renders || 0) + 1);
    if (r.why) this.why.render(r.why);
    for (const kind of r.kinds) this.cards[kind.name].render(kind, state, r.sim);
    if (r.imported) this.renderImported(r.imported, state);
    if (r.rope) this.rope.render(r.rope);
    if (r.scalings) this.scalings.render(r.scalings);
    if (r.bias) {
      for (const kind of r.bias.kinds) {
        if (!this.biasPanels.has(kind.name)) this.biasPanels.set(kind.name, new BiasPanel(this.biasHolder, kind, r.bias.H));
        this.biasPanels.get(kind.name).render(kind, r.bias, state);
      }
    }
  }

  // [[page field, message]] of what the last render drew without (a rotation kind the engine
  // refused at this D); main.js shows them on their fields after render
  fieldErrors() {
    return this.scalings.fieldErrors().map(([arg, message]) => [PositionsView.FIELDS[arg] || arg, message]);
  }

  renderImported(im, state) {
    if (im.error) {
      this.imported.showError(im.error); // the built-in cards still draw
      return;
    }
    if (!im.unchanged) this.importedLast = im.none ? null : im;
    this.imported.render(this.importedLast || { none: true }, state);
  }

  recolor(state) {
    if (this.last) this.render(this.last, state);
  }
}
