// The page worker's request handlers (web/src/handlers/*-handler.js) driven by the real wasm
// module in Node, through the same dispatcher the worker uses: what the page draws is what
// the engine computes, and failures arrive as {ok: false, message} replies.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadEngine } from './load-engine.mjs';
import { makeDispatcher, makeRequest } from '../../web/src/protocol.js';
import { makeTableHandler } from '../../web/src/handlers/table-handler.js';
import { makePositionsHandler } from '../../web/src/handlers/positions-handler.js';
import { failedField } from '../../web/src/error-target.js';
import { POSITION_KEYS } from '../../web/src/views/positions-view.js';
import { TABLE_KEYS } from '../../web/src/views/table-view.js';
import { TRAIN_KEYS } from '../../web/src/views/train-view.js';

let dispatch;
before(async () => {
  const M = await loadEngine();
  dispatch = makeDispatcher({ ...makeTableHandler(M), ...makePositionsHandler(M) });
});
const call = (id, type, payload, fields) => dispatch(makeRequest(id, type, payload, fields));
const base = { seed: 123, V: 6, D: 3, pad: null, scale: false, tok: 2 };

describe('table handler', () => {
  it('draws torch numbers: manual_seed(123); nn.Embedding(6, 3).weight[2]', async () => {
    const r = await call(1, 'table', base);
    assert.equal(r.ok, true, r.message);
    // /usr/bin/python3: torch.manual_seed(123); nn.Embedding(6, 3).weight[2] (torch 1.13)
    assert.deepEqual([...r.result.row].map((v) => v.toFixed(6)), ['1.275301', '-0.200953', '-0.160564']);
    assert.equal(r.result.identical, true);
    assert.equal(r.result.grid.rows, 6);
    assert.deepEqual([...r.result.grid.data.slice(6, 9)], [...r.result.row]);
  });

  it('one-hot x W equals the lookup bit for bit with the sqrt(D) scale too', async () => {
    const r = await call(2, 'table', { ...base, V: 100, D: 64, scale: true, tok: 77 });
    assert.equal(r.result.scaleFactor, 8);
    assert.equal(r.result.identical, true);
    assert.equal(r.result.maxAbsDiff, 0);
  });

  it('another seed gives another checksum; the same seed the same', async () => {
    const a = (await call(3, 'table', base)).result.checksum;
    const b = (await call(4, 'table', { ...base, seed: 7 })).result.checksum;
    const c = (await call(5, 'table', base)).result.checksum;
    assert.notEqual(a, b);
    assert.equal(a, c);
  });

  it('padding_idx rows are zero', async () => {
    const r = await call(6, 'table', { ...base, pad: 2 });
    assert.deepEqual([...r.result.row], [0, 0, 0]);
    assert.equal(r.result.paddingIdx, 2);
  });

  it('max_norm: the lookup returns torch\'s rescaled row and rescales the stored row in place (reference seed 3, 4 x 8, max_norm 1)', async () => {
    const ref = JSON.parse(fs.readFileSync(new URL('../reference/embedding_options_torch.json', import.meta.url), 'utf8'))
      .cases.find((c) => c.seed === 3 && c.max_norm === 1 && c.padding_idx === null && !c.scale);
    const out = ref.output;
    const plain = (await call(20, 'table', { ...base, seed: 3, V: 4, D: 8, tok: 1 })).result;
    const r = (await call(21, 'table', { ...base, seed: 3, V: 4, D: 8, tok: 1, maxNorm: 1 })).result;
    // tolerance 1e-5, as tests/test_embedding.cpp (the renorm factor's norm is summed in another order than torch's)
    const diff = Math.max(...[...r.row].map((v, d) => Math.abs(v - out[d])));
    assert.ok(diff < 1e-5, `the lookup differs from torch's row by ${diff}`);
    assert.ok(r.rowNorm.before > 1 && Math.abs(r.rowNorm.after - 1) < 1e-6, JSON.stringify(r.rowNorm));
    assert.deepEqual([...r.grid.data.slice(8, 16)], [...r.row], 'the drawn table holds the rescaled row');
    assert.notEqual(r.checksum, plain.checksum);
    assert.equal(r.identical, true, 'one-hot x W reads the rescaled row');
    const bad = await call(22, 'table', { ...base, maxNorm: -1 }, { maxNorm: 'maxn' });
    assert.equal(bad.ok, false);
    assert.match(bad.message, /max_?norm/i);
  });

  it('a large table is downsampled to at most 600 x 512 drawn cells', async () => {
    const r = await call(7, 'table', { ...base, V: 5000, D: 700, tok: 4999 });
    assert.equal(r.result.grid.rows, 600);
    assert.equal(r.result.grid.cols, 512);
    assert.equal(r.result.grid.rowIndex[599], 4999);
    const a = r.result.around; // every row near the picked token, exact
    assert.equal(a.rowOffset, 4952);
    assert.equal(a.rows, 48);
    assert.equal(a.rowIndex[47], 4999);
    for (let j = 0; j < 512; j += 37) assert.equal(a.data[47 * 512 + j], r.result.row[a.colIndex[j]]);
  });

  it('a table that fits needs no extra window', async () => {
    assert.equal((await call(12, 'table', base)).result.around, null);
  });

  it('bad settings reply with the engine message', async () => {
    assert.match((await call(8, 'table', { ...base, D: 0 })).message, /^Embedding: embeddingDim 0/);
    assert.equal((await call(9, 'table', { ...base, tok: 6 })).message, 'lookup: token id 6 out of range [0, 6)');
  });

  it('sizes: the engine refuses what it cannot hold, the page budget what it would copy; both name V and D', async () => {
    // 2e9 x 1000 x 4 bytes = 8e12 = 7.3 TiB
    assert.deepEqual(await call(10, 'table', { ...base, V: 2000000000, D: 1000 }), {
      id: 10, ok: false, message: 'Embedding: table 2000000000 x 1000 float32 need 7.3 TiB; the limit here is 2.0 GiB', fields: ['V', 'D', 'pad'],
    });
    assert.deepEqual(await call(11, 'table', { ...base, V: 200000, D: 1024 }), {
      id: 11, ok: false, fields: ['V', 'D'],
      message: 'Embedding: table 200000 x 1024 float32 need 781.3 MiB; this page draws at most 256.0 MiB (the engine allows buffers up to 2.0 GiB; use the CLI for bigger ones)',
    });
    assert.deepEqual((await call(13, 'table', { ...base, D: 0 })).fields, ['V', 'D', 'pad']);
    assert.deepEqual((await call(14, 'table', { ...base, tok: 6 })).fields, ['tok']);
    assert.deepEqual((await call(15, 'table', { ...base, seed: -1 })).fields, ['seed']);
    assert.equal((await call(16, 'table', base)).ok, true, 'the module keeps working');
  });
});

describe('positions handler', () => {
  it('returns three encodings with similarities; sinusoidal and RoPE depend only on distance', async () => {
    const r = await call(20, 'positions', { seed: 123, T: 16, D: 8, sim: 'cos' });
    assert.equal(r.ok, true, r.message);
    assert.deepEqual(r.result.kinds.map((k) => k.name), ['sinusoidal', 'learned', 'rope']);
    const [sin, learned, rope] = r.result.kinds;
    assert.equal(sin.table.data[1 * 8 + 0], Math.fround(Math.sin(1)));
    assert.ok(sin.toeplitz < 1e-5 && rope.toeplitz < 1e-5, `${sin.toeplitz} ${rope.toeplitz}`);
    assert.ok(learned.toeplitz > 0.1);
    for (const k of r.result.kinds) assert.equal(k.similarity.rows, 16);
  });

  it('params: RoPE and the bias kinds are drawn with the given values (rope.base, t5.num_buckets), the defaults otherwise', async () => {
    const M = await loadEngine();
    const plain = (await call(26, 'positions', { seed: 1, T: 8, D: 4, sim: 'cos' })).result.kinds[2];
    const r = (await call(27, 'positions', { seed: 1, T: 8, D: 4, sim: 'cos', params: { rope: { base: 500 } } })).result;
    const rope = r.kinds[2];
    assert.deepEqual(rope.params, { base: 500 });
    assert.deepEqual(plain.params, { base: 10000 });
    assert.deepEqual(Array.from(rope.table.data), Array.from(M.positionTable('rope', { positions: 8, dim: 4, params: { base: 500 } }).data));
    assert.notDeepEqual(Array.from(rope.table.data), Array.from(plain.table.data));
    assert.deepEqual(Array.from(plain.table.data), Array.from(M.ropeTable(8, 4)));
    const b = (await call(28, 'biases', { seed: 2, params: { t5: { num_buckets: 4 } } })).result;
    const t5 = b.kinds.find((k) => k.name === 't5');
    assert.deepEqual(t5.params, { num_buckets: 4, max_distance: 128 });
    const want = M.positionTable('t5', { positions: 32, heads: 8, seed: 2, params: { num_buckets: 4, max_distance: 128 } }).data;
    assert.deepEqual(Array.from(t5.data), Array.from(want));
    const d = (await call(29, 'biases', { seed: 2 })).result.kinds.find((k) => k.name === 't5');
    assert.notDeepEqual(Array.from(d.data), Array.from(t5.data));
  });

  it('the sqrt(D) demonstration: lengths ~ sqrt(D), D, 1, sqrt(D) against sqrt(D/2) for positions', async () => {
    const r = (await call(22, 'scaleDemo', { seed: 1, D: 64 })).result;
    const med = (a) => Float32Array.from(a).sort()[a.length >> 1];
    const m = Object.fromEntries(r.groups.map((g) => [g.key, med(g.lengths)]));
    assert.ok(Math.abs(r.peLength - Math.sqrt(32)) < 1e-5);
    assert.ok(Math.abs(m.normal - 8) < 0.3 && Math.abs(m.normalScaled - 64) < 2.5 && Math.abs(m.small - 1) < 0.04, JSON.stringify(m));
    assert.ok(Math.abs(m.smallScaled - m.normal) < 1e-4);
  });

  it('an odd width fails with the engine message, on the width field (pd)', async () => {
    const r = await call(21, 'positions', { seed: 1, T: 4, D: 3, sim: 'dot' }, { D: 'pd' });
    assert.equal(r.ok, false);
    assert.equal(r.message, 'sinusoidal: dim must be even, got 3');
    assert.deepEqual(r.fields, ['T', 'pd']);
    assert.equal(failedField(r, POSITION_KEYS, null), 'pd');
  });

  it('#view=positions&T=65536: the engine refuses the 65536 x 65536 similarity, named on T; T=64 then works', async () => {
    const r = await call(23, 'positions', { seed: 123, T: 65536, D: 64, sim: 'cos', maxSide: 384 }, { D: 'pd' });
    assert.equal(r.ok, false);
    assert.match(r.message, /65536 x 65536 float32 need 16\.0 GiB; the limit here is 2\.0 GiB$/);
    assert.equal(r.fields[0], 'T');
    assert.equal(failedField(r, POSITION_KEYS, null), 'T');
    const ok = await call(24, 'positions', { seed: 123, T: 64, D: 64, sim: 'cos', maxSide: 384 }, { D: 'pd' });
    assert.equal(ok.ok, true, ok.message);
    assert.equal(ok.result.kinds[0].similarity.rows, 64);
  });

  it('a similarity the engine would hold but the page would copy (10000 x 10000) is refused by the page budget, on T', async () => {
    const r = await call(25, 'positions', { seed: 1, T: 10000, D: 8, sim: 'cos' }, { D: 'pd' });
    assert.deepEqual(r, {
      id: 25, ok: false, fields: ['T'],
      message: 'positions: similarity matrix 10000 x 10000 float32 need 381.5 MiB; this page draws at most 256.0 MiB (the engine allows buffers up to 2.0 GiB; use the CLI for bigger ones)',
    });
  });

  it('the sqrt(D) demonstration refuses a width the page cannot copy, on the table width D', async () => {
    const r = await call(26, 'scaleDemo', { seed: 1, D: 100000 });
    assert.equal(r.message, 'scale demo: token table 2000 x 100000 float32 need 762.9 MiB; this page draws at most 256.0 MiB (the engine allows buffers up to 2.0 GiB; use the CLI for bigger ones)');
    assert.deepEqual(r.fields, ['D']);
    assert.equal(failedField(r, TABLE_KEYS, null), 'D');
  });

  it('the sqrt(D) demonstration at an odd table width (the default D = 3) measures a sinusoidal row of width D + 1', async () => {
    const r = await call(27, 'scaleDemo', { seed: 1, D: 3 });
    assert.equal(r.ok, true, r.message);
    assert.equal(r.result.D, 3);
    assert.equal(r.result.peD, 4);
    assert.ok(Math.abs(r.result.peLength - Math.sqrt(2)) < 1e-5, String(r.result.peLength));
    for (const g of r.result.groups) assert.equal(g.lengths.length, 2000);
  });
});

describe('text pipeline handlers', async () => {
  const fs = await import('node:fs');
  const path = await import('node:path');
  const { repoRoot } = await import('./load-engine.mjs');
  const { makeTextPipeline } = await import('../../web/src/handlers/text-handler.js');
  const { makeTrainHandlers } = await import('../../web/src/handlers/train-handler.js');
  const { makeCompareHandlers } = await import('../../web/src/handlers/compare-handler.js');
  const { getEncoding } = await import('js-tiktoken');
  const read = async (name) => fs.readFileSync(path.join(repoRoot, 'web', 'corpora', `${name}.txt`), 'utf8');
  let T;
  let train;
  before(async () => {
    const M = await loadEngine();
    const text = makeTextPipeline(M, read);
    T = makeDispatcher({ ...text.handlers, ...makeTrainHandlers(M, text.ensureTokens), ...makeCompareHandlers(M, text.ensureTokens) });
  });
  const verdict = { corpus: 'the-verdict', enc: 'gpt2', lower: false, bpeV: 300 };

  it('tokenizes the-verdict into the same GPT-2 ids as js-tiktoken and counts them', async () => {
    const ref = getEncoding('gpt2').encode(await read('the-verdict'));
    const r = (await T({ id: 1, type: 'tokenize', payload: verdict })).result;
    assert.equal(r.tokens, ref.length);
    assert.equal(r.distinct, new Set(ref).size);
    assert.equal(r.vocabSize, 50257);
    const s = (await T({ id: 2, type: 'tokenSlice', payload: { start: 0, count: 4 } })).result;
    assert.deepEqual([...s.ids], ref.slice(0, 4));
    assert.deepEqual(s.strings, ['I', ' H', 'AD', ' always']);
    assert.deepEqual([...s.bytes.subarray(s.offsets[1], s.offsets[2])], [0x20, 0x48]);
  });

  it('windows reproduce the seed notebook: L=4, stride 4, batch 4 -> 1286 samples, 321 batches, 5136 inputs', async () => {
    const r = (await T({ id: 3, type: 'windows', payload: { L: 4, stride: 4, B: 4, first: 0, count: 2 } })).result;
    assert.deepEqual([r.numSamples, r.numBatches, r.inputTokens], [1286, 321, 5136]);
    assert.deepEqual([...r.windows[1].inputs], [1807, 3619, 402, 271]);
    assert.deepEqual([...r.windows[1].targets], [3619, 402, 271, 10899]);
  });

  it('custom text replaces the corpus; no custom text yet is a clear error', async () => {
    assert.equal((await T({ id: 4, type: 'tokenize', payload: { ...verdict, corpus: 'custom' } })).message, 'text: no custom text yet; paste or upload some first');
    await T({ id: 5, type: 'setText', payload: { text: 'Hello world' } });
    const r = (await T({ id: 6, type: 'tokenize', payload: { ...verdict, corpus: 'custom' } })).result;
    assert.equal(r.tokens, 2);
  });

  it('a character-level next-token run learns, and the same seed repeats the same losses', async () => {
    const p = { ...verdict, enc: 'char', model: 'next', pos: 'learned', tD: 16, ctx: 16, tB: 8, opt: 'adam', lr: 0.01, alpha: 0.025, win: 5, minc: 2, ep: 5, seed: 5 };
    const run = async (id) => {
      const start = await T({ id, type: 'trainStart', payload: p });
      assert.equal(start.ok, true, start.message);
      const pts = [];
      while (pts.length < 150) pts.push(...(await T({ id: id + 1, type: 'trainStep', payload: { budgetMs: 1000, maxSteps: 150 - pts.length } })).result.points);
      return pts.map((q) => q[1]);
    };
    const a = await run(10);
    const b = await run(20);
    assert.deepEqual(a, b);
    const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
    assert.ok(mean(a.slice(-20)) < mean(a.slice(0, 5)) - 1, `${mean(a.slice(0, 5))} -> ${mean(a.slice(-20))}`);
  });

  it('neighbours come from the engine and match a cosine computed here; frozen axes project a later table on the earlier table\'s axes, not on its own', async () => {
    const p = { ...verdict, enc: 'whitespace', lower: true, model: 'skipgram', pos: 'none', tD: 16, ctx: 8, tB: 2, opt: 'adam', lr: 0.01, alpha: 0.025, win: 5, minc: 2, ep: 5, seed: 3 };
    const start = (await T({ id: 40, type: 'trainStart', payload: p })).result;
    assert.equal(start.rowLabels[0], 'the');
    assert.equal(start.map.points.length, start.rows * 2);
    const table = async (id) => (await T({ id, type: 'trainExport', payload: {} })).result.vectors.trimEnd().split('\n').map((l) => l.split('\t').map(Number));
    // snapshot A (the initial table) freezes the axes; training then changes the table to B
    const A = await table(47);
    const frozen = (await T({ id: 45, type: 'trainFreeze', payload: { on: true } })).result;
    assert.equal(frozen.frozen, true);
    let last;
    while (!(last = (await T({ id: 41, type: 'trainStep', payload: { budgetMs: 1000 } })).result).stats.finished);
    const B = await table(48);
    assert.equal(last.map.frozen, true); // the finished step always carries the map
    // the expectation, computed here: A's mean and top-2 principal axes (Jacobi on A's covariance),
    // B projected on them as (B - mean_A) . axis_A; each axis up to one sign, set by A's own points
    const { mean, axes } = topAxes(A, 2);
    const onAxes = (X) => X.map((r) => axes.map((ax) => r.reduce((s, x, d) => s + (x - mean[d]) * ax[d], 0)));
    const eA = onAxes(A), eB = onAxes(B);
    const sign = [0, 1].map((c) => Math.sign(eA.reduce((s, q, i) => s + q[c] * frozen.points[2 * i + c], 0)));
    const worst = (pts, e) => Math.max(...e.flatMap((q, i) => [0, 1].map((c) => Math.abs(pts[2 * i + c] - sign[c] * q[c]))));
    const spread = Math.max(...eB.flat().map(Math.abs));
    assert.ok(worst(frozen.points, eA) < 1e-4 * Math.max(...eA.flat().map(Math.abs)), `A on its axes: off by ${worst(frozen.points, eA)}`);
    assert.ok(worst(last.map.points, eB) < 1e-4 * spread, `B on A's axes: off by ${worst(last.map.points, eB)} (spread ${spread})`);
    // and that is not B's own PCA: refitting (unfreezing) draws another picture
    const own = (await T({ id: 49, type: 'trainFreeze', payload: { on: false } })).result;
    assert.equal(own.frozen, false);
    const moved = Math.max(...Array.from(own.points, (v, i) => Math.abs(Math.abs(v) - Math.abs(last.map.points[i]))));
    assert.ok(moved > 0.05 * spread, `B's own PCA equals its projection on A's axes (largest difference ${moved})`);
    const nn = (await T({ id: 42, type: 'trainNeighbours', payload: { query: 'The', k: 3 } })).result;
    assert.equal(nn.query, '"the"');
    assert.equal(nn.neighbours.length, 3);
    const { vectors } = (await T({ id: 43, type: 'trainExport', payload: {} })).result;
    const rows = vectors.trimEnd().split('\n').map((l) => l.split('\t').map(Number));
    const cos = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0) / Math.hypot(...a) / Math.hypot(...b);
    for (const n of nn.neighbours) assert.ok(Math.abs(cos(rows[0], rows[n.row]) - n.cosine) < 1e-5, `${n.label}`);
    assert.ok(nn.neighbours[0].cosine >= nn.neighbours[1].cosine);
    const bad = await T({ id: 44, type: 'trainNeighbours', payload: { query: 'zzzqqq' } });
    assert.match(bad.message, /^neighbours: "zzzqqq" is not a token of this table \(\d+ rows\)$/);
  });

  it('long windows reach the page as their first 64 ids (max_length 5000 on 5,145 tokens)', async () => {
    await T({ id: 55, type: 'tokenize', payload: verdict });
    const r = (await T({ id: 56, type: 'windows', payload: { L: 5000, stride: 1, B: 4, first: 0, count: 1000 } })).result;
    assert.equal(r.numSamples, 5145 - 5000); // floor((N - L - 1) / stride) + 1
    assert.equal(r.windows.length, 64);
    assert.equal(r.windows[0].inputs.length, 64);
    assert.deepEqual([...r.windows[1].inputs.slice(0, 3)], [367, 2885, 1464]);
    assert.deepEqual([...r.windows[1].targets.slice(0, 2)], [2885, 1464]);
  });

  it('failures name their fields: stride 0, a BPE vocabulary below 256, an unknown corpus', async () => {
    await T({ id: 50, type: 'tokenize', payload: verdict });
    const w = await T({ id: 51, type: 'windows', payload: { L: 4, stride: 0, B: 4 } });
    assert.equal(w.message, 'windows: stride must be >= 1, got 0');
    assert.deepEqual(w.fields, ['L', 'stride', 'B']);
    assert.equal(failedField(w, ['corpus', 'enc', 'lower', 'bpeV', 'L', 'stride', 'B'], 'L'), 'stride');
    const b = await T({ id: 52, type: 'bpeReset', payload: { corpus: 'the-verdict', bpeV: 100, seed: 1 } });
    assert.deepEqual(b.fields, ['bpeV', 'corpus']);
    assert.equal(failedField(b, ['corpus', 'bpeV', 'seed'], null), 'bpeV');
    const c = await T({ id: 53, type: 'tokenize', payload: { ...verdict, corpus: 'nope' } });
    assert.deepEqual(c.fields, ['corpus']);
  });

  it('a next-token run too big for the engine fails with its message on the context field; a small run then works', async () => {
    const p = { ...verdict, enc: 'char', model: 'next', pos: 'learned', tD: 8, ctx: 4096, tB: 256, opt: 'adam', lr: 0.01, alpha: 0.025, win: 5, minc: 2, ep: 5, seed: 1 };
    const r = await T({ id: 60, type: 'trainStart', payload: p });
    assert.equal(r.ok, false);
    assert.match(r.message, /need [\d.]+ [KMGTPE]iB; the limit here is [\d.]+ [KMGT]iB$/);
    assert.equal(r.fields[0], 'ctx');
    assert.equal(failedField(r, TRAIN_KEYS, null), 'ctx');
    const ok = await T({ id: 61, type: 'trainStart', payload: { ...p, ctx: 8, tB: 4 } });
    assert.equal(ok.ok, true, ok.message);
  });

  it('compare refuses a step count it would have to keep in JS, on the compare field', async () => {
    const p = { ...verdict, enc: 'char', model: 'next', pos: 'learned', tD: 8, ctx: 8, tB: 4, opt: 'adam', lr: 0.01, alpha: 0.025, win: 5, minc: 2, ep: 5, seed: 1 };
    for (const steps of [1e9, 0, 2.5]) {
      const r = await T(makeRequest(62, 'compareStart', { ...p, steps, kinds: ['none'] }, { steps: 'cmp' }));
      assert.deepEqual(r, { id: 62, ok: false, message: `compare: steps ${steps} out of range [1, 100000]`, fields: ['cmp'] });
    }
    const ok = await T(makeRequest(63, 'compareStart', { ...p, steps: 3, kinds: ['none'] }, { steps: 'cmp' }));
    assert.equal(ok.ok, true, ok.message);
    const step = await T(makeRequest(64, 'compareStep', { budgetMs: 1000 }));
    assert.equal(step.result.points.length, 3);
    assert.equal(step.result.finished, true);
  });

  it('GPT-2 ids train on a remapped table with one row per distinct id', async () => {
    const r = (await T({ id: 30, type: 'trainStart', payload: { ...verdict, model: 'next', pos: 'rope', tD: 8, ctx: 8, tB: 2, opt: 'sgd', lr: 0.1, alpha: 0.025, win: 5, minc: 2, ep: 5, seed: 1 } })).result;
    assert.equal(r.rows, new Set(getEncoding('gpt2').encode(await read('the-verdict'))).size);
    assert.equal(r.remapped, r.rows);
    assert.equal(r.labels[0], 'id 0 "!"');
  });

  // several widgets share one worker (web/src/element.js): each has its own slot
  it('runs by slot: two slots train their own tables; a slot without a run says so; trainDrop frees it', async () => {
    const p = { ...verdict, enc: 'char', model: 'next', pos: 'learned', tD: 8, ctx: 8, tB: 4, opt: 'adam', lr: 0.01, alpha: 0.025, win: 5, minc: 2, ep: 5 };
    const a0 = (await T({ id: 60, type: 'trainStart', payload: { ...p, seed: 1, slot: 'a' } })).result;
    const b0 = (await T({ id: 61, type: 'trainStart', payload: { ...p, seed: 2, slot: 'b' } })).result;
    assert.notEqual(a0.checksum, b0.checksum);
    const a1 = (await T({ id: 62, type: 'trainStep', payload: { budgetMs: 1000, maxSteps: 5, slot: 'a' } })).result;
    assert.equal(a1.stats.totalSteps, 5);
    assert.notEqual(a1.checksum, a0.checksum);
    // b is still at step 0 with its own table: its first step starts from b0, not from a's run
    const b1 = (await T({ id: 63, type: 'trainStep', payload: { budgetMs: 1000, maxSteps: 1, slot: 'b' } })).result;
    assert.equal(b1.stats.totalSteps, 1);
    const b1again = await (async () => {
      await T({ id: 64, type: 'trainStart', payload: { ...p, seed: 2, slot: 'c' } });
      return (await T({ id: 65, type: 'trainStep', payload: { budgetMs: 1000, maxSteps: 1, slot: 'c' } })).result;
    })();
    assert.equal(b1.checksum, b1again.checksum);
    assert.equal((await T({ id: 66, type: 'trainStep', payload: { maxSteps: 1, slot: 'nobody' } })).message, 'train: start a run first');
    assert.deepEqual((await T({ id: 67, type: 'trainDrop', payload: { slot: 'c' } })).result, { dropped: true });
    assert.equal((await T({ id: 68, type: 'trainStep', payload: { maxSteps: 1, slot: 'c' } })).message, 'train: start a run first');
    for (const slot of ['a', 'b']) await T({ id: 69, type: 'trainDrop', payload: { slot } });
  });

  it('a slice or windows request that names its text settings reads those tokens, whatever was tokenized last', async () => {
    const chars = { ...verdict, enc: 'char' };
    await T({ id: 70, type: 'tokenize', payload: chars });
    const s = (await T({ id: 71, type: 'tokenSlice', payload: { start: 0, count: 2, ...verdict } })).result;
    assert.deepEqual(s.strings, ['I', ' H']);
    await T({ id: 72, type: 'tokenize', payload: chars });
    const w = (await T({ id: 73, type: 'windows', payload: { L: 4, stride: 4, B: 4, first: 1, count: 1, ...verdict } })).result;
    assert.deepEqual([...w.windows[0].inputs], [1807, 3619, 402, 271]);
    const plain = (await T({ id: 74, type: 'tokenSlice', payload: { start: 0, count: 2 } })).result;
    assert.deepEqual(plain.strings, ['I', ' H'], 'without settings: the last tokenized ids (here the GPT-2 ones the windows asked for)');
  });
});

// The top k principal axes of rows X (n, D) and their mean: cyclic Jacobi on the covariance, in
// double (an expectation computed apart from the engine's PCA).
function topAxes(X, k) {
  const n = X.length, D = X[0].length;
  const mean = Array.from({ length: D }, (_, d) => X.reduce((s, r) => s + r[d], 0) / n);
  const A = Array.from({ length: D }, (_, a) => Array.from({ length: D }, (_, b) => X.reduce((s, r) => s + (r[a] - mean[a]) * (r[b] - mean[b]), 0) / (n - 1)));
  const V = Array.from({ length: D }, (_, a) => Array.from({ length: D }, (_, b) => (a === b ? 1 : 0)));
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < D; p++) for (let q = p + 1; q < D; q++) off += A[p][q] ** 2;
    if (off < 1e-24) break;
    for (let p = 0; p < D; p++) {
      for (let q = p + 1; q < D; q++) {
        if (A[p][q] === 0) continue;
        const theta = (A[q][q] - A[p][p]) / (2 * A[p][q]);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1), sn = t * c;
        for (let r = 0; r < D; r++) [A[r][p], A[r][q]] = [c * A[r][p] - sn * A[r][q], sn * A[r][p] + c * A[r][q]];
        for (let r = 0; r < D; r++) [A[p][r], A[q][r]] = [c * A[p][r] - sn * A[q][r], sn * A[p][r] + c * A[q][r]];
        for (let r = 0; r < D; r++) [V[r][p], V[r][q]] = [c * V[r][p] - sn * V[r][q], sn * V[r][p] + c * V[r][q]];
      }
    }
  }
  const order = [...Array(D).keys()].sort((a, b) => A[b][b] - A[a][a]);
  return { mean, axes: order.slice(0, k).map((j) => V.map((row) => row[j])) };
}
