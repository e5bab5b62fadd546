// node:test for the next-token fine-tune (NextTokenTrainer::start_finetune): `embedlab train
// --finetune-context T' --finetune-steps N` prints the fine-tune's fields and the held-out loss
// at T, 2T, 4T and 8T by default; its refusals name the value and the limit; a fine-tuned state
// resumes in the CLI; and the wasm Trainer (startFinetune, phase) saves the bytes the native CLI
// saves for the same fine-tuned run (native = wasm).
// Native CLI: EMBEDLAB_CLI (default build/native/embedlab); wasm: EMBEDLAB_WASM_DIR (build/wasm).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './load-engine.mjs';
import { cli, M, dir, file, engineAndText } from './wasm-cli-fixtures.mjs';

const TEXT = fs.readFileSync(path.join(repoRoot, 'web', 'corpora', 'the-verdict.txt'), 'utf8').slice(0, 8000);
const BASE = ['train', '--model', 'next-token', '--encoding', 'char', '--seed', '5', '--vector-size', '16', '--context', '8',
  '--batch-size', '4', '--lr', '0.01'];

engineAndText('embedlab-finetune-', TEXT);

const run = (args) => spawnSync(cli, [...args, file], { encoding: 'utf8' });
const json = (args) => {
  const r = run(args);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop());
};
const fails = (args, message) => {
  const r = run(args);
  assert.notEqual(r.status, 0, `expected a failure: ${args.join(' ')}`);
  assert.equal(r.stderr.trim().split('\n').pop(), `embedlab: ${message}`);
};
const read = (name) => new Uint8Array(fs.readFileSync(path.join(dir, name)));

describe('fine-tune at a longer context', () => {
  it('the CLI JSON has the fine-tune fields and the held-out loss at T, 2T, 4T and 8T', () => {
    const out = json([...BASE, '--pos', 'rope', '--steps', '40', '--finetune-context', '16', '--finetune-steps', '20']);
    assert.equal(out.steps, 60);
    assert.deepEqual(Object.keys(out.finetune), ['context', 'steps', 'start_step', 'first_loss', 'loss', 'valid_loss_by_length_before']);
    assert.equal(out.finetune.context, 16);
    assert.equal(out.finetune.steps, 20);
    assert.equal(out.finetune.start_step, 40);
    assert.ok(Number.isFinite(out.finetune.first_loss) && Number.isFinite(out.finetune.loss));
    for (const by of [out.valid_loss_by_length, out.finetune.valid_loss_by_length_before]) {
      assert.deepEqual(by.map((e) => e.length), [8, 16, 32, 64]);
      for (const e of by) assert.ok(Number.isFinite(e.loss), JSON.stringify(e));
    }
    // valid_loss stays the held-out loss at the training context T
    assert.equal(out.valid_loss, out.valid_loss_by_length[0].loss);
    // the fine-tune changed the model: its losses by length are not the ones before it
    assert.notDeepEqual(out.valid_loss_by_length, out.finetune.valid_loss_by_length_before);
    // explicit --eval-lengths still win; a run without a fine-tune has no "finetune"
    const chosen = json([...BASE, '--pos', 'alibi', '--steps', '5', '--finetune-context', '16', '--finetune-steps', '2', '--eval-lengths', '24']);
    assert.deepEqual(chosen.valid_loss_by_length.map((e) => e.length), [24]);
    const plain = json([...BASE, '--pos', 'rope', '--steps', '5']);
    assert.equal(plain.finetune, undefined);
    assert.deepEqual(plain.valid_loss_by_length, []);
  });

  it('refusals name the value and the limit, before any step', () => {
    const rope = [...BASE, '--pos', 'rope', '--steps', '5'];
    fails([...rope, '--finetune-context', '8', '--finetune-steps', '2'], 'train: --finetune-context 8 must be > --context 8');
    fails([...rope, '--finetune-context', '16', '--finetune-steps', '0'], 'train: --finetune-steps 0 must be >= 1');
    fails([...rope, '--finetune-context', '16'], 'train: --finetune-context needs --finetune-steps');
    fails([...rope, '--finetune-steps', '3'], 'train: --finetune-steps needs --finetune-context');
    const learned = run([...BASE, '--pos', 'learned', '--steps', '5', '--finetune-context', '16', '--finetune-steps', '2']);
    assert.notEqual(learned.status, 0);
    assert.equal(learned.stderr.trim(), 'embedlab: next-token fine-tune: learned positions have no rows beyond T = 8 (asked for 16): ' +
      'fine-tune a kind without a position table, such as rope or alibi');
  });

  it('a state saved mid fine-tune resumes in the CLI to the uninterrupted run; a mismatched phase is refused', () => {
    const ft = [...BASE, '--pos', 'rope', '--valid-fraction', '0', '--steps', '30', '--finetune-context', '16'];
    json([...ft, '--finetune-steps', '25', '--out', path.join(dir, 'whole.npy')]);
    json([...ft, '--finetune-steps', '10', '--save-state', path.join(dir, 'mid.bin')]);
    json([...ft, '--finetune-steps', '25', '--resume', path.join(dir, 'mid.bin'), '--out', path.join(dir, 'resumed.npy')]);
    assert.ok(Buffer.from(read('resumed.npy')).equals(Buffer.from(read('whole.npy'))), 'resumed table differs from the uninterrupted one');
    const mid = path.join(dir, 'mid.bin');
    fails([...BASE, '--pos', 'rope', '--valid-fraction', '0', '--steps', '30', '--resume', mid],
      `train: --resume ${mid} is a fine-tune at context 16 from step 30: pass --finetune-context 16 and --steps 30`);
  });

  it('the wasm Trainer fine-tunes to the bytes of the native CLI (native = wasm)', () => {
    json([...BASE, '--pos', 'rope', '--valid-fraction', '0', '--steps', '20', '--finetune-context', '16', '--finetune-steps', '12',
      '--save-state', path.join(dir, 'native.bin')]);
    const tok = M.Tokenizer.fromCorpus('char', TEXT);
    const tr = M.Trainer.nextToken(tok.encode(TEXT), { vocabSize: tok.vocabSize, vectorSize: 16, context: 8, batchSize: 4, lr: 0.01,
      pos: 'rope', seed: 5, tokenizer: tok });
    try {
      assert.deepEqual(tr.phase(), { context: 8, finetune: null });
      assert.throws(() => tr.startFinetune(8), { message: 'next-token fine-tune: context 8 must be > the training context 8' });
      tr.step(20);
      tr.startFinetune(16);
      assert.deepEqual(tr.phase(), { context: 16, finetune: { context: 16, step: 20 } });
      assert.equal(tr.step(12).tokens, 12 * 4 * 16);
      assert.equal(tr.settings.context, 8);
      const wasm = tr.saveState();
      assert.ok(Buffer.from(wasm).equals(Buffer.from(read('native.bin'))), 'fine-tuned checkpoint bytes differ between the wasm and the native build');
      // a fresh trainer takes the phase from the bytes; reset() returns to the training context
      const again = M.Trainer.nextToken(tok.encode(TEXT), { vocabSize: tok.vocabSize, vectorSize: 16, context: 8, batchSize: 4, lr: 0.01,
        pos: 'rope', seed: 5, tokenizer: tok });
      assert.equal(again.loadState(wasm), 32);
      assert.deepEqual(again.phase(), { context: 16, finetune: { context: 16, step: 20 } });
      again.reset();
      assert.deepEqual(again.phase(), { context: 8, finetune: null });
      again.delete();
    } finally {
      tr.delete();
      tok.delete();
    }
  });

  it('the wasm Trainer refuses learned positions and a second fine-tune, and stays usable', () => {
    const ids = new Int32Array(400).map((_, i) => (i * 7) % 11);
    const learned = M.Trainer.nextToken(ids, { vocabSize: 11, vectorSize: 8, context: 8, batchSize: 4 });
    assert.throws(() => learned.startFinetune(16), {
      message: 'next-token fine-tune: learned positions have no rows beyond T = 8 (asked for 16): ' +
        'fine-tune a kind without a position table, such as rope or alibi',
    });
    assert.throws(() => learned.startFinetune(1.5), { message: 'Trainer.startFinetune: context 1.5 must be an integer in [1, 2147483647]' });
    assert.equal(learned.step(1).totalSteps, 1);
    learned.delete();
    const rope = M.Trainer.nextToken(ids, { vocabSize: 11, vectorSize: 8, context: 8, batchSize: 4, pos: 'rope' });
    rope.startFinetune(16);
    assert.throws(() => rope.startFinetune(32), { message: 'next-token fine-tune: the run is already fine-tuning at context 16 (asked for 32)' });
    assert.equal(rope.step(1).totalSteps, 1);
    rope.delete();
  });
});
