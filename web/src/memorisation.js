// Is a next-token run learning or memorising its text? One stated rule over the training and
// held-out curves, used by the training chart (views/train-view.js) and, for the final numbers,
// by the compare card (views/compare-view.js). Pure: no DOM, tested in tests/js/memorisation.test.mjs.
// It does not measure anything: the worker evaluates the held-out tail (handlers/train-handler.js).
//
// The rule (chance = ln V, the loss of a uniform guess over the V rows of the output layer):
//   no verdict before the held-out loss has been evaluated at step MIN_STEPS or later;
//   memorising when
//     (a) above chance: the last ABOVE_EVALS held-out evaluations are all >= chance (the model
//         predicts text it has not seen worse than a uniform guess) while its training loss is
//         more than GAP_NATS below them (it did fit its own text), or
//     (b) a growing gap: held-out minus training loss is above GAP_NATS at each of the last
//         GAP_EVALS evaluations and larger at the last than at the first of them;
//   else, with the last held-out loss at or above chance: not learning when training loss is as
//   high (within GAP_NATS: nothing learned yet, e.g. a tiny learning rate), watching when it is
//   not (one evaluation above chance: memorising if the next one is too);
//   else learning. The training loss at an evaluation is the mean of the step losses since the
//   previous evaluation (one step's batch loss is too noisy to compare).
//
//   memorisationVerdict([[1, 4.1], [2, 3.9]], [[0, 4.2]], Math.log(65)) -> {state: 'early', ...}
//   memorisationVerdict(train, [[200, 9.8], [250, 10.1]], Math.log(1416))
//     -> {state: 'memorising', reason: 'above-chance', step: 250, heldOut: 10.1, train: 0.4, gap: 9.7, chance: 7.26}

export const MIN_STEPS = 200;
export const ABOVE_EVALS = 2;
export const GAP_NATS = 1;
export const GAP_EVALS = 3;

// trainCurve [[step, loss]...] (ascending steps), heldCurve [[step, loss]...] (ascending), chance
// -> {state: 'early' | 'learning' | 'watching' | 'not-learning' | 'memorising', reason: null | 'above-chance' | 'gap', step,
//     heldOut, train, gap, chance} (the numbers of the last evaluation; null when there is none)
export function memorisationVerdict(trainCurve, heldCurve, chance) {
  const evals = heldCurve.filter(([, v]) => Number.isFinite(v));
  const last = evals[evals.length - 1];
  const out = { state: 'early', reason: null, step: last ? last[0] : null, heldOut: last ? last[1] : null, train: null, gap: null, chance };
  if (!last) return out;
  const means = meanLosses(trainCurve, evals.map(([step]) => step));
  const gaps = evals.map(([step, v], i) => ({ step, heldOut: v, train: means[i], gap: means[i] === null ? null : v - means[i] }));
  const g = gaps[gaps.length - 1];
  out.train = g.train;
  out.gap = g.gap;
  if (last[0] < MIN_STEPS) return out;
  const tail = (k) => (gaps.length >= k ? gaps.slice(-k) : null);
  const above = tail(ABOVE_EVALS);
  const fitted = (e) => e.gap !== null && e.gap > GAP_NATS;
  if (above && above.every((e) => e.heldOut >= chance && fitted(e))) return { ...out, state: 'memorising', reason: 'above-chance' };
  const wide = tail(GAP_EVALS);
  if (wide && wide.every(fitted) && wide[wide.length - 1].gap > wide[0].gap) {
    return { ...out, state: 'memorising', reason: 'gap' };
  }
  if (last[1] < chance) return { ...out, state: 'learning' };
  return { ...out, state: fitted(g) ? 'watching' : 'not-learning' };
}

// The mean training loss before each evaluation: of the steps in (previous eval step, step];
// null where there is none. One pass (both curves ascend).
function meanLosses(curve, steps) {
  const out = [];
  let j = 0;
  for (const to of steps) {
    let sum = 0;
    let n = 0;
    for (; j < curve.length && curve[j][0] <= to; j++) {
      if (Number.isFinite(curve[j][1])) {
        sum += curve[j][1];
        n++;
      }
    }
    out.push(n ? sum / n : null);
  }
  return out;
}

const f2 = (v) => v.toFixed(2);

// The verdict in words for the chart (V: rows of the output layer, so chance = ln V).
export function verdictText(v, V) {
  const chance = `chance ln ${V.toLocaleString('en')} = ${f2(v.chance)}`;
  const train = v.train === null ? '' : ` while training loss is ${f2(v.train)}`;
  if (v.state === 'early') {
    return v.heldOut === null ? '' : `Held-out loss ${f2(v.heldOut)} at step ${v.step} (${chance}); the verdict, learning or memorising, comes from step ${MIN_STEPS} on.`;
  }
  if (v.state === 'memorising' && v.reason === 'above-chance') {
    return `The model is memorising this text: held-out loss ${f2(v.heldOut)} is above ${chance}${train}. ` +
      'It predicts text it has not seen worse than a uniform guess. Try a bigger text (Tiny Shakespeare) or characters.';
  }
  if (v.state === 'memorising') {
    return `The model is memorising this text: held-out loss ${f2(v.heldOut)} is ${f2(v.gap)} nats above training loss ${f2(v.train)}, ` +
      `and the gap has grown over the last ${GAP_EVALS} evaluations (${chance}). Try a bigger text (Tiny Shakespeare), characters or fewer steps.`;
  }
  if (v.state === 'watching') {
    return `Held-out loss ${f2(v.heldOut)} rose to or above ${chance} at step ${v.step}${train}: if it stays there at the next evaluation, the model is memorising this text.`;
  }
  if (v.state === 'not-learning') {
    return `Not learning yet: held-out loss ${f2(v.heldOut)} is at or above ${chance}${train}. Try more steps or a higher learning rate.`;
  }
  const gap = v.gap === null ? '' : `, ${f2(Math.abs(v.gap))} ${v.gap >= 0 ? 'above' : 'below'} training loss ${f2(v.train)}`;
  return `Learning: held-out loss ${f2(v.heldOut)} on text it never trained on is ${f2(v.chance - v.heldOut)} nats below ${chance}${gap}.`;
}

// The compare card's rule: a text is too small to learn from when even the best encoding's
// final held-out loss is at or above chance (then a "lowest" encoding means nothing).
// heldOuts: final held-out losses (null = none) -> true | false
export function tooSmallToLearn(heldOuts, chance) {
  const v = heldOuts.filter((x) => Number.isFinite(x));
  return v.length > 0 && Math.min(...v) >= chance;
}
