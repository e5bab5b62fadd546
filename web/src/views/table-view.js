// View 1: the token embedding table as a heatmap (V x D, downsampled past 600 x 512 cells)
// with the picked token's row highlighted, and that row computed twice (lookup and one-hot
// x W) with a bit-for-bit check. Draws what the worker's 'table' reply contains (see
// engine/table-handler.js); it does not talk to the engine itself.
//
//   const view = new TableView(document.getElementById('view-table'), {onPick: (row) => ...});
//   view.render(reply, state);   // reply of engine.request('table', TableView.payload(state))
//   view.setStale('...')         // an error kept the last good plot: say so
import { Heatmap } from '../plots/heatmap.js';
import { Legend } from '../plots/legend.js';
import { colorDomain, colormap, formatNumber, makeLut } from '../plots/scales.js';

const MAX_LISTED_DIMS = 256;

export const TABLE_KEYS = ['seed', 'V', 'D', 'pad', 'scale', 'tok'];

export class TableView {
  static payload(state) {
    return { seed: state.seed, V: state.V, D: state.D, pad: state.pad, scale: state.scale, tok: state.tok, maxRows: 600, maxCols: 512 };
  }

  constructor(root, { onPick }) {
    this.root = root;
    const $ = (id) => root.querySelector(`#${id}`);
    this.el = {
      shape: $('table-shape'),
      stale: $('table-stale'),
      caption: $('table-caption'),
      tokLabel: $('tok-label'),
      identical: $('identical'),
      snippet: $('torch-snippet'),
      rows: $('row-values').querySelector('tbody'),
      rowCaption: $('row-caption'),
    };
    this.heatmap = new Heatmap($('table-plot'), {
      xLabel: 'dimension (0 … D-1)',
      yLabel: 'token id',
      onPick,
      formatTip: (c) => `token ${c.row}, dim ${c.col}: ${formatNumber(c.value)}  (click to pick)`,
    });
    this.legend = new Legend($('table-legend'), { caption: 'weight value' });
    this.aroundBlock = $('around-block');
    this.aroundTitle = $('around-title');
    this.around = new Heatmap($('around-plot'), {
      xLabel: 'dimension (0 … D-1)',
      yLabel: 'token id',
      maxHeight: 300,
      minHeight: 160,
      onPick,
      formatTip: (c) => `token ${c.row}, dim ${c.col}: ${formatNumber(c.value)}  (click to pick)`,
    });
    this.last = null;
  }

  setStale(text) {
    this.el.stale.textContent = text || '';
    this.el.stale.hidden = !text;
  }

  render(r, state) {
    this.last = r;
    this.root.dataset.checksum = r.checksum;
    this.root.dataset.renders = String(Number(this.root.dataset.renders || 0) + 1);
    const cm = colormap(state.cmap);
    const domain = colorDomain(r.stats, state.cmap);
    const lut = makeLut(state.cmap);
    this.heatmap.setData(r.grid, { domain, lut, highlightRow: r.tok, label: `embedding table ${r.V} by ${r.D}` });
    this.legend.set({ domain, lut, note: cm.diverging ? 'symmetric about 0' : 'min to max' });
    this.aroundBlock.hidden = !r.around;
    if (r.around) {
      const a = r.around;
      this.aroundTitle.textContent = `every row from ${a.rowOffset} to ${a.rowOffset + a.totalRows - 1}, around token ${r.tok}: no rows skipped, same columns and colours as above`;
      this.around.setData(a, { domain, lut, highlightRow: r.tok, label: `rows ${a.rowOffset} to ${a.rowOffset + a.totalRows - 1}` });
    }
    this.el.shape.textContent = `(${r.V} × ${r.D}${r.scaleFactor !== 1 ? `, lookups × √${r.D} = ${formatNumber(r.scaleFactor)}` : ''})`;
    const g = r.grid;
    const sampled = g.sampled
      ? `Downsampled for drawing: ${g.rows} evenly spaced rows of ${r.V} (about one in ${Math.round(r.V / g.rows)})` +
        (g.cols < r.D ? ` and ${g.cols} of ${r.D} columns` : '') + '; hover shows exact values of the drawn cells. '
      : '';
    this.el.caption.textContent =
      `${sampled}Values: min ${formatNumber(r.stats.min)}, max ${formatNumber(r.stats.max)}, mean ${formatNumber(r.stats.mean)}, ` +
      `std ${formatNumber(r.stats.std)} (stored weights, before any √D scale). ` +
      `Drawn by the engine in ${formatNumber(r.drawMs)} ms; fingerprint of all ${r.V * r.D} values (FNV-1a of the float32 bytes): ${r.checksum}.` +
      (r.paddingIdx !== null ? ` Row ${r.paddingIdx} is padding_idx: all zeros.` : '');
    this.renderRow(r, state);
  }

  renderRow(r, state) {
    this.el.tokLabel.textContent = String(r.tok);
    this.el.identical.textContent = r.identical ? 'identical: yes' : `identical: no (max difference ${formatNumber(r.maxAbsDiff)})`;
    this.el.identical.className = `badge ${r.identical ? 'yes' : 'no'}`;
    const padArg = r.paddingIdx !== null ? `, padding_idx=${r.paddingIdx}` : '';
    const scale = r.scaleFactor !== 1 ? ` * math.sqrt(${r.D})` : '';
    this.el.snippet.textContent =
      `torch.manual_seed(${state.seed})\n` +
      `emb = nn.Embedding(${r.V}, ${r.D}${padArg})\n` +
      `emb(torch.tensor([${r.tok}]))${scale}              # lookup\n` +
      `F.one_hot(torch.tensor([${r.tok}]), ${r.V}).float() @ emb.weight${scale}   # same row`;
    const body = this.el.rows;
    body.replaceChildren();
    const bits = (x) => new Uint32Array(new Float32Array([x]).buffer)[0];
    const n = Math.min(r.D, MAX_LISTED_DIMS);
    for (let d = 0; d < n; d++) {
      const tr = document.createElement('tr');
      const same = bits(r.row[d]) === bits(r.oneHot[d]);
      for (const [text, cls] of [
        [String(d), ''],
        [r.row[d].toFixed(6), ''],
        [r.oneHot[d].toFixed(6), ''],
        [same ? 'yes' : 'NO', same ? 'same' : 'diff'],
      ]) {
        const td = document.createElement('td');
        td.textContent = text;
        if (cls) td.className = cls;
        tr.append(td);
      }
      body.append(tr);
    }
    let sq = 0;
    for (const v of r.row) sq += v * v;
    const stored = Math.sqrt(sq) / r.scaleFactor;
    const peNorm = Math.sqrt(Math.floor(r.D / 2));
    this.el.rowCaption.textContent =
      (n < r.D ? `First ${n} of ${r.D} dimensions listed; the check covers all ${r.D}. ` : '') +
      `Both columns come from the wasm engine; "same bits" compares the float32 bit patterns, not a rounded value. ` +
      `Why √D? The stored row has length ${formatNumber(stored)} (≈ √D = ${formatNumber(Math.sqrt(r.D))} for N(0, 1) entries)` +
      (r.scaleFactor !== 1 ? ` and ${formatNumber(stored * r.scaleFactor)} after × √D` : '') +
      `; a sinusoidal position row always has length √(D/2) = ${formatNumber(peNorm)}. Transformers that initialise the table with ` +
      `std 1/√D get rows of length ≈ 1, and × √D brings them back to the scale of the position signal they are added to.`;
  }

  // Re-colour without a new engine call (colour map changed).
  recolor(state) {
    if (this.last) this.render(this.last, state);
  }
}
