// Worker-side handlers for "compare positional encodings" (issue 9): the same next-token model
// trained once per positional kind of the engine's registry, on the same text with the same
// seed, stepped in time slices so the page can show progress and cancel between them.
//
//   compareStart  {...train payload (corpus, enc, lower, bpeV, tD, ctx, tB, opt, lr, seed,
//                  '<kind>.<param>' keys), steps, kinds = every kind of M.positionalKinds(),
//                  factor = 2 (the `factor` of every kind that has one: the RoPE scalings),
//                  finetune = 0 (steps at context 2T after the T steps; 0: none)}
//                 -> {kinds, steps, vocab, chance: ln V, trainTokens, heldOutTokens,
//                     lengths: [T, 2T, 4T, 8T], evalEvery, factor, finetune: {steps, context: 2T} | null}
//   compareStep   {budgetMs = 40} -> {kind, index (of the kind), points: [[step, loss]...] (raw
//                 training losses; fine-tune steps go on from step `steps`), held: [[step, loss]...]
//                 (held-out probe, during the T steps), step, phase ('train' | 'finetune'), done
//                 (this kind), result (when done: {heldOut, byLength: [{length, loss | null, reason}],
//                 attention: {length, at, weights}, params (the kind's values),
//                 finetune: null | {context, steps, heldOut (at T), byLength} | {refused: message}}),
//                 finished (every kind), ms}
//   compareCancel {} -> {cancelled}: frees the run; the page keeps its last complete comparison
//   Every request may carry `slot` (train-handler.js): each slot has its own comparison.
//
// Held out: the last 10% of the ids (next-token-input.js heldOutSplit, the CLI's rule), at most MAX_HELD_OUT tokens of it (the end of the text), never
// trained on. During training a probe (its first PROBE_TOKENS) is evaluated every evalEvery
// steps for the held-out curve; at the end of each kind the whole held-out part is evaluated at
// window lengths T, 2T, 4T and 8T (length extrapolation: the trained model on longer windows;
// kinds whose parameters are per position, such as learned absolute positions, cannot run past
// T and report why instead of a number) with the attention weights of the last position of the
// longest window the kind can run. Then, with `finetune` steps, the same model trains on on
// windows of 2T (Trainer.startFinetune: parameters, optimizer state and batch stream go on) and
// is evaluated again at every length; the engine refuses a kind that cannot run past T, and its
// message is the result. The RoPE scalings take the comparison's factor, and their
// original_context is the trained context T (a model trained at T has that context by
// definition), whatever the kinds' own settings say.
import { blame, blamed } from '../protocol.js';
import { heldOutSplit, nextTokenRows } from './next-token-input.js';
import { positionParams } from '../state.js';

const MAX_COMPARE_STEPS = 100000; // steps per encoding: the curves are kept in JS
const MAX_HELD_OUT = 16384; // held-out tokens evaluated at the end of each kind
const PROBE_TOKENS = 2048; // held-out tokens of the curve during training
const CURVE_POINTS = 20; // held-out points per curve
const NEXT_ARGS = ['ctx', 'tB', 'tD', 'lr', 'opt', 'cmpEnc', 'cmpCorpus', 'seed', 'cmpFactor'];
const LENGTHS = [1, 2, 4, 8]; // evaluation windows, in units of T
const FINETUNE_CONTEXT = 2; // the fine-tune's windows, in units of T

export function makeCompareHandlers(M, ensureTokens) {
  const jobs = new Map(); // slot -> comparison
  let job = null; // the comparison of the request being handled (use())
  const registry = M.positionalKinds();

  function use(p) {
    job = jobs.get(String(p.slot ?? '')) || null;
    return job;
  }

  function free(p) {
    use(p);
    if (job && job.tr) job.tr.delete();
    jobs.delete(String(p.slot ?? ''));
    job = null;
  }

  const stepCount = (v, key, field) => {
    if (!(Number.isSafeInteger(v) && v >= (key === 'steps' ? 1 : 0) && v <= MAX_COMPARE_STEPS)) {
      throw blamed(new Error(`compare: ${key} ${v} out of range [${key === 'steps' ? 1 : 0}, ${MAX_COMPARE_STEPS}]`), [field]);
    }
    return v;
  };

  // the kind's values in this comparison: its settings, the comparison's factor, original_context = T
  function kindParams(p, name) {
    const out = positionParams(p, name);
    const has = (q) => registry.find((k) => k.name === name).params.some((x) => x.name === q);
    if (has('factor')) out.factor = p.factor ?? 2;
    if (has('original_context')) out.original_context = Number(p.ctx);
    return out;
  }

  async function compareStart(p) {
    const steps = stepCount(p.steps, 'steps', 'steps');
    const finetune = stepCount(p.finetune ?? 0, 'finetune', 'cmpFt');
    const names = registry.map((k) => k.name);
    const kinds = p.kinds && p.kinds.length ? p.kinds : names;
    for (const k of kinds) {
      if (!names.includes(k)) throw blamed(new Error(`compare: '${k}' is not a positional kind (${names.join(', ')})`), ['cmpKinds']);
    }
    free(p);
    const c = await ensureTokens(p);
    const { ids, rowIds } = nextTokenRows(M, c.ids, c.tok); // the training run's rows
    const T = Number(p.ctx);
    const { cut } = heldOutSplit(ids.length); // the training run's and the CLI's rule
    const train = ids.subarray(0, cut);
    const heldOut = ids.subarray(Math.max(cut, ids.length - MAX_HELD_OUT));
    if (heldOut.length <= T) {
      throw blamed(new Error(`compare: the held-out tenth of the text has ${heldOut.length} tokens, fewer than context ${T} + 1; use a longer text or a shorter context`), ['cmpCorpus', 'ctx']);
    }
    const lengths = LENGTHS.map((f) => f * T).filter((L) => heldOut.length > L);
    job = {
      p, kinds, steps, vocab: rowIds.length, train, heldOut, lengths,
      finetune: finetune ? { steps: finetune, context: FINETUNE_CONTEXT * T } : null,
      probe: heldOut.subarray(0, Math.max(T + 1, Math.min(heldOut.length, PROBE_TOKENS + 1))),
      evalEvery: Math.max(1, Math.round(steps / CURVE_POINTS)), index: 0, tr: null,
    };
    jobs.set(String(p.slot ?? ''), job);
    return {
      kinds, steps, vocab: job.vocab, chance: Math.log(job.vocab), trainTokens: train.length, heldOutTokens: heldOut.length,
      lengths, evalEvery: job.evalEvery, factor: p.factor ?? 2, finetune: job.finetune,
    };
  }

  // Held-out loss at each length, and the attention of the last position of the longest window.
  function byLengths(tr) {
    const byLength = [];
    let attention = null;
    for (const L of job.lengths) {
      try {
        const e = tr.evaluateAt(job.heldOut, { length: L });
        byLength.push({ length: L, loss: e.loss });
        attention = { length: L, at: e.at, weights: e.attention };
      } catch (err) {
        byLength.push({ length: L, loss: null, reason: err.message });
      }
    }
    return { heldOut: byLength[0].loss, byLength, attention };
  }

  // One unit of work of the current kind: a training step, the evaluation after training (and
  // the start of the fine-tune), a fine-tune step, or the evaluation after the fine-tune.
  // -> true when the kind is done
  function work(kind, points, held) {
    const k = job.run;
    const ft = job.finetune;
    if (k.step < job.steps) {
      const s = blame(['lr', 'cmp'], () => job.tr.step(1));
      k.step = s.totalSteps;
      points.push([k.step, s.lastLoss]);
      if (k.step % job.evalEvery === 0 || k.step === job.steps) held.push([k.step, job.tr.evaluate(job.probe)]);
      return false;
    }
    if (!k.result) {
      k.result = { ...byLengths(job.tr), params: job.params, finetune: null };
      if (!ft) return true;
      try {
        job.tr.startFinetune(ft.context);
      } catch (err) {
        k.result.finetune = { refused: err.message }; // the engine's rule: no rows past T
        return true;
      }
      k.phase = 'finetune';
      return false;
    }
    if (k.step < job.steps + ft.steps) {
      const s = blame(['lr', 'cmpFt'], () => job.tr.step(1));
      k.step = s.totalSteps;
      points.push([k.step, s.lastLoss]);
      return false;
    }
    const after = byLengths(job.tr);
    k.result.finetune = { context: ft.context, steps: ft.steps, heldOut: after.heldOut, byLength: after.byLength };
    return true;
  }

  function compareStep({ budgetMs = 40, slot } = {}) {
    if (!use({ slot })) throw new Error('compare: start a comparison first');
    const t0 = performance.now();
    const kind = job.kinds[job.index];
    if (!job.tr) {
      const p = job.p;
      job.params = kindParams(p, kind);
      job.tr = blame(NEXT_ARGS, () => M.Trainer.nextToken(job.train, {
        vocabSize: job.vocab, vectorSize: p.tD, context: p.ctx, batchSize: p.tB, pos: kind, posParams: job.params,
        optimizer: p.opt, lr: p.lr, seed: p.seed,
      }));
      job.run = { step: 0, phase: 'train', result: null };
    }
    const points = [];
    const held = [];
    if (job.run.step === 0) held.push([0, job.tr.evaluate(job.probe)]);
    let done = false;
    while (!done && performance.now() - t0 < budgetMs) done = work(kind, points, held);
    const index = job.index;
    const out = { kind, index, points, held, step: job.run.step, phase: job.run.phase, done, finished: false };
    if (done) {
      out.result = job.run.result;
      job.tr.delete();
      job.tr = null;
      job.index++;
      out.finished = job.index >= job.kinds.length;
      if (out.finished) free({ slot });
    }
    out.ms = performance.now() - t0;
    return out;
  }

  function compareCancel(p = {}) {
    const had = !!use(p);
    free(p);
    return { cancelled: had };
  }

  return { compareStart, compareStep, compareCancel };
}
