// node:test for the wasm boundary's limits: every example of issue 7 gives a clear error and
// leaves the module working, and 100,000 failing calls of each kind of failure (bad ids, size
// refusals, non-integer numbers, bad options, bad files, raw calls with wrong types) leave it
// encoding GPT-2 text and making tables correctly, with flat memory: the wasm heap does not grow,
// the bytes malloc holds stay within 1 KiB of where they were
// and the stack pointer is where it was (a trap, or an exception escaping wasm, would leak stack
// and eventually kill the module; see src/bindings/bindings.cpp).
//
// The loops are timed (shown as test diagnostics); each failure is rejected at validation or by
// the planner before any work, so a call costs microseconds.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './load-engine.mjs';

const CALLS = 100000;

let M;
before(async () => { M = await loadEngine(); });

// The module works: GPT-2 ids from a fresh tokenizer and torch's table for seed 123.
function assertHealthy() {
  const tok = M.Tokenizer.gpt2();
  assert.deepEqual(Array.from(tok.encode('Hello world')), [15496, 995]);
  assert.equal(tok.decode([15496, 995]), 'Hello world');
  tok.delete();
  M.manualSeed(123);
  const emb = new M.Embedding(4, 5);  // LLMs-from-scratch: torch.manual_seed(123); nn.Embedding(4, 5)
  assert.deepEqual(Array.from(emb.weight().slice(0, 5), (v) => v.toFixed(4)), ['0.3374', '-0.1778', '-0.3035', '-0.5880', '1.5810']);
  emb.delete();
}

// Runs call() CALLS times; each must throw exactly `expected` (a message, or a list of the
// messages allowed). Memory and stack must stay flat.
function hammer(t, call, expected) {
  const allowed = Array.isArray(expected) ? expected : [expected];
  assert.throws(call, (e) => allowed.includes(e.message));  // may grow the heap (an input copy)
  // HEAP8's length sees only growth of linear memory; the bytes malloc holds (mallinfo through
  // M._heapInUse, src/bindings/diagnostics.cpp) also see a leak inside memory already grown
  const heap = M.HEAP8.buffer.byteLength, inUse = M._heapInUse(), stack = M.stackSave();
  const start = performance.now();
  let failures = 0;
  for (let i = 0; i < CALLS; i++) {
    try {
      call();
    } catch (e) {
      if (!allowed.includes(e.message)) assert.fail(`call ${i}: unexpected message ${JSON.stringify(e.message)}`);
      failures++;
    }
  }
  const ms = performance.now() - start;
  assert.equal(failures, CALLS, 'every call failed');
  assert.equal(M.HEAP8.buffer.byteLength, heap, 'the wasm heap did not grow');
  // tolerance 1 KiB: a leak of one 16-byte block per call would be 1.6 MB
  const inUseAfter = M._heapInUse();
  assert.ok(Math.abs(inUseAfter - inUse) <= 1024, `bytes in use went from ${inUse} to ${inUseAfter} over ${CALLS} failing calls`);
  assert.equal(M.stackSave(), stack, 'the stack pointer is unchanged');
  t.diagnostic(`${CALLS} calls in ${Math.round(ms)} ms (${(ms * 1000 / CALLS).toFixed(1)} us each); heap ${heap} bytes before and after, ${inUse} -> ${inUseAfter} in use; stack pointer ${stack}`);
  assertHealthy();
}

describe('the examples of issue 7', () => {
  it('new Embedding(1, 2**26).forward(new Int32Array(64)): the output is refused, not wrapped', () => {
    const emb = new M.Embedding(1, 2 ** 26);
    assert.throws(() => emb.forward(new Int32Array(64)), { message: 'lookup: output 64 x 67108864 float32 need 16.0 GiB; the limit here is 2.0 GiB' });
    assert.equal(emb.forward(new Int32Array(1)).length, 2 ** 26);
    emb.delete();
    assertHealthy();
  });

  it('Trainer.nextToken(ids, {context: 4096, batchSize: 256, ...}): the attention buffer is refused', () => {
    const ids = Int32Array.from({ length: 5000 }, (_, i) => i % 5);
    assert.throws(() => M.Trainer.nextToken(ids, { vocabSize: 5, context: 4096, batchSize: 256, vectorSize: 8 }).step(1),
      { message: 'next-token: attention scores 256 x 4096 x 4096 float32 need 16.0 GiB; the limit here is 2.0 GiB' });
    const tok = M.Tokenizer.gpt2();  // used to encode 'Hello world' wrongly after the overflow
    assert.deepEqual(Array.from(tok.encode('Hello world')), [15496, 995]);
    tok.delete();
    const tr = M.Trainer.nextToken(ids, { vocabSize: 5, context: 8, batchSize: 4, vectorSize: 8 });
    assert.ok(Number.isFinite(tr.step(2).loss));
    tr.delete();
    assertHealthy();
  });

  it('new Linear(2, 2).forward(new Float32Array(0), 2**31): n is refused before any cast', () => {
    const lin = new M.Linear(2, 2);
    assert.throws(() => lin.forward(new Float32Array(0), 2 ** 31), { message: 'Linear.forward: n 2147483648 must be an integer in [0, 2147483647]' });
    assert.deepEqual(Array.from(lin.forward([1, 0], 1)), [lin.weight()[0], lin.weight()[2]]);
    lin.delete();
    assertHealthy();
  });

  it('positionSimilarity(new Float32Array(1), 2**32 + 1, 1): positions is refused, not wrapped to 1', () => {
    assert.throws(() => M.positionSimilarity(new Float32Array(1), 2 ** 32 + 1, 1),
      { message: 'positionSimilarity: positions 4294967297 must be an integer in [1, 2147483647]' });
    assert.deepEqual(Array.from(M.positionSimilarity(Float32Array.of(1, 2), 2, 1)), [1, 2, 2, 4]);
    assertHealthy();
  });

  it('the page\'s #view=positions&T=65536: the T x T similarity matrix is refused by the engine', () => {
    const T = 65536, D = 2;
    assert.throws(() => M.positionSimilarity(new Float32Array(T * D), T, D),
      { message: 'position_similarity: similarity matrix 65536 x 65536 float32 need 16.0 GiB; the limit here is 2.0 GiB' });
    assertHealthy();
  });
});

describe('100,000 failing calls of each kind', () => {
  let emb, wide, lin, tok, bpe, ids;
  before(() => {
    M.manualSeed(0);
    emb = new M.Embedding(10, 10);
    wide = new M.Embedding(1, 2 ** 26);  // 256 MiB, allocated once before the heap is measured
    lin = new M.Linear(2, 2);
    tok = M.Tokenizer.gpt2();
    bpe = new M.BpeTrainer('low lower lowest', 300);
    ids = Int32Array.from({ length: 64 }, (_, i) => i % 5);
  });
  after(() => { for (const h of [emb, wide, lin, tok, bpe]) h.delete(); });

  it('a token id out of range', (t) => {
    const bad = Int32Array.of(3, 10);
    hammer(t, () => emb.forward(bad), 'lookup: token id 10 out of range [0, 10)');
  });

  it('an output too big for the address space (the planner refuses it)', (t) => {
    const x = new Int32Array(64);
    hammer(t, () => wide.forward(x), 'lookup: output 64 x 67108864 float32 need 16.0 GiB; the limit here is 2.0 GiB');
  });

  it('a table too big, refused at construction', (t) => {
    hammer(t, () => new M.Embedding(1e9, 1000), 'Embedding: table 1000000000 x 1000 float32 need 3.6 TiB; the limit here is 2.0 GiB');
  });

  it('a size beyond int32', (t) => {
    const x = new Float32Array(0);
    hammer(t, () => lin.forward(x, 2 ** 31), 'Linear.forward: n 2147483648 must be an integer in [0, 2147483647]');
  });

  it('a size beyond 2^32 that would wrap to 1 in 32 bits', (t) => {
    const table = new Float32Array(1);
    hammer(t, () => M.positionSimilarity(table, 2 ** 32 + 1, 1), 'positionSimilarity: positions 4294967297 must be an integer in [1, 2147483647]');
  });

  it('NaN, +-Infinity and fractions (one kind each call, in turn)', (t) => {
    const cases = [
      [() => lin.forward(new Float32Array(2), 1.5), 'Linear.forward: n 1.5 must be an integer in [0, 2147483647]'],
      [() => M.sinusoidal(NaN, 4), 'sinusoidal: positions NaN must be an integer in [1, 2147483647]'],
      [() => tok.tokenBytes(Infinity), 'tokenBytes: id Infinity must be an integer in [-2147483648, 2147483647]'],
      [() => bpe.step(-Infinity), 'BpeTrainer.step: n -Infinity must be an integer in [0, 2147483647]'],
      [() => M.ropeTable(8, 2.5), 'ropeTable: dim 2.5 must be an integer in [1, 2147483647]'],
    ];
    for (const [call, message] of cases) assert.throws(call, { message });
    let k = 0;
    hammer(t, () => cases[k++ % cases.length][0](), cases.map(([, message]) => message));
  });

  it('a bad option value', (t) => {
    hammer(t, () => M.Trainer.nextToken(ids, { vocabSize: 5, pos: 'spiral' }),
      "position kind: unknown kind 'spiral', expected one of none, sinusoidal, learned, rope, alibi, t5, rope-pi, rope-ntk, rope-yarn, rope-partial");
  });

  it('a bad option number reaching C++ directly (raw call: the wrappers are not the guard)', (t) => {
    const h = new M._Trainer();
    const opts = { vocabSize: 5, context: 2 ** 40 };
    const { takeError } = M._api;
    hammer(t, () => { h.initNextToken(ids, opts); throw new Error(takeError()); },
      'Trainer.nextToken: context 1099511627776 must be an integer in [-2147483648, 2147483647]');
    h.delete();
  });

  it('a malformed BPE merge file', (t) => {
    hammer(t, () => M.Tokenizer.fromBpe('nope'), "bpe load: line 1: expected 'embedlab-bpe 1', got 'nope'");
  });

  it('a next-token context too big for its attention buffers', (t) => {
    hammer(t, () => M.Trainer.nextToken(ids, { vocabSize: 5, context: 4096, batchSize: 256, vectorSize: 8 }),
      'next-token: attention scores 256 x 4096 x 4096 float32 need 16.0 GiB; the limit here is 2.0 GiB');
  });

  it('a bad windows seed and a wrong array type in raw calls', (t) => {
    const { takeError } = M._api;
    let k = 0;
    hammer(t, () => {
      const r = k++ % 2 ? M._slidingWindows(ids, 4, 4, 4, false, -1, true) : M._positionSimilarity([1, 2], 1, 2, false);
      assert.equal(r, undefined);
      throw new Error(takeError());
    }, ['slidingWindows: seed -1 must be an integer in [0, 9007199254740991]', 'positionSimilarity: table must be a Float32Array']);
  });
});
