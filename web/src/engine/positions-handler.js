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
import { strideSample, toeplitzDeviation } from '../arrays.js';
import { checkPageBudget } from './limits.js';

export function makePositionsHandler(M) {
  function positions(p) {
    const T = Number(p.T);
    const D = Number(p.D);
    const maxSide = p.maxSide || 512;
    checkPageBudget('positions', 'a table', T, D);
    checkPageBudget('positions', 'a similarity matrix', T, T);
    const t0 = performance.now();
    const tables = [
      ['sinusoidal', () => M.sinusoidal(T, D)],
      ['learned', () => {
        M.manualSeed(p.seed);
        return M.learnedPositions(T, D);
      }],
      ['rope', () => M.ropeTable(T, D)],
    ];
    const kinds = tables.map(([name, make]) => {
      const table = make();
      const sim = M.positionSimilarity(table, T, D, { cosine: p.sim !== 'dot' });
      return {
        name,
        table: strideSample(table, T, D, maxSide, maxSide),
        similarity: strideSample(sim, T, T, maxSide, maxSide),
        toeplitz: T <= 2048 ? toeplitzDeviation(sim, T) : null,
      };
    });
    return { T, D, sim: p.sim === 'dot' ? 'dot' : 'cos', kinds, ms: performance.now() - t0 };
  }
  return { positions };
}
