#!/usr/bin/env node
// GPT-2 tokenizer throughput in one run: npm `tiktoken` (its own wasm build of the Rust
// tokenizer), the embedlab wasm module in this Node process, and optionally the native CLI.
//
//   node scripts/bench-tokenize.mjs [--wasm-dir build/wasm] [--native build/native/embedlab]
//                                    [--file web/corpora/tinyshakespeare.txt] [--reps 7]
// Prints JSON: MB/s (10^6 bytes/s) of each, medians of `reps` encodes after a warm-up, and the
// ratios to tiktoken. Every encoder must give the same ids (checked, else the script fails).
// What it does not do: build anything (HINT: bash scripts/build, or cmake --build).
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { loadEngine, repoRoot } from '../tests/js/load-engine.mjs';

const args = process.argv.slice(2);
function opt(name, fallback) {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
}
const file = path.resolve(opt('file', path.join(repoRoot, 'web/corpora/tinyshakespeare.txt')));
const wasmDir = path.resolve(opt('wasm-dir', path.join(repoRoot, 'build/wasm')));
const nativeCli = opt('native', path.join(repoRoot, 'build/native/embedlab'));
const reps = Number(opt('reps', 7));
const text = fs.readFileSync(file, 'utf8');
const bytes = Buffer.byteLength(text, 'utf8');

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
function time(f) {
  f();
  const t = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    f();
    t.push(performance.now() - t0);
  }
  return median(t);
}

const require = createRequire(import.meta.url);
let tiktoken;
try {
  tiktoken = require(path.join(repoRoot, 'node_modules/tiktoken'));
} catch (e) {
  console.error(`bench-tokenize: cannot load npm tiktoken (${e.message}). HINT: run \`npm ci\` in ${repoRoot}.`);
  process.exit(1);
}
const enc = tiktoken.get_encoding('gpt2');
const reference = enc.encode_ordinary(text);
const tiktokenMs = time(() => enc.encode_ordinary(text));
const result = {
  file: path.relative(repoRoot, file),
  bytes,
  tokens: reference.length,
  reps,
  tiktoken: { version: require(path.join(repoRoot, 'node_modules/tiktoken/package.json')).version, median_ms: tiktokenMs, mb_per_s: bytes / tiktokenMs / 1000 },
};

const M = await loadEngine(wasmDir);
const tok = M.Tokenizer.gpt2();
const ours = tok.encode(text);
if (ours.length !== reference.length || ours.some((v, i) => v !== reference[i])) {
  console.error('bench-tokenize: the wasm module and tiktoken disagree on the ids');
  process.exit(1);
}
tok.delete();
const wasm = M.benchTokenize(text, { encoding: 'gpt2', reps });
// Also time a one-shot encode through the JS API (includes string transfer and Int32Array copy).
const apiMs = time(() => {
  const t = M.Tokenizer.gpt2();
  t.encode(text);
  t.delete();
});
result.wasm = {
  dir: path.relative(repoRoot, wasmDir),
  median_ms: wasm.median_ms,
  mb_per_s: wasm.mb_per_s,
  js_api_median_ms: apiMs,
  js_api_mb_per_s: bytes / apiMs / 1000,
  ratio_to_tiktoken: wasm.mb_per_s / result.tiktoken.mb_per_s,
  js_api_ratio_to_tiktoken: bytes / apiMs / 1000 / result.tiktoken.mb_per_s,
};

if (nativeCli && fs.existsSync(nativeCli)) {
  const native = JSON.parse(execFileSync(nativeCli, ['bench', 'tokenize', '--encoding', 'gpt2', '--reps', String(reps), file], { encoding: 'utf8' }));
  const ids = JSON.parse(execFileSync(nativeCli, ['tokenize', '--encoding', 'gpt2', file], { encoding: 'utf8', maxBuffer: 1 << 28 })).ids;
  if (ids.length !== reference.length || ids.some((v, i) => v !== reference[i])) {
    console.error('bench-tokenize: the native CLI and tiktoken disagree on the ids');
    process.exit(1);
  }
  result.native = {
    cli: path.relative(repoRoot, path.resolve(nativeCli)),
    median_ms: native.median_ms,
    mb_per_s: native.mb_per_s,
    ratio_to_tiktoken: native.mb_per_s / result.tiktoken.mb_per_s,
  };
}
result.targets = { native_ratio_at_least: 2, wasm_ratio_at_least: 1 };
console.log(JSON.stringify(result, null, 1));
