// "Compare positional encodings" in the worker (web/src/handlers/compare-handler.js), run in Node
// on the wasm module: on the page's defaults (characters of Tiny Shakespeare, 600 steps) every
// kind beats chance and "none" is clearly worst; length extrapolation evaluates each kind at
// T, 2T, 4T and 8T, before and after a fine-tune at 2T, and a kind with one row per position
// says why it cannot run past T (the engine's refusal of its fine-tune).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadEngine, repoRoot } from './load-engine.mjs';
import { makeDispatcher, makeRequest } from '../../web/src/protocol.js';
import { makeTextPipeline } from '../../web/src/handlers/text-handler.js';
import { makeCompareHandlers } from '../../web/src/handlers/compare-handler.js';
import { DEFAULTS, setPositionalKinds } from '../../web/src/state.js';
import { comparePayload } from '../../web/src/views/compare-view.js';

const read = async (name) => fs.readFileSync(path.join(repoRoot, 'web', 'corpora', `${name}.txt`), 'utf8');
let M;
let call;
let kinds;
before(async () => {
  M = await loadEngine();
  kinds = M.positionalKinds();
  setPositionalKinds(kinds);
  const text = makeTextPipeline(M, read);
  const d = makeDispatcher({ ...text.handlers, ...makeCompareHandlers(M, text.ensureTokens) });
  let id = 0;
  call = async (type, payload) => {
    const r = await d(makeRequest(++id, type, payload));
    if (!r.ok) throw new Error(r.message);
    return r.result;
  };
});

// Runs a whole comparison the way the page does: start, then steps until finished.
async function compare(payload) {
  const start = await call('compareStart', payload);
  const results = {};
  for (;;) {
    const r = await call('compareStep', { budgetMs: 1000 });
    if (r.done) results[r.kind] = r.result;
    if (r.finished) break;
  }
  return { start, results };
}

describe('compare on the page defaults', () => {
  it('every kind beats chance (ln V) and none is clearly worst; extrapolation at T, 2T, 4T, 8T before and after a fine-tune at 2T', async () => {
    const p = comparePayload({ ...DEFAULTS, model: 'next' });
    assert.equal(p.enc, 'char');
    assert.equal(p.corpus, 'tinyshakespeare');
    assert.equal(p.steps, 600);
    const { start, results } = await compare(p);
    assert.deepEqual(start.kinds, kinds.map((k) => k.name));
    assert.deepEqual(start.lengths, [p.ctx, 2 * p.ctx, 4 * p.ctx, 8 * p.ctx]);
    assert.deepEqual(start.finetune, { steps: 100, context: 2 * p.ctx });
    const held = Object.fromEntries(start.kinds.map((k) => [k, results[k].heldOut]));
    console.log(`     held-out at T: ${JSON.stringify(Object.fromEntries(Object.entries(held).map(([k, v]) => [k, +v.toFixed(3)])))}, chance ${start.chance.toFixed(3)}`);
    for (const [k, v] of Object.entries(held)) assert.ok(v < start.chance - 1, `${k} ${v} does not beat chance ${start.chance}`);
    const others = start.kinds.filter((k) => k !== 'none').map((k) => held[k]);
    assert.ok(held.none > Math.max(...others) + 0.05, `none ${held.none} is not clearly worst: ${others}`);
    for (const k of start.kinds) {
      const kind = kinds.find((x) => x.name === k);
      const by = results[k].byLength;
      assert.deepEqual(by.map((x) => x.length), start.lengths);
      if (kind.extrapolates === false) {
        assert.equal(by[1].loss, null);
        assert.match(by[1].reason, /have no rows beyond T = 32 \(asked for 64\)/);
        assert.equal(results[k].attention.length, p.ctx);
        assert.match(results[k].finetune.refused, /^next-token fine-tune: learned positions have no rows beyond T = 32 \(asked for 64\)/);
      } else {
        for (const x of by) assert.ok(Number.isFinite(x.loss), `${k} at ${x.length}`);
        assert.equal(results[k].attention.length, 8 * p.ctx);
        const ft = results[k].finetune;
        assert.deepEqual(ft.byLength.map((x) => x.length), start.lengths);
        for (const x of ft.byLength) assert.ok(Number.isFinite(x.loss), `${k} after the fine-tune at ${x.length}`);
        assert.equal(ft.heldOut, ft.byLength[0].loss);
        assert.notEqual(ft.byLength[1].loss, by[1].loss, `${k}: the fine-tune changed nothing at 2T`);
        const w = results[k].attention.weights;
        const sum = w.reduce((a, b) => a + b, 0);
        assert.ok(Math.abs(sum - 1) < 1e-4, `${k} attention sums to ${sum}`);
      }
    }
  });

  it('the reader picks the kinds, the factor of the RoPE scalings and the fine-tune steps', async () => {
    const base = { ...comparePayload({ ...DEFAULTS, model: 'next' }), steps: 20 };
    const a = await compare({ ...base, kinds: ['rope-pi', 'alibi'], factor: 4, finetune: 0 });
    assert.deepEqual(a.start.kinds, ['rope-pi', 'alibi']);
    assert.equal(a.start.finetune, null);
    assert.deepEqual(a.results['rope-pi'].params, { base: 10000, factor: 4, original_context: base.ctx });
    assert.deepEqual(a.results.alibi.params, { slope: 0.5 });
    assert.equal(a.results['rope-pi'].finetune, null);
    const b = await compare({ ...base, kinds: ['rope-pi'], factor: 2, finetune: 0 });
    assert.notEqual(b.results['rope-pi'].heldOut, a.results['rope-pi'].heldOut, 'the factor changed nothing');
    // the page's settings carry them: cmpKinds, cmpFactor, cmpFt
    const q = comparePayload({ ...DEFAULTS, cmpKinds: 'rope,rope-yarn', cmpFactor: 8, cmpFt: 7 });
    assert.deepEqual([q.kinds, q.factor, q.finetune], [['rope', 'rope-yarn'], 8, 7]);
    await assert.rejects(call('compareStart', { ...base, kinds: ['rope', 'yarn'] }),
      { message: `compare: 'yarn' is not a positional kind (${kinds.map((k) => k.name).join(', ')})` });
    await assert.rejects(call('compareStart', { ...base, finetune: -1 }), { message: 'compare: finetune -1 out of range [0, 100000]' });
    await assert.rejects(compare({ ...base, kinds: ['rope-ntk'], factor: 0.5 }), /factor 0.5/);
  });

  it('cancel frees the run; a step after it is a clear error', async () => {
    await call('compareStart', { ...comparePayload({ ...DEFAULTS, model: 'next' }), steps: 50, kinds: ['none', 'rope'] });
    await call('compareStep', { budgetMs: 1 });
    assert.deepEqual(await call('compareCancel', {}), { cancelled: true });
    await assert.rejects(call('compareStep', {}), { message: 'compare: start a comparison first' });
  });
});
