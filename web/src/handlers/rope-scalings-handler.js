// Worker-side handler of the positions view's card "RoPE past its training length"
// (views/rope-scalings-card.js): for every rotation kind of the engine's registry (provides
// 'rotation'; none is named here), its per-pair frequencies as the engine computes them, their
// wavelengths and their ratio to plain RoPE's, and q·k of a real pair of vectors rotated by the
// engine with that kind against the distance, out to 8 times the training context T. Runs
// inside the worker only; it does no trigonometry of its own (every rotation is M.ropeApply).
//
//   ropeScalings {seed, D, T, params = {}}   params: {kind: {param: value}} (state.js
//                 positionParamsByKind); a kind's missing values are the registry's defaults
//     -> {T, D, lengths: [T, 2T, 4T, 8T], distances (8T), qkPlain (q·k unrotated),
//         kinds: [{name, index (in M.positionalKinds()), label, description, params (every value used), invFreq (D/2), attentionScale,
//                  wavelength (D/2: 2π/θ_i, null where θ_i = 0), ratio (D/2: θ_i / θ_i of plain RoPE at the
//                  same base), pairs: {alone, interpolated, ramp, unrotated} (pair indices), longerThanT,
//                  qk (8T)} | {name, label, description, params, error, fields}]}
//
//   θ_i          M.positionTable(kind, {positions: 1, dim: D, params}).invFreq (the kind's inv_freq)
//   ratio_i      θ_i / θ_i(rope, same base): 1 = left alone (extrapolated), 1/factor = interpolated,
//                strictly between = on a ramp (YaRN's blend; NTK-aware's whole range), 0 = not rotated
//   qk[d]        attentionScale * (R(d) q) · (R(0) k): the key at n = 0, the query at m = d, both
//                rotated by M.ropeApply(x, rows, D, 0, {kind, params}); q and k are the two rows of
//                manual_seed(seed); nn.Embedding(2, D), as ropeDemo draws them (positions-handler.js).
//                The logit the model's softmax sees, so YaRN's (0.1 ln factor + 1)² is in it.
//
// Sizes: the 8T x D rotated queries within the page budget (rope-pair.js), else an error on T and D.
// A kind the engine refuses at this D (rope-ntk needs D >= 4) is returned with its error and the
// page fields it concerns, the other kinds are still computed; a D no rotation kind takes (odd)
// fails the whole request, blamed on D.
import { blame } from '../protocol.js';
import { ropePair, rotatedDots } from './rope-pair.js';

const MULTIPLES = [1, 2, 4, 8]; // the evaluation lengths, in units of T
const SAME = 1e-9; // relative tolerance of "equal" ratios (the engine's doubles, divided)

// ratio (D/2), factor (undefined: the kind has none) -> the pair indices in each class
export function classifyPairs(ratio, factor) {
  const out = { alone: [], interpolated: [], ramp: [], unrotated: [] };
  ratio.forEach((r, i) => {
    if (r === 0) out.unrotated.push(i);
    else if (Math.abs(r - 1) <= SAME) out.alone.push(i);
    else if (factor !== undefined && Math.abs(r * factor - 1) <= SAME) out.interpolated.push(i);
    else out.ramp.push(i);
  });
  return out;
}

export function makeRopeScalingsHandler(M) {
  // each with its index in the whole registry (the page's kind colour, plots/kind-colours.js)
  const rotation = M.positionalKinds().map((k, index) => ({ ...k, index })).filter((k) => k.provides === 'rotation');

  // kind, payload params -> every parameter's value (the payload's or the registry's default)
  const valuesOf = (kind, all) => {
    const given = (all && all[kind.name]) || {};
    return Object.fromEntries(kind.params.map((q) => [q.name, Number(given[q.name] ?? q.default)]));
  };

  function ropeScalings(p) {
    const D = Number(p.D);
    const T = Number(p.T);
    const L = 8 * T;
    const pair = ropePair(M, 'rope scalings', p.seed, D, L, ['T', 'D'], ` (8T = ${L} distances)`);
    const plainAt = new Map(); // base -> plain RoPE's inv_freq (D/2)
    const plain = (base) => {
      if (!plainAt.has(base)) plainAt.set(base, blame(['D'], () => M.positionTable('rope', { positions: 1, dim: D, params: { base } }).invFreq));
      return plainAt.get(base);
    };
    plain(10000); // a D no rotation kind takes (odd): the whole request fails here, on D

    const kinds = rotation.map((kind) => {
      const params = valuesOf(kind, p.params);
      const head = { name: kind.name, index: kind.index, label: kind.label, description: kind.description, params };
      const blamed = ['D', ...Object.keys(params).map((n) => `${kind.name}.${n}`)];
      try {
        const opts = { kind: kind.name, params };
        const { invFreq, attentionScale } = blame(blamed, () => M.positionTable(kind.name, { positions: 1, dim: D, params }));
        const base = plain(params.base ?? 10000);
        const ratio = Array.from(invFreq, (w, i) => w / base[i]);
        const wavelength = Array.from(invFreq, (w) => (w > 0 ? (2 * Math.PI) / w : null));
        const qk = rotatedDots(M, pair, L, D, 0, opts, blamed).map((s) => attentionScale * s);
        return {
          ...head, invFreq, attentionScale, wavelength, ratio, pairs: classifyPairs(ratio, params.factor),
          longerThanT: wavelength.filter((w) => w !== null && w > T).length, qk,
        };
      } catch (err) {
        // the field at fault: D when the message is about the dimension, else the parameters it names
        const named = Object.keys(params).filter((n) => err.message.includes(` ${n} `) || err.message.includes(`'${n}'`));
        const fields = /\bdim\b|dimension/.test(err.message) || !named.length ? ['D'] : named.map((n) => `${kind.name}.${n}`);
        return { ...head, error: err.message, fields };
      }
    });
    return {
      T, D, lengths: MULTIPLES.map((m) => m * T), qkPlain: pair.plain, kinds,
      distances: Float64Array.from({ length: L }, (_, d) => d),
    };
  }

  return { ropeScalings };
}
