// The training run's held-out loss is the CLI's: the page's worker code (makeTextPipeline +
// makeTrainHandlers over the wasm module in Node) trains the next-token model on characters of
// a text and reports the held-out loss at step 0 and every HELD_OUT_EVERY steps; `embedlab train
// --model next-token --valid-fraction 0.1` with the same settings and steps prints the same
// number as valid_loss (the same split, next-token-input.js heldOutSplit = cmd_train.cpp's, the
// same rows, the same engine; JSON prints 9 significant digits). Also: the split rule, the
// bound on one evaluation, and that the held-out tail is never trained on (the page's training
// loss of a run equals a trainer made on the first 90% of the ids alone).
// Native CLI: EMBEDLAB_CLI (default build/native/embedlab); wasm: EMBEDLAB_WASM_DIR (build/wasm).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEngine, repoRoot } from './load-engine.mjs';
import { pageWorker } from './page-worker.mjs';
import { makeDispatcher } from '../../web/src/protocol.js';
import { makeTextPipeline } from '../../web/src/handlers/text-handler.js';
import { HELD_OUT_EVERY, makeTrainHandlers } from '../../web/src/handlers/train-handler.js';
import { HELD_OUT_MAX_TOKENS, heldOutProbe, heldOutSplit } from '../../web/src/handlers/next-token-input.js';

const cli = process.env.EMBEDLAB_CLI || path.join(repoRoot, 'build/native/embedlab');
const TEXT = fs.readFileSync(path.join(repoRoot, 'web/corpora/the-verdict.txt'), 'utf8').slice(0, 8000);
const SETTINGS = { tD: 16, ctx: 16, tB: 4, opt: 'adam', lr: 0.01, pos: 'learned', seed: 3 };
const API_SETTINGS = { vectorSize: 16, context: 16, batchSize: 4, optimizer: 'adam', lr: 0.01, pos: 'learned', seed: 3 };
const FLAGS = ['--vector-size', '16', '--context', '16', '--batch-size', '4', '--optimizer', 'adam', '--lr', '0.01', '--pos', 'learned', '--seed', '3'];

function cliRun(steps, enc = 'char', extra = []) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-held-out-'));
  const file = path.join(dir, 'text.txt');
  fs.writeFileSync(file, TEXT);
  try {
    const out = path.join(dir, 'table.npy');
    const state = path.join(dir, 'run.state');
    const r = JSON.parse(execFileSync(cli, ['train', '--model', 'next-token', '--encoding', enc, '--valid-fraction', '0.1', '--steps', String(steps), ...FLAGS, ...extra, file,
      '--out', out, '--save-state', state], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    return { ...r, table: fs.readFileSync(out), state: new Uint8Array(fs.readFileSync(state)) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('the page\'s held-out loss is the CLI\'s valid_loss', () => {
  let T;
  let M;
  before(async () => {
    M = await loadEngine();
    const text = makeTextPipeline(M, async () => { throw new Error('no corpora in this test'); });
    T = makeDispatcher({ ...text.handlers, ...makeTrainHandlers(M, text.ensureTokens) });
    const r = await T({ id: 1, type: 'setText', payload: { text: TEXT } });
    assert.equal(r.ok, true, r.message);
  });

  it('the split is the CLI\'s (the last floor(n * 0.1) ids) and one evaluation is bounded', () => {
    assert.deepEqual(heldOutSplit(8000), { cut: 7200, held: 800 });
    assert.deepEqual(heldOutSplit(15), { cut: 14, held: 1 }); // not floor(15 * 0.9) = 13
    assert.deepEqual(heldOutSplit(9), { cut: 9, held: 0 });
    assert.equal(heldOutProbe(800, { V: 66, D: 16, T: 16 }), 800, 'a small tail is evaluated whole');
    assert.equal(heldOutProbe(111539, { V: 65, D: 32, T: 32 }), HELD_OUT_MAX_TOKENS + 1, 'a large one: its first tokens');
    assert.equal(heldOutProbe(33800, { V: 11000, D: 32, T: 32 }), 751, 'a wide output layer: fewer tokens');
    assert.equal(heldOutProbe(33800, { V: 1e7, D: 512, T: 32 }), 33, 'never less than one window');
  });

  it('at step 0 and at steps 50, 100 and 150, for any slicing', async () => {
    const start = await T({ id: 2, type: 'trainStart', payload: { corpus: 'custom', enc: 'char', lower: false, bpeV: 300, model: 'next', ...SETTINGS } });
    assert.equal(start.ok, true, start.message);
    const h = start.result.heldOut;
    assert.equal(h.tokens, 800);
    assert.equal(h.evaluated, 800);
    assert.equal(h.trainTokens, 7200);
    assert.equal(h.every, HELD_OUT_EVERY);
    assert.equal(h.vocab, start.result.rows, 'chance is ln of the output layer\'s rows');
    assert.equal(h.chance, Math.log(h.vocab));
    assert.equal(h.points.length, 1);
    assert.equal(h.points[0][0], 0);
    const held = [...h.points];
    const losses = [];
    let step = 0;
    for (const n of [7, 43, 1, 49, 50]) { // uneven slices: the evaluations fall on the same steps
      const s = await T({ id: 3, type: 'trainStep', payload: { budgetMs: 1e6, maxSteps: n } });
      assert.equal(s.ok, true, s.message);
      held.push(...s.result.held);
      losses.push(...s.result.points.map(([, l]) => l));
      step = s.result.stats.totalSteps;
    }
    assert.equal(step, 150);
    assert.deepEqual(held.map(([s]) => s), [0, 50, 100, 150]);
    for (const [s, loss] of held) {
      const out = cliRun(s);
      assert.equal(out.vocab, h.vocab, 'the same rows as the CLI (char vocabulary with its special tokens)');
      assert.equal(Number(loss.toPrecision(9)), out.valid_loss, `held-out loss at step ${s}`);
      assert.equal(out.steps, s);
    }
    // the tail is never trained on: a trainer on the first 90% of the ids alone gives the same losses
    const tok = M.Tokenizer.make('char', TEXT, { lowercase: false });
    const ids = tok.encode(TEXT);
    const tr = M.Trainer.nextToken(ids.subarray(0, 7200), { vocabSize: tok.vocabSize, vectorSize: 16, context: 16, batchSize: 4, pos: 'learned', optimizer: 'adam', lr: 0.01, seed: 3 });
    const st = tr.step(150);
    assert.equal(st.lastLoss, losses[149]);
    assert.equal(tr.evaluate(ids.subarray(7200)), held[3][1]);
    tr.delete();
    tok.delete();
  });

  it('GPT-2 ids: the page and the CLI train the same table on the ids that occur (one remap, in the engine)', async () => {
    // the page's run (its worker handlers) and `embedlab train --encoding gpt2` with the same
    // settings: the same 1,000-odd rows, the same losses, the same table and checkpoint bytes
    const w = pageWorker(M);
    await w.call('setText', { text: TEXT });
    const start = await w.call('trainStart', { corpus: 'custom', enc: 'gpt2', lower: false, bpeV: 300, model: 'next', ...SETTINGS });
    const h = start.heldOut;
    let last = null;
    for (const n of [20, 30]) last = await w.call('trainStep', { budgetMs: 1e6, maxSteps: n });
    assert.equal(last.stats.totalSteps, 50);
    await w.call('trainSave', {});
    const out = cliRun(50, 'gpt2');
    const gpt2 = M.Tokenizer.gpt2();
    const ids = gpt2.encode(TEXT);
    const occurring = new Set(ids).size;
    assert.equal(start.rows, occurring, 'the page trains one row per id that occurs');
    assert.deepEqual({ vocab: out.vocab, rows: out.rows, tokenizer_vocab: out.tokenizer_vocab }, { vocab: occurring, rows: 'occurring', tokenizer_vocab: 50257 },
      'the CLI trains the same rows');
    assert.equal(h.vocab, out.vocab);
    assert.equal(Number(last.held.at(-1)[1].toPrecision(9)), out.valid_loss, 'held-out loss at step 50');
    assert.deepEqual(w.records.get('train').state, out.state, 'the same checkpoint bytes (tables, optimizer, rows)');
    // the engine's remap, as the M API gives it: rows in id order, ids as rows
    const rr = M.nextTokenRows(ids, gpt2);
    assert.equal(rr.remapped, true);
    assert.deepEqual(Array.from(rr.rowIds), [...new Set(ids)].sort((a, b) => a - b));
    assert.deepEqual(Array.from(rr.ids, (r) => rr.rowIds[r]), Array.from(ids));
    const tr = M.Trainer.nextToken(rr.ids.subarray(0, heldOutSplit(ids.length).cut), { vocabSize: rr.rowIds.length, ...API_SETTINGS, tokenizer: gpt2, rowIds: rr.rowIds });
    tr.step(50);
    const table = tr.table('input');
    assert.deepEqual(new Uint8Array(out.table.subarray(out.table.length - table.data.byteLength)), new Uint8Array(table.data.buffer, table.data.byteOffset, table.data.byteLength),
      'the M API run\'s token table is the CLI\'s --out table, byte for byte');
    tr.delete();
    // --full-vocab: every id gets a row, as M.nextTokenRows(ids, tok, {fullVocab: true})
    const full = M.nextTokenRows(ids, gpt2, { fullVocab: true });
    assert.deepEqual({ remapped: full.remapped, rows: full.rowIds.length, same: full.ids.every((x, k) => x === ids[k]) }, { remapped: false, rows: 50257, same: true });
    const outFull = cliRun(1, 'gpt2', ['--full-vocab']);
    assert.deepEqual({ vocab: outFull.vocab, rows: outFull.rows }, { vocab: 50257, rows: 'all' });
    assert.throws(() => M.nextTokenRows([5, 50257], gpt2), /^Error: next-token rows: token id 50257 out of range \[0, 50257\)$/);
    gpt2.delete();
  });

  it('a held-out tail shorter than one window has no held-out loss, and says why', async () => {
    const short = await T({ id: 6, type: 'trainStart', payload: { corpus: 'custom', enc: 'char', lower: false, bpeV: 300, model: 'next', ...SETTINGS, ctx: 1000, tB: 1 } });
    assert.equal(short.ok, true, short.message);
    const h = short.result.heldOut;
    assert.equal(h.points, null);
    assert.equal(h.reason, 'the held-out tenth of the text has 800 tokens, fewer than context 1000 + 1');
    assert.equal(h.chance, Math.log(h.vocab));
    const s = await T({ id: 7, type: 'trainStep', payload: { budgetMs: 1e6, maxSteps: 50 } });
    assert.deepEqual(s.result.held, []);
  });

  it('word2vec runs have no held-out part', async () => {
    const start = await T({ id: 4, type: 'trainStart', payload: { corpus: 'custom', enc: 'whitespace', lower: true, bpeV: 300, model: 'skipgram', tD: 8, win: 2, minc: 1, ep: 1, alpha: 0.025, seed: 1, pos: 'learned', ctx: 8, tB: 2, opt: 'sgd', lr: 0.1 } });
    assert.equal(start.ok, true, start.message);
    assert.equal(start.result.heldOut, null);
    const s = await T({ id: 5, type: 'trainStep', payload: { budgetMs: 1e6, maxSteps: 2 } });
    assert.deepEqual(s.result.held, []);
  });
});
