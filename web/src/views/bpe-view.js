// View 5: byte-pair encoding trained step by step on the chosen corpus (M.BpeTrainer in the
// worker). Each merge (left, right) -> new id adds one token, so the vocabulary and the
// embedding table nn.Embedding(V, 16) beside it gain a row; the newest row is highlighted.
// Buttons send bpeReset / bpeStep requests; this view draws the replies.
//
//   const view = new BpeView(root, engine, {onError: (err) => ...}  // err.message, err.fields);
//   view.render(bpeReply, state);
import { Heatmap } from '../plots/heatmap.js';
import { Legend } from '../plots/legend.js';
import { colorDomain, makeLut } from '../plots/scales.js';
import { summarize } from '../arrays.js';
import { BPE_KEYS } from './request-keys.js';

export { BPE_KEYS }; // request-keys.js: read before this module loads
const LISTED = 40;

export class BpeView {
  static payload(state) {
    return { corpus: state.corpus, bpeV: state.bpeV, seed: state.seed };
  }

  // engine -> state -> Promise<bpe state | null>: a fresh trainer for these settings
  static fetch(engine) {
    return (state) => engine.latest('bpe', 'bpeReset', BpeView.payload(state));
  }

  constructor(root, engine, { onError }) {
    this.root = root;
    this.engine = engine;
    this.onError = onError;
    const $ = (id) => root.querySelector(`#${id}`);
    this.el = { stale: $('bpe-stale'), summary: $('bpe-summary'), merges: $('bpe-merges').querySelector('tbody'), progress: $('bpe-progress') };
    this.heatmap = new Heatmap($('bpe-plot'), { xLabel: 'dimension', yLabel: 'token id', maxHeight: 360, minHeight: 160, exportName: 'table' });
    this.legend = new Legend($('bpe-legend'), { caption: 'weight value', width: 220 });
    this.heatmap.setLegend(this.legend);
    this.state = null;
    this.last = null;
    this.busy = false;
    $('bpe-step1').addEventListener('click', () => this.step(1));
    $('bpe-step10').addEventListener('click', () => this.step(10));
    $('bpe-run').addEventListener('click', () => this.run());
    $('bpe-reset').addEventListener('click', () => this.reset());
  }

  setStale(text) {
    this.el.stale.textContent = text || '';
    this.el.stale.hidden = !text;
  }

  async reset() {
    if (!this.state) return;
    try {
      this.render(await this.engine.request('bpeReset', BpeView.payload(this.state)), this.state);
    } catch (err) {
      this.onError(err);
    }
  }

  async step(n) {
    if (!this.state || this.busy) return;
    this.busy = true;
    try {
      this.render(await this.engine.request('bpeStep', { n, seed: this.state.seed }), this.state);
    } catch (err) {
      this.onError(err);
    } finally {
      this.busy = false;
    }
  }

  // Steps in slices of 8 merges, one reply per frame at most, until the target size.
  async run() {
    while (this.last && !this.last.done && this.root.isConnected && !this.root.hidden) {
      await this.step(8);
      await new Promise((r) => requestAnimationFrame(r));
    }
  }

  render(r, state) {
    this.state = { ...state };
    this.last = r;
    const merges = r.merges.length;
    this.el.summary.textContent =
      `${merges} merges so far on ${r.corpus}: vocabulary ${r.vocabSize} = 256 byte tokens + ${merges} merged tokens` +
      ` (target ${r.target}${r.done ? ', reached' : ''}). The embedding table below has one row per token: ${r.vocabSize} × ${r.dim}.`;
    this.el.progress.value = r.vocabSize - 256;
    this.el.progress.max = Math.max(1, r.target - 256);
    const body = this.el.merges;
    body.replaceChildren();
    const names = new Map(r.merges.map((m) => [m.id, m.token]));
    // id -> its text: printable ASCII bytes as themselves, other bytes as <0xNN>, merged ids from the list
    const nameOf = (id) => (id < 256 ? (id >= 32 && id < 127 ? String.fromCharCode(id) : `<0x${id.toString(16).padStart(2, '0')}>`) : names.get(id) ?? `#${id}`);
    for (const m of r.merges.slice(-LISTED).reverse()) {
      const tr = document.createElement('tr');
      const pair = `${JSON.stringify(nameOf(m.left))} + ${JSON.stringify(nameOf(m.right))}  (${m.left} + ${m.right})`;
      for (const text of [String(m.id), pair, JSON.stringify(m.token), String(m.count)]) {
        const td = document.createElement('td');
        td.textContent = text;
        tr.append(td);
      }
      body.append(tr);
    }
    const stats = summarize(r.grid.data);
    const domain = colorDomain(stats, state.cmap);
    const lut = makeLut(state.cmap);
    const newest = merges ? r.vocabSize - 1 : null;
    this.heatmap.setData(r.grid, { domain, lut, highlightRow: newest, band: merges ? { from: 256, to: r.vocabSize - 1, label: 'merged' } : null });
    this.legend.set({ domain, lut, note: newest === null ? 'no merges yet' : `row ${newest} is the newest token` });
    this.root.dataset.renders = String(Number(this.root.dataset.renders || 0) + 1);
    this.root.dataset.vocab = String(r.vocabSize);
  }

  recolor(state) {
    if (this.last) this.render(this.last, state);
  }
}
