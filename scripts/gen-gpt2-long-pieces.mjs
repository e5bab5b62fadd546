#!/usr/bin/env node
// Reference data: tiktoken's GPT-2 ids for texts made of long pieces (64 bytes or more each), the
// ones Gpt2Tokenizer merges with its heap (src/tokenizer/gpt2.cpp, kHeapMergeFrom) instead of
// tiktoken's linear scans. The-verdict's own pieces are all short, so its reference
// (gpt2_the_verdict.json) never takes that path.
//
//   node scripts/gen-gpt2-long-pieces.mjs > tests/reference/gpt2_long_pieces.json
// Inputs are built from the-verdict (letters only, as one word; its digits and spaces as runs)
// and fixed strings, so the file is reproducible; ids come from npm tiktoken 1.0.22 (pinned in
// package-lock.json), the same encoder as gpt2_the_verdict.json.
// What it does not do: run in the suite (tests/test_tokenizer.cpp reads the stored output).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { repoRoot } from '../tests/js/load-engine.mjs';

const require = createRequire(import.meta.url);
const tiktoken = require(path.join(repoRoot, 'node_modules/tiktoken'));
const verdict = fs.readFileSync(path.join(repoRoot, 'web/corpora/the-verdict.txt'), 'utf8');

const letters = verdict.replace(/[^A-Za-z]/g, '');
const cases = {
  // one 16,000-letter piece: GPT-2's merges of English letters without spaces
  'the-verdict letters, no spaces': letters.slice(0, 16000),
  // the same, lower-cased, as 40 pieces of 400 letters separated by one space
  'the-verdict letters in 400-letter words': Array.from({ length: 40 }, (_, k) => letters.slice(400 * k, 400 * k + 400).toLowerCase()).join(' '),
  'a run of 300 a': 'a'.repeat(300),
  'whitespace runs': ' '.repeat(1000) + 'x' + '\n'.repeat(500) + '\t'.repeat(70) + 'y',
  'a 200-digit number': '3141592653589793238462643383279502884197169399375105820974944592'.repeat(3) + '30781640',
  'non-ASCII letters': 'Grüße'.repeat(30) + ' ' + '日本語のテキスト'.repeat(12),
};

const enc = tiktoken.get_encoding('gpt2');
const out = {
  generated_by: 'scripts/gen-gpt2-long-pieces.mjs with npm tiktoken 1.0.22 gpt2 (encode_ordinary)',
  cases: Object.entries(cases).map(([name, text]) => ({ name, text, ids: Array.from(enc.encode_ordinary(text)) })),
};
enc.free();
process.stdout.write(JSON.stringify(out) + '\n');
