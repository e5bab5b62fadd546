// Lean training frames (issue 24), on the page's worker code over the wasm module in Node
// (page-worker.mjs): a trainStep or trainFrame carries only the parts the page shows (`show`:
// table, positions, map; all of them when absent, as before), copies the input table out of wasm
// once per reply, and computes the learned position similarity on the drawn positions only
// (at most 256 of T), with the engine's numbers for every drawn entry. Counts engine calls by
// wrapping them; asserts no duration.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadEngine, repoRoot } from './load-engine.mjs';
import { pageWorker } from './page-worker.mjs';
import { bitsEqual, strideSample } from '../../web/src/arrays.js';
import { FRAME_PARTS, POSITIONS_SIDE, frameParts } from '../../web/src/handlers/train-frame.js';

const TEXT = fs.readFileSync(path.join(repoRoot, 'web/corpora/the-verdict.txt'), 'utf8').slice(0, 12000);
const RUN = { corpus: 'custom', enc: 'char', lower: false, bpeV: 300, model: 'next', pos: 'learned', tD: 8, ctx: 16, tB: 4, opt: 'adam', lr: 0.01, seed: 3 };

let M;
let calls; // engine calls seen since the last reset: {table: {input, position}, similarity: [positions...]}
const restore = [];
before(async () => {
  M = await loadEngine();
  count();
  // count what leaves wasm: Trainer.table copies a whole table; positionSimilarity computes (k, k)
  const table = M.Trainer.prototype.table;
  M.Trainer.prototype.table = function (name) {
    const n = name ?? 'input';
    calls.table[n] = (calls.table[n] || 0) + 1;
    const t = table.call(this, name);
    if (n === 'position') calls.positionTable = { rows: t.rows, cols: t.cols, data: t.data.slice() };
    return t;
  };
  const sim = M.positionSimilarity;
  M.positionSimilarity = (t, positions, ...rest) => {
    calls.similarity.push(positions);
    return sim(t, positions, ...rest);
  };
  restore.push(() => (M.Trainer.prototype.table = table), () => (M.positionSimilarity = sim));
});
after(() => restore.forEach((f) => f()));
const count = () => (calls = { table: {}, similarity: [], positionTable: null });

async function started(extra = {}) {
  const w = pageWorker(M);
  await w.call('setText', { text: TEXT });
  const start = await w.call('trainStart', { ...RUN, ...extra });
  return { w, start };
}

describe('train-frame.js: what a training reply carries', () => {
  it('show names the parts; an unknown part is an error naming it and the parts', () => {
    assert.deepEqual([...frameParts(undefined)], FRAME_PARTS);
    assert.deepEqual([...frameParts(['map'])], ['map']);
    assert.throws(() => frameParts(['loss']), { message: 'train: show names "loss", expected some of table, positions, map' });
    assert.throws(() => frameParts('map'), { message: 'train: show must be a list of table, positions, map, got "map"' });
  });

  it('a slice without show carries every part, from one copy of the input table', async () => {
    const { w } = await started();
    count();
    const r = await w.call('trainStep', { budgetMs: 1e6, maxSteps: 3 });
    assert.equal(r.stats.totalSteps, 3);
    for (const k of ['table', 'positions', 'map', 'checksum']) assert.ok(r[k], `the reply lacks ${k}`);
    assert.equal(calls.table.input, 1, `the input table left wasm ${calls.table.input} times in one slice`);
    assert.equal(calls.table.position, 1);
  });

  it('a slice for hidden plots carries none of their parts and copies no position table', async () => {
    const { w } = await started();
    count();
    const r = await w.call('trainStep', { budgetMs: 1e6, maxSteps: 3, show: [] });
    assert.equal(r.stats.totalSteps, 3);
    assert.equal(r.points.length, 3); // the loss curve and the fingerprint always come
    assert.match(r.checksum, /^[0-9a-f]{8}$/);
    for (const k of ['table', 'positions', 'map']) assert.equal(r[k], undefined, `a hidden ${k} was sent`);
    assert.deepEqual(calls, { table: { input: 1 }, similarity: [], positionTable: null });
    const t = await w.call('trainStep', { budgetMs: 1e6, maxSteps: 1, show: ['table'] });
    assert.ok(t.table && t.positions === undefined && t.map === undefined);
  });

  it('a map shown again is due at once, whatever the 250 ms rhythm', async () => {
    const { w } = await started();
    await w.call('trainStep', { budgetMs: 1e6, maxSteps: 1, show: ['map'] }); // a map now: the next is 250 ms away
    await w.call('trainStep', { budgetMs: 1e6, maxSteps: 1, show: [] });
    const r = await w.call('trainStep', { budgetMs: 1e6, maxSteps: 1, show: ['map'] });
    assert.ok(r.map && r.map.points, 'the map shown again waited for its next update');
  });

  it('trainFrame catches a plot up without a step: the parts of the run as it is now', async () => {
    const { w } = await started();
    const s = await w.call('trainStep', { budgetMs: 1e6, maxSteps: 4, show: [] });
    count();
    const f = await w.call('trainFrame', { show: ['table', 'positions', 'map'] });
    assert.equal(f.step, 4);
    assert.equal(f.checksum, s.checksum);
    assert.equal(calls.table.input, 1);
    const full = await w.call('trainStep', { budgetMs: 1e6, maxSteps: 1 }); // one more step: another table
    assert.notEqual(full.checksum, f.checksum);
    assert.ok(f.table && f.positions && f.map.points);
    const only = await w.call('trainFrame', { show: ['positions'] });
    assert.deepEqual(Object.keys(only).sort(), ['checksum', 'positions', 'step']);
  });

  it('the learned position similarity is computed at the drawn size (256 of T = 600), with the full matrix\'s numbers', async () => {
    const { w, start } = await started({ ctx: 600, tB: 1 });
    assert.equal(start.positions.rows, POSITIONS_SIDE);
    count();
    const r = await w.call('trainStep', { budgetMs: 1e6, maxSteps: 1, show: ['positions'] });
    assert.deepEqual(calls.similarity, [POSITIONS_SIDE], 'the similarity was not computed on the drawn positions only');
    const g = r.positions;
    assert.deepEqual([g.rows, g.cols, g.totalRows, g.totalCols, g.sampled], [256, 256, 600, 600, true]);
    // the slice's own position table (the copy it took), its full 600 x 600 similarity, sampled as the page drew it before
    const P = calls.positionTable;
    assert.deepEqual([P.rows, P.cols], [600, 8]);
    const want = strideSample(M.positionSimilarity(P.data, 600, 8, { cosine: true }), 600, 600, 256, 256);
    assert.ok(bitsEqual(g.data, want.data), 'the drawn entries differ from the full similarity\'s');
    assert.deepEqual(Array.from(g.rowIndex), Array.from(want.rowIndex));
  });
});
