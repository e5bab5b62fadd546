// PCA and t-SNE on the engine's thread pool (issue 25): `embedlab pca` and `embedlab tsne` print
// the same bytes (and write the same --out map) at --threads 1, 2, 3 and 4; the threaded wasm
// build (the Node entry, build/web/embedlab-node.js, at 2 threads) gives the single-thread
// build's bytes (build/wasm/embedlab.js); and t-SNE's map is the native CLI's, bit for bit.
// (PCA's Eigen eigensolvers are not bit-identical between native and wasm; tests/js/project.test.mjs
// holds them to 1e-5.) Sizes give every parallel loop several blocks (src/analysis/pca.cpp,
// src/maps/tsne/tsne_forces.cpp); the 16,400 x 1,024 table takes PCA's randomized solver.
//   node --test tests/js/threads-maps.test.mjs   (needs build/native, build/wasm and build/web)
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cli } from './cli-fixtures.mjs';
import { loadEngine, repoRoot } from './load-engine.mjs';
import { npyBytes, npyData, rng, sameBits } from './table-files.mjs';

const site = process.env.EMBEDLAB_SITE_DIR || path.join(repoRoot, 'build', 'web');

// rows x dim values: uniform noise plus one of `clusters` offsets per row (row i: cluster i % clusters)
function clustered(rows, dim, clusters, seed) {
  const rand = rng(seed);
  const centres = Float32Array.from({ length: clusters * dim }, () => 6 * (rand() - 0.5));
  const t = new Float32Array(rows * dim);
  for (let i = 0; i < rows; i++) for (let d = 0; d < dim; d++) t[i * dim + d] = rand() - 0.5 + centres[(i % clusters) * dim + d];
  return t;
}

// JSON output without the timings (the only field allowed to differ)
const untimed = (stdout) => stdout.replace(/"seconds":(\{[^}]*\}|[0-9.e+-]+)/g, '"seconds":0');

let dir;
const tables = {};
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-threads-maps-'));
  for (const [name, rows, dim, clusters, seed] of [['tsne', 1500, 12, 5, 3], ['pca', 3000, 120, 4, 4], ['wide', 16400, 1024, 3, 5]]) {
    const data = clustered(rows, dim, clusters, seed);
    const file = path.join(dir, `${name}.npy`);
    fs.writeFileSync(file, npyBytes(data, rows, dim));
    tables[name] = { file, data, rows, dim };
  }
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const run = (args) => {
  const r = spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
};

describe('cli pca and tsne at --threads 1, 2, 3 and 4', () => {
  it('pca: the same JSON bytes, and `map --algorithm pca` the same points and ratios (all 17 digits)', () => {
    for (const name of ['pca', 'wide']) {
      const args = ['pca', '--table', tables[name].file, '--k', '3'];
      const out = path.join(dir, `pca-${name}.npy`);
      const mapArgs = ['map', '--algorithm', 'pca', '--table', tables[name].file, '--out', out];
      const one = untimed(run([...args, '--threads', '1']));
      const mapOne = untimed(run([...mapArgs, '--threads', '1']));
      const points = npyData(out);
      assert.equal(points.length, tables[name].rows * 2);
      if (name === 'wide') assert.match(one, /"solver":"randomized"/);
      for (const n of ['2', '3', '4']) {
        assert.equal(untimed(run([...args, '--threads', n])), one, `${name}, --threads ${n}`);
        assert.equal(untimed(run([...mapArgs, '--threads', n])), mapOne, `${name}, map, --threads ${n}`);
        assert.ok(sameBits(npyData(out), points), `${name}: points at --threads ${n}`);
      }
    }
  });

  it('tsne (Barnes-Hut, and exact from the PCA layout): the same map bytes and JSON', () => {
    for (const extra of [['--theta', '0.5'], ['--theta', '0', '--init', 'pca', '--metric', 'cosine']]) {
      const out = path.join(dir, `tsne-${extra.length}.npy`);
      const args = (n) => ['tsne', '--table', tables.tsne.file, '--out', out, '--iterations', '60', '--perplexity', '20',
        '--seed', '7', ...extra, '--threads', n];
      const one = untimed(run(args('1')));
      const map = npyData(out);
      assert.equal(map.length, 1500 * 2);
      for (const n of ['2', '3', '4']) {
        assert.equal(untimed(run(args(n))), one, `${extra.join(' ')}, --threads ${n}`);
        assert.ok(sameBits(npyData(out), map), `${extra.join(' ')}: map at --threads ${n}`);
      }
    }
  });
});

describe('wasm in Node: the threaded build, the single-thread build and native', () => {
  // the same calls in both builds: t-SNE's map and PCA's points, components and ratios, as hex
  // (its source also runs in the child process, as threads-wasm.test.mjs's probe does)
  function calls(M, t) {
    const hex = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex');
    const map = M.tsne(t.tsne, 1500, 12, { perplexity: 20, iterations: 60, seed: 7 });
    const p = M.pca(t.pca, 3000, 120, { k: 3 });
    return { threads: M.threads(), tsne: hex(map), pca: [hex(p.points), hex(p.components), hex(Float64Array.from(p.explained))] };
  }

  it('the threaded build at 2 threads gives the single-thread build\'s bytes, and t-SNE the native map', async () => {
    const input = path.join(dir, 'input.json');
    fs.writeFileSync(input, JSON.stringify({ tsne: Array.from(tables.tsne.data), pca: Array.from(tables.pca.data) }));
    const script = path.join(dir, 'run.mjs');
    fs.writeFileSync(script, `import fs from 'node:fs';
import { createEmbedlab } from ${JSON.stringify(pathToFileURL(path.join(site, 'embedlab-node.js')).href)};
const M = await createEmbedlab();
M.setThreads(2);
const raw = JSON.parse(fs.readFileSync(${JSON.stringify(input)}, 'utf8'));
const t = { tsne: Float32Array.from(raw.tsne), pca: Float32Array.from(raw.pca) };
const calls = ${calls.toString()};
console.log(JSON.stringify(calls(M, t)));`);
    const threaded = JSON.parse(execFileSync(process.execPath, [script], { encoding: 'utf8', timeout: 300000 }));
    const M = await loadEngine();
    const single = calls(M, { tsne: tables.tsne.data, pca: tables.pca.data });
    assert.equal(single.threads, 1);
    assert.equal(threaded.threads, Math.min(2, os.cpus().length));
    assert.equal(threaded.tsne, single.tsne, 't-SNE: threaded wasm vs single-thread wasm');
    assert.deepEqual(threaded.pca, single.pca, 'PCA: threaded wasm vs single-thread wasm');
    const out = path.join(dir, 'native.npy');
    run(['tsne', '--table', tables.tsne.file, '--out', out, '--iterations', '60', '--perplexity', '20', '--seed', '7', '--threads', '2']);
    const native = npyData(out);
    assert.equal(Buffer.from(native.buffer, native.byteOffset, native.byteLength).toString('hex'), single.tsne, 't-SNE: native vs wasm');
  });
});
