// Shared by the CLI tests (cli.test.mjs, cli-tables.test.mjs, cli-parsing.test.mjs): runs the
// native binary (EMBEDLAB_CLI, else build/native/embedlab) and checks its exit code and streams;
// makes a temporary folder with a corpus, a 4 x 3 .npy table and its metadata.tsv before the
// tests of the importing file (node:test hooks) and removes it after them.
// Not here: any test.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './load-engine.mjs';
import { npyBytes } from './table-files.mjs';

export const cli = process.env.EMBEDLAB_CLI || path.join(repoRoot, 'build/native/embedlab');

export function run(args, options = {}) {
  return spawnSync(cli, args, { encoding: 'utf8', ...options });
}

// Runs a successful command and returns its stdout parsed as JSON.
export function json(args) {
  const r = run(args);
  assert.equal(r.status, 0, `embedlab ${args.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

// Asserts exit code 2, exactly "embedlab: <message>\n" on stderr and an empty stdout.
export function fails(args, message) {
  const r = run(args);
  assert.deepEqual({ status: r.status, stderr: r.stderr, stdout: r.stdout },
    { status: 2, stderr: `embedlab: ${message}\n`, stdout: '' }, `embedlab ${args.join(' ')}`);
}

// float32 (rows, cols) -> the bytes of a version 1.0 .npy file, as numpy writes it.
export const npy = (rows, cols, values) => npyBytes(Float32Array.from(values), rows, cols);

// Live bindings: set by the before hook below, read by the importing file's tests.
export let dir, corpus, table, vocab, missing;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-cli-'));
  corpus = path.join(dir, 'corpus.txt');
  fs.writeFileSync(corpus, 'the cat sat on the mat\nthe dog sat on the log\n');
  table = path.join(dir, 'table.npy');
  fs.writeFileSync(table, npy(4, 3, [1, 0, 0, 0.9, 0.1, 0, 0, 1, 0, 0, 0, 1]));
  vocab = path.join(dir, 'metadata.tsv');
  fs.writeFileSync(vocab, 'king\nqueen\nman\nwoman\n');
  missing = path.join(dir, 'missing.txt');
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

export const notFound = (where, p) => `${where}: cannot open '${p}': No such file or directory`;
export const isDirectory = (where, p) => `${where}: '${p}' is a directory, expected a file`;
