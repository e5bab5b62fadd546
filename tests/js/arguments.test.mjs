// node:test for the JS API's numeric arguments (issue 22: "row(null) reads row 0, and a shape of
// '12' becomes [1, 2]"). Every id, size, count and shape argument is an integer Number in range;
// anything else (undefined where there is no default, null, '', '3', true, 1.5, NaN, Infinity,
// 2n, objects, arrays, symbols) fails with an Error naming the call, the argument, the value
// and the range, and the module stays usable. -0 is 0.
//
// Not here: the limits of valid numbers (limits.test.mjs) and reentrancy (reentrancy.test.mjs).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './load-engine.mjs';

let M, table, emb, lin, tok, bpe, trainer;
before(async () => {
  M = await loadEngine();
  table = M.Table.fromArray(Float32Array.from({ length: 40 }, (_, i) => Math.sin(i)), 10, 4);
  emb = new M.Embedding(10, 4);
  lin = new M.Linear(2, 3);
  tok = M.Tokenizer.gpt2();
  bpe = new M.BpeTrainer('aaab aaab abab', 300);
  trainer = M.Trainer.nextToken(Int32Array.from({ length: 200 }, (_, i) => i % 5), { vocabSize: 5, context: 4, batchSize: 2, vectorSize: 4 });
});
after(() => { for (const o of [table, emb, lin, tok, bpe, trainer]) o.delete(); });

// How the messages show a value.
function shown(v) {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'bigint') return `${v}n`;
  return String(v);
}
const BAD = ['', '3', '12', true, false, 1.5, -0.5, NaN, Infinity, -Infinity, 2n, {}, [3], Symbol('s')];
const MAX = 2147483647, SAFE = Number.MAX_SAFE_INTEGER;

// [call (v) => ..., where: name, range, the absent values that mean the default]
const U = [undefined], UN = [undefined, null];
const INTEGER_ARGUMENTS = [
  [(v) => table.row(v), 'Table.row: row', '[0, 9]', []],
  [(v) => table.neighbours({ id: 1, k: v }), 'Table.neighbours: k', `[-2147483648, ${MAX}]`, U],
  [(v) => table.neighbours({ id: v, k: 2 }), 'Table.neighbours: id', '[0, 9]', UN],  // absent: {vector}
  [(v) => table.pca({ k: v }), 'Table.pca: k', `[-2147483648, ${MAX}]`, U],
  [(v) => table.analogy({ positive: [1], k: v }), 'Table.analogy: k', `[-2147483648, ${MAX}]`, U],
  [(v) => M.Table.fromArray(new Float32Array(8), v, 4), 'Table.fromArray: rows', `[0, ${MAX}]`, []],
  [(v) => new M.Embedding(v, 3), 'Embedding: numEmbeddings', `[1, ${MAX}]`, []],
  [(v) => new M.Embedding(3, v), 'Embedding: embeddingDim', `[1, ${MAX}]`, []],
  [(v) => M.Embedding.fromPretrained(new Float32Array(6), 2, v), 'Embedding.fromPretrained: embeddingDim', `[1, ${MAX}]`, []],
  [(v) => emb.forwardWithPositions([1], new Float32Array(4), v), 'forwardWithPositions: positions', `[1, ${MAX}]`, []],
  [(v) => lin.forward(new Float32Array(2), v), 'Linear.forward: n', `[0, ${MAX}]`, []],
  [(v) => tok.tokenBytes(v), 'tokenBytes: id', `[-2147483648, ${MAX}]`, []],
  [(v) => bpe.step(v), 'BpeTrainer.step: n', `[0, ${MAX}]`, UN],
  [(v) => new M.BpeTrainer('ab', v), 'BpeTrainer: vocabSize', `[-2147483648, ${MAX}]`, []],
  [(v) => trainer.step(v), 'Trainer.step: n', `[0, ${MAX}]`, UN],
  [(v) => M.sinusoidal(v, 4), 'sinusoidal: positions', `[1, ${MAX}]`, []],
  [(v) => M.ropeTable(4, v), 'ropeTable: dim', `[1, ${MAX}]`, []],
  [(v) => M.ropeApply(new Float32Array(4), 1, 4, v), 'ropeApply: offset', `[0, ${MAX}]`, UN],
  [(v) => M.learnedPositions(v, 4), 'learnedPositions: positions', `[1, ${MAX}]`, []],
  [(v) => M.positionSimilarity(new Float32Array(4), v, 2), 'positionSimilarity: positions', `[1, ${MAX}]`, []],
  [(v) => M.positionTable('sinusoidal', { positions: v, dim: 4 }), 'sinusoidal: positions', `[1, ${MAX}]`, []],
  [(v) => M.positionTable('sinusoidal', { positions: 4, dim: 4, seed: v }), 'sinusoidal: seed', `[0, ${SAFE}]`, UN],
  [(v) => M.manualSeed(v), 'manualSeed: seed', `[0, ${SAFE}]`, []],
  [(v) => M.skipgramPairs([1, 2, 3], v), 'skipgramPairs: window', `[-2147483648, ${MAX}]`, []],
  [(v) => M.benchLookup({ reps: v, numEmbeddings: 2, embeddingDim: 2, batch: 1, context: 1 }), 'benchLookup: reps', '[1, 1000]', UN],
  [(v) => M.benchTable({ reps: v, rows: 2, dim: 2 }), 'benchTable: reps', '[1, 1000]', U],
];

describe('integer arguments', () => {
  for (const [call, name, range, absent] of INTEGER_ARGUMENTS) {
    it(`${name}: every value that is not an integer Number in ${range} fails naming it`, () => {
      for (const v of [...BAD, undefined, null].filter((x) => !absent.includes(x))) {
        assert.throws(() => call(v), (e) => {
          assert.ok(e instanceof Error && !(e instanceof WebAssembly.RuntimeError), String(e));
          assert.equal(e.message, `${name} ${shown(v)} must be an integer in ${range}`);
          return true;
        }, `${name} ${shown(v)}`);
      }
    });
  }

  it('-0 is 0', () => {
    assert.deepEqual(table.row(-0), table.row(0));
    assert.deepEqual(table.neighbours({ id: -0, k: 2 }), table.neighbours({ id: 0, k: 2 }));
    assert.deepEqual(M.ropeApply(new Float32Array(4).fill(1), 1, 4, -0), M.ropeApply(new Float32Array(4).fill(1), 1, 4, 0));
  });
});

describe('shapes, arrays and numbers', () => {
  const bytes = new Uint8Array(24);  // 6 float32 zeros
  it("Table.fromTensor: a shape is an array of integers, not '12' or [1, '2']", () => {
    const fromShape = (shape) => M.Table.fromTensor(bytes, { dtype: 'F32', shape });
    for (const shape of ['12', 12, null, undefined, true, {}, new Set([2, 3])]) {  // (ArrayLike: {length: 2, 0: 2, 1: 3} is one)
      assert.throws(() => fromShape(shape), { message: `Table.fromTensor: shape must be an array of integers, got ${shown(shape)}` });
    }
    for (const [shape, k, v] of [[[2, '3'], 1, '3'], [[null, 3], 0, null], [[2, 1.5], 1, 1.5], [[2, -3], 1, -3], [[true, 6], 0, true]]) {
      assert.throws(() => fromShape(shape), { message: `Table.fromTensor: shape[${k}] ${shown(v)} must be an integer in [0, ${SAFE}]` });
    }
    const u = fromShape({ length: 2, 0: 2, 1: 3 });
    assert.equal(u.dim, 3);
    u.delete();
    const t = fromShape([2, 3]);
    assert.equal(t.rows, 2);
    assert.equal(t.dim, 3);
    t.delete();
  });

  it('float arrays hold numbers: null, strings and booleans are not 0, 1 or NaN', () => {
    for (const [v, k] of [[[1, null], 1], [['1', 2], 0], [[1, true], 1], [[undefined, 2], 0]]) {
      assert.throws(() => lin.forward(v, 1), { message: `Linear.forward: value ${shown(v[k])} at index ${k} is not a number` });
    }
    assert.throws(() => lin.forward('12', 1), { message: 'Linear.forward: expected an array of numbers, got "12"' });
    assert.throws(() => emb.forward('12'), { message: 'lookup: ids must be an array of integers, got "12"' });
    assert.throws(() => lin.forward({ length: -1 }, 1), { message: "Linear.forward: an array's length must be an integer in [0, 2147483647], got -1" });
    assert.throws(() => emb.forward({ length: 1.5 }), { message: "lookup: an array's length must be an integer in [0, 2147483647], got 1.5" });
    assert.deepEqual(lin.forward([1, 2], 1), lin.forward(Float32Array.from([1, 2]), 1));
  });

  it('offsets and counts hold numbers', () => {
    const ids = Int32Array.from([1, 2, 3, 1, 2]);
    assert.throws(() => M.Trainer.word2vec(ids, [0, null, 5], { minCount: 1, vectorSize: 4 }),
      { message: 'Trainer.word2vec: sentenceStarts[1] null is not a number' });
    assert.throws(() => M.Trainer.word2vec(ids, '05', { minCount: 1, vectorSize: 4 }),
      { message: 'Trainer.word2vec: sentenceStarts must be an array of numbers, got "05"' });
    assert.throws(() => M.Trainer.word2vec(ids, [0, 5], { minCount: 1, vectorSize: 4, counts: [1, '2', 1, 1] }),
      { message: 'Trainer.word2vec: counts[1] "2" is not a number' });
  });

  it('names and floats are not coerced', () => {
    assert.throws(() => new M.Embedding(3, 2, { maxNorm: '2' }), { message: 'Embedding: maxNorm "2" must be a number' });
    assert.throws(() => table.neighbours({ id: 1, metric: ['cosine'] }), { message: 'Table.neighbours: metric must be a string, got cosine' });
    assert.throws(() => table.export(null), { message: 'Table.export: format must be a string, got null' });
    assert.throws(() => M.Tokenizer.fromCorpus(['word'], 'a b'), { message: 'Tokenizer.fromCorpus: kind must be a string, got word' });
    assert.throws(() => trainer.table(1), { message: "Trainer.table: name must be 'input', 'output' or 'position', got 1" });
    assert.throws(() => M.positionTable('rope', { positions: 4, dim: 4, params: { base: '10' } }),
      { message: 'rope: params.base "10" must be a number' });
    assert.throws(() => table.row({ toString() { throw new Error('boom'); } }), { message: 'Table.row: row [object Object] must be an integer in [0, 9]' });
    assert.throws(() => table.setLabels([...'abcdefghi', undefined]), { message: 'Table.setLabels: label undefined at index 9 is not a string' });
  });

  it("switches are true or false: 'false' and 0 are not switches", () => {
    assert.throws(() => new M.Embedding(3, 2, { scale: 'false' }), { message: 'Embedding: scale must be true or false, got "false"' });
    assert.throws(() => emb.backward([1], new Float32Array(4), { sparse: 0 }), { message: 'backward: sparse must be true or false, got 0' });
    assert.throws(() => table.similarity([1, 2], { cosine: 'yes' }), { message: 'Table.similarity: cosine must be true or false, got "yes"' });
    assert.throws(() => tok.encode('a', { allowSpecial: 1 }), { message: 'encode: allowSpecial must be true or false, got 1' });
    assert.throws(() => M.Tokenizer.fromCorpus('word', 'a b', { lowercase: 'no' }), { message: 'Tokenizer.fromCorpus: lowercase must be true or false, got "no"' });
    assert.throws(() => M.slidingWindows([1, 2, 3, 4, 5], { maxLength: 2, stride: 1, dropLast: 'false' }),
      { message: 'slidingWindows: dropLast must be true or false, got "false"' });
    assert.equal(new Float32Array(emb.backward([1], new Float32Array(4), { sparse: false })).length, 40);
  });

  it('the module still works', () => {
    assert.deepEqual(Array.from(tok.encode('Hello world')), [15496, 995]);
    assert.equal(table.row(9).length, 4);
  });
});
