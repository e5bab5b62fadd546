// node:test for the wasm module's UMAP (M.umap, M.Umap): the same map as the native CLI bit
// for bit (exact kNN + spectral init, NN-descent + cosine, PCA init), stepping = one run,
// resident tables, given initial layouts, transform, and errors that leave the module usable.
// Native CLI: EMBEDLAB_CLI (default build/native/embedlab); wasm: EMBEDLAB_WASM_DIR (build/wasm).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEngine, repoRoot } from './load-engine.mjs';
import { npyBytes, npyData, sameBits } from './table-files.mjs';

const cli = process.env.EMBEDLAB_CLI || path.join(repoRoot, 'build/native/embedlab');

// rows of `clusters` clusters: centre (LCG in [-2, 2)) plus LCG noise in [-1, 1); row i in cluster i % clusters
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

let M, dir;
const rows = 300, dim = 21;  // 21 leaves a SIMD remainder in the dot products
const table = clusterTable(rows, dim, 3, 5);

before(async () => {
  M = await loadEngine();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-umap-'));
  fs.writeFileSync(path.join(dir, 't.npy'), npyBytes(table, rows, dim));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

// the native CLI's map for these flags
function native(flags) {
  const out = path.join(dir, `out-${flags.join('_').replace(/[^a-z0-9_-]/gi, '')}.npy`);
  const json = JSON.parse(execFileSync(cli, ['umap', '--table', path.join(dir, 't.npy'), '--out', out, ...flags], { encoding: 'utf8' }));
  return { json, xy: npyData(out) };
}

describe('M.umap = the native CLI, bit for bit', () => {
  const cases = [
    { name: 'exact kNN, euclidean, spectral init', flags: ['--seed', '3', '--n-epochs', '80'], opts: { seed: 3, nEpochs: 80 } },
    { name: 'NN-descent, cosine', flags: ['--seed', '4', '--n-epochs', '60', '--metric', 'cosine', '--knn', 'nn-descent'],
      opts: { seed: 4, nEpochs: 60, metric: 'cosine', knn: 'nn-descent' } },
    { name: 'PCA init, min_dist 0.5, 7 neighbours', flags: ['--seed', '5', '--n-epochs', '40', '--init', 'pca', '--min-dist', '0.5', '--n-neighbors', '7'],
      opts: { seed: 5, nEpochs: 40, init: 'pca', minDist: 0.5, nNeighbors: 7 } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { json, xy } = native(c.flags);
      const w = M.umap(table, rows, dim, c.opts);
      assert.equal(w.length, rows * 2);
      assert.ok(w.every(Number.isFinite));
      assert.ok(sameBits(w, xy), `${c.name}: wasm and native maps differ`);
      const u = new M.Umap(table, rows, dim, c.opts);
      assert.equal(Number(u.info().a.toPrecision(9)), json.a);  // the CLI prints 9 digits
      assert.equal(u.info().init, json.init);
      u.delete();
    });
  }
});

describe('M.Umap', () => {
  it('steps: 8 steps of 10 epochs give the same bits as one run; step returns the epoch', () => {
    const u = new M.Umap(table, rows, dim, { seed: 3, nEpochs: 80 });
    assert.equal(u.epoch(), 0);
    assert.equal(u.totalEpochs(), 80);
    for (let k = 1; k <= 8; k++) assert.equal(u.step(10), 10 * k);
    assert.equal(u.step(10), 80);  // at the end: nothing more to run
    assert.ok(sameBits(u.coordinates(), M.umap(table, rows, dim, { seed: 3, nEpochs: 80 })));
    const info = u.info();
    assert.equal(info.knn, 'exact');
    assert.ok(info.seconds.total >= info.seconds.layout);
    u.delete();
    assert.throws(() => u.step(1), /Umap.step: this Umap was deleted/);
  });

  it('runs on a resident M.Table with the same bits', () => {
    const t = M.Table.fromArray(table, rows, dim);
    const a = M.umap(t, { seed: 2, nEpochs: 30, metric: 'cosine' });
    t.delete();  // the run keeps its own copy of the rows
    assert.ok(sameBits(a, M.umap(table, rows, dim, { seed: 2, nEpochs: 30, metric: 'cosine' })));
  });

  it('starts from a given layout (a previous frame)', () => {
    const u = new M.Umap(table, rows, dim, { seed: 1, nEpochs: 20 });
    u.step(20);
    const frame = u.coordinates();
    u.delete();
    const v = new M.Umap(table, rows, dim, { seed: 1, nEpochs: 0, init: frame });
    assert.equal(v.info().init, 'given');
    const c = v.coordinates();
    v.delete();
    // the given layout mapped to [0, 10] per axis, order kept
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < rows; i++) lo = Math.min(lo, c[2 * i]), hi = Math.max(hi, c[2 * i]);
    assert.equal(lo, 0);
    assert.equal(hi, 10);
    for (let i = 1; i < rows; i++) assert.equal(Math.sign(c[2 * i] - c[0]), Math.sign(frame[2 * i] - frame[0]));
  });

  it('transforms new rows into the fitted map next to their cluster', () => {
    const u = new M.Umap(table, rows, dim, { seed: 6 });
    u.step(u.totalEpochs());
    const xy = u.coordinates();
    const centre = [0, 1, 2].map((c) => {
      let x = 0, y = 0, n = 0;
      for (let i = c; i < rows; i += 3) x += xy[2 * i], y += xy[2 * i + 1], n++;
      return [x / n, y / n];
    });
    const fresh = clusterTable(rows + 30, dim, 3, 5).subarray(rows * dim);  // rows 300..329 of the same clusters
    const p = u.transform(fresh);
    assert.equal(p.length, 60);
    for (let i = 0; i < 30; i++) {
      const d = centre.map(([x, y]) => (p[2 * i] - x) ** 2 + (p[2 * i + 1] - y) ** 2);
      assert.equal(d.indexOf(Math.min(...d)), (rows + i) % 3, `new row ${i}`);
    }
    assert.throws(() => u.transform(new Float32Array(dim + 1)), /Umap.transform: new rows have 22 values, not a multiple of dim 21/);
    u.delete();
  });
});

describe('M.Umap.start: the construction in slices', () => {
  // big enough for many slices of ~2^21 multiply-adds (exact: 3000^2 / 2 x 40 = 180 M)
  const bigRows = 3000, bigDim = 40;
  const big = clusterTable(bigRows, bigDim, 6, 11);
  const runSliced = (u) => {
    const phases = [u.phase()];
    let calls = 0, last = -1;
    while (!u.prepare(0)) { // 0 ms: one slice a call
      calls++;
      const ph = u.phase(), pr = u.progress();
      assert.ok(pr >= 0 && pr <= 1, `progress ${pr} out of [0, 1]`);
      if (ph !== phases.at(-1)) phases.push(ph), last = -1;
      assert.ok(pr >= last, `${ph}: progress went back from ${last} to ${pr}`);
      last = pr;
    }
    return { phases, calls };
  };
  for (const c of [
    { name: 'exact kNN, spectral init', flags: ['--seed', '6', '--n-epochs', '20', '--knn', 'exact'], opts: { seed: 6, nEpochs: 20, knn: 'exact' } },
    { name: 'NN-descent, cosine, PCA init', flags: ['--seed', '7', '--n-epochs', '20', '--metric', 'cosine', '--init', 'pca', '--knn', 'nn-descent'],
      opts: { seed: 7, nEpochs: 20, metric: 'cosine', init: 'pca', knn: 'nn-descent' } },
  ]) {
    it(`${c.name}: one slice a call gives the native CLI's bits and reports the phases`, () => {
      fs.writeFileSync(path.join(dir, 'big.npy'), npyBytes(big, bigRows, bigDim));
      const out = path.join(dir, 'big-out.npy');
      execFileSync(cli, ['umap', '--table', path.join(dir, 'big.npy'), '--out', out, ...c.flags]);
      const u = M.Umap.start(big, bigRows, bigDim, c.opts);
      assert.equal(u.phase(), 'knn');
      assert.equal(u.prepared(), false);
      assert.equal(u.coordinates().length, 0);  // no layout before the init
      assert.equal(u.totalEpochs(), 20);
      const { phases, calls } = runSliced(u);
      assert.deepEqual(phases, ['knn', 'graph', 'init']);
      assert.ok(calls >= 10, `only ${calls} slices`);
      assert.equal(u.phase(), 'layout');
      assert.equal(u.step(20), 20);
      assert.ok(sameBits(u.coordinates(), npyData(out)), 'sliced wasm map and native map differ');
      u.delete();
    });
  }
  it('larger budgets and a resident table deleted after start give the same bits', () => {
    const opts = { seed: 8, nEpochs: 15, knn: 'nn-descent' };
    const ref = M.umap(big, bigRows, bigDim, opts);
    const t = M.Table.fromArray(big, bigRows, bigDim);
    const u = M.Umap.start(t, opts);
    t.delete();  // the run copied the rows at start
    let calls = 0;
    while (!u.prepare(5)) calls++;
    u.step(15);
    assert.ok(sameBits(u.coordinates(), ref));
    u.delete();
    const v = M.Umap.start(big, bigRows, bigDim, opts);
    v.step(15);  // step() finishes the construction first
    assert.ok(sameBits(v.coordinates(), ref));
    v.delete();
  });
  it('start fails at once with the engine\'s message; transform waits for the map', () => {
    assert.throws(() => M.Umap.start(big, bigRows, bigDim, { nNeighbors: 1 }),
      { message: 'umap: n_neighbors 1 out of range [2, 2999] (n - 1 for 3000 rows)' });
    assert.throws(() => M.Umap.start(big, bigRows, bigDim, { nNeighbours: 5 }), /Umap.start: unknown option 'nNeighbours'/);
    const u = M.Umap.start(big, bigRows, bigDim, { seed: 1 });
    u.prepare(0);
    assert.throws(() => u.transform(big.subarray(0, bigDim)),
      { message: 'umap transform: the map is not constructed yet (phase knn); prepare() or step() it first' });
    assert.throws(() => u.prepare(-1), /Umap.prepare: maxMs must be a number >= 0, got -1/);
    u.delete();
    assert.equal(M.umap(table, rows, dim, { nEpochs: 5 }).length, rows * 2);  // still usable
  });
});

describe('UMAP errors', () => {
  it('name the value and the limit, and the module keeps working', () => {
    assert.throws(() => M.umap(table, rows, dim, { nNeighbors: 1 }), { message: 'umap: n_neighbors 1 out of range [2, 299] (n - 1 for 300 rows)' });
    assert.throws(() => M.umap(table, rows, dim, { minDist: 2 }), { message: 'umap: min_dist 2 out of range [0, 1] (at most spread)' });
    assert.throws(() => M.umap(table, rows, dim, { metric: 'manhattan' }), { message: "metric: unknown metric 'manhattan', expected cosine or euclidean" });
    assert.throws(() => M.umap(table, rows, dim, { init: 'random' }), { message: "umap: unknown init 'random', expected spectral or pca (or initial coordinates)" });
    assert.throws(() => M.umap(table, rows, dim, { init: new Float32Array(3) }), { message: 'umap: init coordinates have 3 values, expected n x 2 = 300 x 2' });
    assert.throws(() => M.umap(table, rows, dim, { nNeighbours: 5 }), /Umap: unknown option 'nNeighbours', expected nNeighbors, minDist/);
    assert.throws(() => M.umap(table, rows, dim + 1), { message: 'umap: table has 6300 values, expected 300 x 22' });
    assert.throws(() => M.umap(table, rows, dim, { nEpochs: 1.5 }), { message: 'Umap: nEpochs 1.5 must be an integer in [-2147483648, 2147483647]' });
    assert.throws(() => M.umap(null, 3, 1), { message: 'Umap: expected an array of numbers, got null' });
    // a graph of 30000 x 29998 neighbours cannot fit: refused before allocating, in the planner's words
    assert.throws(() => M.umap(new Float32Array(30000), 30000, 1, { nNeighbors: 29999 }), /^Error: umap: .* need .*; the limit here is/);
    assert.equal(M.umap(table, rows, dim, { seed: 3, nEpochs: 5 }).length, rows * 2);
  });
});
