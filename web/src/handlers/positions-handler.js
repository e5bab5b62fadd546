// Worker-side handlers of the positions view: the three positional encodings of the page and
// their position x position similarity matrices, the attention biases of the registry's bias
// kinds, and RoPE applied to a real pair of vectors. Runs inside the worker only.
//
//   positions {seed, T, D, sim: 'cos' | 'dot', maxSide = 512, distanceCheck = true, params = {}}   (a long job: progress, cancel;
//              distanceCheck false: toeplitz null, for callers that only draw the grids)
//      -> {T, D, kinds: [{name, params, table: grid (T, D), similarity: grid (T, T), toeplitz}], ms}
//   biases    {seed, heads = 8, T = 32, params = {}}
//   params: {kind: {param: value}} (state.js positionParamsByKind, e.g. {rope: {base: 500}});
//   a kind whose values differ from the registry's defaults is drawn with them
//   (M.positionTable(kind, {params})); each kind echoes the values it was drawn with.
//      -> {H, T, kinds: [{name, label, description, trainable, data (H, T, T), byDistance (H, T),
//                         slopes (H) | null}]}   one per kind whose `provides` is 'bias'
//   ropeDemo  {seed, D, span = 128, offsets = [0, 100, 1000]}
//      -> {D, span, offsets, distances (span), dots [(span) per offset], qk, maxDiff, maxAbs}
//   importedPositions {sim, maxSide, have}   (a long job: the distance check)
//      -> the position table of the user's imported file (GPT-2's wpe, imported-positions.js)
//         drawn like the kinds above, plus its PCA; see the function
//
//   sinusoidal  M.sinusoidal(T, D)            PE[p, 2i] = sin(p w_i), PE[p, 2i+1] = cos(p w_i)
//   learned     manual_seed(seed); nn.Embedding(T, D).weight   (M.learnedPositions)
//   rope        M.ropeTable(T, D): RoPE applied to (1, 0, 1, 0, ...), rows (cos p theta_i, sin p theta_i)
//   similarity  table @ table^T (rows normalised for cos), as M.positionSimilarity computes it
//
// The similarity is never held whole (at T = 8192 that is 256 MiB per kind): the drawn grid is
// the sampled rows and columns (arrays.js sampleIndices) computed by M.positionSimilarity on the
// table of just those rows, and `toeplitz` (the largest change along any diagonal: ~0 when the
// similarity depends only on m - n, as for sinusoidal and RoPE dot products; large for learned
// positions) is computed over every entry in row blocks by rowSimilarity below, which gives
// position_similarity's float32 numbers bit for bit (tests/js/page-handlers.test.mjs), yielding
// to the worker between blocks so the job reports progress and can be cancelled (protocol.js).
// S is symmetric, so only n >= m is computed. Each entry depends only on its two rows, so the
// grid is exactly strideSample of the full matrix.
//
// Sizes: the engine checks every table and matrix it allocates (its message names the limit);
// the page budget (limits.js) refuses, in the same words, what the engine would hold but the
// page would have to copy; beyond both the engine plans the full T x T matrix and refuses it.
// Each engine call names the payload arguments it depends on (blame, protocol.js) so the page
// shows a failure on the field that caused it.
import { sampleIndices, strideSample } from '../arrays.js';
import { NO_JOB, blame } from '../protocol.js';
import { PAGE_BYTES, checkPageBudget } from './limits.js';
import { ropePair, rotatedDots } from './rope-pair.js';

const CHUNK_MS = 40; // work between two yields of a long job
const BIAS_HEADS = 8;
const BIAS_T = 32;
const ROPE_SPAN = 128;
const ROPE_OFFSETS = [0, 100, 1000];
const fround = Math.fround;

// kernels::dot (src/kernels/kernels.cpp) in float32: 8 interleaved partial sums, the same
// pairwise total, then the tail; each step rounded to float32 as the C++ does (no FMA), so the
// result is the engine's bit for bit. x[xo..xo+n) . y[yo..yo+n)
export function dot32(n, x, xo, y, yo) {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
  let i = 0;
  for (; i + 8 <= n; i += 8) {
    const a = xo + i;
    const b = yo + i;
    s0 = fround(s0 + fround(x[a] * y[b]));
    s1 = fround(s1 + fround(x[a + 1] * y[b + 1]));
    s2 = fround(s2 + fround(x[a + 2] * y[b + 2]));
    s3 = fround(s3 + fround(x[a + 3] * y[b + 3]));
    s4 = fround(s4 + fround(x[a + 4] * y[b + 4]));
    s5 = fround(s5 + fround(x[a + 5] * y[b + 5]));
    s6 = fround(s6 + fround(x[a + 6] * y[b + 6]));
    s7 = fround(s7 + fround(x[a + 7] * y[b + 7]));
  }
  let total = fround(fround(fround(s0 + s4) + fround(s2 + s6)) + fround(fround(s1 + s5) + fround(s3 + s7)));
  for (; i < n; i++) total = fround(total + fround(x[xo + i] * y[yo + i]));
  return total;
}

// The row norms position_similarity divides by (1 for dot products and zero rows).
export function rowNorms(table, T, D, cosine) {
  const norms = new Float32Array(T).fill(1);
  if (!cosine) return norms;
  for (let t = 0; t < T; t++) {
    const n2 = dot32(D, table, t * D, table, t * D);
    if (n2 > 0) norms[t] = Math.sqrt(n2); // float sqrt of a float: one rounding (the store)
  }
  return norms;
}

// Row m of the similarity from column `from` on, into out[from..T): position_similarity's values.
export function rowSimilarity(table, T, D, norms, m, from, out) {
  const nm = norms[m];
  for (let n = from; n < T; n++) out[n] = dot32(D, table, m * D, table, n * D) / fround(nm * norms[n]);
}

// max over (m, n) of |S[m, n] - S[m-1, n-1]| (arrays.js toeplitzDeviation) without holding S:
// rows m = 0..T-1 of the upper triangle, in blocks of CHUNK_MS between job.tick(done + work so far).
async function distanceCheck(table, T, D, cosine, job, note, done, total) {
  const norms = rowNorms(table, T, D, cosine);
  let prev = new Float32Array(T);
  let cur = new Float32Array(T);
  let dev = 0;
  let work = 0;
  let t0 = performance.now();
  for (let m = 0; m < T; m++) {
    rowSimilarity(table, T, D, norms, m, m, cur);
    if (m > 0) {
      for (let n = m; n < T; n++) {
        const d = Math.abs(cur[n] - prev[n - 1]);
        if (d > dev) dev = d;
      }
    }
    [prev, cur] = [cur, prev];
    work += T - m;
    if (performance.now() - t0 > CHUNK_MS) {
      await job.tick(done + work, total, `${note}: row ${m + 1} of ${T}`);
      t0 = performance.now();
    }
  }
  return dev;
}

// rows idx of a (T, D) table -> (idx.length, D)
function gatherRows(table, D, idx) {
  const out = new Float32Array(idx.length * D);
  idx.forEach((r, i) => out.set(table.subarray(r * D, (r + 1) * D), i * D));
  return out;
}

// The position x position similarity as drawn: table (T, D) -> grid {data (k, k), rows: k, cols: k,
// rowIndex, colIndex, totalRows: T, totalCols: T, sampled} of the k = min(T, maxSide) rows and
// columns sampleIndices(T, maxSide) picks, computed by M.positionSimilarity on the table of just
// those rows: k x k work, never T x T, and strideSample of the full matrix bit for bit (each
// entry depends only on its two rows). blamed: the payload arguments a failure is shown on.
//   sampledSimilarity(M, table, 1024, 64, 256, true, ['ctx'])   // 256 x 256 of 1024 x 1024
export function sampledSimilarity(M, table, T, D, maxSide, cosine, blamed) {
  const idx = sampleIndices(T, maxSide);
  const k = idx.length;
  const sim = blame(blamed, () => M.positionSimilarity(k === T ? table : gatherRows(table, D, idx), k, D, { cosine }));
  return { data: sim, rows: k, cols: k, rowIndex: idx, colIndex: Int32Array.from(idx), totalRows: T, totalCols: T, sampled: k < T };
}

// imported (optional): the ImportedPositions store (imported-positions.js) of the user's file.
export function makePositionsHandler(M, imported = null) {
  const LABELS = { sinusoidal: 'sinusoidal', learned: 'learned', rope: 'RoPE' };
  const registry = new Map(M.positionalKinds().map((k) => [k.name, k]));

  // (kind name, payload params) -> {param: value} for every parameter of the kind (the
  // payload's value or the registry's default) and whether any differs from its default.
  function kindParams(name, all) {
    const given = (all && all[name]) || {};
    const values = {};
    let custom = false;
    for (const q of (registry.get(name) || { params: [] }).params) {
      const v = given[q.name] ?? q.default;
      values[q.name] = Number(v);
      if (values[q.name] !== q.default) custom = true;
    }
    return { values, custom };
  }
  // the engine's own table of kind `name` with the given parameter values
  const tableWith = (name, T, D, values) => M.positionTable(name, { positions: T, dim: D, params: values }).data;

  // One kind as drawn: its (T, D) table and (T, T) similarity (M.positionSimilarity), both on
  // at most maxSide sampled rows and columns; tableData (the whole table) for the distance
  // check. blamed: the payload arguments an engine failure is shown on.
  function kindGrids(name, table, T, D, maxSide, cosine, blamed) {
    return {
      name, tableData: table,
      table: strideSample(table, T, D, maxSide, maxSide),
      similarity: sampledSimilarity(M, table, T, D, maxSide, cosine, blamed),
    };
  }

  async function positions(p, job = NO_JOB) {
    const T = Number(p.T);
    const D = Number(p.D);
    const maxSide = p.maxSide || 512;
    const cosine = p.sim !== 'dot';
    blame(['T', 'D'], () => checkPageBudget('positions', 'position table', [T, D]));
    blame(['T'], () => checkPageBudget('positions', 'similarity matrix', [T, T]));
    const t0 = performance.now();
    const sin = kindParams('sinusoidal', p.params);
    const rope = kindParams('rope', p.params);
    const tables = [
      ['sinusoidal', sin, () => (sin.custom ? tableWith('sinusoidal', T, D, sin.values) : M.sinusoidal(T, D))],
      ['learned', kindParams('learned', p.params), () => {
        blame(['seed'], () => M.manualSeed(p.seed));
        return M.learnedPositions(T, D);
      }],
      ['rope', rope, () => (rope.custom ? tableWith('rope', T, D, rope.values) : M.ropeTable(T, D))],
    ];
    const kinds = [];
    for (const [name, params, make] of tables) {
      const own = params.custom ? Object.keys(params.values).map((q) => `${name}.${q}`) : [];
      const table = blame(['T', 'D', ...own], make);
      // past the page budget (which let it through): the engine plans the T x T matrix and refuses it
      if (T * T * 4 > PAGE_BYTES) blame(['T', 'D'], () => M.positionSimilarity(table, T, D, { cosine }));
      kinds.push({ ...kindGrids(name, table, T, D, maxSide, cosine, ['T', 'D']), params: params.values });
      await job.tick(); // a cancel between kinds
    }
    const perKind = (T * (T + 1)) / 2;
    for (let i = 0; i < kinds.length; i++) {
      const k = kinds[i];
      k.toeplitz = p.distanceCheck === false ? null : await distanceCheck(k.tableData, T, D, cosine, job, `distance check, ${LABELS[k.name]} (${i + 1} of 3)`, i * perKind, 3 * perKind);
      delete k.tableData;
    }
    return { T, D, sim: cosine ? 'cos' : 'dot', kinds, ms: performance.now() - t0 };
  }

  // The attention bias of every kind that provides one: (H, T, T) with -Infinity above the
  // diagonal (causal), its bias against the distance (the last row, bias[h, T-1, T-1-d]) and,
  // when the bias is linear in the distance (bias[h, i, j] = -slope_h (i - j) for all i >= j),
  // the slopes slope_h = -bias[h, 1, 0].
  function biases(p) {
    const H = Number(p.heads ?? BIAS_HEADS);
    const T = Number(p.T ?? BIAS_T);
    const kinds = M.positionalKinds().filter((k) => k.provides === 'bias');
    return {
      H, T,
      kinds: kinds.map((k) => {
        const { values } = kindParams(k.name, p.params);
        const blamed = ['seed', ...Object.keys(values).map((q) => `${k.name}.${q}`)];
        const { data } = blame(blamed, () => M.positionTable(k.name, { positions: T, heads: H, seed: p.seed, params: values }));
        const byDistance = new Float32Array(H * T);
        const slopes = new Float32Array(H);
        let linear = T > 1;
        for (let h = 0; h < H; h++) {
          const b = (i, j) => data[h * T * T + i * T + j];
          for (let d = 0; d < T; d++) byDistance[h * T + d] = b(T - 1, T - 1 - d);
          slopes[h] = T > 1 ? -b(1, 0) : 0;
          const tol = 1e-5 * Math.max(1, Math.abs(slopes[h]) * T);
          for (let i = 0; i < T && linear; i++) {
            for (let j = 0; j <= i; j++) {
              if (!(Math.abs(b(i, j) + slopes[h] * (i - j)) <= tol)) {
                linear = false;
                break;
              }
            }
          }
        }
        return { name: k.name, label: k.label, description: k.description, trainable: k.trainable, params: values, data, byDistance, slopes: linear ? slopes : null };
      }),
    };
  }

  // RoPE on a real pair: q and k are the two rows of manual_seed(seed); nn.Embedding(2, D). For
  // each offset o the key sits at n = o and the query at m = o + d (d = 0..span-1), both rotated
  // by the engine (M.ropeApply); dots[i][d] = q_m . k_n. They coincide for every offset: q.k
  // depends only on m - n. maxDiff: the largest difference from the first offset's curve.
  function ropeDemo(p) {
    const D = Number(p.D);
    const span = Number(p.span ?? ROPE_SPAN);
    const offsets = p.offsets ?? ROPE_OFFSETS;
    const pair = ropePair(M, 'rope demo', p.seed, D, span);
    const dots = offsets.map((o) => rotatedDots(M, pair, span, D, o));
    let maxDiff = 0;
    let maxAbs = 0;
    for (let d = 0; d < span; d++) {
      maxAbs = Math.max(maxAbs, Math.abs(dots[0][d]));
      for (let i = 1; i < dots.length; i++) maxDiff = Math.max(maxDiff, Math.abs(dots[i][d] - dots[0][d]));
    }
    return { D, span, offsets, distances: Float64Array.from({ length: span }, (_, d) => d), dots, qk: pair.plain, maxDiff, maxAbs };
  }

  // The position table of the user's imported file (GPT-2's wpe), drawn like the other kinds
  // (kindGrids, the same distance check) plus the PCA of its rows (Table.pca). The table is the
  // file's own: nothing is trained or initialised here.
  //   importedPositions {sim, maxSide, have}   have: the `key` of the reply the page holds
  //     -> {none: true} (no position table imported) | {unchanged: true, key} (have is current) |
  //        {key, file, tensor, T, D, sim, kind: {name, table, similarity, toeplitz}, pca: {points (T * 2), explained [2]},
  //         ms: {read, similarity, distanceCheck, pca, total}}
  async function importedPositions(p, job = NO_JOB) {
    const cur = imported && imported.current;
    if (!cur) return { none: true };
    const cosine = p.sim !== 'dot';
    const maxSide = p.maxSide || 512;
    const key = `${imported.generation}/${cosine ? 'cos' : 'dot'}/${maxSide}`;
    if (p.have === key) return { unchanged: true, key };
    const t = cur.table;
    const T = t.rows;
    const D = t.dim;
    checkPageBudget('imported positions', 'position table', [T, D]);
    const t0 = performance.now();
    const table = new Float32Array(T * D);
    for (let r = 0; r < T; r++) table.set(t.row(r), r * D);
    const t1 = performance.now();
    const kind = kindGrids('imported', table, T, D, maxSide, cosine, []);
    const t2 = performance.now();
    kind.toeplitz = await distanceCheck(table, T, D, cosine, job, 'distance check, imported positions', 0, (T * (T + 1)) / 2);
    delete kind.tableData;
    const t3 = performance.now();
    const pca = T >= 3 && D >= 2 ? t.pca({ k: 2 }) : null;
    const t4 = performance.now();
    return {
      key, file: cur.file, tensor: cur.tensor, T, D, sim: cosine ? 'cos' : 'dot', kind,
      pca: pca && { points: pca.points, explained: Array.from(pca.explained) },
      ms: { read: t1 - t0, similarity: t2 - t1, distanceCheck: t3 - t2, pca: t4 - t3, total: t4 - t0 },
    };
  }

  return { positions, biases, ropeDemo, importedPositions };
}
