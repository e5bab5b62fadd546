// node:test for sampling (src/train/generate.hpp): `embedlab generate` on a state the CLI saved
// and M.generate on the same bytes in the wasm module give the same text and ids (char on Tiny
// Shakespeare, gpt2 on The Verdict), the page's run (its worker handlers over the wasm module:
// trainStart, trainStep, trainSave, trainSample; GPT-2 ids remapped to the rows that occur)
// samples the text the CLI samples from the page's saved state, and M.generate names bad input.
// Native CLI: EMBEDLAB_CLI (default build/native/embedlab); wasm: EMBEDLAB_WASM_DIR (build/wasm).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEngine, repoRoot } from './load-engine.mjs';
import { pageWorker } from './page-worker.mjs';

const cli = process.env.EMBEDLAB_CLI || path.join(repoRoot, 'build/native/embedlab');
const corpus = (name, n) => fs.readFileSync(path.join(repoRoot, 'web', 'corpora', name), 'utf8').slice(0, n);

let M;
let dir;
before(async () => {
  M = await loadEngine();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-generate-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const run = (args) => execFileSync(cli, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
// `embedlab generate` on a state file -> {text, ids}
const cliGenerate = (state, o) => JSON.parse(run(['generate', '--state', state, '--prompt', o.prompt, '--tokens', String(o.tokens),
  '--temperature', String(o.temperature), '--seed', String(o.seed)]));
const same = (wasm, native, what) => assert.deepEqual({ text: wasm.text, ids: Array.from(wasm.ids) }, native, what);

describe('embedlab generate = M.generate on the same state', () => {
  for (const [enc, name, n, prompt] of [['char', 'tinyshakespeare.txt', 30000, 'ROMEO:'], ['gpt2', 'the-verdict.txt', 8000, 'I had always']]) {
    it(`${enc} on ${name}: the same text and ids for the same seed, other text for another`, () => {
      const file = path.join(dir, `${enc}.txt`);
      fs.writeFileSync(file, corpus(name, n));
      const state = path.join(dir, `${enc}.state`);
      run(['train', '--model', 'next-token', '--encoding', enc, '--seed', '2', '--steps', '60', '--vector-size', '16', '--context', '16',
        '--batch-size', '8', '--lr', '0.01', file, '--save-state', state]);
      const bytes = new Uint8Array(fs.readFileSync(state));
      for (const o of [{ prompt, tokens: 80, temperature: 0.8, seed: 5 }, { prompt, tokens: 40, temperature: 0, seed: 1 }]) {
        const native = cliGenerate(state, o);
        assert.equal(native.ids.length, o.tokens);
        same(M.generate(bytes, o), native, `${enc} ${JSON.stringify(o)}`);
      }
      const a = M.generate(bytes, { prompt, tokens: 80, temperature: 1, seed: 5 });
      const b = M.generate(bytes, { prompt, tokens: 80, temperature: 1, seed: 6 });
      assert.notDeepEqual(Array.from(a.ids), Array.from(b.ids), 'another seed draws other tokens');
      // the text is the ids' text as it continues the prompt
      const tok = enc === 'gpt2' ? M.Tokenizer.gpt2() : M.Tokenizer.fromCorpus('char', corpus(name, n));
      assert.equal(a.text, tok.decode(a.ids));
      tok.delete();
    });
  }
});

describe("the page's run samples what the CLI samples from the page's state", () => {
  it('gpt2 ids remapped to the rows that occur come back as GPT-2 ids, in the CLI and the page', async () => {
    const { records, call, dispatch: T } = pageWorker(M);
    const TEXT = corpus('the-verdict.txt', 6000);
    await call('setText', { text: TEXT });
    const start = await call('trainStart', { corpus: 'custom', enc: 'gpt2', lower: false, bpeV: 300, model: 'next', pos: 'rope', tD: 16, ctx: 16,
      tB: 4, opt: 'adam', lr: 0.01, alpha: 0.025, win: 3, minc: 2, ep: 3, seed: 3 });
    assert.ok(start.remapped > 100 && start.remapped < 50257, 'the page trains only the ids of its text');
    await call('trainStep', { budgetMs: 1e9, maxSteps: 30 });
    const o = { prompt: 'I had always thought', tokens: 60, temperature: 0.9, seed: 7 };
    const page = await call('trainSample', o);
    assert.equal(page.step, 30);
    assert.equal(page.prompt, o.prompt);
    await call('trainSave', {});
    const state = path.join(dir, 'page.state');
    fs.writeFileSync(state, records.get('train').state);
    const native = cliGenerate(state, o);
    same(page, native, 'the page and the CLI sample different text from the same state');
    const gpt2 = M.Tokenizer.gpt2();
    const occurs = new Set(gpt2.encode(TEXT));
    assert.ok(native.ids.every((x) => occurs.has(x)), 'the sampled ids are GPT-2 ids of tokens of the text');
    assert.equal(native.text, gpt2.decode(Int32Array.from(native.ids)));
    gpt2.delete();
    // a prompt token the text lacks has no row
    const r = await T({ id: 901, type: 'trainSample', payload: { ...o, prompt: 'zebra' } });
    assert.equal(r.ok, false);
    assert.match(r.message, /^generate: the prompt's token "[^"]+" \(id \d+\) does not occur in the training text, so the model has no row for it$/);
    // word2vec has no next-token head
    await call('trainStart', { corpus: 'custom', enc: 'whitespace', lower: true, bpeV: 300, model: 'skipgram', pos: 'none', tD: 8, ctx: 8, tB: 2,
      opt: 'sgd', lr: 0.1, alpha: 0.025, win: 3, minc: 2, ep: 1, seed: 4 });
    const w = await T({ id: 902, type: 'trainSample', payload: o });
    assert.deepEqual({ ok: w.ok, message: w.message }, { ok: false, message: 'sample: word2vec has no next-token head to sample from; choose the next-token model' });
  });
});

describe('M.generate: bad input is named and the module stays usable', () => {
  it('names the option and the value', () => {
    const tok = M.Tokenizer.fromCorpus('char', 'abcabcabd abc');
    const tr = M.Trainer.nextToken(tok.encode('abcabcabd abc'), { vocabSize: tok.vocabSize, vectorSize: 4, context: 4, batchSize: 2, seed: 1, tokenizer: tok });
    tr.step(2);
    const state = tr.saveState();
    assert.throws(() => M.generate('x', { prompt: 'a' }), /^Error: generate: state must be a Uint8Array \(checkpoint bytes\), got/);
    assert.throws(() => M.generate(state, { prompt: 'a', bogus: 1 }), /^Error: generate: unknown option 'bogus', expected prompt, tokens, temperature, seed$/);
    assert.throws(() => M.generate(state, {}), /^Error: generate: prompt must be a string, got undefined$/);
    assert.throws(() => M.generate(state, { prompt: '' }), /^Error: generate: the prompt is empty; give at least one token$/);
    assert.throws(() => M.generate(state, { prompt: 'a', tokens: 4097 }), /^Error: generate: tokens 4097 must be an integer in \[0, 4096\]$/);
    assert.throws(() => M.generate(state, { prompt: 'a', temperature: NaN }), /^Error: generate: temperature must be finite and >= 0, got nan$/);
    assert.throws(() => M.generate(state, { prompt: 'a', temperature: -0.5 }), /^Error: generate: temperature must be finite and >= 0, got -0.5$/);
    assert.throws(() => M.generate(state.subarray(0, 40), { prompt: 'a' }), /^Error: checkpoint: /);
    const bare = M.Trainer.nextToken(tok.encode('abcabcabd abc'), { vocabSize: tok.vocabSize, vectorSize: 4, context: 4, batchSize: 2, seed: 1 });
    assert.throws(() => M.generate(bare.saveState(), { prompt: 'a' }), /^Error: generate: this checkpoint holds no tokenizer/);
    assert.throws(() => M.Trainer.nextToken([0, 1, 2, 0, 1, 2], { vocabSize: 3, context: 4, tokenizer: tok }), /^Error: next-token: the char tokenizer has 9 ids, the model 3 rows \(give the row -> id mapping when rows are not ids\)$/);
    const g = M.generate(state, { prompt: 'ab', tokens: 5, temperature: 0 });
    assert.equal(g.ids.length, 5);
    assert.ok(g.ids instanceof Int32Array);
    for (const x of [tr, bare, tok]) x.delete();
  });
});
