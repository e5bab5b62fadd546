// node:test for the wasm Trainer: the same tables as the native CLI bit for bit (word2vec and
// the next-token model), stepping, reset, settings echo, and errors as JS Errors.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEngine, repoRoot } from './load-engine.mjs';

const cli = process.env.EMBEDLAB_CLI || path.join(repoRoot, 'build/native/embedlab');
const corpus = path.join(repoRoot, 'web/corpora/the-verdict.txt');
const text = fs.readFileSync(corpus, 'utf8');

// Runs `embedlab train ... --out tmp.npy`; returns {summary, table: Float32Array}.
function nativeTrain(args) {
  const npy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-train-')), 'table.npy');
  const out = execFileSync(cli, ['train', ...args, corpus, '--out', npy], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const bytes = fs.readFileSync(npy);
  const headerLength = bytes.readUInt16LE(8);
  const data = bytes.subarray(10 + headerLength);
  const table = new Float32Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
  return { summary: JSON.parse(out.trim().split('\n').pop()), table };
}

function sameBits(a, b) {
  if (a.length !== b.length) return false;
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length), y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

// word2vec's sentences by the engine's rule (src/data/sentences.hpp), the CLI's too.
function sentences(tok) {
  const { ids, sentenceStarts } = M.sentences(tok, text);
  return { ids, starts: sentenceStarts };
}

let M;
before(async () => { M = await loadEngine(); });

describe('Trainer.word2vec', () => {
  it('gives the native skip-gram table bit for bit', () => {
    const native = nativeTrain(['--model', 'skipgram', '--encoding', 'whitespace', '--lowercase', '--seed', '3',
      '--vector-size', '16', '--epochs', '2']);
    const tok = M.Tokenizer.fromCorpus('whitespace', text, { lowercase: true });
    const { ids, starts } = sentences(tok);
    const tr = M.Trainer.word2vec(ids, starts, { sg: true, seed: 3, vectorSize: 16, epochs: 2, counts: tok.counts() });
    const s = tr.settings;
    assert.equal(s.minCount, 5);
    assert.equal(s.window, 5);
    assert.equal(s.vocabSize, native.summary.vocab);
    const st = tr.step(s.totalSteps);
    assert.equal(st.finished, true);
    assert.equal(st.tokens, native.summary.effective_words);
    const t = tr.table('input');
    assert.equal(t.rows, native.summary.vocab);
    assert.equal(t.cols, 16);
    assert.ok(sameBits(t.data, native.table), 'wasm and native input tables differ');
    tr.delete();
    tok.delete();
  });

  it('replays the same run after reset', () => {
    const tok = M.Tokenizer.fromCorpus('whitespace', text, { lowercase: true });
    const { ids, starts } = sentences(tok);
    const tr = M.Trainer.word2vec(ids, starts, { sg: false, seed: 1, vectorSize: 8, counts: tok.counts() });
    const a = tr.step(3);
    const ta = tr.table('output').data;
    tr.reset();
    const b = tr.step(3);
    assert.equal(a.loss, b.loss);
    assert.ok(sameBits(ta, tr.table('output').data));
    assert.ok(a.tokensPerSecond > 0);
    tr.delete();
    tok.delete();
  });
});

describe('Trainer.nextToken', () => {
  it('gives the native losses and token table bit for bit (rope, adam)', () => {
    const native = nativeTrain(['--model', 'next-token', '--encoding', 'char', '--seed', '5', '--steps', '10',
      '--vector-size', '16', '--context', '16', '--batch-size', '8', '--pos', 'rope']);
    const tok = M.Tokenizer.fromCorpus('char', text);
    const ids = tok.encode(text);
    const train = ids.slice(0, ids.length - Math.floor(ids.length * 0.1));
    const tr = M.Trainer.nextToken(train, { vocabSize: tok.vocabSize, seed: 5, vectorSize: 16, context: 16, batchSize: 8, pos: 'rope' });
    assert.equal(tr.settings.optimizer, 'adam');
    assert.equal(tr.settings.lr, 1e-3);
    const st = tr.step(10);
    assert.equal(st.totalSteps, 10);
    assert.equal(st.tokens, 10 * 8 * 16);
    // the CLI reports slices of steps/10 = 1 step: its "loss" is the last step's
    assert.ok(Math.abs(st.lastLoss - native.summary.loss) <= 1e-7 * st.lastLoss, `${st.lastLoss} vs ${native.summary.loss}`);
    assert.ok(sameBits(tr.table('input').data, native.table), 'wasm and native token tables differ');
    tr.delete();
    tok.delete();
  });

  it('reports bad settings and a diverging run as Errors with the C++ message', () => {
    const ids = Int32Array.from({ length: 200 }, (_, i) => (i * 7) % 5);
    assert.throws(() => M.Trainer.nextToken(ids, { vocabSize: 5, lr: NaN }),
      { message: 'optimizer: learning rate must be finite and > 0, got nan' });
    assert.throws(() => M.Trainer.nextToken(ids, { vocabSize: 5, vectorSize: 0 }),
      { message: 'next-token: dimension must be >= 1, got 0' });
    assert.throws(() => M.Trainer.nextToken(ids, { vocabSize: 5, pos: 'spiral' }), /unknown/);
    assert.throws(() => M.Trainer.nextToken(ids, { vocabSize: 5, colour: 1 }), /unknown option 'colour'/);
    const tr = M.Trainer.nextToken(ids, { vocabSize: 5, vectorSize: 4, context: 4, optimizer: 'sgd', lr: 1e30 });
    assert.throws(() => tr.step(10), { message: 'train: loss became nan at step 2 with learning rate 1e+30; lower the learning rate' });
    tr.delete();
  });
});
