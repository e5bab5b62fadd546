// The real pair of vectors that the RoPE charts rotate (positions-handler.js ropeDemo,
// rope-scalings-handler.js ropeScalings), and q·k of the pair against the distance, with every
// rotation done by the engine (M.ropeApply). Worker side; no trigonometry here.
//
//   const pair = ropePair(M, 'rope demo', seed, D, span);   // {q, k, Q (span copies of q), plain: q·k}
//   rotatedDots(M, pair, span, D, offset, opts, fields)     // Float64Array(span): (R(offset + d) q) · (R(offset) k)
// q and k are the two rows of manual_seed(seed); nn.Embedding(2, D) (M.learnedPositions(2, D)).
import { blame } from '../protocol.js';
import { PAGE_BYTES, checkPageBudget, formatBytes } from './limits.js';

// where: the chart, for messages. The span x D copies of q are a JS array before the engine sees
// them, so sizes past the engine's own limit are refused here too (checkPageBudget leaves those
// to the engine), blamed on D (and T when the span comes from it: `fields`); `why` says where
// the span comes from in that message (' (8T = 256 distances)').
export function ropePair(M, where, seed, D, span, fields = ['D'], why = '') {
  blame(fields, () => {
    checkPageBudget(where, 'rotated queries', [span, D]);
    const bytes = 4 * span * D;
    if (bytes > PAGE_BYTES) throw new Error(`${where}: rotated queries ${span} x ${D} float32${why} need ${formatBytes(bytes)}; this page draws at most ${formatBytes(PAGE_BYTES)}`);
  });
  blame(['seed'], () => M.manualSeed(seed));
  const rows = blame(['D'], () => M.learnedPositions(2, D));
  const q = rows.subarray(0, D);
  const k = rows.subarray(D, 2 * D);
  const Q = new Float32Array(span * D);
  for (let d = 0; d < span; d++) Q.set(q, d * D);
  let plain = 0;
  for (let c = 0; c < D; c++) plain += q[c] * k[c];
  return { q, k, Q, plain };
}

// The key at position `offset`, the query at offset + d for d = 0..span-1, both rotated by the
// engine (opts: ropeApply's {kind, params}, or undefined for plain RoPE); a failure is blamed
// on `fields`.
export function rotatedDots(M, pair, span, D, offset, opts, fields = ['D']) {
  const rq = blame(fields, () => M.ropeApply(pair.Q, span, D, offset, opts));
  const rk = blame(fields, () => M.ropeApply(pair.k, 1, D, offset, opts));
  const out = new Float64Array(span);
  for (let d = 0; d < span; d++) {
    let s = 0;
    for (let c = 0; c < D; c++) s += rq[d * D + c] * rk[c];
    out[d] = s;
  }
  return out;
}
