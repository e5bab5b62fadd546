// Worker-side handler for the 'table' request: draws the token embedding table from the
// seed exactly like torch (manual_seed(seed); nn.Embedding(V, D, padding_idx)), looks up the
// picked token both ways (Embedding.forward and one_hot(id) @ W) and returns a downsampled
// copy for the heatmap. Runs only inside the worker (it calls the wasm module M); the page
// never sees the full table, only at most maxRows x maxCols values.
//
//   payload {seed, V, D, scale, pad (int|null), tok, maxRows = 600, maxCols = 512}
//   result  {V, D, scaleFactor, paddingIdx, tok,
//            grid: {data (r*c), rows: r, cols: c, rowIndex (r), colIndex (c), sampled},
//            around: null | the 48 consecutive rows around tok (grid shape with rowOffset), when grid skips rows,
//            stats: {min, max, absMax, mean, std},
//            row (D): forward([tok]) = W[tok] * s,   oneHot (D): (one_hot(tok, V) @ W) * s,
//            identical: bitwise equal?, maxAbsDiff, drawMs,
//            checksum: FNV-1a of all V*D stored float32 values (arrays.js fnv1a)}
//
// subtle: oneHotForward returns the unscaled product; the sqrt(D) factor is applied here in
// float32 (scaleFloat32), the same single rounding the C++ lookup does, so "identical" is a
// bit comparison, not a tolerance.
//
// Sizes: the engine checks V x D itself; the page budget (limits.js) refuses, in the same
// words, tables the engine would hold but this page would copy. Engine calls name the payload
// arguments they depend on (blame, protocol.js) so a failure lands on the right field.
import { bitsEqual, fnv1a, maxAbsDiff, scaleFloat32, strideSample, summarize } from '../arrays.js';
import { blame } from '../protocol.js';
import { checkPageBudget } from './limits.js';

const AROUND = 48; // rows shown exactly around the picked token of a downsampled table

export function makeTableHandler(M) {
  let cache = null; // {key, emb, weight, drawMs}

  function table(p) {
    const key = JSON.stringify([p.seed, p.V, p.D, !!p.scale, p.pad ?? null]);
    if (!cache || cache.key !== key) {
      blame(['V', 'D'], () => checkPageBudget('Embedding', 'table', [Number(p.V), Number(p.D)]));
      const t0 = performance.now();
      blame(['seed'], () => M.manualSeed(p.seed));
      const opts = { scale: !!p.scale };
      if (p.pad !== null && p.pad !== undefined) opts.paddingIdx = p.pad;
      const emb = blame(['V', 'D', 'pad'], () => new M.Embedding(p.V, p.D, opts));
      let weight;
      try {
        weight = emb.weight();
      } catch (err) {
        emb.delete();
        throw err;
      }
      const drawMs = performance.now() - t0;
      if (cache) cache.emb.delete();
      cache = { key, emb, weight, drawMs, stats: summarize(weight), checksum: fnv1a(weight) };
    }
    const { emb, weight } = cache;
    const V = emb.numEmbeddings;
    const D = emb.embeddingDim;
    const s = emb.scaleFactor;
    const tok = p.tok;
    const row = blame(['tok'], () => emb.forward([tok]));
    const plain = blame(['tok'], () => emb.oneHotForward([tok]));
    const oneHot = s === 1 ? plain : scaleFloat32(plain, s);
    const grid = strideSample(weight, V, D, p.maxRows || 600, p.maxCols || 512);
    // When rows are skipped, also every row of a window around the picked token.
    let around = null;
    if (grid.sampled && tok >= 0 && tok < V) {
      const a = Math.max(0, Math.min(tok - AROUND / 2, V - AROUND));
      const b = Math.min(V, a + AROUND);
      around = strideSample(weight.subarray(a * D, b * D), b - a, D, AROUND, p.maxCols || 512);
      around.rowOffset = a;
      around.rowIndex = around.rowIndex.map((r) => r + a);
    }
    return {
      V,
      D,
      scaleFactor: s,
      paddingIdx: emb.paddingIdx,
      tok,
      grid,
      around,
      stats: cache.stats,
      row,
      oneHot,
      identical: bitsEqual(row, oneHot),
      maxAbsDiff: maxAbsDiff(row, oneHot),
      drawMs: cache.drawMs,
      checksum: cache.checksum,
    };
  }

  return { table };
}
