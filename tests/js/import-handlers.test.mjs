// The worker's "bring your own table" handlers (handlers/import-handler.js) and the positions
// handler's imported card (handlers/positions-handler.js importedPositions) in Node, on a File
// built in memory: a GPT-2-shaped safetensors file (real tensor names, wte 50257 rows, wpe
// smooth in position). Covers "normalise rows", the similarity of chosen tokens with its
// limits, the norms, and the learned positions read from the same file.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { File } from 'node:buffer';
import { loadEngine } from './load-engine.mjs';
import { makeImportHandlers } from '../../web/src/handlers/import-handler.js';
import { SIMILARITY_MAX_TOKENS } from '../../web/src/handlers/limits.js';
import { makePositionsHandler } from '../../web/src/handlers/positions-handler.js';
import { ImportedPositions } from '../../web/src/handlers/imported-positions.js';
import { random, safetensors } from './table-files.mjs';

let M;
before(async () => { M = await loadEngine(); });

// (T, D): column c = sin or cos of p * w_c, a smooth curve in position (like GPT-2's wpe)
function smoothPositions(T, D) {
  const a = new Float32Array(T * D);
  for (let p = 0; p < T; p++) for (let c = 0; c < D; c++) a[p * D + c] = (c % 2 ? Math.cos : Math.sin)((p * Math.PI * (1 + (c >> 1))) / T);
  return a;
}

const D = 16;
const gpt2File = () => new File([safetensors([
  ['wte.weight', [50257, D], random(50257 * D, 1)],
  ['wpe.weight', [1024, D], smoothPositions(1024, D)],
])], 'model.safetensors');

describe('import handlers: normalise, similarity, norms', () => {
  it('a GPT-2 file: normalised neighbours keep their cosines, distances become <= 2, the map changes', async () => {
    const store = new ImportedPositions();
    const h = makeImportHandlers(M, store);
    const r = await h.importTable({ file: gpt2File() });
    assert.equal(r.recognised, 'gpt2 token table');
    assert.deepEqual(r.positions, { tensor: 'wpe.weight', rows: 1024, dim: D });
    assert.equal(store.current.table.recognised, 'gpt2 position table');
    const raw = h.importNeighbours({ query: ' the', k: 10 });
    const unit = h.importNeighbours({ query: ' the', k: 10, normalise: true });
    assert.equal(unit.normalised, true);
    assert.deepEqual(unit.neighbours.map((n) => n.row), raw.neighbours.map((n) => n.row));
    unit.neighbours.forEach((n, i) => {
      assert.ok(Math.abs(n.cosine - raw.neighbours[i].cosine) < 1e-5);
      assert.ok(Math.abs(n.euclidean - Math.sqrt(2 - 2 * n.cosine)) < 1e-4 && n.euclidean <= 2);
    });
    const stored = h.importMap({ normalise: false }); // the map importTable leaves to this request
    assert.equal(stored.points.length, 50257 * 2);
    const map = h.importMap({ normalise: true });
    assert.equal(map.points.length, 50257 * 2);
    assert.notDeepEqual(map.points, stored.points);
    const norms = h.importNorms({});
    assert.equal(norms.count, 50257);
    assert.ok(norms.unit && Math.abs(norms.unit.min - 1) < 1e-5 && Math.abs(norms.unit.max - 1) < 1e-5);
    assert.ok(norms.min <= norms.median && norms.median <= norms.max && norms.min <= norms.mean && norms.mean <= norms.max);
    const off = h.importMap({ normalise: false });
    assert.deepEqual(off.points, stored.points); // off again: the rows as stored
    assert.equal(h.importNorms({}).unit, null);
  });

  it('similarity of chosen tokens: labels, row numbers, comma lists keep leading spaces, limits named', async () => {
    const h = makeImportHandlers(M);
    await h.importTable({ file: gpt2File() });
    const s = h.importSimilarity({ tokens: ' the, of,7' });
    assert.deepEqual(Array.from(s.rows), [262, 286, 7]);
    assert.deepEqual(s.labels, [' the', ' of', "(" ]);
    assert.equal(s.data.length, 9);
    assert.ok(Math.abs(s.data[0] - 1) < 1e-6 && s.data[1] === s.data[3]);
    const u = h.importSimilarity({ tokens: ' the, of,7', normalise: true });
    assert.ok(u.maxDiff < 1e-6, `dot of unit rows vs cosine: ${u.maxDiff}`);
    assert.deepEqual(Array.from(h.importSimilarity({ tokens: 'hello world' }).rows), [31373, 6894]);
    assert.throws(() => h.importSimilarity({ tokens: ' the, qqzzxxyy' }),
      { message: 'similarity: "qqzzxxyy" is not a label of this table (50,257 rows); try a row number' });
    assert.throws(() => h.importSimilarity({ tokens: '99999' }), { message: 'similarity: row 99999 out of range [0, 50257)' });
    const many = Array.from({ length: SIMILARITY_MAX_TOKENS + 3 }, (_, i) => String(i)).join(' ');
    assert.throws(() => h.importSimilarity({ tokens: many }), { message: 'similarity: 67 tokens given, at most 64 fit the heatmap; remove 3' });
    assert.throws(() => h.importSimilarity({ tokens: ' , ' }), /similarity: type some tokens/);
  });
});

describe('imported positions in the positions handler', () => {
  it('draws the file\'s wpe with the same grids as the other kinds, and clears with a file that has none', async () => {
    const store = new ImportedPositions();
    const imp = makeImportHandlers(M, store);
    const pos = makePositionsHandler(M, store);
    assert.deepEqual(await pos.importedPositions({ sim: 'cos', maxSide: 384 }), { none: true });
    await imp.importTable({ file: gpt2File() });
    const r = await pos.importedPositions({ sim: 'cos', maxSide: 384 });
    assert.deepEqual([r.file, r.tensor, r.T, r.D], ['model.safetensors', 'wpe.weight', 1024, D]);
    assert.deepEqual([r.kind.similarity.rows, r.kind.similarity.totalRows, r.kind.table.cols], [384, 1024, D]);
    // the similarity grid is M.positionSimilarity on the sampled rows: entry (i, j) = cos(row_i, row_j)
    const idx = r.kind.similarity.rowIndex;
    const a = store.current.table.row(idx[5]);
    const b = store.current.table.row(idx[40]);
    let dot = 0, na = 0, nb = 0;
    for (let c = 0; c < D; c++) { dot += a[c] * b[c]; na += a[c] * a[c]; nb += b[c] * b[c]; }
    assert.ok(Math.abs(r.kind.similarity.data[5 * 384 + 40] - dot / Math.sqrt(na * nb)) < 1e-5);
    assert.ok(r.kind.toeplitz >= 0 && r.pca.points.length === 2048 && r.pca.explained[0] > 0);
    assert.deepEqual(await pos.importedPositions({ sim: 'cos', maxSide: 384, have: r.key }), { unchanged: true, key: r.key });
    // the wpe tensor chosen alone is also the positions' table
    const alone = await imp.importTable({ file: gpt2File(), tensor: 'wpe.weight' });
    assert.equal(alone.recognised, 'gpt2 position table');
    assert.equal((await pos.importedPositions({ sim: 'cos', have: r.key })).T, 1024);
    // a file without positions clears them
    await imp.importTable({ file: new File([safetensors([['emb', [10, 4], random(40, 3)]])], 'small.safetensors') });
    assert.deepEqual(await pos.importedPositions({ sim: 'cos' }), { none: true });
  });

  it('times GPT-2 small\'s shape (1024 x 768): the figures are printed, not asserted', async () => {
    const store = new ImportedPositions();
    const imp = makeImportHandlers(M, store);
    const pos = makePositionsHandler(M, store);
    const file = new File([safetensors([['wpe.weight', [1024, 768], smoothPositions(1024, 768)]])], 'wpe.safetensors');
    await imp.importTable({ file });
    const r = await pos.importedPositions({ sim: 'cos', maxSide: 384 });
    const table = new Float32Array(1024 * 768);
    for (let p = 0; p < 1024; p++) table.set(store.current.table.row(p), p * 768);
    const t0 = performance.now();
    const full = M.positionSimilarity(table, 1024, 768, { cosine: true });
    const fullMs = performance.now() - t0;
    assert.equal(full.length, 1024 * 1024);
    const f = (x) => x.toFixed(1);
    console.log(`# wpe 1024 x 768: read ${f(r.ms.read)} ms, 384 x 384 similarity ${f(r.ms.similarity)} ms, distance check ${f(r.ms.distanceCheck)} ms, PCA ${f(r.ms.pca)} ms, total ${f(r.ms.total)} ms`);
    console.log(`# full 1024 x 1024 M.positionSimilarity : ${f(fullMs)} ms`);
  });
});
