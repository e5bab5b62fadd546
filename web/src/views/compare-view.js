// "Compare positional encodings" and "Length extrapolation" (issue 9): the next-token model
// trained once per positional kind of the engine's registry, on its own text and tokenizer
// (defaults: characters of Tiny Shakespeare, 600 steps per kind, where word order matters and
// the runs are long enough to show it), with the rest of the model settings from the panel.
// The worker steps one kind at a time in ~40 ms slices (compare-handler.js), so the page shows
// progress with an ETA and can cancel; a cancelled run leaves the last complete comparison.
//
// Shows:
//   - training loss per kind, smoothed (EMA over ~20 steps, bias-corrected; the raw loss of the
//     step under the cursor is in the legend), the held-out loss during training (dashed, points),
//     and chance, ln V (what uniform guessing costs);
//   - a bar chart of the final held-out loss at T per kind, against chance;
//   - on a text too small to learn from (memorisation.js tooSmallToLearn: even the best held-out
//     loss is at or above chance) the note says so and names no lowest encoding
//     (data-compare-verdict="too-small" on the view, else "ranked");
//   - held-out loss against the window length (T, 2T, 4T): the trained model run past its
//     context; kinds with one row per position say "no position rows beyond T" instead of a number;
//   - the attention weights of the last position of the longest window over the positions
//     before it, per kind (the trained head).
//
//   const cv = new CompareView(root, engine, {onError});
//   cv.setKinds(M.positionalKinds());  cv.run(state);  cv.cancel();
import { BarChart } from '../plots/bar-chart.js';
import { LossChart, OKABE_ITO } from '../plots/loss-chart.js';
import { formatNumber } from '../plots/scales.js';
import { tooSmallToLearn } from '../memorisation.js';

const EMA_SPAN = 20; // steps
const FIELDS = { steps: 'cmp', enc: 'cmpEnc', corpus: 'cmpCorpus' }; // payload key -> page field

// The compare request for a page state: the panel's model settings with the compare card's
// text, tokenizer and steps.
export function comparePayload(state) {
  return { ...state, model: 'next', enc: state.cmpEnc, corpus: state.cmpCorpus, lower: false, steps: state.cmp };
}

// Bias-corrected exponential moving average (TensorBoard's smoothing): ys -> smoothed ys.
export function ema(ys, span = EMA_SPAN) {
  const a = 2 / (span + 1);
  const out = new Array(ys.length);
  let m = 0;
  let w = 0;
  for (let i = 0; i < ys.length; i++) {
    m = (1 - a) * m + a * ys[i];
    w = (1 - a) * w + a;
    out[i] = m / w;
  }
  return out;
}

const fmt = (v) => (v === null || v === undefined ? '–' : v.toFixed(3));

export class CompareView {
  constructor(root, engine, { onError }) {
    this.root = root;
    this.engine = engine;
    this.onError = onError;
    const $ = (id) => root.querySelector(`#${id}`);
    this.el = {
      button: $('train-compare'), note: $('compare-note'), progress: $('compare-progress'), status: $('compare-status'),
      progressRow: $('compare-progress-row'), results: $('compare-results'), extrap: $('extrapolation-card'),
      extrapNote: $('extrap-note'), attnNote: $('attn-note'),
    };
    this.kinds = [];
    this.running = null; // the run in progress: {token, ...}
    this.last = null; // the last complete comparison
    this.logY = false;
    this.el.button.addEventListener('click', () => (this.running ? this.cancel() : this.run(this.state)));
  }

  setKinds(kinds) {
    this.kinds = kinds;
    const $ = (id) => this.root.querySelector(`#${id}`);
    const color = (i) => OKABE_ITO[i % OKABE_ITO.length];
    this.loss = new LossChart($('compare-loss'), {
      logY: this.logY, exportName: 'loss',
      series: [
        ...kinds.flatMap((k, i) => [
          { label: `${k.label} (train, smoothed)`, color: i, value: (v, idx) => this.rawValue(k.name, v, idx) },
          { label: `${k.label} held out`, color: i, dash: [5, 4], points: true, width: 1.2 },
        ]),
        { label: 'chance ln V', color: '#3b4450', dash: [2, 4], width: 1.2 },
      ],
    });
    this.bars = new BarChart($('compare-bars'), { xLabel: 'held-out loss at T (nats per token)', exportName: 'final-loss' });
    this.lengthChart = new LossChart($('extrap-chart'), {
      xLabel: 'window length (positions)', xLog2: true, height: 240, exportName: 'extrapolation',
      series: kinds.map((k, i) => ({ label: k.label, color: i, points: true, value: (v) => v.toFixed(4) })),
    });
    this.attnChart = new LossChart($('attn-chart'), {
      xLabel: 'distance back from the last position', yLabel: 'attention weight', height: 240, exportName: 'attention',
      series: kinds.map((k, i) => ({ label: k.label, color: i, width: 1.4, value: (v) => v.toFixed(4) })),
    });
    this.colors = Object.fromEntries(kinds.map((k, i) => [k.name, color(i)]));
    this.root.querySelector('#compare-intro').textContent =
      `Trains the next-token model once per positional encoding (${kinds.map((k) => k.label).join(', ')}) on the same text with the same seed, ` +
      'and measures the loss on the last tenth of the text, which no run trains on. Without any position signal the attention head sees the ' +
      'earlier tokens as an unordered set, which costs most on characters, where order is everything.';
  }

  setState(state) {
    this.state = { ...state };
  }

  setLog(on) {
    this.logY = on;
    if (this.loss) this.loss.setLog(on);
  }

  // Legend text of a smoothed point: the EMA and the raw loss of that step.
  rawValue(kind, v, idx) {
    const run = this.shown;
    const c = run && run.curves[kind];
    const raw = c && idx !== null && idx !== undefined ? c.raw[idx - 1] : undefined;
    return raw === undefined ? v.toFixed(3) : `${v.toFixed(3)} (raw ${raw.toFixed(3)})`;
  }

  async run(state) {
    if (!state || this.running) return;
    const token = {};
    this.running = token;
    this.el.button.textContent = 'Cancel';
    this.el.progressRow.hidden = false;
    this.root.dataset.comparing = '1';
    const t0 = performance.now();
    try {
      const start = await this.engine.request('compareStart', comparePayload(state), FIELDS);
      const run = { start, curves: {}, held: {}, results: {}, steps: start.steps };
      for (const k of start.kinds) run.curves[k] = { raw: [], ema: [] };
      this.shown = run;
      let done = 0; // steps finished over all kinds
      const total = start.steps * start.kinds.length;
      while (this.running === token) {
        const r = await this.engine.request('compareStep', { budgetMs: 40 });
        if (this.running !== token) break; // cancelled while the slice ran
        const c = run.curves[r.kind];
        for (const [, loss] of r.points) c.raw.push(loss);
        c.ema = ema(c.raw);
        (run.held[r.kind] ||= []).push(...r.held);
        done = r.index * start.steps + r.step;
        if (r.done) run.results[r.kind] = r.result;
        this.progress(done, total, performance.now() - t0, start, r);
        this.draw(run, false);
        if (r.finished) {
          this.last = run;
          this.draw(run, true);
          this.root.dataset.compared = String(Number(this.root.dataset.compared || 0) + 1);
          break;
        }
        await new Promise((res) => requestAnimationFrame(res));
      }
    } catch (err) {
      this.el.note.textContent = err.message;
      this.onError(err);
      if (this.last) this.draw(this.last, true);
    } finally {
      if (this.running === token) this.finish();
    }
  }

  finish() {
    this.running = null;
    this.el.button.textContent = 'Compare encodings';
    this.el.progressRow.hidden = true;
    delete this.root.dataset.comparing;
  }

  // Stops the run; the last complete comparison (if any) is shown again.
  async cancel() {
    if (!this.running) return;
    this.finish();
    if (this.last) {
      this.draw(this.last, true);
      this.el.note.textContent = `Cancelled. ${this.el.note.textContent}`;
    } else {
      this.shown = null;
      this.el.results.hidden = true;
      this.el.extrap.hidden = true;
      this.el.note.textContent = 'Cancelled: nothing compared yet.';
    }
    try {
      await this.engine.request('compareCancel', {}); // frees the worker's run (after the slice in flight)
    } catch (err) {
      this.onError(err);
    }
    this.root.dataset.cancelled = String(Number(this.root.dataset.cancelled || 0) + 1);
  }

  progress(done, total, ms, start, r) {
    const eta = done > 0 ? ((total - done) * ms) / done / 1000 : NaN;
    this.el.progress.max = total;
    this.el.progress.value = done;
    const kind = this.kinds.find((k) => k.name === r.kind);
    this.el.status.textContent = `training ${kind ? kind.label : r.kind} (${r.index + (r.done ? 0 : 1)} of ${start.kinds.length}), ` +
      `step ${r.step} of ${start.steps}; ${formatNumber(ms / 1000)} s so far, about ${Number.isFinite(eta) ? formatNumber(eta) : '–'} s left`;
  }

  draw(run, complete) {
    const { start } = run;
    this.shown = run;
    this.el.results.hidden = false;
    // x: step 0 (the held-out loss before training) .. steps
    const xs = Array.from({ length: run.steps + 1 }, (_, i) => i);
    const series = [];
    for (const k of this.kinds) {
      const c = run.curves[k.name];
      const held = new Array(xs.length).fill(null);
      for (const [s, v] of run.held[k.name] || []) held[s] = v;
      series.push(c ? [null, ...c.ema, ...new Array(Math.max(0, run.steps - c.ema.length)).fill(null)] : xs.map(() => null), held);
    }
    series.push(xs.map(() => start.chance));
    this.loss.setData([xs, ...series]);
    this.drawBars(run);
    this.drawLengths(run);
    if (complete) this.describe(run);
  }

  drawBars(run) {
    const { start } = run;
    const items = this.kinds.filter((k) => run.results[k.name]).map((k) => ({ label: k.label, value: run.results[k.name].heldOut, color: this.colors[k.name] }));
    const best = Math.min(...items.map((d) => d.value));
    const tooSmall = tooSmallToLearn(items.map((d) => d.value), start.chance); // no winner to name
    for (const d of items) {
      d.best = !tooSmall && d.value === best;
      d.suffix = tooSmall ? ' (above chance)' : d.best ? ' (lowest)' : ` (+${(d.value - best).toFixed(3)})`;
    }
    this.bars.setData(items, { reference: { value: start.chance, label: `chance ln ${start.vocab} = ${start.chance.toFixed(2)}` }, title: 'final held-out loss per encoding' });
  }

  drawLengths(run) {
    const { start } = run;
    const done = this.kinds.filter((k) => run.results[k.name]);
    this.el.extrap.hidden = done.length === 0;
    if (!done.length) return;
    const lengths = start.lengths;
    this.lengthChart.setData([lengths, ...this.kinds.map((k) => {
      const r = run.results[k.name];
      return lengths.map((L) => (r ? (r.byLength.find((x) => x.length === L) || {}).loss ?? null : null));
    })]);
    const maxL = Math.max(...done.map((k) => run.results[k.name].attention.length));
    const d = Array.from({ length: maxL }, (_, i) => i);
    this.attnChart.setData([d, ...this.kinds.map((k) => {
      const r = run.results[k.name];
      if (!r) return d.map(() => null);
      const { at, weights } = r.attention;
      return d.map((i) => (i <= at ? weights[at - i] : null));
    })]);
  }

  // The notes under the charts: numbers, the best kind, how much worse "none" is, and what
  // happens past T.
  describe(run) {
    const { start } = run;
    const held = this.kinds.map((k) => [k, run.results[k.name].heldOut]);
    const best = held.reduce((a, b) => (b[1] < a[1] ? b : a));
    const none = held.find(([k]) => k.provides === 'none');
    const worst = held.reduce((a, b) => (b[1] > a[1] ? b : a));
    const T = start.lengths[0];
    const losses = `${held.map(([k, v]) => `${k.name} ${v.toFixed(3)}`).join(', ')}; chance ln ${start.vocab.toLocaleString('en')} = ${start.chance.toFixed(3)}`;
    const tooSmall = tooSmallToLearn(held.map(([, v]) => v), start.chance);
    this.root.dataset.compareVerdict = tooSmall ? 'too-small' : 'ranked';
    let text = `Held-out loss at T = ${T} (the last ${start.heldOutTokens.toLocaleString('en')} tokens, never trained on) after ${start.steps} steps: ${losses}. `;
    if (tooSmall) {
      text = `This text is too small to learn from: after ${start.steps} steps every encoding's held-out loss (${worst === best ? best[1].toFixed(2) : `${best[1].toFixed(2)}–${worst[1].toFixed(2)}`}) ` +
        `is at or above chance ln ${start.vocab.toLocaleString('en')} = ${start.chance.toFixed(2)}. The model memorised its ${start.trainTokens.toLocaleString('en')} training tokens and predicts ` +
        'text it has not seen worse than a uniform guess, so no encoding wins here and the differences mean nothing. ' +
        `Try Tiny Shakespeare or characters. ${text}`;
    } else {
      text += `Lowest: ${best[0].label}.`;
    }
    if (!tooSmall && none && none !== best) {
      text += ` Without positions (${none[0].label}) the loss is ${(none[1] - best[1]).toFixed(3)} nats per token above the best` +
        (worst === none ? ', the worst of all: the head cannot tell the order of the tokens it attends to.' : ', but not the worst here; try more steps or characters.');
    }
    this.el.note.textContent = text;
    this.el.note.classList.toggle('verdict', tooSmall); // the training chart's warning box (style.css)
    this.el.note.classList.toggle('memorising', tooSmall);
    this.root.dataset.heldOut = JSON.stringify(Object.fromEntries(held.map(([k, v]) => [k.name, v])));
    this.root.dataset.chance = String(start.chance);
    const far = start.lengths[start.lengths.length - 1];
    const parts = this.kinds.map((k) => {
      const r = run.results[k.name];
      const at = r.byLength.find((x) => x.length === far);
      if (!at || at.loss === null) return `${k.label}: no position rows beyond T = ${T}`;
      const d = at.loss - r.heldOut;
      return `${k.label} ${at.loss.toFixed(3)} (${d >= 0 ? '+' : ''}${d.toFixed(3)})`;
    });
    this.el.extrapNote.textContent = `Trained on windows of T = ${T} positions, evaluated on windows of ${start.lengths.join(', ')} (the same held-out text). ` +
      `At ${far} positions, change from T: ${parts.join('; ')}. A kind whose loss stays flat runs past its training length; ` +
      'one that climbs meets positions (or distances) it never saw.';
    this.el.attnNote.textContent = `Attention weights of the last position of a ${far}-position window (the longest each kind can run; ` +
      `learned tables stop at T = ${T}) over the positions before it, 0 = itself. A bias that grows with distance keeps the head local.`;
    this.root.dataset.extrapolation = JSON.stringify(Object.fromEntries(this.kinds.map((k) => [k.name, run.results[k.name].byLength.map((x) => x.loss)])));
  }
}
