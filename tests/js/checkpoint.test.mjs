// node:test for checkpoints (src/train/checkpoint.hpp) through the wasm module and the CLI:
// the wasm build writes the same bytes as the native CLI for the same run (native = wasm), a
// checkpoint saved by the page's worker handlers (trainSave) resumes in the CLI to the same
// tables as an uninterrupted run, and Trainer.loadState refuses what does not fit by name and
// leaves the trainer usable.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './load-engine.mjs';
import { pageWorker } from './page-worker.mjs';
import { cli, M, dir, file, engineAndText } from './wasm-cli-fixtures.mjs';

const TEXT = fs.readFileSync(path.join(repoRoot, 'web', 'corpora', 'the-verdict.txt'), 'utf8').slice(0, 6000);

engineAndText('embedlab-checkpoint-', TEXT);

const train = (args) => execFileSync(cli, ['train', ...args, file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
const read = (name) => new Uint8Array(fs.readFileSync(path.join(dir, name)));

describe('checkpoints: native = wasm, page -> CLI', () => {
  it('the wasm trainer saves the bytes the native CLI saves for the same run (next-token, chars)', () => {
    train(['--model', 'next-token', '--encoding', 'char', '--seed', '9', '--steps', '20', '--valid-fraction', '0',
      '--vector-size', '16', '--context', '8', '--batch-size', '4', '--save-state', path.join(dir, 'native.bin')]);
    const tok = M.Tokenizer.fromCorpus('char', TEXT);
    // the CLI's state carries its tokenizer (for `embedlab generate`): the wasm trainer is given the same one
    const tr = M.Trainer.nextToken(tok.encode(TEXT), { vocabSize: tok.vocabSize, vectorSize: 16, context: 8, batchSize: 4, seed: 9, tokenizer: tok });
    tr.step(20);
    const wasm = tr.saveState();
    const native = read('native.bin');
    assert.equal(wasm.length, native.length);
    assert.ok(Buffer.from(wasm).equals(Buffer.from(native)), 'checkpoint bytes differ between the wasm and the native build');
    // and the native CLI resumes the wasm checkpoint to the tables of an uninterrupted run
    fs.writeFileSync(path.join(dir, 'wasm.bin'), wasm);
    const common = ['--model', 'next-token', '--encoding', 'char', '--seed', '9', '--steps', '35', '--valid-fraction', '0',
      '--vector-size', '16', '--context', '8', '--batch-size', '4'];
    train([...common, '--resume', path.join(dir, 'wasm.bin'), '--out', path.join(dir, 'resumed.npy')]);
    train([...common, '--out', path.join(dir, 'whole.npy')]);
    assert.ok(Buffer.from(read('resumed.npy')).equals(Buffer.from(read('whole.npy'))), 'resumed table differs from the uninterrupted one');
    tr.step(15);
    assert.equal(tr.stepsDone(), 35);
    tr.delete();
    tok.delete();
  });

  it('a word2vec run saved by the page (trainSave) resumes in the CLI to the uninterrupted table', async () => {
    const { records, call, dispatch: T } = pageWorker(M);
    await call('setText', { text: TEXT });
    const p = { corpus: 'custom', enc: 'whitespace', lower: true, bpeV: 300, model: 'skipgram', pos: 'none', tD: 8, ctx: 8, tB: 2,
      opt: 'sgd', lr: 0.1, alpha: 0.025, win: 3, minc: 2, ep: 3, seed: 4 };
    const start = await call('trainStart', { ...p, resume: true });
    assert.equal(start.restored, null, 'nothing saved yet: nothing restored');
    await call('trainStep', { budgetMs: 0, maxSteps: 1 });
    const saved = await call('trainSave', { curve: { steps: [1], losses: [3] } });
    assert.equal(saved.step, 1);
    const rec = records.get('train');
    assert.ok(rec.state instanceof Uint8Array && rec.state.length === saved.bytes);
    fs.writeFileSync(path.join(dir, 'page.bin'), rec.state);
    const flags = ['--model', 'skipgram', '--encoding', 'whitespace', '--lowercase', '--vector-size', '8', '--window', '3',
      '--min-count', '2', '--epochs', '3', '--alpha', '0.025', '--seed', '4'];
    train([...flags, '--resume', path.join(dir, 'page.bin'), '--out', path.join(dir, 'w2v-resumed.npy')]);
    train([...flags, '--out', path.join(dir, 'w2v-whole.npy')]);
    assert.ok(Buffer.from(read('w2v-resumed.npy')).equals(Buffer.from(read('w2v-whole.npy'))), 'the CLI resumed the page\'s save to another table');

    // a second start of the same settings with resume restores step 1 and its fingerprint
    const again = await call('trainStart', { ...p, resume: true });
    assert.deepEqual({ step: again.restored.step, checksum: again.checksum }, { step: 1, checksum: rec.checksum });
    assert.deepEqual(again.restored.curve, { steps: [1], losses: [3] });
    // other settings: the saved run is not this run's, so nothing is restored
    const other = await call('trainStart', { ...p, seed: 5, resume: true });
    assert.equal(other.restored, null);
  });

  it('loadState refuses other settings, other text and junk by name; the trainer stays usable', () => {
    const tok = M.Tokenizer.fromCorpus('char', TEXT);
    const ids = tok.encode(TEXT);
    const make = (o) => M.Trainer.nextToken(ids, { vocabSize: tok.vocabSize, vectorSize: 8, context: 8, batchSize: 4, seed: 1, ...o });
    const a = make({});
    a.step(3);
    const saved = a.saveState();
    const b = make({ lr: 0.01 });
    assert.throws(() => b.loadState(saved), /^Error: checkpoint: saved with lr=0\.001, this run has lr=0\.01$/);
    assert.throws(() => b.loadState('not bytes'), /Trainer\.loadState: bytes must be a Uint8Array, got/);
    assert.throws(() => b.loadState(new Uint8Array([1, 2, 3])), /checkpoint: not an embedlab checkpoint/);
    const cut = saved.slice(0, saved.length - 100);
    const c = make({});
    assert.throws(() => c.loadState(cut), /checkpoint: checksum mismatch/);
    assert.equal(c.stepsDone(), 0);
    assert.equal(c.loadState(saved), 3);
    c.step(2);
    a.step(2);
    assert.deepEqual(c.table('input').data, a.table('input').data);
    const w = M.Trainer.word2vec(ids, [0, ids.length], { minCount: 1, vectorSize: 4 });
    assert.throws(() => w.loadState(saved), /checkpoint: it holds a next-token run, not a word2vec run/);
    for (const t of [a, b, c, w]) t.delete();
    tok.delete();
  });

  it('the CLI refuses a resume past --steps and a checkpoint of other settings, with exit code 2', () => {
    train(['--model', 'next-token', '--encoding', 'char', '--seed', '9', '--steps', '10', '--valid-fraction', '0', '--vector-size', '8',
      '--context', '8', '--batch-size', '4', '--save-state', path.join(dir, 'ten.bin')]);
    const base = ['train', '--model', 'next-token', '--encoding', 'char', '--valid-fraction', '0', '--vector-size', '8',
      '--context', '8', '--batch-size', '4', '--resume', path.join(dir, 'ten.bin'), file];
    const past = spawnSync(cli, [...base, '--steps', '5', '--seed', '9'], { encoding: 'utf8' });
    assert.equal(past.status, 2);
    assert.match(past.stderr, /^embedlab: train: --resume .*ten\.bin is at step 10, past --steps 5\n$/);
    const other = spawnSync(cli, [...base, '--steps', '20', '--seed', '8'], { encoding: 'utf8' });
    assert.equal(other.status, 2);
    assert.equal(other.stderr, 'embedlab: checkpoint: saved with seed=9, this run has seed=8\n');
    assert.equal(other.stdout, '');
  });
});

// The records of a checkpoint file (train/checkpoint.hpp) and back, with a fresh checksum, so a
// test can change one value of a real checkpoint: [{ type, name, payload }], version.
function recordsOf(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = [];
  let at = 16;
  for (let r = 0; r < view.getUint32(12, true); ++r) {
    const type = bytes[at];
    const nameLen = view.getUint16(at + 1, true);
    const name = Buffer.from(bytes.subarray(at + 3, at + 3 + nameLen)).toString('latin1');
    at += 3 + nameLen;
    const len = Number(view.getBigUint64(at, true));
    at += 8;
    out.push({ type, name, payload: bytes.slice(at, at + len) });
    at += len;
  }
  return { version: view.getUint32(8, true), records: out };
}

function fileOf(version, records) {
  const parts = [Buffer.from('EMBLCKPT', 'latin1'), Buffer.alloc(8)];
  parts[1].writeUInt32LE(version, 0);
  parts[1].writeUInt32LE(records.length, 4);
  for (const r of records) {
    const head = Buffer.alloc(3);
    head[0] = r.type;
    head.writeUInt16LE(r.name.length, 1);
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(r.payload.length));
    parts.push(head, Buffer.from(r.name, 'latin1'), len, Buffer.from(r.payload));
  }
  const body = Buffer.concat(parts);
  let h = 14695981039346656037n;  // FNV-1a 64
  for (const b of body) h = BigInt.asUintN(64, (h ^ BigInt(b)) * 1099511628211n);
  const sum = Buffer.alloc(8);
  sum.writeBigUInt64LE(h);
  return new Uint8Array(Buffer.concat([body, sum]));
}

const i64 = (v) => { const b = Buffer.alloc(8); b.writeBigInt64LE(BigInt(v)); return new Uint8Array(b); };

describe('checkpoint counts are bounded through the wasm module (a crafted autosave cannot hang the worker)', () => {
  it('a word2vec checkpoint whose generator position is 10^9 or 2^62 draws errors at once; the trainer stays usable', () => {
    const tok = M.Tokenizer.fromCorpus('whitespace', TEXT);
    const ids = tok.encode(TEXT);
    const make = () => M.Trainer.word2vec(ids, [0, ids.length], { minCount: 1, vectorSize: 4, seed: 3 });
    const a = make();
    a.step(2);
    const saved = a.saveState();
    // as an older (version 1) embedlab wrote it: a count of draws, no generator words
    const { records } = recordsOf(saved);
    const v1 = (draws) => fileOf(1, records.filter((r) => r.name !== 'rng.words' && r.name !== 'rng.index')
      .map((r) => (r.name === 'rng.draws' ? { ...r, payload: i64(draws) } : r)));
    const b = make();
    for (const draws of [10n ** 9n, 2n ** 62n]) {
      assert.throws(() => b.loadState(v1(draws)),
        new RegExp(`^Error: checkpoint: rng\\.draws ${draws} exceeds 268435456, the most this build replays`));
    }
    assert.equal(b.stepsDone(), 0);
    assert.equal(b.loadState(saved), 2, 'the real checkpoint still loads');
    b.step(3);
    a.step(3);
    assert.deepEqual(b.table('input').data, a.table('input').data);
    for (const t of [a, b]) t.delete();
    tok.delete();
  });

  it('a next-token checkpoint at step 2^63 - 1 is refused, naming the limit', () => {
    const tok = M.Tokenizer.fromCorpus('char', TEXT);
    const ids = tok.encode(TEXT);
    const make = () => M.Trainer.nextToken(ids, { vocabSize: tok.vocabSize, vectorSize: 8, context: 8, batchSize: 4, seed: 1 });
    const a = make();
    a.step(3);
    const { version, records } = recordsOf(a.saveState());
    const atStep = (step) => fileOf(version, records.map((r) => (r.name === 'step' ? { ...r, payload: i64(step) } : r)));
    const b = make();
    assert.throws(() => b.loadState(atStep(2n ** 63n - 1n)),
      /^Error: checkpoint: step 9223372036854775807 out of range \[0, 9007199254740991\]$/);
    assert.equal(b.stepsDone(), 0);
    b.step(1);
    assert.equal(b.stepsDone(), 1);
    for (const t of [a, b]) t.delete();
    tok.delete();
  });
});
