// node:test for the wasm module's JS API: the same numbers as torch and the native build,
// native = wasm bitwise, errors as JS Errors naming the argument, and a module that survives
// 100,000 failures (tests/js/limits.test.mjs does that for every kind of failure).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { loadEngine, repoRoot } from './load-engine.mjs';

const reference = JSON.parse(fs.readFileSync(path.join(repoRoot, 'tests/reference/torch_embedding_init.json'), 'utf8'));
const cli = path.join(repoRoot, 'build/native/embedlab');

// The native CLI's table for the same arguments, parsed back to float32.
function nativeTable(args) {
  const out = JSON.parse(execFileSync(cli, args, { encoding: 'utf8' }));
  return Float32Array.from(out.data);
}

let M;
before(async () => { M = await loadEngine(); });

describe('manualSeed + Embedding', () => {
  it('reproduces every torch reference table within 1e-5', () => {
    for (const e of reference.embedding) {
      M.manualSeed(e.seed);
      const emb = new M.Embedding(e.num_embeddings, e.embedding_dim);
      const w = emb.weight();
      const want = (e.values || e.first_rows).flat();
      for (let i = 0; i < want.length; i++) {
        assert.ok(Math.abs(w[i] - want[i]) < 1e-5, `seed ${e.seed} ${e.num_embeddings}x${e.embedding_dim} [${i}]: ${w[i]} vs ${want[i]}`);
      }
      emb.delete();
    }
  });

  it('gives the seed notebook numbers: seed 42, 6x3 starts 1.9269, 1.4873, -0.4974', () => {
    M.manualSeed(42);
    const emb = new M.Embedding(6, 3);
    assert.deepEqual(Array.from(emb.weight().slice(0, 3), (v) => v.toFixed(4)), ['1.9269', '1.4873', '-0.4974']);
    emb.delete();
  });

  it('matches nn.Linear(4, 5, bias=False) exactly', () => {
    const l = reference.linear[0];
    M.manualSeed(l.seed);
    const lin = new M.Linear(l.in_features, l.out_features);
    assert.deepEqual(Array.from(lin.weight()), l.values.flat().map(Math.fround));
    lin.delete();
  });

  it('is bit-identical to the native build for tables and lookups', () => {
    for (const [seed, V, D] of [[42, 6, 3], [123, 12, 512], [7, 1000, 33], [0, 3, 4]]) {
      M.manualSeed(seed);
      const emb = new M.Embedding(V, D);
      assert.deepEqual(emb.weight(), nativeTable(['init', '--seed', `${seed}`, '--num-embeddings', `${V}`, '--embedding-dim', `${D}`]));
      const ids = [V - 1, 0, Math.floor(V / 2), 0];
      assert.deepEqual(emb.forward(ids), nativeTable(['lookup', '--seed', `${seed}`, '--num-embeddings', `${V}`, '--embedding-dim', `${D}`, '--ids', ids.join(',')]));
      emb.delete();
    }
    M.manualSeed(3);
    const scaled = new M.Embedding(50, 64, { scale: true, paddingIdx: 1 });
    assert.deepEqual(scaled.forward([1, 2, 49]), nativeTable(['lookup', '--seed', '3', '--num-embeddings', '50', '--embedding-dim', '64', '--ids', '1,2,49', '--scale', '--padding-idx', '1']));
    scaled.delete();
    assert.deepEqual(M.sinusoidal(64, 32), nativeTable(['posenc', '--kind', 'sinusoidal', '--positions', '64', '--dim', '32']));
    assert.deepEqual(M.ropeTable(16, 8), nativeTable(['posenc', '--kind', 'rope', '--positions', '16', '--dim', '8']));
  });

  it('takes a [B][T] batch and returns (B, T, D) row-major', () => {
    M.manualSeed(0);
    const emb = new M.Embedding(500, 20, { scale: true });
    const batch = [[0, 123, 345, 455, 7, 1, 2, 2], [0, 56, 98, 234, 9, 56, 1, 2]];  // seed notebook 000
    const out = emb.forward(batch);
    assert.equal(out.length, 2 * 8 * 20);
    assert.deepEqual(out.slice((8 + 5) * 20, (8 + 6) * 20), emb.forward([56]));
    assert.throws(() => emb.forward([[1, 2], [3]]), { message: 'lookup: batch row 1 has 1 ids, expected 2 like row 0' });
    emb.delete();
  });

  it('counts a negative paddingIdx from the end, as torch (-1 is the last row)', () => {
    M.manualSeed(42);
    const emb = new M.Embedding(6, 3, { paddingIdx: -1 });
    assert.equal(emb.paddingIdx, 5);
    assert.deepEqual(Array.from(emb.weight().slice(15)), [0, 0, 0]);
    emb.delete();
    const plain = new M.Embedding(6, 3);
    assert.equal(plain.paddingIdx, null);
    plain.delete();
  });

  it('computes the same rows as one-hot x W, to the bit', () => {
    M.manualSeed(123);
    const emb = new M.Embedding(4, 5);
    assert.deepEqual(emb.oneHotForward([2, 3, 1]), emb.forward([2, 3, 1]));
    emb.delete();
  });

  it('sums repeated ids in the sparse gradient and zeroes the padding row', () => {
    M.manualSeed(0);
    const emb = new M.Embedding(5, 2, { paddingIdx: 0 });
    const g = emb.backward([3, 0, 3], [1, 2, 5, 5, 10, 20]);
    assert.deepEqual(Array.from(g.rows), [3]);
    assert.deepEqual(Array.from(g.values), [11, 22]);
    const dense = emb.backward([3, 0, 3], [1, 2, 5, 5, 10, 20], { sparse: false });
    assert.equal(dense.length, 10);
    assert.deepEqual(Array.from(dense.slice(6, 8)), [11, 22]);
    emb.delete();
  });
});

describe('errors', () => {
  it('arrive as JS Errors with the C++ message', () => {
    M.manualSeed(0);
    const emb = new M.Embedding(10, 10);
    assert.throws(() => emb.forward([10]), { message: 'lookup: token id 10 out of range [0, 10)' });
    assert.throws(() => emb.forward([-1]), { message: 'lookup: token id -1 out of range [0, 10)' });
    assert.throws(() => emb.forward([1.5]), { message: 'lookup: token id 1.5 at index 0 is not an integer' });
    assert.throws(() => new M.Embedding(0, 3), /numEmbeddings 0 must be an integer in \[1, 2147483647\]/);
    assert.throws(() => new M.Embedding(1e9, 1000), { message: 'Embedding: table 1000000000 x 1000 float32 need 3.6 TiB; the limit here is 2.0 GiB' });
    assert.throws(() => M.sinusoidal(4, 5), { message: 'sinusoidal: dim must be even, got 5' });
    assert.throws(() => M.manualSeed(-1), /seed -1 must be an integer/);
    assert.throws(() => new M.Embedding(4, 3, { paddingIdx: 9 }), { message: 'Embedding: padding_idx 9 out of range [-4, 4)' });
    emb.delete();
  });

  it('name the argument and its range for numbers that are not integers in range, before any cast', () => {
    const lin = new M.Linear(2, 2);
    const x = new Float32Array(0);
    for (const [n, shown] of [[2 ** 31, '2147483648'], [-1, '-1'], [1.5, '1.5'], [NaN, 'NaN'], [Infinity, 'Infinity'], [-Infinity, '-Infinity'], [2 ** 64, '18446744073709551616']]) {
      assert.throws(() => lin.forward(x, n), { message: `Linear.forward: n ${shown} must be an integer in [0, 2147483647]` });
    }
    assert.deepEqual(lin.forward(x, 0), new Float32Array(0));
    lin.delete();
    // fractions are rejected, not truncated (1.5 used to become 1)
    assert.throws(() => M.sinusoidal(4.5, 4), { message: 'sinusoidal: positions 4.5 must be an integer in [1, 2147483647]' });
    assert.throws(() => M.sinusoidal(4, 2 ** 32 + 4), { message: 'sinusoidal: dim 4294967300 must be an integer in [1, 2147483647]' });
    assert.throws(() => M.learnedPositions(NaN, 4), { message: 'learnedPositions: positions NaN must be an integer in [1, 2147483647]' });
    assert.throws(() => M.ropeApply(new Float32Array(4), 1, 4, 0.5), { message: 'ropeApply: offset 0.5 must be an integer in [0, 2147483647]' });
    assert.throws(() => M.alibi(1, -3), { message: 'alibi: positions -3 must be an integer in [1, 2147483647]' });
    assert.throws(() => M.positionSimilarity(new Float32Array(1), 2 ** 32 + 1, 1), { message: 'positionSimilarity: positions 4294967297 must be an integer in [1, 2147483647]' });
    assert.throws(() => new M.Embedding(3, 2.5), { message: 'Embedding: embeddingDim 2.5 must be an integer in [1, 2147483647]' });
    assert.throws(() => new M.Embedding(3, 2, { maxNorm: 1e300 }), { message: 'Embedding: maxNorm 1e+300 is beyond the float32 range' });
    assert.throws(() => new M.Embedding(3, 2, { maxNorm: NaN }), { message: 'Embedding: max_norm must be a finite number >= 0, got nan' });
    assert.throws(() => M.manualSeed(0.5), { message: 'manualSeed: seed 0.5 must be an integer in [0, 9007199254740991]' });
    assert.throws(() => M.manualSeed(2 ** 53), { message: 'manualSeed: seed 9007199254740992 must be an integer in [0, 9007199254740991]' });
    const emb = new M.Embedding(4, 2);
    assert.throws(() => emb.forwardWithPositions([1], new Float32Array(2), 1.5), { message: 'forwardWithPositions: positions 1.5 must be an integer in [1, 2147483647]' });
    assert.throws(() => M.benchLookup({ reps: 1e6 }), { message: 'benchLookup: reps 1000000 must be an integer in [1, 1000]' });
    emb.delete();
  });

  it('refuse raw calls with the wrong kind of argument (the C++ side is the guard)', () => {
    // The JS wrappers check types first; these raw calls bypass them and still get a message.
    const { takeError } = M._api;
    assert.equal(M._positionSimilarity([1, 2], 1, 2, false), undefined);
    assert.equal(takeError(), 'positionSimilarity: table must be a Float32Array');
    assert.equal(M._slidingWindows(new Int32Array(9), 4, 4, 4, false, -1, true), undefined);
    assert.equal(takeError(), 'slidingWindows: seed -1 must be an integer in [0, 9007199254740991]');
    const h = new M._Trainer();
    assert.equal(h.initNextToken(new Int32Array(9), { vocabSize: 5, vectorSize: 1.5 }), false);
    assert.equal(takeError(), 'Trainer.nextToken: vectorSize 1.5 must be an integer in [-2147483648, 2147483647]');
    assert.equal(h.initNextToken(new Int32Array(9), { vocabSize: '5' }), false);
    assert.equal(takeError(), 'Trainer.nextToken: vocabSize must be a number');
    assert.equal(h.initNextToken(new Int32Array(9), null), false);
    assert.equal(takeError(), 'Trainer.nextToken: options must be an object');
    assert.equal(h.initWord2Vec(new Int32Array(3), Float64Array.of(0, 1.5, 3), new Float64Array(0), {}), false);
    assert.equal(takeError(), 'Trainer.word2vec: sentenceStarts[1] 1.5 must be an integer in [0, 9007199254740991]');
    assert.equal(h.table('x'.repeat(300)), undefined);
    assert.equal(takeError(), 'Trainer.table: name must be a name of at most 256 characters, got 300');
    h.delete();
    const t = new M._Tokenizer();
    assert.equal(t.initBpe('embedlab-bpe 1'), false);
    assert.equal(takeError(), 'Tokenizer.fromBpe: file must be a Uint8Array');
    t.delete();
    assert.equal(takeError(), '', 'taking the error cleared it');
  });

  it('leave the module working with flat memory after 100,000 failing calls', () => {
    M.manualSeed(0);
    const emb = new M.Embedding(10, 10);
    const before = emb.forward([3]);
    // one failing call of each kind first, so what a first call sets up once is not counted
    try { emb.forward([10]); } catch { /* expected */ }
    try { new M.Embedding(-1, 2); } catch { /* expected */ }
    // the bytes malloc holds (mallinfo, src/bindings/diagnostics.cpp): HEAP8's length alone only
    // sees the heap grow, not a leak inside memory it already has
    const heap = M.HEAP8.buffer.byteLength, inUse = M._heapInUse(), stack = M.stackSave();
    for (let i = 0; i < 100000; i++) {
      try { emb.forward([10]); } catch { /* expected */ }
    }
    for (let i = 0; i < 1000; i++) {
      try { new M.Embedding(-1, 2); } catch { /* expected */ }
    }
    assert.equal(M.HEAP8.buffer.byteLength, heap, 'heap did not grow');
    // tolerance 1 KiB: a leak of one 16-byte block per call would be 1.6 MB here
    assert.ok(Math.abs(M._heapInUse() - inUse) <= 1024, `bytes in use went from ${inUse} to ${M._heapInUse()}`);
    assert.equal(M.stackSave(), stack, 'stack pointer unchanged');
    assert.deepEqual(emb.forward([3]), before);
    emb.delete();
  });

  it('reject use after delete', () => {
    const emb = new M.Embedding(2, 2);
    emb.delete();
    assert.throws(() => emb.forward([0]), { message: 'forward: this Embedding was deleted' });
  });
});
