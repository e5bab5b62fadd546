// node:test for reentrancy at the wasm boundary (issue 22): the caller's code can run in the
// middle of a call only through its arguments, a typed-array subclass whose `length` getter, or
// a Proxy whose index getter, calls back into the module. Such a call must give the correct
// result or a clear error, never a trap or another table's memory; a getter that throws must
// leak nothing (the stack pointer, read with the module's stackSave, stays where it was).
//
// Not here: the limits of each argument (limits.test.mjs) and the coercion of bad values
// (arguments.test.mjs).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './load-engine.mjs';

let M;
before(async () => { M = await loadEngine(); });

// Memory that a use after free would read: fresh tables of other values, allocated where the
// deleted object's memory was.
function churn() {
  const keep = [];
  for (let i = 0; i < 40; i++) keep.push(M.Table.fromArray(new Float32Array(64 * 16).fill(-7), 64, 16));
  for (const t of keep) t.delete();
  const e = new M.Embedding(64, 16);  // left alive: its rows now fill what was freed
  return e;
}

// A subclass of Base whose `length` getter runs hook() (once) before answering.
function hooked(Base, values, hook) {
  let calls = 0;
  class Hooked extends Base {
    get length() {
      calls++;
      hook();
      return super.length;
    }
  }
  const a = new Hooked(values.length);
  a.set(values);
  return { array: a, calls: () => calls };
}
// A Proxy over an array of values whose index getter runs hook() the first time index 0 is read.
function proxied(values, hook) {
  let ran = false;
  return new Proxy(Array.from(values), {
    get(target, key, receiver) {
      if (key === '0' && !ran) {
        ran = true;
        hook();
      }
      return Reflect.get(target, key, receiver);
    },
  });
}

// f() must return `expected` (compared element by element) or throw an Error whose message
// matches `allowed`; nothing else (a RuntimeError is a trap).
function correctOrClear(f, expected, allowed) {
  let r;
  try {
    r = f();
  } catch (e) {
    assert.ok(e instanceof Error && !(e instanceof WebAssembly.RuntimeError), `a trap: ${e}`);
    assert.match(e.message, allowed);
    return 'error';
  }
  assert.deepEqual(Array.from(r.ids ?? r), Array.from(expected.ids ?? expected));
  if (expected.scores) assert.deepEqual(Array.from(r.scores), Array.from(expected.scores));
  return 'result';
}

const ROWS = 32, DIM = 8;
const tableData = Float32Array.from({ length: ROWS * DIM }, (_, i) => Math.sin(i * 0.37) + (i % DIM) * 0.01);
const query = Float32Array.from({ length: DIM }, (_, i) => Math.cos(i));
const ids = Int32Array.from([3, 1, 4, 1, 5, 9, 2, 6]);

describe('a length getter that calls back into the module', () => {
  it('Embedding.forward: deleting the embedding, or calling forward again, from the getter is an error or the right rows, never freed memory', () => {
    for (const action of ['delete', 'forward']) {
      for (const make of [(h) => hooked(Int32Array, ids, h).array, (h) => proxied(ids, h)]) {
        M.manualSeed(5);
        const emb = new M.Embedding(16, DIM);
        const expected = emb.forward(ids);
        let spare = null, inner = null;
        const hook = action === 'delete' ? () => { emb.delete(); spare = churn(); } : () => { inner = emb.forward([7, 3]); };
        correctOrClear(() => emb.forward(make(hook)), expected, /^forward: this Embedding was deleted$/);
        if (inner) assert.deepEqual(Array.from(inner.subarray(DIM, 2 * DIM)), Array.from(expected.subarray(0, DIM)));  // id 3 is ids[0]
        if (spare) spare.delete();
        emb.delete();
      }
    }
  });

  it('the raw handle never runs the getter: the engine reads the typed array itself', () => {
    M.manualSeed(5);
    const emb = new M.Embedding(16, DIM);
    const expected = emb.forward(ids);
    const evil = hooked(Int32Array, ids, () => emb.delete());
    assert.deepEqual(Array.from(emb._h.forward(evil.array)), Array.from(expected));
    assert.equal(evil.calls(), 0, 'the length getter ran inside a raw call');
    assert.deepEqual(Array.from(emb.forward(evil.array)), Array.from(expected));
    assert.equal(evil.calls(), 0, 'the length getter ran inside the wrapper');
    emb.delete();
    const t = M.Table.fromArray(tableData, ROWS, DIM);
    const v = hooked(Float32Array, query, () => t.delete());
    const near = t.neighbours({ vector: query, k: 5 });
    const raw = t._h.nearest(-1, v.array, 5, 'cosine');
    assert.equal(v.calls(), 0);
    assert.deepEqual(Array.from(raw.ids), Array.from(near.ids));
    t.delete();
  });

  it('Table.neighbours: deleting or changing the table from the getter', () => {
    for (const action of ['delete', 'labels', 'query']) {
      for (const kind of ['subclass', 'proxy']) {
        const t = M.Table.fromArray(tableData, ROWS, DIM);
        const expected = t.neighbours({ vector: query, k: 5 });
        let spare = null;
        const hook = () => {
          if (action === 'delete') { t.delete(); spare = churn(); }
          if (action === 'labels') t.setLabels(Array.from({ length: ROWS }, (_, i) => `w${i}`));
          if (action === 'query') t.neighbours({ id: 3, k: 2 });  // builds the index inside the call
        };
        const vector = kind === 'subclass' ? hooked(Float32Array, query, hook).array : proxied(query, hook);
        correctOrClear(() => t.neighbours({ vector, k: 5 }), expected, /^Table\.neighbours: this Table was deleted$|^neighbours: this Table was deleted$/);
        if (spare) spare.delete();
        t.delete();
      }
    }
  });

  it('Table.analogy, similarity and pca: deleting the table from the getter', () => {
    const calls = {
      analogy: (t, a) => t.analogy({ positive: a, negative: [2], k: 3 }),
      similarity: (t, a) => t.similarity(a),
      pca: (t, a) => t.pca({ k: 2, ids: a }).points,
    };
    for (const [name, call] of Object.entries(calls)) {
      for (const kind of ['subclass', 'proxy']) {
        const t = M.Table.fromArray(tableData, ROWS, DIM);
        const expected = call(t, Int32Array.from([1, 5, 7]));
        let spare = null;
        const hook = () => { t.delete(); spare = churn(); };
        const a = kind === 'subclass' ? hooked(Int32Array, [1, 5, 7], hook).array : proxied([1, 5, 7], hook);
        correctOrClear(() => call(t, a), expected, new RegExp(`^${name}: this Table was deleted$`));
        if (spare) spare.delete();
        t.delete();
      }
    }
  });

  it('Trainer.evaluate: stepping, reloading or deleting the trainer from the getter', () => {
    const stream = Int32Array.from({ length: 400 }, (_, i) => (i * 7) % 10);
    for (const action of ['delete', 'step', 'reset']) {
      for (const kind of ['subclass', 'proxy']) {
        const tr = M.Trainer.nextToken(stream, { vocabSize: 10, context: 8, batchSize: 4, vectorSize: 8 });
        tr.step(2);
        // the expected loss: the trainer's after the getter's action if the getter ran, else before
        const twin = M.Trainer.nextToken(stream, { vocabSize: 10, context: 8, batchSize: 4, vectorSize: 8 });
        twin.step(2);
        const before = twin.evaluate(stream);
        if (action === 'step') twin.step(3);
        if (action === 'reset') twin.reset();
        const after = twin.evaluate(stream);
        twin.delete();
        let spare = null, ran = false;
        const hook = () => {
          ran = true;
          if (action === 'delete') { tr.delete(); spare = churn(); }
          if (action === 'step') tr.step(3);
          if (action === 'reset') tr.reset();
        };
        const a = kind === 'subclass' ? hooked(Int32Array, stream, hook).array : proxied(stream, hook);
        let loss;
        try {
          loss = tr.evaluate(a);
        } catch (e) {
          assert.ok(!(e instanceof WebAssembly.RuntimeError), `a trap: ${e}`);
          assert.equal(e.message, 'evaluate: this Trainer was deleted');
        }
        if (loss !== undefined) assert.equal(loss, ran ? after : before, `${action} (${kind})`);
        if (spare) spare.delete();
        tr.delete();
      }
    }
  });

  it('Tokenizer.decode and Linear.forward: deleting the object from the getter', () => {
    const tok = M.Tokenizer.gpt2();
    const hello = tok.encode('Hello world');
    let h = hooked(Int32Array, hello, () => tok.delete());
    correctOrClear(() => Array.from(tok.decode(h.array)), Array.from('Hello world'), /^decode: this Tokenizer was deleted$/);
    tok.delete();
    const lin = new M.Linear(4, 3);
    const x = Float32Array.from([1, 2, 3, 4]);
    const expected = lin.forward(x, 1);
    h = hooked(Float32Array, x, () => lin.delete());
    correctOrClear(() => lin.forward(h.array, 1), expected, /^forward: this Linear was deleted$/);
    lin.delete();
  });
});

describe('a view of wasm memory as an argument', () => {
  it('is read before the call grows the memory: the right table, or a clear error from the raw call, and no stack lost', () => {
    const n = 1 << 24;  // 64 MiB: making the table grows wasm memory, which detaches every view of it
    const view = () => M.HEAPF32.subarray(0, n);
    const stack = M.stackSave();
    const expected = new Float32Array(view().subarray(0, 8));
    const t = M.Table.fromArray(view(), 1 << 12, 1 << 12);
    assert.deepEqual(Array.from(t.row(0).subarray(0, 8)), Array.from(expected));
    t.delete();
    const h = new M._Table();
    let ok;
    try {
      ok = h.initArray(M.HEAPF32, 1, 1);  // the whole memory: copying it grows it
    } catch (e) {
      assert.fail(`a JS exception crossed the engine call: ${e}`);
    }
    const message = M._api.takeError();
    assert.equal(ok, false, 'the whole memory is not a 1 x 1 table');
    assert.match(message, /^Table\.fromArray: data changed size while it was copied|^Table\.fromArray: data has \d+ values, expected 1 x 1$/);
    h.delete();
    assert.equal(M.stackSave(), stack, 'the stack pointer is unchanged');
  });
});

describe('a getter that throws', () => {
  const CALLS = 200000;
  it(`${CALLS} calls leave the stack pointer where it was and the module working`, (t) => {
    class Throwing extends Int32Array { get length() { throw new Error('boom'); } }
    class ThrowingF extends Float32Array { get length() { throw new Error('boom'); } }
    const throwingProxy = new Proxy([1, 2], { get(target, key) { if (key === '0') throw new Error('boom'); return Reflect.get(target, key); } });
    const emb = new M.Embedding(10, 4);
    const table = M.Table.fromArray(tableData, ROWS, DIM);
    const a = new Throwing(3), f = new ThrowingF(DIM);
    const calls = [
      () => emb._h.forward(a),                     // the raw binding: the engine reads the array itself
      () => emb.forward(a),
      () => emb.forward(throwingProxy),            // the wrapper reads the proxy: the throw stays in JS
      () => table._h.nearest(-1, f, 3, 'cosine'),
      () => table.neighbours({ vector: throwingProxy }),
    ];
    for (const call of calls) try { call(); } catch { /* the first call may grow the heap */ }
    const stack = M.stackSave();
    let thrown = 0, returned = 0;
    for (let i = 0; i < CALLS; i++) {
      try {
        calls[i % calls.length]();
        returned++;
      } catch (e) {
        assert.ok(!(e instanceof WebAssembly.RuntimeError), `call ${i}: a trap: ${e}`);
        thrown++;
      }
    }
    assert.equal(M.stackSave(), stack, 'the stack pointer is unchanged');
    t.diagnostic(`${thrown} calls threw, ${returned} returned; stack pointer ${stack} before and after`);
    emb.delete();
    table.delete();
    M.manualSeed(123);
    const e = new M.Embedding(4, 5);  // torch.manual_seed(123); nn.Embedding(4, 5)
    assert.deepEqual(Array.from(e.weight().slice(0, 3), (v) => v.toFixed(4)), ['0.3374', '-0.1778', '-0.3035']);
    e.delete();
  });
});
