// Runs the wasm module's training benchmarks in Node and prints one JSON line.
// Usage: node scripts/bench-train-wasm.mjs word2vec [skipgram|cbow] [FILE]
//        node scripts/bench-train-wasm.mjs next-token [V D T B steps optimizer pos]
// word2vec reads FILE (default web/corpora/tinyshakespeare.txt) as the CLI does: whitespace
// split, lower-cased, one sentence per line (blank lines skipped), gensim's default settings.
import fs from 'node:fs';
import path from 'node:path';
import { loadEngine, repoRoot } from '../tests/js/load-engine.mjs';

const [what = 'word2vec', ...rest] = process.argv.slice(2);
const M = await loadEngine();
if (what === 'word2vec') {
  const [model = 'skipgram', file = path.join(repoRoot, 'web/corpora/tinyshakespeare.txt')] = rest;
  const text = fs.readFileSync(file, 'utf8');
  const tok = M.Tokenizer.fromCorpus('whitespace', text, { lowercase: true });
  const { ids, sentenceStarts } = M.sentences(tok, text); // the CLI's rule (src/data/sentences.hpp)
  console.log(JSON.stringify(M.benchWord2Vec(ids, sentenceStarts, tok.counts(), model === 'skipgram')));
} else if (what === 'next-token') {
  const [V = 5000, D = 64, T = 32, B = 256, steps = 3] = rest.slice(0, 5).map(Number);
  const [optimizer = 'adam', pos = 'learned'] = rest.slice(5);
  console.log(JSON.stringify(M.benchNextToken({ vocabSize: V, vectorSize: D, context: T, batchSize: B, steps, optimizer, pos })));
} else {
  console.error(`bench-train-wasm: unknown benchmark '${what}', expected word2vec or next-token`);
  process.exit(2);
}
