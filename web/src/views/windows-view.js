// View 4: sliding windows over the token strip, as LLMs-from-scratch create_dataloader_v1
// builds them: window k starts at k * stride, its input is ids[s : s + L] and its target the
// same span shifted by one. Shows the counts with the formula, a strip where each window's
// input and target cells line up under the tokens, and the (input, target) pairs.
// Batches: window k belongs to batch floor(k / B); with drop_last the windows after the last
// full batch (k >= numBatches * B) are cut but never trained on, and are drawn as dropped
// (grey, hatched, "dropped" in the batch column), not hidden.
// Uses the ids of the text view's tokenizer (the worker keeps them).
//
//   view.render(windowsReply, state)   // reply of engine.request('windows', WindowsView.payload(state))
import { makeChip, visibleText } from '../widgets/chips.js';
import { WINDOWS_KEYS } from './request-keys.js';

export { WINDOWS_KEYS }; // request-keys.js: read before this module loads
const SHOWN_WINDOWS = 6;
const MAX_STRIP = 36;

function cell(text, cls) {
  const d = document.createElement('div');
  d.className = cls;
  d.textContent = text;
  return d;
}

export class WindowsView {
  // the windows and the text settings of their ids (the worker tokenizes them if it holds others)
  static payload(state) {
    return { L: state.L, stride: state.stride, B: state.B, first: 0, count: SHOWN_WINDOWS, corpus: state.corpus, enc: state.enc, lower: state.lower, bpeV: state.bpeV };
  }

  // engine -> state -> Promise<windows reply | null>: tokenize first (a BPE build shows its
  // progress and can be cancelled there), then the windows (the worker queue keeps the order)
  static fetch(engine) {
    return async (state) => {
      const [, r] = await Promise.all([
        engine.request('tokenize', { corpus: state.corpus, enc: state.enc, lower: state.lower, bpeV: state.bpeV }),
        engine.latest('windows', 'windows', WindowsView.payload(state)),
      ]);
      return r;
    };
  }

  constructor(root, engine) {
    this.root = root;
    this.engine = engine;
    const $ = (id) => root.querySelector(`#${id}`);
    this.el = { stale: $('windows-stale'), summary: $('win-summary'), strip: $('win-strip'), pairs: $('win-pairs').querySelector('tbody'),
      first: $('win-first'), range: $('win-range') };
    this.last = null;
    let timer = null;
    this.el.first.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.page(Number(this.el.first.value)), 60);
    });
  }

  // Shows the windows from index `first` on (same settings, another part of the text).
  async page(first) {
    if (!this.state) return;
    try {
      const r = await this.engine.latest('windowsPage', 'windows', { ...WindowsView.payload(this.state), first });
      if (r) this.render(r, this.state);
    } catch (err) {
      this.el.range.textContent = err.message;
    }
  }

  setStale(text) {
    this.el.stale.textContent = text || '';
    this.el.stale.hidden = !text;
  }

  render(r, state) {
    this.last = r;
    this.state = { ...state };
    this.el.first.max = String(Math.max(0, r.numSamples - 1));
    this.el.first.value = String(r.first);
    const lastShown = r.windows.length ? r.windows[r.windows.length - 1].index : r.first;
    this.el.range.textContent = r.numSamples ? `windows ${r.first}–${lastShown} of ${r.numSamples.toLocaleString('en')}` : 'no windows';
    const { L, stride, B } = state;
    const N = r.tokens;
    const formula = N > L ? `⌊(${N} − ${L} − 1) / ${stride}⌋ + 1 = ${Math.floor((N - L - 1) / stride) + 1}` : `0 (needs more than ${L} tokens)`;
    const dropped = r.numSamples - r.used;
    const grouping = r.numBatches
      ? `Batch b holds windows ${B}·b to ${B}·b + ${B - 1}. `
      : '';
    const drop = dropped > 0
      ? `drop_last=True drops the last ${dropped.toLocaleString('en')} window${dropped > 1 ? 's' : ''} (${r.used}${dropped > 1 ? `–${r.numSamples - 1}` : ''}), which do not fill a batch of ${B}. `
      : r.numSamples ? 'Every window is in a full batch: drop_last drops nothing. ' : '';
    this.el.summary.textContent =
      `${N.toLocaleString('en')} tokens → ${r.numSamples.toLocaleString('en')} windows of ${L} (formula: ${formula}), ` +
      `${r.numBatches.toLocaleString('en')} batches of ${B} (drop_last), ${r.inputTokens.toLocaleString('en')} input tokens seen per epoch. ` +
      grouping + drop +
      (stride < L ? `stride ${stride} < max_length ${L}: windows overlap by ${L - stride} tokens.`
        : stride > L ? `stride ${stride} > max_length ${L}: ${stride - L} tokens between windows are never inputs.`
          : 'stride = max_length: windows tile the text without overlap.');
    this.renderStrip(r, L);
    this.renderPairs(r);
    this.root.dataset.renders = String(Number(this.root.dataset.renders || 0) + 1);
  }

  // positions [0, width) of the strip: the tokens, then per window an input row and a target row.
  renderStrip(r, L) {
    const byPos = new Map();
    for (const w of r.windows) {
      w.inputs.forEach((id, i) => byPos.set(w.start + i, id));
      w.targets.forEach((id, i) => byPos.set(w.start + 1 + i, id));
    }
    const from = r.windows.length ? r.windows[0].start : 0;
    let last = 0; // subtle: not Math.max(...keys), which throws past ~100k arguments
    for (const p of byPos.keys()) last = Math.max(last, p - from);
    const width = Math.min(MAX_STRIP, last + 1);
    const grid = this.el.strip;
    grid.replaceChildren();
    grid.style.gridTemplateColumns = `6em 7.5em repeat(${width}, minmax(3.2em, 1fr))`;
    grid.append(cell('batch', 'win-batch head'), cell('position', 'win-label'));
    for (let p = from; p < from + width; p++) grid.append(cell(String(p), 'win-pos'));
    grid.append(cell('', 'win-batch'), cell('token', 'win-label'));
    for (let p = from; p < from + width; p++) {
      const holder = document.createElement('div');
      holder.className = 'win-tok';
      if (byPos.has(p)) holder.append(makeChip(byPos.get(p), r.strings[byPos.get(p)]));
      grid.append(holder);
    }
    let prevBatch;
    for (const w of r.windows) {
      // the batch column names a batch on its first window's input row; dropped windows say so on each
      const dropped = w.batch === null;
      const group = dropped ? 'dropped' : `batch-${w.batch % 2 ? 'odd' : 'even'}`;
      const batchText = dropped ? 'dropped' : w.batch !== prevBatch ? `batch ${w.batch}` : '';
      prevBatch = w.batch;
      // subtle: rows span the strip's columns [from, from + width); a window covers [start, start + L).
      for (const [kind, start] of [['input', w.start], ['target', w.start + 1]]) {
        const b = cell(kind === 'input' ? batchText : '', `win-batch ${group}${kind === 'input' && batchText ? ' first' : ''}`);
        if (kind === 'input') b.title = dropped ? `window ${w.index} is not in any batch (drop_last=True)` : `window ${w.index} is row ${w.index % this.state.B} of batch ${w.batch}`;
        grid.append(b, cell(`${kind} ${w.index}`, `win-label ${kind}${dropped ? ' dropped' : ''}`));
        for (let p = from; p < from + width; p++) {
          const inside = p >= start && p < start + L;
          grid.append(cell(inside ? (kind === 'input' ? 'x' : 'y') : '', inside ? `win-cell ${kind}${dropped ? ' dropped' : ''}` : 'win-cell'));
        }
      }
    }
  }

  renderPairs(r) {
    const body = this.el.pairs;
    body.replaceChildren();
    // the worker sends the first ids of a long window only: '…' marks the rest
    const more = (ids) => (ids.length < this.state.L ? ' …' : '');
    const show = (ids) => Array.from(ids, (id) => JSON.stringify(visibleText(r.strings[id]))).join(' ') + more(ids);
    const list = (ids) => `[${Array.from(ids).join(', ')}${more(ids) ? ', …' : ''}]`;
    for (const w of r.windows) {
      const tr = document.createElement('tr');
      const batch = w.batch === null ? 'dropped (drop_last)' : String(w.batch);
      for (const text of [String(w.index), String(w.start), list(w.inputs), list(w.targets), show(w.inputs), show(w.targets), batch]) {
        const td = document.createElement('td');
        td.textContent = text;
        tr.append(td);
      }
      if (w.batch === null) tr.className = 'dropped';
      body.append(tr);
    }
  }

  recolor() {}
}
