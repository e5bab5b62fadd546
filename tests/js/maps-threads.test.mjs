// UMAP and its kNN search on the thread pool (issue 25): `embedlab umap` writes the same bytes at
// --threads 1, 2, 3 and 4 (exact kNN and NN-descent, cosine and euclidean), and the wasm builds in
// Node compute the native map: the single-thread build (build/wasm/embedlab.js) and the threaded
// one (the package's Node entry, build/web/embedlab-node.js) at 1 and 2 threads.
// Not here: the neighbours scan's bytes (cli-threads.test.mjs), the pool itself (test_parallel.cpp).
//   node --test tests/js/maps-threads.test.mjs   (needs build/native, build/wasm and build/web)
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cli } from './cli-fixtures.mjs';
import { npyBytes, rng } from './table-files.mjs';
import { loadEngine, repoRoot } from './load-engine.mjs';

const site = process.env.EMBEDLAB_SITE_DIR || path.join(repoRoot, 'build', 'web');

// two tables of 8 noisy clusters: 1,300 rows (exact kNN by default: 21 units of 64 rows, 6 layout
// blocks of 256 heads) and 4,500 rows (NN-descent by default: 18 join units of 256 rows)
function clusters(rows, dim, seed) {
  const rand = rng(seed);
  const centres = Array.from({ length: 8 }, () => Array.from({ length: dim }, () => 4 * (rand() - 0.5)));
  const t = new Float32Array(rows * dim);
  for (let i = 0; i < rows; i++) for (let c = 0; c < dim; c++) t[i * dim + c] = centres[i % 8][c] + rand() - 0.5;
  return t;
}

// the float32 values of an .npy file's bytes
const npyValues = (b) => b.subarray(10 + b.readUInt16LE(8));

let dir;
const tables = {};
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-maps-threads-'));
  for (const [name, rows, dim, seed] of [['small', 1300, 16, 7], ['large', 4500, 12, 8]]) {
    const data = clusters(rows, dim, seed);
    const file = path.join(dir, `${name}.npy`);
    fs.writeFileSync(file, npyBytes(data, rows, dim));
    tables[name] = { file, data, rows, dim };
  }
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const cases = [
  ['small', ['--knn', 'exact', '--metric', 'cosine', '--n-epochs', '40', '--seed', '3'], { knn: 'exact', metric: 'cosine', nEpochs: 40, seed: 3 }],
  ['large', ['--knn', 'nn-descent', '--metric', 'euclidean', '--n-epochs', '20', '--seed', '4'], { knn: 'nn-descent', metric: 'euclidean', nEpochs: 20, seed: 4 }],
];

// the native map of one case at n threads: the coordinates' bytes and the JSON without timings
function native(name, args, n) {
  const out = path.join(dir, `${name}-${n}.npy`);
  const r = spawnSync(cli, ['umap', '--table', tables[name].file, '--out', out, ...args, '--threads', String(n)], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const info = JSON.parse(r.stdout);
  delete info.seconds;
  return { bytes: fs.readFileSync(out), info };
}

describe('umap on the pool', () => {
  for (const [name, args] of cases) {
    it(`embedlab umap ${args.slice(0, 4).join(' ')}: the same bytes at --threads 1, 2, 3 and 4`, () => {
      const one = native(name, args, 1);
      assert.equal(npyValues(one.bytes).length, tables[name].rows * 2 * 4);
      for (const n of [2, 3, 4]) {
        const other = native(name, args, n);
        assert.ok(one.bytes.equals(other.bytes), `${name}: --threads ${n} wrote other coordinates than --threads 1`);
        assert.deepEqual(other.info, one.info);
      }
    });
  }

  it('the single-thread wasm build computes the native maps', async () => {
    const M = await loadEngine();
    for (const [name, args, opts] of cases) {
      const { data, rows, dim } = tables[name];
      const xy = M.umap(data, rows, dim, opts);
      const expected = npyValues(native(name, args, 2).bytes);
      assert.ok(Buffer.from(xy.buffer, xy.byteOffset, xy.byteLength).equals(expected), `${name}: wasm and native maps differ`);
    }
  });

  it('the threaded wasm build (the Node entry) computes the native maps at 1 and 2 threads', () => {
    for (const [name, args, opts] of cases) {
      const { file, rows, dim } = tables[name];
      const script = path.join(dir, 'run.mjs');
      fs.writeFileSync(script, `import fs from 'node:fs';
import { createEmbedlab } from ${JSON.stringify(pathToFileURL(path.join(site, 'embedlab-node.js')).href)};
const M = await createEmbedlab();
const bytes = fs.readFileSync(${JSON.stringify(file)});
const start = 10 + bytes.readUInt16LE(8);
const data = new Float32Array(bytes.buffer.slice(bytes.byteOffset + start, bytes.byteOffset + bytes.byteLength));
const out = [];
for (const n of [1, 2]) {
  M.setThreads(n);
  out.push(Buffer.from(M.umap(data, ${rows}, ${dim}, ${JSON.stringify(opts)}).buffer).toString('base64'));
}
console.log(JSON.stringify(out));`);
      const [a, b] = JSON.parse(execFileSync(process.execPath, [script], { encoding: 'utf8', timeout: 300000 }));
      const expected = npyValues(native(name, args, 1).bytes).toString('base64');
      assert.equal(a, expected, `${name}: the threaded wasm build at 1 thread differs from native`);
      assert.equal(b, expected, `${name}: the threaded wasm build at 2 threads differs from native`);
    }
  });
});
