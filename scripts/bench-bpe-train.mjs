#!/usr/bin/env node
// BPE training cost on text without spaces (one GPT-2 piece per text: the case that made the
// trainer quadratic, issue 22): `embedlab bpe-train` to the end (every pair merged) on 40 KB
// and 80 KB of deterministic random letters, then `tokenize --encoding bpe:` of the same text.
//
//   node scripts/bench-bpe-train.mjs [--native build/native/embedlab] [--sizes 40000,80000]
// Prints JSON: per size, train_ms (the CLI's own figure), wall seconds of bpe-train (train, save,
// encode once) and of tokenize, and merges; twice the size should cost about twice the time.
// What it does not do: build anything, or assert a budget (the suite asserts the work bound:
// tests/test_bpe_train.cpp, "costs work in proportion to its length").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { repoRoot } from '../tests/js/load-engine.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const cli = opt('native', path.join(repoRoot, 'build/native/embedlab'));
const sizes = opt('sizes', '40000,80000').split(',').map(Number);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bpe-'));

// xorshift32 letters: the same text on every machine
function letters(n, seed = 1) {
  let x = seed >>> 0 || 1;
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    out[i] = 97 + (x % 26);
  }
  return out;
}

const wall = (f) => {
  const t0 = performance.now();
  const r = f();
  return [r, (performance.now() - t0) / 1000];
};
const result = {};
try {
  for (const n of sizes) {
    const text = path.join(dir, `letters-${n}.txt`);
    const merges = path.join(dir, `letters-${n}.bpe`);
    fs.writeFileSync(text, letters(n));
    const [out, trainS] = wall(() => JSON.parse(execFileSync(cli, ['bpe-train', '--vocab-size', '1048576', text, '-o', merges], { encoding: 'utf8' })));
    const [, tokS] = wall(() => execFileSync(cli, ['tokenize', '--encoding', `bpe:${merges}`, text], { maxBuffer: 1 << 28 }));
    result[`${n / 1000}KB`] = { merges: out.merges, train_ms: Math.round(out.train_ms), bpe_train_s: +trainS.toFixed(2), tokenize_s: +tokS.toFixed(2) };
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify({ text: 'random a-z, no spaces', loadavg: os.loadavg()[0], ...result }));
