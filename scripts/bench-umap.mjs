// UMAP of the benchmark's table (Gaussian clusters, maps/umap/umap_bench.hpp) by one implementation,
// timed and scored by the engine's umapQuality, as one JSON line.
// Usage: node scripts/bench-umap.mjs wasm|umap-js|atlas [rows dim clusters sample seed]
//   seed (default 0): the engine's seed; the peers get seed + 1 (Atlas's seed, umap-js's mulberry32)
//   wasm     the engine's M.benchUmap (the same code as `embedlab bench umap`), in Node, one thread
//   umap-js  npm umap-js (devDependency, pinned in package-lock.json), its fit() with a seeded random
//   atlas    Embedding Atlas's wasm UMAP (npm embedding-atlas@0.26.0, dist/umap.js): packed into
//            build/bench/peers by `npm pack` on first use (not a dependency); skipped with a
//            message when it cannot be had
// Every implementation gets the same table, n_neighbors 15, min_dist 0.1, cosine, and
// umap-learn's default epochs (500 for rows <= 10000, else 200); the time covers the whole map
// (neighbours, graph, init, layout), not the data generation, copies or scoring.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { loadEngine, repoRoot } from '../tests/js/load-engine.mjs';

const [what = 'wasm', ...rest] = process.argv.slice(2);
const [rows = 10000, dim = 768, clusters = 50, sample = 1000, seed = 0] = rest.map(Number);
const nNeighbors = 15, minDist = 0.1, nEpochs = rows <= 10000 ? 500 : 200, metric = 'cosine';
const M = await loadEngine();

function print(o) {
  console.log(JSON.stringify(Object.assign({ impl: what, rows, dim, clusters, n_neighbors: nNeighbors, n_epochs: nEpochs, metric, seed }, o)));
}

if (what === 'wasm') {
  const r = M.benchUmap({ rows, dim, clusters, sample, metric, nNeighbors, minDist, seed });
  print({ seconds: r.seconds, quality: r.quality, knn: r.knn, init: r.init, components: r.components, isa: r.isa });
  process.exit(0);
}

const { table, labels } = M.umapBenchData({ rows, dim, clusters, seed: 0 });
const score = (coords) => M.umapQuality(table, rows, dim, labels, coords, { sample, metric });

// mulberry32: a seeded random() for the peers
function seeded(a) {
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

if (what === 'umap-js') {
  const require = createRequire(import.meta.url);
  let UMAP, version;
  try {
    ({ UMAP } = require('umap-js'));
    version = require('umap-js/package.json').version;
  } catch (e) {
    print({ skipped: `umap-js is not installed (${e.message.split('\n')[0]}); run npm ci` });
    process.exit(0);
  }
  const X = [];
  for (let i = 0; i < rows; i++) X.push(Array.from(table.subarray(i * dim, (i + 1) * dim)));
  const cosine = (a, b) => {
    let dot = 0, na = 0, nb = 0;
    for (let d = 0; d < a.length; d++) dot += a[d] * b[d], na += a[d] * a[d], nb += b[d] * b[d];
    return na === 0 || nb === 0 ? 1 : 1 - dot / Math.sqrt(na * nb);
  };
  const t0 = performance.now();
  const u = new UMAP({ nNeighbors, minDist, nEpochs, distanceFn: cosine, random: seeded(seed + 1) });
  const Y = u.fit(X);
  const seconds = (performance.now() - t0) / 1000;
  const coords = new Float32Array(rows * 2);
  Y.forEach((p, i) => { coords[2 * i] = p[0]; coords[2 * i + 1] = p[1]; });
  print({ version, seconds: { total: seconds }, quality: score(coords) });
} else if (what === 'atlas') {
  const dir = path.join(repoRoot, 'build', 'bench', 'peers');
  const umapJs = path.join(dir, 'package', 'dist', 'umap.js');
  if (!fs.existsSync(umapJs)) {
    try {
      fs.mkdirSync(dir, { recursive: true });
      const tgz = execFileSync('npm', ['pack', 'embedding-atlas@0.26.0', '--silent'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').pop();
      execFileSync('tar', ['xzf', tgz], { cwd: dir });
    } catch (e) {
      print({ skipped: `npm pack embedding-atlas@0.26.0 failed: ${String(e.message).split('\n')[0]}` });
      process.exit(0);
    }
  }
  const version = JSON.parse(fs.readFileSync(path.join(dir, 'package', 'package.json'), 'utf8')).version;
  const { createUMAP } = await import(umapJs);
  const t0 = performance.now();
  const u = await createUMAP(rows, dim, 2, table, { metric, nNeighbors, minDist, nEpochs, seed: seed + 1 });
  await u.run();
  const seconds = (performance.now() - t0) / 1000;
  const coords = new Float32Array(u.embedding);
  const epochs = u.epoch;
  u.destroy();
  print({ version, epochs_run: epochs, seconds: { total: seconds }, quality: score(coords) });
} else {
  console.error(`bench-umap: unknown implementation '${what}', expected wasm, umap-js or atlas`);
  process.exit(2);
}
