// node:test for the CLI's output files and printed output (cli/output.hpp, cli/json.hpp):
// a write that fails midway (here: past a file size limit, `ulimit -f` in a spawned shell, which
// makes write() fail with EFBIG or raise SIGXFSZ) leaves the file it would replace byte for byte
// as it was and leaves no temporary file beside it; printed output that would be huge is refused
// up front with the value and the limit.
// Runs the native binary: EMBEDLAB_CLI, else build/native/embedlab.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './load-engine.mjs';
import { npyBytes, random } from './table-files.mjs';

const cli = process.env.EMBEDLAB_CLI || path.join(repoRoot, 'build/native/embedlab');

// Runs the CLI in a shell whose file size limit is `blocks` KiB (bash's ulimit -f unit).
function runLimited(blocks, args) {
  return spawnSync('bash', ['-c', `ulimit -f ${blocks}; exec "$0" "$@"`, cli, ...args], { encoding: 'utf8' });
}

let dir, big;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-cli-output-'));
  big = path.join(dir, 'big.npy');
  fs.writeFileSync(big, npyBytes(random(200 * 16, 5), 200, 16));  // 12.9 KB
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

// The files in `folder` other than the given ones (a temporary file left behind shows here).
const others = (folder, keep) => fs.readdirSync(folder).filter((f) => !keep.includes(f));

describe('an output write that fails midway leaves the old file intact and no temporary file', () => {
  it('convert --out past a 4 KiB file size limit', () => {
    const sub = fs.mkdtempSync(path.join(dir, 'npy-'));
    const out = path.join(sub, 'out.npy');
    const original = npyBytes(Float32Array.from([1, 2, 3, 4]), 2, 2);
    fs.writeFileSync(out, original);
    const r = runLimited(4, ['convert', '--table', big, '--out', out]);
    assert.equal(r.signal, null, `killed by ${r.signal}: the write was not caught`);
    assert.equal(r.status, 2);
    assert.equal(r.stderr, `embedlab: --out: cannot write '${out}': File too large\n`);
    assert.deepEqual(fs.readFileSync(out), original, 'the old file survives byte for byte');
    assert.deepEqual(others(sub, ['out.npy']), []);
    // without the limit the same command replaces the file whole
    const ok = runLimited('unlimited', ['convert', '--table', big, '--out', out]);
    assert.equal(ok.status, 0, ok.stderr);
    assert.deepEqual(fs.readFileSync(out), fs.readFileSync(big));
    assert.deepEqual(others(sub, ['out.npy']), []);
  });

  it('convert to vectors.tsv + metadata.tsv: neither file is replaced when one write fails', () => {
    const sub = fs.mkdtempSync(path.join(dir, 'convert-'));
    const labels = path.join(dir, 'labels.tsv');
    fs.writeFileSync(labels, Array.from({ length: 200 }, (_, i) => `w${i}`).join('\n') + '\n');
    const vectors = path.join(sub, 'vectors.tsv'), metadata = path.join(sub, 'metadata.tsv');
    fs.writeFileSync(vectors, '1\t2\n');
    fs.writeFileSync(metadata, 'old\n');
    const r = runLimited(4, ['convert', '--table', big, '--metadata', labels, '--out', vectors]);
    assert.equal(r.signal, null, `killed by ${r.signal}`);
    assert.equal(r.stderr, `embedlab: --out: cannot write '${vectors}': File too large\n`);
    assert.equal(fs.readFileSync(vectors, 'utf8'), '1\t2\n');
    assert.equal(fs.readFileSync(metadata, 'utf8'), 'old\n', 'the metadata is not replaced either');
    assert.deepEqual(others(sub, ['vectors.tsv', 'metadata.tsv']), []);
    const ok = runLimited('unlimited', ['convert', '--table', big, '--metadata', labels, '--out', vectors]);
    assert.equal(ok.status, 0, ok.stderr);
    assert.equal(fs.readFileSync(metadata, 'utf8'), fs.readFileSync(labels, 'utf8'));
    assert.deepEqual(others(sub, ['vectors.tsv', 'metadata.tsv']), []);
  });

  it('train --out-tsv and --save-state past the limit', () => {
    const sub = fs.mkdtempSync(path.join(dir, 'train-'));
    const corpus = path.join(sub, 'corpus.txt');
    fs.writeFileSync(corpus, 'the cat sat on the mat and the dog sat on the log\n'.repeat(40));
    const tsv = path.join(sub, 'tsv');
    fs.mkdirSync(tsv);
    fs.writeFileSync(path.join(tsv, 'vectors.tsv'), '1\t2\n');
    fs.writeFileSync(path.join(tsv, 'metadata.tsv'), 'a\n');
    const base = ['train', '--model', 'skipgram', '--encoding', 'word', '--seed', '1', '--vector-size', '64',
      '--min-count', '1', '--epochs', '1', corpus];
    const r = runLimited(1, [...base, '--out-tsv', tsv]);
    assert.equal(r.signal, null, `killed by ${r.signal}`);
    assert.equal(r.status, 2);
    // (training progress comes first on stderr)
    assert.match(r.stderr, /\nembedlab: --out-tsv: cannot write '.*vectors\.tsv': File too large\n$/);
    assert.equal(fs.readFileSync(path.join(tsv, 'vectors.tsv'), 'utf8'), '1\t2\n');
    assert.equal(fs.readFileSync(path.join(tsv, 'metadata.tsv'), 'utf8'), 'a\n');
    assert.deepEqual(others(tsv, ['vectors.tsv', 'metadata.tsv']), []);

    const state = path.join(sub, 'run.state');
    fs.writeFileSync(state, 'old state');
    const s = runLimited(1, [...base, '--save-state', state]);
    assert.equal(s.signal, null, `killed by ${s.signal}`);
    assert.ok(s.stderr.endsWith(`\nembedlab: --save-state: cannot write '${state}': File too large\n`), s.stderr);
    assert.equal(fs.readFileSync(state, 'utf8'), 'old state');
    assert.deepEqual(others(sub, ['corpus.txt', 'tsv', 'run.state']), []);
  });
});

describe('printed output is bounded: one line naming the size and the limit, nothing printed', () => {
  const run = (args) => spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 30 });
  const refused = (args, message) => {
    const r = run(args);
    assert.deepEqual({ status: r.status, stderr: r.stderr, stdout: r.stdout },
      { status: 2, stderr: `embedlab: ${message}\n`, stdout: '' }, `embedlab ${args.join(' ')}`);
  };
  const limit = 'the CLI prints at most 16777216 (ask for less)';

  it('posenc: ALiBi at T = 30,000 and a wide sinusoidal table', () => {
    refused(['posenc', '--kind', 'alibi', '--positions', '30000', '--dim', '1'],
      `posenc: the table (1 x 30000 x 30000) would print 900000000 values; ${limit}`);
    refused(['posenc', '--kind', 'sinusoidal', '--positions', '100000', '--dim', '512'],
      `posenc: the table (100000 x 512) would print 51200000 values; ${limit}`);
    // at the limit it prints: 1 x 4096 x 4096 = 16777216 values
    const r = run(['posenc', '--kind', 'alibi', '--positions', '4096', '--dim', '1']);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).shape, [1, 4096, 4096]);
  });

  it('init, lookup, tokenize and windows', () => {
    refused(['init', '--num-embeddings', '50257', '--embedding-dim', '768'],
      `init: the table (50257 x 768) would print 38597376 values; ${limit}`);
    refused(['lookup', '--num-embeddings', '10', '--embedding-dim', '2000000', '--ids', '1,2,3,4,5,6,7,8,9'],
      `lookup: the rows (9 x 2000000) would print 18000000 values; ${limit}`);
    const text = path.join(dir, 'long.txt');
    fs.writeFileSync(text, 'ab'.repeat(1 << 23) + 'c');  // 16777217 characters
    refused(['tokenize', '--encoding', 'char', text],
      `tokenize: the token ids (16777217) would print 16777217 values; ${limit}`);
    const small = path.join(dir, 'small.txt');
    fs.writeFileSync(small, 'abcdefgh'.repeat(4000));
    refused(['windows', '--encoding', 'char', '--max-length', '1000', '--stride', '1', '--batch-size', '1', small],
      `windows: the batches (31000 x 1 x 1000 x 2) would print 62000000 values; ${limit}`);
    assert.equal(run(['windows', '--encoding', 'char', '--max-length', '1000', '--stride', '1', '--batch-size', '1',
      '--limit', '3', small]).status, 0, '--limit bounds what is printed');
  });
});
