// node:test for the wasm module's projection API (M.pca, M.nearest, M.analogy): the same
// neighbours as the native CLI bit for bit, PCA within float rounding of the native CLI,
// gensim's analogy answer on a hand-made table, and errors as JS Errors.
// Native CLI: EMBEDLAB_CLI (default build/native/embedlab); wasm: EMBEDLAB_WASM_DIR (build/wasm).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEngine, repoRoot } from './load-engine.mjs';
import { npyBytes, sameBits } from './table-files.mjs';

const cli = process.env.EMBEDLAB_CLI || path.join(repoRoot, 'build/native/embedlab');

// A deterministic (V, D) table with values in [-1, 1).
function lcgTable(V, D, seed) {
  const t = new Float32Array(V * D);
  let s = seed >>> 0;
  for (let i = 0; i < t.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    t[i] = ((s >>> 8) - (1 << 23)) / (1 << 23);
  }
  return t;
}

function native(args) {
  return JSON.parse(execFileSync(cli, args, { encoding: 'utf8' }));
}

let M, dir, npy;
const V = 500, D = 37;  // 37 leaves a SIMD remainder in kernels::dot
const table = lcgTable(V, D, 11);

before(async () => {
  M = await loadEngine();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-project-'));
  npy = path.join(dir, 'table.npy');
  fs.writeFileSync(npy, npyBytes(table, V, D));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('nearest and analogy', () => {
  it('give the native CLI ids and score bits (cosine and euclidean)', () => {
    for (const [id, metric] of [[0, 'cosine'], [123, 'cosine'], [499, 'euclidean'], [7, 'euclidean']]) {
      const w = M.nearest(table, V, D, { id, k: 12, metric });
      const n = native(['neighbours', '--table', npy, '--id', `${id}`, '--k', '12', '--metric', metric]);
      assert.ok(w.ids instanceof Int32Array && w.scores instanceof Float32Array);
      assert.deepEqual(Array.from(w.ids), n.neighbours.map((x) => x.id), `${metric} ids for row ${id}`);
      // 9 significant digits round-trip float32, so the scores must match bit for bit
      assert.ok(sameBits(w.scores, Float32Array.from(n.neighbours, (x) => x.score)), `${metric} scores for row ${id}`);
      assert.ok(!w.ids.includes(id), 'the query row is left out');
    }
  });

  it('gives the native analogy answer bit for bit', () => {
    const w = M.analogy(table, V, D, { positive: [3, 40], negative: [17], k: 8 });
    const n = native(['analogy', '--table', npy, '--positive', '3,40', '--negative', '17', '--k', '8']);
    assert.deepEqual(Array.from(w.ids), n.neighbours.map((x) => x.id));
    assert.ok(sameBits(w.scores, Float32Array.from(n.neighbours, (x) => x.score)));
  });

  it('answers king - man + woman = queen like gensim on a hand-made table', () => {
    // man, woman, king, queen, apple, prince, girl; gensim 4.2 most_similar gives
    // queen 0.9752869, girl 0.7554539, prince 0.7468528, apple 0.6532815
    const t = [1, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 0, 0, 1, 1, 0, 1.2, 0.5, 1, 0];
    const r = M.analogy(t, 7, 3, { positive: [2, 1], negative: [0], k: 4 });
    assert.deepEqual(Array.from(r.ids), [3, 6, 5, 4]);
    [0.9752869, 0.7554539, 0.7468528, 0.6532815].forEach((s, i) => assert.ok(Math.abs(r.scores[i] - s) < 1e-6, `${r.scores[i]} vs ${s}`));
  });

  it('looks words up in a metadata.tsv on the CLI (--word, --vocab)', () => {
    const words = ['man', 'woman', 'king', 'queen', 'apple', 'prince', 'girl'];
    const t = Float32Array.from([1, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 0, 0, 1, 1, 0, 1.2, 0.5, 1, 0]);
    const f = path.join(dir, 'words.npy'), tsv = path.join(dir, 'metadata.tsv');
    fs.writeFileSync(f, npyBytes(t, 7, 3));
    fs.writeFileSync(tsv, words.join('\n') + '\n');
    const a = native(['analogy', '--table', f, '--vocab', tsv, '--positive', 'king,woman', '--negative', 'man', '--k', '2']);
    assert.deepEqual(a.neighbours.map((x) => x.label), ['queen', 'girl']);
    const n = native(['neighbours', '--table', f, '--vocab', tsv, '--word', 'king', '--k', '1']);
    assert.deepEqual(n.query, { id: 2, label: 'king' });
    assert.equal(n.neighbours[0].label, 'prince');
    const w = M.nearest(t, 7, 3, { id: 2, k: 1 });
    assert.ok(sameBits(w.scores, Float32Array.from(n.neighbours, (x) => x.score)));
  });

  it('takes a query vector and ranks every row', () => {
    const q = table.slice(5 * D, 6 * D);
    const r = M.nearest(table, V, D, { vector: q, k: 3 });
    assert.equal(r.ids[0], 5);
    assert.ok(Math.abs(r.scores[0] - 1) < 1e-6);
  });
});

describe('pca', () => {
  it('matches the native CLI within float rounding', () => {
    const w = M.pca(table, V, D, { k: 3 });
    const n = native(['pca', '--table', npy, '--k', '3']);
    assert.equal(w.points.length, V * 3);
    assert.equal(w.components.length, 3 * D);
    w.components.forEach((c, i) => assert.ok(Math.abs(c - n.components.data[i]) < 1e-5, `component value ${i}: ${c} vs ${n.components.data[i]}`));
    w.points.forEach((p, i) => assert.ok(Math.abs(p - n.points.data[i]) < 1e-4, `point value ${i}: ${p} vs ${n.points.data[i]}`));
    w.explained.forEach((e, i) => assert.ok(Math.abs(e - n.explained[i]) < 1e-9));
  });

  it('returns orthonormal components and sorted explained ratios summing to <= 1', () => {
    const { components: c, explained: e } = M.pca(table, V, D, { k: 3 });
    for (let a = 0; a < 3; a++) {
      for (let b = 0; b < 3; b++) {
        let s = 0;
        for (let d = 0; d < D; d++) s += c[a * D + d] * c[b * D + d];
        assert.ok(Math.abs(s - (a === b ? 1 : 0)) < 1e-6, `components ${a}.${b} = ${s}`);
      }
    }
    assert.ok(e[0] >= e[1] && e[1] >= e[2] && e[0] + e[1] + e[2] <= 1 + 1e-12);
  });

  it('projects only the given ids and follows the previous frame\'s signs', () => {
    const ids = [4, 8, 15, 16, 23, 42, 100, 200, 300, 400];
    const a = M.pca(table, V, D, { k: 2, ids });
    assert.equal(a.n, ids.length);
    assert.equal(a.points.length, ids.length * 2);
    const previous = a.components.slice();
    for (let d = D; d < 2 * D; d++) previous[d] = -previous[d];
    const b = M.pca(table, V, D, { k: 2, ids, previous });
    for (let d = 0; d < D; d++) {
      assert.equal(b.components[d], a.components[d]);
      assert.equal(b.components[D + d], -a.components[D + d]);
    }
  });
});

describe('errors', () => {
  it('arrive as JS Errors naming the value and the limit', () => {
    assert.throws(() => M.nearest(table, V, D, { id: V, k: 3 }), { message: `nearest: id ${V} out of range [0, ${V})` });
    assert.throws(() => M.nearest(table, V, D, { id: -1 }), { message: `nearest: id -1 out of range [0, ${V})` });
    assert.throws(() => M.nearest(table, V, D, { id: 1, k: 0 }), { message: 'nearest: k must be >= 1, got 0' });
    assert.throws(() => M.nearest(table, V, D, { id: 1, metric: 'dot' }), { message: "metric: unknown metric 'dot', expected cosine or euclidean" });
    assert.throws(() => M.nearest(table, V, D, {}), { message: 'nearest: give exactly one of the options id (a row) and vector (dim values)' });
    assert.throws(() => M.nearest(table, V, D, { id: 1, kk: 3 }), { message: "nearest: unknown option 'kk', expected id, vector, k, metric" });
    assert.throws(() => M.nearest(table, V, D, { vector: [1, 2] }), { message: `nearest: query vector has 2 values, expected D = ${D}` });
    assert.throws(() => M.nearest(table, V + 1, D, { id: 1 }), { message: `nearest: table has ${V * D} values, expected ${V + 1} x ${D} = ${(V + 1) * D}` });
    assert.throws(() => M.pca(table, V, D, { k: 40 }), { message: `pca: k 40 out of range [1, ${D}] (${V} rows of ${D} columns)` });
    assert.throws(() => M.pca([1, NaN, 0, 1], 2, 2, { k: 1 }), { message: 'pca: table value nan at row 0, column 1 is not finite' });
    assert.throws(() => M.pca(table, V, D, { k: 1, ids: [0, V] }), { message: `pca: id ${V} out of range [0, ${V})` });
    assert.throws(() => M.analogy(table, V, D, { positive: [1], negative: [1] }), { message: 'analogy: the inputs cancel out: their weighted mean is all zeros' });
    assert.throws(() => M.analogy(table, V, D, {}), { message: 'analogy: needs at least one positive or negative id' });
  });

  it('leave the module working after 10,000 failures', () => {
    for (let i = 0; i < 10000; i++) assert.throws(() => M.nearest(table, V, D, { id: 1, k: 0 }));
    assert.equal(M.nearest(table, V, D, { id: 1, k: 1 }).ids.length, 1);
  });
});
