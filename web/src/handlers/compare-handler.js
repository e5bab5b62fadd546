// Worker-side handlers for "compare positional encodings" (issue 9): the same next-token model
// trained once per positional kind of the engine's registry, on the same text with the same
// seed, stepped in time slices so the page can show progress and cancel between them.
//
//   compareStart  {...train payload (corpus, enc, lower, bpeV, tD, ctx, tB, opt, lr, seed,
//                  '<kind>.<param>' keys), steps, kinds = every kind of M.positionalKinds()}
//                 -> {kinds, steps, vocab, chance: ln V, trainTokens, heldOutTokens, lengths: [T, 2T, 4T], evalEvery}
//   compareStep   {budgetMs = 40} -> {kind, index (of the kind), points: [[step, loss]...] (raw
//                 training losses), held: [[step, loss]...] (held-out probe), step, done (this kind),
//                 result (when done: {heldOut, byLength: [{length, loss | null, reason}], attention:
//                 {length, at, weights}}), finished (every kind), ms}
//   compareCancel {} -> {cancelled}: frees the run; the page keeps its last complete comparison
//   Every request may carry `slot` (train-handler.js): each slot has its own comparison.
//
// Held out: the last 10% of the ids (next-token-input.js heldOutSplit, the CLI's rule), at most MAX_HELD_OUT tokens of it (the end of the text), never
// trained on. During training a probe (its first PROBE_TOKENS) is evaluated every evalEvery
// steps for the held-out curve; at the end of each kind the whole held-out part is evaluated at
// window lengths T, 2T and 4T (length extrapolation: the trained model on longer windows;
// kinds whose parameters are per position, such as learned absolute positions, cannot run past
// T and report why instead of a number) with the attention weights of the last position of the
// longest window the kind can run.
import { blame, blamed } from '../protocol.js';
import { heldOutSplit, nextTokenRows } from './next-token-input.js';
import { positionParams } from '../state.js';

const MAX_COMPARE_STEPS = 100000; // steps per encoding: the curves are kept in JS
const MAX_HELD_OUT = 16384; // held-out tokens evaluated at the end of each kind
const PROBE_TOKENS = 2048; // held-out tokens of the curve during training
const CURVE_POINTS = 20; // held-out points per curve
const NEXT_ARGS = ['ctx', 'tB', 'tD', 'lr', 'opt', 'cmpEnc', 'cmpCorpus', 'seed'];

export function makeCompareHandlers(M, ensureTokens) {
  const jobs = new Map(); // slot -> comparison
  let job = null; // the comparison of the request being handled (use())

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

  async function compareStart(p) {
    if (!(Number.isSafeInteger(p.steps) && p.steps >= 1 && p.steps <= MAX_COMPARE_STEPS)) {
      throw blamed(new Error(`compare: steps ${p.steps} out of range [1, ${MAX_COMPARE_STEPS}]`), ['steps']);
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
    const kinds = p.kinds || M.positionalKinds().map((k) => k.name);
    const lengths = [T, 2 * T, 4 * T].filter((L) => heldOut.length > L);
    job = {
      p, kinds, steps: p.steps, vocab: rowIds.length, train, heldOut, lengths,
      probe: heldOut.subarray(0, Math.max(T + 1, Math.min(heldOut.length, PROBE_TOKENS + 1))),
      evalEvery: Math.max(1, Math.round(p.steps / CURVE_POINTS)), index: 0, tr: null,
    };
    jobs.set(String(p.slot ?? ''), job);
    return { kinds, steps: p.steps, vocab: job.vocab, chance: Math.log(job.vocab), trainTokens: train.length, heldOutTokens: heldOut.length, lengths, evalEvery: job.evalEvery };
  }

  // Held-out loss at each length and the attention of the last position of the longest window.
  function finalResult(tr) {
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

  function compareStep({ budgetMs = 40, slot } = {}) {
    if (!use({ slot })) throw new Error('compare: start a comparison first');
    const t0 = performance.now();
    const kind = job.kinds[job.index];
    if (!job.tr) {
      const p = job.p;
      job.tr = blame(NEXT_ARGS, () => M.Trainer.nextToken(job.train, {
        vocabSize: job.vocab, vectorSize: p.tD, context: p.ctx, batchSize: p.tB, pos: kind, posParams: positionParams(p, kind),
        optimizer: p.opt, lr: p.lr, seed: p.seed,
      }));
      job.step = 0;
    }
    const points = [];
    const held = [];
    if (job.step === 0) held.push([0, job.tr.evaluate(job.probe)]);
    while (job.step < job.steps && performance.now() - t0 < budgetMs) {
      const s = blame(['lr', 'cmp'], () => job.tr.step(1));
      job.step = s.totalSteps;
      points.push([job.step, s.lastLoss]);
      if (job.step % job.evalEvery === 0 || job.step === job.steps) held.push([job.step, job.tr.evaluate(job.probe)]);
    }
    const index = job.index;
    const out = { kind, index, points, held, step: job.step, done: false, finished: false };
    if (job.step >= job.steps) {
      out.done = true;
      out.result = finalResult(job.tr);
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
