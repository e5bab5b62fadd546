// node:test for the wasm module's t-SNE (M.tsne, M.Tsne): the same map as the native CLI bit for
// bit (Barnes-Hut and exact paths, random and PCA layouts, euclidean and cosine), stepping, a
// resident M.Table in place of (table, rows, dim), and errors as JS Errors that leave the module
// usable. Native CLI: EMBEDLAB_CLI (default build/native/embedlab); wasm: EMBEDLAB_WASM_DIR.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEngine, repoRoot } from './load-engine.mjs';
import { npyBytes, npyData, sameBits } from './table-files.mjs';

const cli = process.env.EMBEDLAB_CLI || path.join(repoRoot, 'build/native/embedlab');

// (rows, dim) float32: three clusters (row i in cluster i % 3, centre 4 on column i % 3) plus
// LCG noise in [-1, 1).
function clusters(rows, dim, seed) {
  const t = new Float32Array(rows * dim);
  let s = seed >>> 0;
  for (let i = 0; i < t.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    t[i] = ((s >>> 8) - (1 << 23)) / (1 << 23);
  }
  for (let r = 0; r < rows; r++) t[r * dim + (r % 3)] += 4;
  return t;
}

let M, dir;
before(async () => {
  M = await loadEngine();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-tsne-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

// Runs the native CLI on table and returns {json, coords}.
function native(name, table, rows, dim, flags) {
  const npy = path.join(dir, `${name}.npy`), out = path.join(dir, `${name}-map.npy`);
  fs.writeFileSync(npy, npyBytes(table, rows, dim));
  const json = JSON.parse(execFileSync(cli, ['tsne', '--table', npy, '--out', out, ...flags], { encoding: 'utf8' }));
  return { json, coords: npyData(out) };
}

describe('M.tsne', () => {
  it('gives the native CLI map bit for bit (Barnes-Hut, n = 1100)', () => {
    const rows = 1100, dim = 12, t = clusters(rows, dim, 7);
    const n = native('bh', t, rows, dim, ['--perplexity', '20', '--iterations', '120', '--seed', '5']);
    assert.equal(n.json.exact, false);
    const w = M.tsne(t, rows, dim, { perplexity: 20, iterations: 120, seed: 5 });
    assert.ok(w instanceof Float32Array && w.length === rows * 2);
    assert.ok(sameBits(w, n.coords), 'wasm and native maps differ');
  });

  it('gives the native map bit for bit on the exact path, with the PCA layout and cosine', () => {
    const rows = 300, dim = 9, t = clusters(rows, dim, 3);
    const flags = ['--perplexity', '15', '--iterations', '80', '--init', 'pca', '--metric', 'cosine', '--learning-rate', 'auto'];
    const n = native('exact', t, rows, dim, flags);
    assert.equal(n.json.exact, true);
    const run = new M.Tsne(t, rows, dim, { perplexity: 15, iterations: 80, init: 'pca', metric: 'cosine', learningRate: 'auto' });
    run.step(80);
    assert.ok(sameBits(run.coordinates(), n.coords));
    assert.equal(Number(run.kl().toPrecision(9)), n.json.kl);  // the CLI prints 9 significant digits
    assert.equal(run.info().learningRate, 50);
    run.delete();
  });

  it('Tsne.start: one slice a call gives the native bits (exact, PCA, cosine and Barnes-Hut) and reports the phases', () => {
    for (const c of [
      { name: 'sliced-bh', rows: 1500, dim: 30, flags: ['--perplexity', '20', '--iterations', '30', '--seed', '5'],
        opts: { perplexity: 20, iterations: 30, seed: 5 } },
      { name: 'sliced-exact', rows: 800, dim: 30, flags: ['--perplexity', '15', '--iterations', '30', '--init', 'pca', '--metric', 'cosine'],
        opts: { perplexity: 15, iterations: 30, init: 'pca', metric: 'cosine' } },
    ]) {
      const t = clusters(c.rows, c.dim, 9);
      const n = native(c.name, t, c.rows, c.dim, c.flags);
      const run = M.Tsne.start(t, c.rows, c.dim, c.opts);
      assert.equal(run.phase(), 'neighbours');
      assert.equal(run.coordinates().length, 0);
      assert.throws(() => run.kl(), /tsne kl: the map is not constructed yet \(phase neighbours\)/);
      const phases = [run.phase()];
      let calls = 0;
      while (!run.prepare(0)) {
        calls++;
        const p = run.progress();
        assert.ok(p >= 0 && p <= 1, `progress ${p}`);
        if (run.phase() !== phases.at(-1)) phases.push(run.phase());
      }
      assert.deepEqual(phases, ['neighbours', 'affinities', 'init'], c.name);
      assert.ok(calls >= 5, `${c.name}: only ${calls} slices`);
      assert.equal(run.phase(), 'iteration');
      run.step(30);
      assert.ok(sameBits(run.coordinates(), n.coords), `${c.name}: sliced wasm map and native map differ`);
      run.delete();
    }
    assert.throws(() => M.Tsne.start(clusters(50, 4, 1), 50, 4, { perplexity: 30 }),
      { message: 'tsne: perplexity 30 must be below (n - 1) / 3 = 16.33 for 50 rows' });
  });

  it('steps: 3 x 40 iterations give the bits of one run of 120, and KL goes down', () => {
    const rows = 1100, dim = 12, t = clusters(rows, dim, 7);
    const whole = M.tsne(t, rows, dim, { perplexity: 20, iterations: 120, seed: 5 });
    const run = new M.Tsne(t, rows, dim, { perplexity: 20, iterations: 120, seed: 5 });
    assert.equal(run.totalIterations(), 120);
    const kl = [run.kl()];
    for (const expected of [40, 80, 120]) {
      assert.equal(run.step(40), expected);
      assert.equal(run.iteration(), expected);
      kl.push(run.kl());
    }
    assert.equal(run.step(10), 120, 'the run is over');
    assert.ok(sameBits(run.coordinates(), whole));
    assert.ok(kl[3] < kl[0], `KL ${kl.join(' -> ')}`);
    const info = run.info();
    assert.equal(info.exact, false);
    assert.ok(info.seconds.neighbours >= 0 && info.seconds.layout > 0);
    run.delete();
    assert.throws(() => run.step(1), /Tsne.step: this Tsne was deleted/);
  });

  it('takes a resident M.Table and an initial layout (Float32Array)', () => {
    const rows = 200, dim = 5, t = clusters(rows, dim, 11);
    const table = M.Table.fromArray(t, rows, dim);
    const a = M.tsne(table, { perplexity: 10, iterations: 30, seed: 2 });
    const b = M.tsne(t, rows, dim, { perplexity: 10, iterations: 30, seed: 2 });
    assert.ok(sameBits(a, b));
    const start = new Float32Array(rows * 2).map((_, i) => (i % 7) * 1e-3);
    const run = new M.Tsne(table, { perplexity: 10, iterations: 30, init: start });
    assert.ok(sameBits(run.coordinates(), start));
    run.delete();
    table.delete();
  });

  it('fails with the engine\'s messages and stays usable', () => {
    const rows = 40, dim = 3, t = clusters(rows, dim, 1);
    assert.throws(() => M.tsne(t, rows, dim, {}), { message: 'tsne: perplexity 30 must be below (n - 1) / 3 = 13.00 for 40 rows' });
    assert.throws(() => M.tsne(t, rows, dim, { perplexity: 5, theta: 3 }), { message: 'tsne: theta 3 must be in [0, 1]' });
    assert.throws(() => M.tsne(t, rows, dim, { perplexity: 5, learningRate: 'fast' }), { message: "Tsne: learningRate 'fast' must be a number or 'auto'" });
    assert.throws(() => M.tsne(t, rows, dim, { perplexity: 5, init: 'umap' }), { message: "tsne: unknown init 'umap', expected random or pca (or a given layout)" });
    assert.throws(() => M.tsne(t, rows, dim, { perplexity: 5, init: new Float32Array(3) }), { message: 'tsne: initial layout has 3 values, expected n x 2 = 40 x 2' });
    assert.throws(() => M.tsne(t, rows, dim, { perplexity: 5, steps: 3 }), /Tsne: unknown option 'steps', expected perplexity, iterations/);
    assert.throws(() => M.tsne(t, rows, dim + 1, { perplexity: 5 }), { message: 'tsne: table has 120 values, expected 40 x 4' });
    assert.throws(() => M.tsne(t, rows, dim, { perplexity: 5, iterations: 1.5 }), { message: 'Tsne: iterations 1.5 must be an integer in [-2147483648, 2147483647]' });
    assert.throws(() => M.tsne(t, 1e6, 3000, { perplexity: 5 }), { message: 'tsne: table has 1000000 rows; at most 100000 (the neighbours are exact, O(n^2 D))' });
    assert.throws(() => M.tsne(t, 1e5, 3000, { perplexity: 5 }), { message: 'tsne: table has 120 values, expected 100000 x 3000' });
    for (let i = 0; i < 200; i++) assert.throws(() => M.tsne(t, rows, dim, {}), /perplexity 30/);
    assert.equal(M.tsne(t, rows, dim, { perplexity: 5, iterations: 10 }).length, rows * 2);
  });
});
