// "Compare positional encodings" (issue 9): the next-token model trained once per positional
// kind the reader ticks in the card (cmpKinds; all of the engine's registry by default), on its
// own text and tokenizer (defaults: characters of Tiny Shakespeare, 600 steps per kind, where
// word order matters and the runs are long enough to show it), with the rest of the model
// settings from the panel; the RoPE scalings with the comparison's factor (cmpFactor), and
// after training each model fine-tuned for cmpFt steps at 2T (issue 26).
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
//   - the length-extrapolation card (extrapolation-card.js): held-out loss at T, 2T, 4T and 8T
//     before and after the fine-tune, and where the trained head looks.
// Each kind has its registry colour (plots/kind-colours.js). The fine-tune's steps follow the
// T steps on the loss chart's x axis.
//
//   const cv = new CompareView(root, engine, {onError, onSetting: (key, value) => ...});
//   cv.setKinds(M.positionalKinds());  cv.run(state);  cv.cancel();
import { BarChart } from '../plots/bar-chart.js';
import { LossChart } from '../plots/loss-chart.js';
import { kindColour } from '../plots/kind-colours.js';
import { ExtrapolationCard, kindsOf } from './extrapolation-card.js';
import { formatNumber } from '../plots/scales.js';
import { tooSmallToLearn } from '../memorisation.js';

const EMA_SPAN = 20; // steps
const FIELDS = { steps: 'cmp', enc: 'cmpEnc', corpus: 'cmpCorpus', kinds: 'cmpKinds', factor: 'cmpFactor', finetune: 'cmpFt' }; // payload key -> page field

// The compare request for a page state: the panel's model settings with the compare card's
// text, tokenizer and steps.
export function comparePayload(state) {
  return {
    ...state, model: 'next', enc: state.cmpEnc, corpus: state.cmpCorpus, lower: false, steps: state.cmp,
    kinds: state.cmpKinds ? state.cmpKinds.split(',') : undefined, factor: state.cmpFactor, finetune: state.cmpFt,
  };
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

export class CompareView {
  // onSetting(key, value): the reader changed a setting in the card (the ticked kinds: cmpKinds)
  constructor(root, engine, { onError, onSetting = () => {} }) {
    this.root = root;
    this.engine = engine;
    this.onError = onError;
    this.onSetting = onSetting;
    const $ = (id) => root.querySelector(`#${id}`);
    this.el = {
      button: $('train-compare'), note: $('compare-note'), progress: $('compare-progress'), status: $('compare-status'),
      progressRow: $('compare-progress-row'), results: $('compare-results'), kinds: $('compare-kinds'),
    };
    this.extrap = new ExtrapolationCard(root);
    this.kinds = [];
    this.running = null; // the run in progress: {token, ...}
    this.last = null; // the last complete comparison
    this.logY = false;
    this.el.button.addEventListener('click', () => (this.running ? this.cancel() : this.run(this.state)));
  }

  setKinds(kinds) {
    this.kinds = kinds;
    const $ = (id) => this.root.querySelector(`#${id}`);
    this.colors = Object.fromEntries(kinds.map((k, i) => [k.name, kindColour(i)]));
    this.loss = new LossChart($('compare-loss'), { logY: this.logY, exportName: 'loss', series: this.lossSeries(kinds) });
    this.bars = new BarChart($('compare-bars'), { xLabel: 'held-out loss at T (nats per token)', exportName: 'final-loss' });
    this.extrap.setKinds(kinds);
    this.kindBoxes(kinds);
    this.root.querySelector('#compare-intro').textContent =
      'Trains the next-token model once per positional encoding you tick below, on the same text with the same seed, ' +
      'and measures the loss on the last tenth of the text, which no run trains on. Without any position signal the attention head sees the ' +
      'earlier tokens as an unordered set, which costs most on characters, where order is everything.';
  }

  // the loss chart's series for these kinds: smoothed training loss, held out (dashed), chance
  lossSeries(kinds) {
    return [
      ...kinds.flatMap((k) => [
        { label: `${k.label} (train, smoothed)`, color: this.colors[k.name], value: (v, idx) => this.rawValue(k.name, v, idx) },
        { label: `${k.label} held out`, color: this.colors[k.name], dash: [5, 4], points: true, width: 1.2 },
      ]),
      { label: 'chance ln V', color: '#3b4450', dash: [2, 4], width: 1.2 },
    ];
  }

  // One checkbox per kind of the registry (its label, its help line as the title); a change
  // sets cmpKinds (every kind ticked: '', the default). The last ticked box cannot be unticked.
  kindBoxes(kinds) {
    this.el.kinds.replaceChildren(...kinds.map((k) => {
      const label = document.createElement('label');
      label.className = 'kind-box';
      label.title = k.description;
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.value = k.name;
      box.checked = true;
      const swatch = document.createElement('span');
      swatch.className = 'swatch';
      swatch.style.background = this.colors[k.name];
      label.append(box, swatch, document.createTextNode(k.label));
      box.addEventListener('change', () => {
        const ticked = this.tickedKinds();
        if (!ticked.length) {
          box.checked = true;
          this.el.note.textContent = 'Compare at least one encoding.';
          return;
        }
        this.onSetting('cmpKinds', ticked.length === kinds.length ? '' : ticked.join(','));
      });
      return label;
    }));
    if (this.state) this.setState(this.state);
  }

  tickedKinds() {
    return [...this.el.kinds.querySelectorAll('input')].filter((b) => b.checked).map((b) => b.value);
  }

  setState(state) {
    this.state = { ...state };
    const chosen = state.cmpKinds ? state.cmpKinds.split(',') : null;
    for (const b of this.el.kinds.querySelectorAll('input')) b.checked = !chosen || chosen.includes(b.value);
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
      // steps: the x axis, the T steps and then the fine-tune's
      const perKind = start.steps + (start.finetune ? start.finetune.steps : 0);
      const run = { start, curves: {}, held: {}, results: {}, steps: perKind };
      for (const k of start.kinds) run.curves[k] = { raw: [], ema: [] };
      this.shown = run;
      let done = 0; // steps finished over all kinds
      const total = perKind * start.kinds.length;
      while (this.running === token) {
        const r = await this.engine.request('compareStep', { budgetMs: 40 });
        if (this.running !== token) break; // cancelled while the slice ran
        const c = run.curves[r.kind];
        for (const [, loss] of r.points) c.raw.push(loss);
        c.ema = ema(c.raw);
        (run.held[r.kind] ||= []).push(...r.held);
        done = r.index * perKind + r.step;
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
      this.extrap.card.hidden = true;
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
    const ft = start.finetune;
    const phase = r.phase === 'finetune' && !r.done ? ` (fine-tune at ${ft.context})` : '';
    this.el.status.textContent = `training ${kind ? kind.label : r.kind} (${r.index + (r.done ? 0 : 1)} of ${start.kinds.length}), ` +
      `step ${r.step} of ${start.steps + (ft ? ft.steps : 0)}${phase}; ${formatNumber(ms / 1000)} s so far, about ${Number.isFinite(eta) ? formatNumber(eta) : '–'} s left`;
  }

  kindsOf(run) {
    return kindsOf(this.kinds, run);
  }

  draw(run, complete) {
    const { start } = run;
    this.shown = run;
    this.el.results.hidden = false;
    this.loss.setSeries(this.lossSeries(this.kindsOf(run))); // rebuilt only when the kinds differ
    // x: step 0 (the held-out loss before training) .. steps (and the fine-tune's)
    const xs = Array.from({ length: run.steps + 1 }, (_, i) => i);
    const series = [];
    for (const k of this.kindsOf(run)) {
      const c = run.curves[k.name];
      const held = new Array(xs.length).fill(null);
      for (const [s, v] of run.held[k.name] || []) held[s] = v;
      series.push(c ? [null, ...c.ema, ...new Array(Math.max(0, run.steps - c.ema.length)).fill(null)] : xs.map(() => null), held);
    }
    series.push(xs.map(() => start.chance));
    this.loss.setData([xs, ...series]);
    this.drawBars(run);
    this.extrap.draw(run);
    if (complete) {
      this.describe(run);
      this.extrap.describe(run);
    }
  }

  drawBars(run) {
    const { start } = run;
    const items = this.kindsOf(run).filter((k) => run.results[k.name]).map((k) => ({ label: k.label, value: run.results[k.name].heldOut, color: this.colors[k.name] }));
    const best = Math.min(...items.map((d) => d.value));
    const tooSmall = tooSmallToLearn(items.map((d) => d.value), start.chance); // no winner to name
    for (const d of items) {
      d.best = !tooSmall && d.value === best;
      d.suffix = tooSmall ? ' (above chance)' : d.best ? ' (lowest)' : ` (+${(d.value - best).toFixed(3)})`;
    }
    this.bars.setData(items, { reference: { value: start.chance, label: `chance ln ${start.vocab} = ${start.chance.toFixed(2)}` }, title: 'final held-out loss per encoding' });
  }

  // The note under the charts: numbers, the best kind and how much worse "none" is.
  describe(run) {
    const { start } = run;
    const held = this.kindsOf(run).map((k) => [k, run.results[k.name].heldOut]);
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
    const ft = start.finetune;
    const scaled = this.kindsOf(run).filter((k) => (run.results[k.name].params || {}).factor !== undefined);
    if (ft) text += ` The curves go on after step ${start.steps} with the fine-tune: ${ft.steps} steps on windows of ${ft.context} (the bars are before it).`;
    if (scaled.length) text += ` ${scaled.map((k) => k.label).join(', ')}: factor ${formatNumber(start.factor)}, original context ${T}.`;
    this.el.note.textContent = text;
    this.el.note.classList.toggle('verdict', tooSmall); // the training chart's warning box (style.css)
    this.el.note.classList.toggle('memorising', tooSmall);
    this.root.dataset.heldOut = JSON.stringify(Object.fromEntries(held.map(([k, v]) => [k.name, v])));
    this.root.dataset.chance = String(start.chance);
  }
}
