// `scripts/bench threads` (issue 25): how each parallel step scales at 1, 2, 3 and 4 threads, in
// one run, natively (the CLI with --threads N) and in wasm (Node's threaded build, M.setThreads(n)).
// For each step: the seconds at each count, 2 threads vs 1 beside its target, whether the result
// hash is the same at every count, and the serial fraction f of Amdahl's law fitted to the 1- and
// 2-thread times (speed-up S2 = t1 / t2 = 1 / (f + (1 - f) / 2), so f = 2 / S2 - 1, clamped to
// [0, 1]) with its projection for 8 cores, 1 / (f + (1 - f) / 8).
// The result hash: sha256 of the ids (GPT-2 encode), of `embedlab pca`'s output (native PCA), else
// of the bench JSON without its timings (losses, KL, quality, edge and distance counts).
// Prints one "name<TAB>json" line per row on stdout (scripts/bench records them) and a summary on
// stderr. It does not run the peers (scripts/bench does) or judge: bench-summary.mjs compares.
// Needs build/native/embedlab and build/web/embedlab-node.js (scripts/build native wasm web).
// Usage: node scripts/bench-threads.mjs [--counts 1,2,3,4] [--only next_token,pca,...]
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { npyBytes, rng } from '../tests/js/table-files.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = process.env.EMBEDLAB_CLI || path.join(root, 'build/native/embedlab');
const entry = path.join(root, 'build/web/embedlab-node.js');
const corpus = path.join(root, 'web/corpora/tinyshakespeare.txt');
const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
};
const counts = arg('counts', '1,2,3,4').split(',').map(Number);
const only = arg('only', '');
for (const f of [cli, entry]) {
  if (!fs.existsSync(f)) {
    console.error(`bench-threads: ${f} not found ---> HINT: run scripts/build native wasm web first`);
    process.exit(2);
  }
}

export const TARGETS = { next_token: 1.7, pca: 1.7, knn_exact: 1.6, knn_nn_descent: 1.6, tsne: 1.6, umap: 1.5, gpt2_encode: 1.7 };
const TSNE_ITERATIONS = 300;  // of the tsne section's 1000: the layout's scaling shows in 300

const sha = (data) => crypto.createHash('sha256').update(data).digest('hex').slice(0, 16);
const TIMING = /(_ms$|^ms_|per_s|second|cpu|isa|thread|^reps$)/;
const stripTimings = (v) => {
  if (Array.isArray(v)) return v.map(stripTimings);
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).filter(([k]) => !TIMING.test(k)).map(([k, x]) => [k, stripTimings(x)]));
  }
  return v;
};
const resultHash = (json) => sha(JSON.stringify(stripTimings(json)));
const native = (...args) => execFileSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
const nativeJson = (...args) => JSON.parse(native(...args));

// The 50257 x 768 table for native PCA (written once, removed at the end).
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-bench-threads-'));
const pcaTable = path.join(tmp, 'pca.npy');
const writePcaTable = () => {
  if (fs.existsSync(pcaTable)) return;
  const rand = rng(25);
  const t = new Float32Array(50257 * 768);
  for (let i = 0; i < t.length; ++i) t[i] = rand() - 0.5;
  fs.writeFileSync(pcaTable, npyBytes(t, 50257, 768));
};

const nextToken = { vocabSize: 5000, vectorSize: 64, context: 32, batchSize: 256, steps: 5, optimizer: 'adam', pos: 'learned' };
const umapOpts = { rows: 10000, dim: 768, clusters: 50, sample: 1000 };
const text = fs.readFileSync(corpus, 'utf8');

// work -> { native(n) -> {seconds, hash}, wasm(M) -> {seconds, hash} } (M already at n threads)
const WORK = {
  next_token: {
    native: (n) => {
      const r = nativeJson('bench', 'train', '--model', 'next-token', '--vocab-size', '5000', '--vector-size', '64', '--context', '32',
        '--batch-size', '256', '--steps', '5', '--threads', String(n));
      return { seconds: r.ms_per_step / 1000, hash: resultHash(r) };
    },
    wasm: (M) => {
      const r = M.benchNextToken(nextToken);
      return { seconds: (r.ms_per_step ?? r.msPerStep) / 1000, hash: resultHash(r) };
    },
  },
  pca: {
    native: (n) => {
      writePcaTable();
      const r = nativeJson('bench', 'table', '--rows', '50257', '--dim', '768', '--reps', '1', '--threads', String(n));
      return { seconds: r.pca_ms / 1000, hash: sha(native('pca', '--table', pcaTable, '--k', '3', '--threads', String(n))) };
    },
    wasm: (M) => {
      const r = M.benchTable({ rows: 50257, dim: 768, reps: 1 });
      return { seconds: r.pca_ms / 1000, hash: null };  // benchTable prints no PCA values
    },
  },
  knn_exact: {
    native: (n) => {
      const r = nativeJson('bench', 'umap', '--rows', '10000', '--dim', '768', '--clusters', '50', '--knn', 'exact', '--n-epochs', '1', '--threads', String(n));
      return { seconds: r.seconds.knn, hash: resultHash({ edges: r.edges, d: r.knn_distances, q: r.quality }) };
    },
    wasm: (M) => {
      const r = M.benchUmap({ ...umapOpts, knn: 'exact', nEpochs: 1 });
      return { seconds: r.seconds.knn, hash: resultHash({ edges: r.edges, d: r.knn_distances, q: r.quality }) };
    },
  },
  knn_nn_descent: {
    native: (n) => {
      const r = nativeJson('bench', 'umap', '--rows', '10000', '--dim', '768', '--clusters', '50', '--knn', 'nn-descent', '--n-epochs', '1', '--threads', String(n));
      return { seconds: r.seconds.knn, hash: resultHash({ edges: r.edges, d: r.knn_distances, q: r.quality }) };
    },
    wasm: (M) => {
      const r = M.benchUmap({ ...umapOpts, knn: 'nn-descent', nEpochs: 1 });
      return { seconds: r.seconds.knn, hash: resultHash({ edges: r.edges, d: r.knn_distances, q: r.quality }) };
    },
  },
  tsne: {
    native: (n) => {
      const r = nativeJson('bench', 'tsne', '--rows', '10000', '--dim', '100', '--iterations', String(TSNE_ITERATIONS), '--threads', String(n));
      return { seconds: r.seconds.total, hash: resultHash(r) };
    },
    wasm: (M) => {
      const r = M.benchTsne({ rows: 10000, dim: 100, clusters: 10, iterations: TSNE_ITERATIONS });
      return { seconds: r.seconds.total, hash: resultHash(r) };
    },
  },
  umap: {
    native: (n) => {
      const r = nativeJson('bench', 'umap', '--rows', '10000', '--dim', '768', '--clusters', '50', '--threads', String(n));
      return { seconds: r.seconds.total, hash: resultHash(r) };
    },
    wasm: (M) => {
      const r = M.benchUmap(umapOpts);
      return { seconds: r.seconds.total, hash: resultHash(r) };
    },
  },
  gpt2_encode: {
    native: (n) => {
      const r = nativeJson('bench', 'tokenize', '--encoding', 'gpt2', '--reps', '5', '--threads', String(n), corpus);
      return { seconds: r.median_ms / 1000, hash: sha(native('tokenize', '--encoding', 'gpt2', '--threads', String(n), corpus)) };
    },
    wasm: (M) => {
      const r = M.benchTokenize(text, { encoding: 'gpt2', reps: 5 });
      const tok = M.Tokenizer.gpt2();
      const ids = tok.encode(text);
      tok.delete();
      return { seconds: (r.median_ms ?? r.medianMs) / 1000, hash: sha(Buffer.from(ids.buffer, ids.byteOffset, ids.byteLength)) };
    },
  },
};

export function amdahl(t1, t2) {
  const s2 = t1 / t2;
  const f = Math.min(1, Math.max(0, 2 / s2 - 1));
  return { ratio_2v1: s2, serial_fraction: f, projected_8: 1 / (f + (1 - f) / 8) };
}

const { createEmbedlab } = await import(pathToFileURL(entry).href);
const M = await createEmbedlab();
const emit = (name, json) => process.stdout.write(`${name}\t${JSON.stringify(json)}\n`);
try {
  for (const [work, fns] of Object.entries(WORK)) {
    if (only && !only.split(',').includes(work)) continue;
    for (const build of ['native', 'wasm']) {
      const seconds = {}, hashes = {}, used = {};
      for (const n of counts) {
        let r;
        if (build === 'native') {
          r = fns.native(n);
          used[n] = Math.min(n, os.availableParallelism ? os.availableParallelism() : os.cpus().length);
        } else {
          used[n] = M.setThreads(n);
          r = fns.wasm(M);
        }
        seconds[n] = Number(r.seconds.toFixed(4));
        hashes[n] = r.hash;
      }
      const known = Object.values(hashes).filter((h) => h !== null);
      const row = {
        work, build, target: TARGETS[work], seconds, threads_used: used, hashes,
        identical: known.length ? known.every((h) => h === known[0]) : null,
        ...(seconds[1] && seconds[2] ? amdahl(seconds[1], seconds[2]) : {}),
        loadavg: os.loadavg().map((x) => Number(x.toFixed(2))),
      };
      emit(`threads.${work}.${build}`, row);
      const s = counts.map((n) => `${n}:${seconds[n].toFixed(3)}`).join(' ');
      console.error(`  ${work.padEnd(15)} ${build.padEnd(6)} s ${s}  2v1 ${row.ratio_2v1?.toFixed(2)} (target ${row.target})` +
        `  same bits ${row.identical === null ? 'n/a' : row.identical}  f ${row.serial_fraction?.toFixed(2)} -> 8 cores ${row.projected_8?.toFixed(2)}x  load ${row.loadavg[0]}`);
    }
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(0);
