// Runs every example of docs.html (web/docs/examples.js) against the wasm module in Node and
// checks what it returns, so the documented examples cannot rot. Expected numbers come from the
// seed notebooks' torch output where the engine matches torch (same seed, same bits).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadEngine, repoRoot } from './load-engine.mjs';
import { EXAMPLES, lookup, oneHot, scale, bpeWindows, positions, word2vec, nextToken, tables } from '../../web/docs/examples.js';

const verdict = fs.readFileSync(path.join(repoRoot, 'web', 'corpora', 'the-verdict.txt'), 'utf8');
let M;
// Runs an example with a print that collects lines -> {result, lines}
function run(fn) {
  const lines = [];
  const result = fn(M, { verdict, print: (...parts) => lines.push(parts.map(String).join(' ')) });
  return { result, lines };
}

describe('docs.html examples', () => {
  before(async () => {
    M = await loadEngine();
  });

  it('every example runs and prints something', () => {
    assert.equal(EXAMPLES.length, 8);
    for (const [name, title, fn] of EXAMPLES) {
      const { lines } = run(fn);
      assert.ok(lines.length >= 3, `${name} (${title}) printed ${lines.length} lines`);
      assert.ok(lines.every((l) => !/NaN|undefined/.test(l)), `${name} printed NaN or undefined:\n${lines.join('\n')}`);
    }
  });

  it('lookup: notebook 004 rows after manual_seed(0), and the out-of-range message', () => {
    const { result } = run(lookup);
    // notebook 004: embedding(tensor([2, 4, 2]))
    assert.deepEqual(result.rows, ['0.3223 -1.2633 0.3500 0.3081', '-1.3527 -1.6959 0.5667 0.7935', '0.3223 -1.2633 0.3500 0.3081']);
    assert.equal(result.message, 'lookup: token id 10 out of range [0, 10)');
  });

  it('one-hot: notebook 003 numbers after manual_seed(123), and the same bits', () => {
    const { result } = run(oneHot);
    assert.equal(result.w0, '0.3374 -0.1778 -0.3035 -0.5880 1.5810');
    assert.equal(result.lookup0, '0.6957 -1.8061 -1.1589 0.3255 -0.6315');
    assert.equal(result.sameBits, true);
  });

  it('scale: (2, 8) ids -> (2, 8, 20) rows times sqrt(20), exactly', () => {
    const { result } = run(scale);
    assert.equal(result.length, 2 * 8 * 20);
    assert.equal(result.factor, Math.fround(Math.sqrt(20)));
    assert.equal(result.exact, true);
  });

  it('bpe-windows: notebook 004 counts on the-verdict.txt', () => {
    const { result } = run(bpeWindows);
    assert.equal(result.tokens, 5145);
    assert.equal(result.inputTokens, 5136); // notebook 004: "tokenized corpus length: 5136"
    assert.equal(result.samples, 1286);
    assert.equal(result.batches, 321);
    assert.deepEqual(result.firstInputs, [40, 367, 2885, 1464]); // "a sample tokenized sequence"
    assert.deepEqual(result.firstTargets, [367, 2885, 1464, 1807]);
    assert.equal(result.iCount, 29);
    assert.deepEqual(result.iFirst, [0, 379, 736, 882, 895]);
  });

  it('positions: a table for every kind of the registry that has one, Vaswani row 1, RoPE keeps norms', () => {
    const { result } = run(positions);
    const kinds = M.positionalKinds().filter((k) => k.provides !== 'none').map((k) => k.name);
    assert.deepEqual(Object.keys(result.shapes), kinds);
    for (const k of M.positionalKinds().filter((k) => k.provides !== 'none')) {
      assert.deepEqual(result.shapes[k.name], k.provides === 'bias' ? [2, 8, 8] : [8, 8], k.name);
    }
    // sin(1), cos(1), sin(1/10), cos(1/10), ... (the docs/js-api.md example's numbers)
    assert.equal(result.sin1, '0.8415 0.5403 0.0998 0.9950 0.0100 0.9999 0.0010 1.0000');
    assert.ok(Math.abs(result.norm7 - Math.sqrt(8)) < 1e-5, `${result.norm7}`);
  });

  it('word2vec: deterministic for a seed, a (vocabulary, 16) table', () => {
    const a = run(word2vec).result, b = run(word2vec).result;
    assert.deepEqual(a, b);
    assert.equal(a.cols, 16);
    assert.ok(a.rows > 100 && a.rows < 1000, `${a.rows}`);
    assert.equal(a.near.length, 3);
  });

  it('next-token: the first loss is about ln V and 60 steps lower it', () => {
    const { result } = run(nextToken);
    assert.ok(Math.abs(result.firstLoss - Math.log(result.vocabSize)) < 0.3, `${result.firstLoss} vs ln ${result.vocabSize}`);
    assert.ok(result.lastLoss < result.firstLoss - 1, `${result.lastLoss} not below ${result.firstLoss} - 1`);
    assert.equal(result.resumedSame, true, 'the trainer loaded from the checkpoint went another way');
    assert.ok(result.checkpointBytes > 0);
    assert.equal([...result.sample].length, 60, 'sixty characters sampled after the prompt');
    assert.deepEqual(run(nextToken).result, result);
  });

  it('tables: notebook 002 rows after manual_seed(42), neighbours, PCA, a bit-exact .npy round trip', () => {
    const { result } = run(tables);
    assert.equal(result.fox, '1.9269 1.4873 -0.4974'); // notebook 002: Vector for the word "fox"
    assert.deepEqual(result.near, [2, 5]); // "in", "the"
    assert.equal(result.explained.length, 2);
    assert.ok(result.explained[0] >= result.explained[1] && result.explained[0] + result.explained[1] <= 1 + 1e-9);
    assert.equal(result.npyBytes, 128 + 6 * 3 * 4);
    assert.equal(result.same, true);
    assert.equal(result.tsv0, '1.92691517\t1.48728406\t-0.497397482');
  });
});
