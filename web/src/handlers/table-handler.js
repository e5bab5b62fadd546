// Worker-side handler for the 'table' request: draws the token embedding table from the
// seed exactly like torch (manual_seed(seed); nn.Embedding(V, D, padding_idx)), looks up the
// picked token both ways (Embedding.forward and one_hot(id) @ W) and returns a downsampled
// copy for the heatmap. Runs only inside the worker (it calls the wasm module M); the page
// never sees the full table, only at most maxRows x maxCols values.
//
//   payload {seed, V, D, scale, pad (int|null), maxNorm (0: none), tok, maxRows = 600, maxCols = 512}
//   result  {V, D, scaleFactor, paddingIdx, tok,
//            grid: {data (r*c), rows: r, cols: c, rowIndex (r), colIndex (c), sampled},
//            around: null | the 48 consecutive rows around tok (grid shape with rowOffset), when grid skips rows,
//            stats: {min, max, absMax, mean, std},
//            row (D): forward([tok]) = W[tok] * s,   oneHot (D): (one_hot(tok, V) @ W) * s,
//            identical: bitwise equal?, maxAbsDiff, drawMs,
//            maxNorm, rowNorm: {before, after} (the picked row's stored length before and after
//            the lookup: with max_norm the lookup rescales a longer row in place, as torch does),
//            checksum: FNV-1a of all V*D stored float32 values (arrays.js fnv1a)}
//   scaleDemo {seed, D} -> {D, peD, rows, groups: [{key, lengths (rows)}], peLength}
//            why multiply token rows by sqrt(D): the row lengths of a (SCALE_ROWS, D) table
//            before and after the lookup scale, against a sinusoidal row (see the function)
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
const SCALE_ROWS = 2000; // rows of the table in the sqrt(D) demonstration

export function makeTableHandler(M) {
  let cache = null; // {key, emb, weight, drawMs}

  function table(p) {
    const maxNorm = Number(p.maxNorm || 0); // 0: none; the engine refuses a negative or non-finite one
    const key = JSON.stringify([p.seed, p.V, p.D, !!p.scale, p.pad ?? null, maxNorm]);
    if (!cache || cache.key !== key) {
      blame(['V', 'D'], () => checkPageBudget('Embedding', 'table', [Number(p.V), Number(p.D)]));
      const t0 = performance.now();
      blame(['seed'], () => M.manualSeed(p.seed));
      const opts = { scale: !!p.scale };
      if (p.pad !== null && p.pad !== undefined) opts.paddingIdx = p.pad;
      if (maxNorm) opts.maxNorm = maxNorm;
      const emb = blame(maxNorm ? ['V', 'D', 'pad', 'maxNorm'] : ['V', 'D', 'pad'], () => new M.Embedding(p.V, p.D, opts));
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
    const { emb } = cache;
    const V = emb.numEmbeddings;
    const D = emb.embeddingDim;
    const s = emb.scaleFactor;
    const tok = p.tok;
    const stored = (w) => (tok >= 0 && tok < V ? Math.hypot(...w.subarray(tok * D, (tok + 1) * D)) : null);
    const before = stored(cache.weight);
    const row = blame(['tok'], () => emb.forward([tok]));
    if (maxNorm) {
      // subtle: torch's max_norm renormalises the looked-up rows of the table in place, so the
      // stored table (drawn, fingerprinted, and read by one-hot x W below) is the one after the lookup
      const w = emb.weight();
      if (!bitsEqual(w, cache.weight)) Object.assign(cache, { weight: w, stats: summarize(w), checksum: fnv1a(w) });
    }
    const plain = blame(['tok'], () => emb.oneHotForward([tok]));
    const oneHot = s === 1 ? plain : scaleFloat32(plain, s);
    const weightNow = cache.weight;
    const grid = strideSample(weightNow, V, D, p.maxRows || 600, p.maxCols || 512);
    // When rows are skipped, also every row of a window around the picked token.
    let around = null;
    if (grid.sampled && tok >= 0 && tok < V) {
      const a = Math.max(0, Math.min(tok - AROUND / 2, V - AROUND));
      const b = Math.min(V, a + AROUND);
      around = strideSample(weightNow.subarray(a * D, b * D), b - a, D, AROUND, p.maxCols || 512);
      around.rowOffset = a;
      around.rowIndex = around.rowIndex.map((r) => r + a);
    }
    return {
      V,
      D,
      scaleFactor: s,
      paddingIdx: emb.paddingIdx,
      maxNorm,
      rowNorm: { before, after: stored(weightNow) },
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

  // Why multiply token rows by sqrt(D)? Row lengths of a (SCALE_ROWS, D) table drawn like
  // nn.Embedding (N(0, 1)) and of the same table rescaled to std 1/sqrt(D) (the Transformer's
  // init), each before and after the engine's sqrt(D) lookup scale, against the length of the
  // sinusoidal rows (sqrt(peD/2) exactly: peD/2 pairs of sin^2 + cos^2 = 1). Sinusoidal rows need
  // an even width: for an odd D the reference row is the one of width peD = D + 1 (the reply says so).
  //   payload {seed, D} -> {D, peD, rows, groups: [{key, lengths (rows)}], peLength}
  function scaleDemo(p) {
    const D = Number(p.D);
    const ids = Int32Array.from({ length: SCALE_ROWS }, (_, i) => i);
    // the JS side holds these tables too (weight(), the rescaled copy, the lookups)
    blame(['D'], () => checkPageBudget('scale demo', 'token table', [SCALE_ROWS, D]));
    blame(['seed'], () => M.manualSeed(p.seed));
    const plain = blame(['D'], () => new M.Embedding(SCALE_ROWS, D, { scale: true }));
    let small = null;
    try {
      const w = plain.weight();
      small = M.Embedding.fromPretrained(w.map((v) => v / Math.sqrt(D)), SCALE_ROWS, D, { scale: true });
      const lengths = (x, width) => {
        const out = new Float32Array(SCALE_ROWS);
        for (let r = 0; r < SCALE_ROWS; r++) {
          let s2 = 0;
          for (let c = 0; c < width; c++) s2 += x[r * width + c] ** 2;
          out[r] = Math.sqrt(s2);
        }
        return out;
      };
      const peD = D % 2 === 0 ? D : D + 1;
      const pe = lengths(blame(['D'], () => M.sinusoidal(SCALE_ROWS, peD)), peD);
      return {
        D, peD, rows: SCALE_ROWS, peLength: pe.reduce((a, b) => Math.max(a, b), 0),
        groups: [
          { key: 'normal', lengths: lengths(w, D) },
          { key: 'normalScaled', lengths: lengths(plain.forward(ids), D) },
          { key: 'small', lengths: lengths(small.weight(), D) },
          { key: 'smallScaled', lengths: lengths(small.forward(ids), D) },
        ],
      };
    } finally {
      plain.delete();
      if (small) small.delete();
    }
  }

  return { table, scaleDemo };
}
