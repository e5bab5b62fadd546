// node:test for the wasm module's map registry (M.mapAlgorithms, M.MapRun): the list as the
// engine declares it, option names that are M.Umap's and M.Tsne's, the generic run giving the
// same bits as M.Umap, M.Tsne and M.pca (also in slices and on a resident table), and errors
// naming the value and the range, the unknown option or algorithm, leaving the module usable.
// wasm: EMBEDLAB_WASM_DIR (default build/wasm).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './load-engine.mjs';

// rows of `clusters` clusters: LCG centres in [-2, 2) plus LCG noise in [-1, 1)
function clusterTable(rows, dim, clusters, seed) {
  let s = seed >>> 0;
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return ((s >>> 8) - (1 << 23)) / (1 << 23);
  };
  const centres = Float32Array.from({ length: clusters * dim }, () => 2 * next());
  const t = new Float32Array(rows * dim);
  for (let i = 0; i < rows; i++) for (let d = 0; d < dim; d++) t[i * dim + d] = centres[(i % clusters) * dim + d] + next();
  return t;
}
const sameBits = (a, b) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

let M;
const rows = 120, dim = 9;
const table = clusterTable(rows, dim, 3, 7);
before(async () => { M = await loadEngine(); });

describe('M.mapAlgorithms', () => {
  it('lists umap, tsne and pca once each, with their step names and needs', () => {
    const list = M.mapAlgorithms();
    assert.deepEqual(list.map((a) => a.name), ['umap', 'tsne', 'pca']);
    const byName = Object.fromEntries(list.map((a) => [a.name, a]));
    assert.equal(byName.umap.stepName, 'epoch');
    assert.equal(byName.tsne.stepName, 'iteration');
    assert.equal(byName.pca.params.length, 0);
    assert.equal(byName.umap.needs.givenInit, true);
    assert.equal(byName.pca.needs.givenInit, false);
    for (const a of list) assert.equal(a.components, 2);
  });
  it('names the options as M.Umap and M.Tsne do, with CLI flags, defaults and ranges', () => {
    const byName = Object.fromEntries(M.mapAlgorithms().map((a) => [a.name, a]));
    const umap = Object.fromEntries(byName.umap.params.map((p) => [p.option, p]));
    assert.deepEqual(Object.keys(umap).sort(), ['init', 'knn', 'learningRate', 'localConnectivity', 'metric', 'minDist',
      'nEpochs', 'nNeighbors', 'negativeSampleRate', 'repulsionStrength', 'seed', 'setOpMixRatio', 'spread'].sort());
    assert.deepEqual([umap.nNeighbors.flag, umap.nNeighbors.type, umap.nNeighbors.default, umap.nNeighbors.min],
      ['--n-neighbors', 'integer', 15, 2]);
    assert.deepEqual([umap.nEpochs.default, umap.nEpochs.word], ['auto', 'auto']);
    assert.deepEqual(umap.knn.choices, ['auto', 'exact', 'nn-descent']);
    const tsne = Object.fromEntries(byName.tsne.params.map((p) => [p.option, p]));
    assert.deepEqual(Object.keys(tsne).sort(), ['earlyExaggeration', 'init', 'iterations', 'learningRate', 'metric',
      'perplexity', 'seed', 'theta'].sort());
    assert.deepEqual([tsne.learningRate.default, tsne.learningRate.word, tsne.learningRate.minExclusive], [200, 'auto', true]);
  });
  it('gives a fresh copy each call', () => {
    const a = M.mapAlgorithms();
    a[0].params.length = 0;
    assert.ok(M.mapAlgorithms()[0].params.length > 0);
  });
});

describe('M.MapRun gives the direct paths\' bits', () => {
  it('umap = M.umap, whole and in slices, on an array and on a resident table', () => {
    const opts = { nNeighbors: 8, nEpochs: 40, seed: 3, minDist: 0.2 };
    const direct = M.umap(table, rows, dim, opts);
    const whole = new M.MapRun('umap', table, rows, dim, opts);
    assert.equal(whole.total(), 40);
    assert.equal(whole.step(whole.total()), 40);
    assert.ok(whole.done());
    assert.ok(sameBits(whole.coordinates(), direct));
    assert.equal(whole.info().nEpochs, 40);
    whole.delete();
    const t = M.Table.fromArray(table, rows, dim);
    const sliced = M.MapRun.start('umap', t, opts);
    t.delete();  // the run keeps its own copy
    const phases = new Set();
    do phases.add(sliced.phase()); while (!sliced.prepare(0));
    assert.ok(phases.has('knn'));
    while (!sliced.done()) sliced.step(7);
    assert.ok(sameBits(sliced.coordinates(), direct));
    sliced.delete();
  });
  it('tsne = M.tsne, with learningRate auto and a given init', () => {
    const init = new Float32Array(rows * 2).map((_, i) => Math.sin(i) * 1e-3);
    const opts = { perplexity: 10, iterations: 60, seed: 2, learningRate: 'auto', init };
    const direct = M.tsne(table, rows, dim, opts);
    const run = M.MapRun.start('tsne', table, rows, dim, opts);
    while (!run.prepare(5)) { /* slices */ }
    assert.equal(run.phase(), 'iteration');
    while (!run.done()) run.step(13);
    assert.equal(run.steps(), 60);
    assert.ok(sameBits(run.coordinates(), direct));
    const info = run.info();
    assert.equal(typeof info.kl, 'number');
    assert.equal(info.exact, true);
    run.delete();
  });
  it('pca = M.pca points, one step', () => {
    const direct = M.pca(table, rows, dim, { k: 2 }).points;
    const run = M.MapRun.start('pca', table, rows, dim);
    assert.deepEqual([run.phase(), run.steps(), run.total(), run.done()], ['pca', 0, 1, false]);
    assert.equal(run.step(5), 1);
    assert.ok(run.done());
    assert.equal(run.phase(), 'done');
    assert.ok(sameBits(run.coordinates(), direct));
    assert.equal(run.info().explained.length, 2);
    run.delete();
  });
});

describe('M.MapRun errors', () => {
  it('names the value and the range, then the module still works', () => {
    assert.throws(() => new M.MapRun('umap', table, rows, dim, { minDist: -1 }),
      { message: 'umap: min_dist -1 out of range [0, 1000000]' });
    assert.throws(() => new M.MapRun('tsne', table, rows, dim, { learningRate: 0 }),
      { message: 'tsne: learning_rate 0 out of range (0, 1000000]' });
    assert.throws(() => new M.MapRun('tsne', table, rows, dim, { learningRate: 'fast' }),
      { message: "tsne: learning_rate 'fast' must be a number or 'auto'" });
    assert.throws(() => new M.MapRun('umap', table, rows, dim, { knn: 'fast' }),
      { message: "umap: knn 'fast' is not one of auto, exact or nn-descent" });
    assert.throws(() => new M.MapRun('umap', table, rows, dim, { nNeighbors: 2.5 }),
      { message: 'umap: n_neighbors 2.5 must be an integer' });
    assert.throws(() => new M.MapRun('umap', table, rows, dim, { nNeighbors: 500 }), /n_neighbors 500 out of range \[2, 119\]/);
    assert.ok(sameBits(new M.MapRun('pca', table, rows, dim).coordinates(), M.pca(table, rows, dim, { k: 2 }).points));
  });
  it('names an unknown option or algorithm and the known ones', () => {
    assert.throws(() => M.MapRun.start('umap', table, rows, dim, { perplexity: 5 }),
      /^Error: MapRun.start: unknown option 'perplexity' for umap, expected nNeighbors, minDist, /);
    assert.throws(() => M.MapRun.start('isomap', table, rows, dim), { message: "MapRun.start: unknown algorithm 'isomap', expected umap, tsne, pca" });
    assert.throws(() => M.MapRun.start('pca', table, rows, dim, { init: new Float32Array(rows * 2) }),
      { message: 'MapRun.start: unknown option \'init\' for pca, expected ' });
  });
  it('refuses a deleted run', () => {
    const run = M.MapRun.start('pca', table, rows, dim);
    run.delete();
    assert.throws(() => run.step(1), { message: 'MapRun.step: this MapRun was deleted' });
  });
});
