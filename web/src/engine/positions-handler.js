// Worker-side handler for the 'positions' request: the three positional encodings of the
// page and their position x position similarity matrices. Runs inside the worker only.
//
//   payload {seed, T, D, sim: 'cos' | 'dot', maxSide = 512}
//   result  {T, D, kinds: [{name, table: grid (T, D), similarity: grid (T, T), toeplitz}], ms}
//
//   sinusoidal  M.sinusoidal(T, D)            PE[p, 2i] = sin(p w_i), PE[p, 2i+1] = cos(p w_i)
//   learned     manual_seed(seed); nn.Embedding(T, D).weight   (M.learnedPositions)
//   rope        M.ropeTable(T, D): RoPE applied to (1, 0, 1, 0, ...), rows (cos p theta_i, sin p theta_i)
//   similarity  M.positionSimilarity(table, T, D, {cosine}) = table @ table^T (rows normalised for cos)
//
// `toeplitz` is the largest change along any diagonal of the similarity matrix: ~0 when the
// similarity depends only on the distance m - n (sinusoidal and RoPE dot products), large for
// learned positions. Grids are downsampled to at most maxSide per side (see arrays.js).
//
// Sizes: the engine checks every table and matrix it allocates (its message names the limit);
// the page budget (limits.js) only refuses, in the same words, what the engine would hold but
// the page would have to copy. Each engine call names the payload arguments it depends on
// (blame, protocol.js) so the page shows a failure on the field that caused it.
import { strideSample, toeplitzDeviation } from '../arrays.js';
import { blame } from '../protocol.js';
import { checkPageBudget } from './limits.js';

const SCALE_ROWS = 2000; // rows of the table in the sqrt(D) demonstration

export function makePositionsHandler(M) {
  function positions(p) {
    const T = Number(p.T);
    const D = Number(p.D);
    const maxSide = p.maxSide || 512;
    blame(['T', 'D'], () => checkPageBudget('positions', 'position table', [T, D]));
    blame(['T'], () => checkPageBudget('positions', 'similarity matrix', [T, T]));
    const t0 = performance.now();
    const tables = [
      ['sinusoidal', () => M.sinusoidal(T, D)],
      ['learned', () => {
        blame(['seed'], () => M.manualSeed(p.seed));
        return M.learnedPositions(T, D);
      }],
      ['rope', () => M.ropeTable(T, D)],
    ];
    const kinds = tables.map(([name, make]) => {
      const table = blame(['T', 'D'], make);
      const sim = blame(['T', 'D'], () => M.positionSimilarity(table, T, D, { cosine: p.sim !== 'dot' }));
      return {
        name,
        table: strideSample(table, T, D, maxSide, maxSide),
        similarity: strideSample(sim, T, T, maxSide, maxSide),
        toeplitz: T <= 2048 ? toeplitzDeviation(sim, T) : null,
      };
    });
    return { T, D, sim: p.sim === 'dot' ? 'dot' : 'cos', kinds, ms: performance.now() - t0 };
  }

  // Why multiply token rows by sqrt(D)? Row lengths of a (SCALE_ROWS, D) table drawn like
  // nn.Embedding (N(0, 1)) and of the same table rescaled to std 1/sqrt(D) (the Transformer's
  // init), each before and after the engine's sqrt(D) lookup scale, against the length of the
  // sinusoidal rows (sqrt(D/2) exactly: D/2 pairs of sin^2 + cos^2 = 1).
  //   payload {seed, D} -> {D, rows, groups: [{key, lengths (rows)}], peLength}
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
      const lengths = (x) => {
        const out = new Float32Array(SCALE_ROWS);
        for (let r = 0; r < SCALE_ROWS; r++) {
          let s2 = 0;
          for (let c = 0; c < D; c++) s2 += x[r * D + c] ** 2;
          out[r] = Math.sqrt(s2);
        }
        return out;
      };
      const pe = lengths(blame(['D'], () => M.sinusoidal(SCALE_ROWS, D)));
      return {
        D, rows: SCALE_ROWS, peLength: pe.reduce((a, b) => Math.max(a, b), 0),
        groups: [
          { key: 'normal', lengths: lengths(w) },
          { key: 'normalScaled', lengths: lengths(plain.forward(ids)) },
          { key: 'small', lengths: lengths(small.weight()) },
          { key: 'smallScaled', lengths: lengths(small.forward(ids)) },
        ],
      };
    } finally {
      plain.delete();
      if (small) small.delete();
    }
  }

  return { positions, scaleDemo };
}
