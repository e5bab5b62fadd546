// Next-token training at every thread count (issue 25): the CLI with --threads 1, 2, 3 and 4, the
// single-thread wasm build and the threaded one in Node (M.setThreads(1) and M.setThreads(4)) all
// write the same token table bit for bit. The settings are big enough for every parallel path of
// the model: a word vocabulary of about a thousand (the head's products split by columns), 512
// rows of logits a step (two groups of chunks), 32 sequences of attention.
//   node --test tests/js/threads-train.test.mjs   (needs build/native, build/wasm and build/web)
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadEngine, repoRoot } from './load-engine.mjs';

const cli = process.env.EMBEDLAB_CLI || path.join(repoRoot, 'build/native/embedlab');
const site = process.env.EMBEDLAB_SITE_DIR || path.join(repoRoot, 'build', 'web');
const corpus = path.join(repoRoot, 'web/corpora/the-verdict.txt');
const SETTINGS = { seed: 9, vectorSize: 24, context: 16, batchSize: 32, pos: 'alibi', steps: 4 };

const sha = (floats) => crypto.createHash('sha256').update(new Uint8Array(floats.buffer, floats.byteOffset, floats.byteLength)).digest('hex');

// the CLI's table at `threads` -> sha256 of its float32 data
function nativeTable(threads) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-threads-train-'));
  try {
    const npy = path.join(dir, 'table.npy');
    execFileSync(cli, ['train', '--threads', String(threads), '--model', 'next-token', '--encoding', 'word', '--seed', String(SETTINGS.seed),
      '--steps', String(SETTINGS.steps), '--vector-size', String(SETTINGS.vectorSize), '--context', String(SETTINGS.context),
      '--batch-size', String(SETTINGS.batchSize), '--pos', SETTINGS.pos, corpus, '--out', npy], { stdio: ['ignore', 'ignore', 'ignore'] });
    const bytes = fs.readFileSync(npy);
    const data = bytes.subarray(10 + bytes.readUInt16LE(8));
    return crypto.createHash('sha256').update(data).digest('hex');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// the same run through the JS API (the CLI's rule: the last tenth of the ids is held out)
function trainSource(M, fs, text, S) {
  const tok = M.Tokenizer.fromCorpus('word', text);
  const ids = tok.encode(text);
  const train = ids.slice(0, ids.length - Math.floor(ids.length * 0.1));
  const tr = M.Trainer.nextToken(train, { vocabSize: tok.vocabSize, seed: S.seed, vectorSize: S.vectorSize, context: S.context, batchSize: S.batchSize, pos: S.pos });
  tr.step(S.steps);
  const table = tr.table('input').data.slice();
  tr.delete();
  tok.delete();
  return { table, vocab: table.length / S.vectorSize };
}

describe('next-token training: the same table at every thread count and in every build', () => {
  it('CLI --threads 1..4, the single-thread wasm and the threaded wasm at 1 and 4 threads', () => {
    const native = [1, 2, 3, 4].map(nativeTable);
    assert.ok(native.every((h) => h === native[0]), `CLI tables by thread count: ${native.join(' ')}`);

    return loadEngine().then((M) => {
      const single = trainSource(M, fs, fs.readFileSync(corpus, 'utf8'), SETTINGS);
      assert.ok(single.vocab > 900, `a vocabulary of ${single.vocab} words does not reach the column-split head`);
      assert.equal(sha(single.table), native[0], 'the single-thread wasm table differs from the CLI');

      // the threaded build, as a package user in Node gets it
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-threads-train-'));
      try {
        const file = path.join(dir, 'run.mjs');
        fs.writeFileSync(file, `import { createEmbedlab } from ${JSON.stringify(pathToFileURL(path.join(site, 'embedlab-node.js')).href)};
import crypto from 'node:crypto';
import fs from 'node:fs';
const M = await createEmbedlab();
const trainSource = ${trainSource.toString()};
const text = fs.readFileSync(${JSON.stringify(corpus)}, 'utf8');
const out = {};
for (const n of [1, 4]) {
  const used = M.setThreads(n);
  const { table } = trainSource(M, fs, text, ${JSON.stringify(SETTINGS)});
  out[n] = { used, sha: crypto.createHash('sha256').update(new Uint8Array(table.buffer, table.byteOffset, table.byteLength)).digest('hex') };
}
console.log(JSON.stringify({ shared: M.HEAP8.buffer instanceof SharedArrayBuffer, out }));`);
        const r = JSON.parse(execFileSync(process.execPath, [file], { encoding: 'utf8', timeout: 120000 }));
        assert.equal(r.shared, true, 'the Node entry did not load the threaded build');
        assert.equal(r.out[4].used, Math.min(4, os.cpus().length));
        assert.equal(r.out[1].sha, native[0], 'the threaded wasm at 1 thread differs from the CLI');
        assert.equal(r.out[4].sha, native[0], `the threaded wasm at ${r.out[4].used} threads differs from the CLI`);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
