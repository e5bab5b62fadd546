// View 1: the token embedding table as a heatmap (V x D, downsampled past 600 x 512 cells)
// with the picked token's row highlighted, and that row computed twice (lookup and one-hot
// x W) with a bit-for-bit check. Draws what the worker's 'table' reply contains (see
// handlers/table-handler.js); it does not talk to the engine itself.
//
// When V is the vocabulary size of the text settings' tokenizer (50,257 for GPT-2), rows are
// tokens: the hover, the window title and the lookup card name each row's token string
// (asked of the worker through `labels`, after the plot is drawn).
// The "Why multiply token vectors by √D?" card (scale-card.js) draws the 'scaleDemo' reply that
// fetch asks for beside the table (once per seed and D: the picked token does not change it).
//
//   const view = new TableView(document.getElementById('view-table'), {onPick: (row) => ..., labels: (V, ids) => Promise<[text] | null>});
//   view.render(reply, state);   // reply of TableView.fetch(engine)(state)
//   view.setStale('...')         // an error kept the last good plot: say so
//   clampTok(state)              // V lowered below the picked token: state.tok = V - 1, returns {from, to} (else null)
//   view.noteClamp({from, to}, V)
import { Heatmap } from '../plots/heatmap.js';
import { Legend } from '../plots/legend.js';
import { colorDomain, colormap, formatNumber, makeLut } from '../plots/scales.js';
import { visibleText } from '../widgets/chips.js';
import { ScaleCard } from './scale-card.js';
import { TABLE_KEYS, clampTok } from './request-keys.js';

const MAX_LISTED_DIMS = 256;

// max_norm: what the lookup did to the picked row (torch renormalises it in the table, in place)
export function maxNormNote(r) {
  if (!(r.maxNorm > 0) || !r.rowNorm || r.rowNorm.before === null) return '';
  const { before, after } = r.rowNorm;
  return before > r.maxNorm
    ? ` max_norm = ${r.maxNorm}: the stored row had length ${before.toFixed(4)}, so the lookup rescaled it in the table, in place, to length ${after.toFixed(4)} (one-hot × W then reads the rescaled row).`
    : ` max_norm = ${r.maxNorm}: the row's length ${before.toFixed(4)} is within it, so the lookup left it as it was.`;
}

// the keys of its engine request and the picked token's rule live in request-keys.js (read before this module loads)
export { TABLE_KEYS, clampTok };

export class TableView {
  static payload(state) {
    return { seed: state.seed, V: state.V, D: state.D, pad: state.pad, maxNorm: state.maxn, scale: state.scale, tok: state.tok, maxRows: 600, maxCols: 512 };
  }

  // engine -> state -> Promise<reply | null> (null: a newer request is on its way); the reply
  // carries `scale`: a promise of the sqrt(D) demonstration of the same seed and D, or of {error}
  // (the card says it). The table draws without waiting for it.
  static fetch(engine) {
    let memo = null; // {key, reply}: the last sqrt(D) demonstration
    return async (state) => {
      const key = `${state.seed}/${state.D}`;
      const scale = memo && memo.key === key ? Promise.resolve(memo.reply)
        : engine.request('scaleDemo', { seed: state.seed, D: state.D }).then(
          (reply) => ((memo = { key, reply }), reply),
          (err) => ({ error: err.message }),
        );
      const r = await engine.latest('table', 'table', TableView.payload(state));
      return r && { ...r, scale };
    };
  }

  constructor(root, { onPick, labels = null }) {
    this.root = root;
    this.labels = labels;
    this.names = new Map(); // row -> token string, when V is a tokenizer's vocabulary
    const tip = (c) => `token ${c.row}${this.nameOf(c.row)}, dim ${c.col}: ${formatNumber(c.value)}  (click to pick)`;
    const $ = (id) => root.querySelector(`#${id}`);
    this.el = {
      shape: $('table-shape'),
      stale: $('table-stale'),
      tokNote: $('tok-note'),
      caption: $('table-caption'),
      tokLabel: $('tok-label'),
      rowsNote: $('table-rows-note'),
      identical: $('identical'),
      snippet: $('torch-snippet'),
      rows: $('row-values').querySelector('tbody'),
      rowCaption: $('row-caption'),
    };
    this.heatmap = new Heatmap($('table-plot'), {
      xLabel: 'dimension (0 … D-1)',
      yLabel: 'token id',
      onPick,
      formatTip: tip,
      exportName: 'table',
    });
    this.legend = new Legend($('table-legend'), { caption: 'weight value' });
    this.heatmap.setLegend(this.legend);
    this.aroundBlock = $('around-block');
    this.aroundTitle = $('around-title');
    this.around = new Heatmap($('around-plot'), {
      xLabel: 'dimension (0 … D-1)',
      yLabel: 'token id',
      maxHeight: 300,
      minHeight: 160,
      onPick,
      formatTip: tip,
      exportName: 'around',
    });
    this.around.setLegend(this.legend);
    this.scaleCard = new ScaleCard(root);
    this.last = null;
    this.clampNote = null; // {from, to, V}: shown until the picked token changes
  }

  setStale(text) {
    this.el.stale.textContent = text || '';
    this.el.stale.hidden = !text;
  }

  nameOf(row) {
    return this.names.has(row) ? ` ${JSON.stringify(visibleText(this.names.get(row)))}` : '';
  }

  // V lowered below the picked token: say where it moved (quietly, under the card title).
  noteClamp(c, V) {
    this.clampNote = c ? { ...c, V } : null;
  }

  // Token strings of the drawn rows, when V is the vocabulary of the text settings' tokenizer.
  async fetchNames(r) {
    const ids = [...r.grid.rowIndex, ...(r.around ? r.around.rowIndex : []), r.tok];
    let labels = null;
    try {
      labels = this.labels ? await this.labels(r.V, ids) : null;
    } catch {
      labels = null; // names are a bonus: the plot stands without them
    }
    if (this.last !== r) return;
    this.names = new Map();
    if (labels) ids.forEach((id, i) => this.names.set(id, labels[i]));
    this.namesV = r.V;
    this.root.dataset.rowNames = labels ? 'tokens' : 'ids';
    this.renderNames(r);
  }

  renderNames(r) {
    const named = this.names.size > 0;
    this.el.tokLabel.textContent = `${r.tok}${this.nameOf(r.tok)}`;
    if (r.around) {
      const a = r.around;
      this.aroundTitle.textContent = `every row from ${a.rowOffset} to ${a.rowOffset + a.totalRows - 1}, around token ${r.tok}${this.nameOf(r.tok)}: no rows skipped, same columns and colours as above`;
    }
    this.el.rowsNote.textContent = named ? `V = ${r.V.toLocaleString('en')} is the vocabulary of the text view's tokenizer: each row is a token (hover names it).` : '';
  }

  render(r, state) {
    this.last = r;
    if (this.namesV !== r.V) this.names = new Map();
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
    Promise.resolve(r.scale).then((sc) => {
      if (this.last === r) this.scaleCard.render(sc, r); // not a newer table's card
    });
    const c = this.clampNote;
    this.el.tokNote.hidden = !c || c.to !== r.tok;
    if (c && c.to === r.tok) this.el.tokNote.textContent = `picked token moved from ${c.from} to ${c.to}: V = ${c.V} has rows 0 to ${c.V - 1}.`;
    this.renderNames(r);
    this.fetchNames(r);
  }

  renderRow(r, state) {
    this.el.tokLabel.textContent = String(r.tok);
    this.el.identical.textContent = r.identical ? 'identical: yes' : `identical: no (max difference ${formatNumber(r.maxAbsDiff)})`;
    this.el.identical.className = `badge ${r.identical ? 'yes' : 'no'}`;
    const padArg = (r.paddingIdx !== null ? `, padding_idx=${r.paddingIdx}` : '') + (r.maxNorm > 0 ? `, max_norm=${r.maxNorm}` : '');
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
    this.el.rowCaption.textContent =
      (n < r.D ? `First ${n} of ${r.D} dimensions listed; the check covers all ${r.D}. ` : '') +
      'Both columns come from the wasm engine; "same bits" compares the float32 bit patterns, not a rounded value.' +
      (r.scaleFactor !== 1 ? ` Both are multiplied by √${r.D} = ${formatNumber(r.scaleFactor)}: why, in the next card.` : '') +
      maxNormNote(r);
  }

  // Re-colour without a new engine call (colour map changed).
  recolor(state) {
    if (this.last) this.render(this.last, state);
  }
}
