// "Length extrapolation: past the trained context" (the card under "Compare positional
// encodings", train.html #extrapolation-card): each compared model, trained on windows of T,
// reads windows of T, 2T, 4T and 8T of the held-out text; with a fine-tune (compare: fine-tune
// steps) the same model then trains on windows of 2T and reads them again. It draws the
// worker's compare results (handlers/compare-handler.js) and computes nothing itself.
//
// Shows:
//   - held-out loss against the window length, one colour per kind (plots/kind-colours.js):
//     solid before the fine-tune, dashed after it;
//   - the same numbers as a table (the lowest of each column marked), with "no rows past T" or
//     the engine's refusal where a kind cannot run;
//   - the attention weights of the last position of the longest window over the positions
//     before it, per kind (the head as trained at T);
//   - a note that names the lowest loss at the longest window before and after the fine-tune.
// For tests: data-extrapolation (kind -> losses before) and data-extrapolation-finetuned (kind ->
// losses after | null) on the view's root.
//
//   const card = new ExtrapolationCard(root);
//   card.setKinds(M.positionalKinds());   card.draw(run);   card.describe(run);
import { LossChart } from '../plots/loss-chart.js';
import { kindColour } from '../plots/kind-colours.js';

const fmt = (v) => (v === null || v === undefined ? '–' : v.toFixed(3));
// the entry of window length L in a result's byLength ({length, loss, reason}), or undefined
const entryAt = (byLength, L) => (byLength ? byLength.find((x) => x.length === L) : undefined);
// its loss: null where the kind cannot run, or has no such length
const lossAt = (byLength, L) => (entryAt(byLength, L) || {}).loss ?? null;

// the registry's kinds that a comparison ran, in the registry's order
export const kindsOf = (kinds, run) => kinds.filter((k) => run.start.kinds.includes(k.name));
const signed = (d) => `${d >= 0 ? '+' : '−'}${Math.abs(d).toFixed(3)}`;

export class ExtrapolationCard {
  constructor(root) {
    this.root = root;
    const $ = (id) => root.querySelector(`#${id}`);
    this.card = $('extrapolation-card');
    this.note = $('extrap-note');
    this.attnNote = $('attn-note');
    this.tableEl = $('extrap-table');
    this.chartEl = $('extrap-chart');
    this.attnEl = $('attn-chart');
    this.kinds = [];
    this.lengthChart = null;
    this.attnChart = null;
  }

  setKinds(kinds) {
    this.kinds = kinds;
    this.colour = Object.fromEntries(kinds.map((k, i) => [k.name, kindColour(i)]));
  }

  kindsOf(run) {
    return kindsOf(this.kinds, run);
  }

  // series: one solid line per kind, and a dashed one after the fine-tune when there is one
  series(run) {
    const ft = run.start.finetune;
    return this.kindsOf(run).flatMap((k) => [
      { label: k.label, color: this.colour[k.name], points: true, value: (v) => v.toFixed(4) },
      ...(ft ? [{ label: `${k.label}, fine-tuned at ${ft.context}`, color: this.colour[k.name], dash: [5, 4], points: true, value: (v) => v.toFixed(4) }] : []),
    ]);
  }

  draw(run) {
    const kinds = this.kindsOf(run).filter((k) => run.results[k.name]);
    this.card.hidden = kinds.length === 0;
    if (!kinds.length) return;
    const { lengths, finetune } = run.start;
    const series = this.series(run);
    if (!this.lengthChart) {
      this.lengthChart = new LossChart(this.chartEl, { xLabel: 'window length (positions)', xLog2: true, height: 260, exportName: 'extrapolation', series });
      this.attnChart = new LossChart(this.attnEl, {
        xLabel: 'distance back from the last position', yLabel: 'attention weight', height: 260, exportName: 'attention',
        series: this.attnSeries(run),
      });
    } else {
      this.lengthChart.setSeries(series);
      this.attnChart.setSeries(this.attnSeries(run));
    }
    const columns = [];
    for (const k of this.kindsOf(run)) {
      const r = run.results[k.name];
      columns.push(lengths.map((L) => lossAt(r && r.byLength, L)));
      if (finetune) columns.push(lengths.map((L) => lossAt(r && r.finetune && r.finetune.byLength, L)));
    }
    this.lengthChart.setMarks([{ x: lengths[0], label: 'T (trained)' }, ...(finetune ? [{ x: finetune.context, label: 'fine-tune' }] : [])]);
    this.lengthChart.setData([lengths, ...columns]);
    const maxL = Math.max(...kinds.map((k) => run.results[k.name].attention.length));
    const d = Array.from({ length: maxL }, (_, i) => i);
    this.attnChart.setData([d, ...this.kindsOf(run).map((k) => {
      const r = run.results[k.name];
      if (!r) return d.map(() => null);
      const { at: last, weights } = r.attention;
      return d.map((i) => (i <= last ? weights[last - i] : null));
    })]);
    this.drawTable(run);
  }

  attnSeries(run) {
    return this.kindsOf(run).map((k) => ({ label: k.label, color: this.colour[k.name], width: 1.4, value: (v) => v.toFixed(4) }));
  }

  // kind | loss at each length | (after the fine-tune) loss at each length; the lowest of each
  // column in bold; a kind that cannot run says why in its row
  drawTable(run) {
    const { lengths, finetune } = run.start;
    const kinds = this.kindsOf(run).filter((k) => run.results[k.name]);
    const cols = [];
    for (const L of lengths) cols.push({ head: `${L}`, get: (r) => entryAt(r.byLength, L) });
    if (finetune) for (const L of lengths) cols.push({ head: `${L}`, get: (r) => r.finetune && entryAt(r.finetune.byLength, L), ft: true });
    const best = cols.map((c) => Math.min(...kinds.map((k) => (c.get(run.results[k.name]) || {}).loss ?? Infinity)));
    const cell = (tag, text, cls) => {
      const el = document.createElement(tag);
      el.textContent = text;
      if (cls) el.className = cls;
      return el;
    };
    const top = document.createElement('tr');
    top.append(cell('th', ''), Object.assign(cell('th', 'trained at T, window length'), { colSpan: lengths.length }));
    if (finetune) top.append(Object.assign(cell('th', `after ${finetune.steps} fine-tune steps at ${finetune.context}`, 'ft'), { colSpan: lengths.length }));
    const head = document.createElement('tr');
    head.append(cell('th', 'encoding'), ...cols.map((c) => cell('th', c.head, c.ft ? 'ft' : '')));
    const rows = kinds.map((k) => {
      const r = run.results[k.name];
      const tr = document.createElement('tr');
      tr.append(cell('th', k.label));
      cols.forEach((c, i) => {
        const e = c.get(r);
        if (c.ft && r.finetune && r.finetune.refused) {
          if (i === lengths.length) tr.append(Object.assign(cell('td', `fine-tune refused: ${r.finetune.refused}`, 'why ft'), { colSpan: lengths.length }));
          return;
        }
        const v = e ? e.loss : null;
        tr.append(cell('td', v === null ? (e && e.reason ? 'no rows past T' : '–') : fmt(v), `${c.ft ? 'ft ' : ''}${v !== null && v === best[i] ? 'best' : ''}`.trim()));
      });
      return tr;
    });
    const thead = document.createElement('thead');
    thead.append(top, head);
    const tbody = document.createElement('tbody');
    tbody.append(...rows);
    this.tableEl.replaceChildren(thead, tbody);
  }

  // The notes under the charts, and the data attributes for tests.
  describe(run) {
    const { lengths, finetune } = run.start;
    const T = lengths[0];
    const far = lengths[lengths.length - 1];
    const kinds = this.kindsOf(run);
    const parts = kinds.map((k) => {
      const r = run.results[k.name];
      const v = lossAt(r.byLength, far);
      return v === null ? `${k.label}: no position rows beyond T = ${T}` : `${k.label} ${v.toFixed(3)} (${signed(v - r.heldOut)})`;
    });
    const lowest = (get) => {
      const ok = kinds.map((k) => [k, get(run.results[k.name])]).filter(([, v]) => v !== null && v !== undefined);
      return ok.length ? ok.reduce((a, b) => (b[1] < a[1] ? b : a)) : null;
    };
    const before = lowest((r) => lossAt(r.byLength, far));
    let text = `Trained on windows of T = ${T} positions, evaluated on windows of ${lengths.join(', ')} (the same held-out text). ` +
      `At ${far} positions, change from T: ${parts.join('; ')}.`;
    if (before) text += ` Lowest at ${far}: ${before[0].label} (${before[1].toFixed(3)}).`;
    if (finetune) {
      const after = lowest((r) => r.finetune && lossAt(r.finetune.byLength, far));
      const moved = kinds.filter((k) => run.results[k.name].finetune && run.results[k.name].finetune.byLength).map((k) => {
        const r = run.results[k.name];
        const [b, a] = [lossAt(r.byLength, far), lossAt(r.finetune.byLength, far)];
        return `${k.label} ${signed(a - b)}`;
      });
      text += ` After ${finetune.steps} more steps on windows of ${finetune.context} (dashed), the change at ${far}: ${moved.join('; ')}` +
        (after ? `; lowest at ${far}: ${after[0].label} (${after[1].toFixed(3)}).` : '.');
      const refused = kinds.filter((k) => run.results[k.name].finetune && run.results[k.name].finetune.refused);
      if (refused.length) text += ` ${refused.map((k) => k.label).join(', ')}: no fine-tune (no rows past T).`;
    }
    text += ' A kind whose loss stays flat runs past its training length; one that climbs meets positions (or distances) it never saw.';
    this.note.textContent = text;
    this.attnNote.textContent = `Attention weights of the last position of a ${far}-position window (the longest each kind can run; ` +
      `learned tables stop at T = ${T}) over the positions before it, 0 = itself, as trained at T (before any fine-tune). A bias that grows with distance keeps the head local.`;
    this.root.dataset.extrapolation = JSON.stringify(Object.fromEntries(kinds.map((k) => [k.name, run.results[k.name].byLength.map((x) => x.loss)])));
    this.root.dataset.extrapolationFinetuned = JSON.stringify(Object.fromEntries(kinds.map((k) => {
      const f = run.results[k.name].finetune;
      return [k.name, f && f.byLength ? f.byLength.map((x) => x.loss) : null];
    })));
  }
}
