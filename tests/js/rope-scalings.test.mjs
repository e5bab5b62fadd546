// The worker's 'ropeScalings' handler (web/src/handlers/rope-scalings-handler.js) driven by the
// real wasm module in Node through the worker's dispatcher: one entry per rotation kind of the
// registry, frequencies and attention scale as M.positionTable gives them, the pair classes the
// card's captions state, q·k from the engine's rotation, and failures on the field at fault.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './load-engine.mjs';
import { makeDispatcher, makeRequest } from '../../web/src/protocol.js';
import { classifyPairs, makeRopeScalingsHandler } from '../../web/src/handlers/rope-scalings-handler.js';

let M;
let dispatch;
let rotation;
before(async () => {
  M = await loadEngine();
  dispatch = makeDispatcher(makeRopeScalingsHandler(M));
  rotation = M.positionalKinds().filter((k) => k.provides === 'rotation');
});
let id = 0;
const call = (payload, fields) => dispatch(makeRequest(++id, 'ropeScalings', payload, fields));
const byName = (r) => Object.fromEntries(r.result.kinds.map((k) => [k.name, k]));

describe('ropeScalings', () => {
  it('has one entry per rotation kind of the registry, in its order, with its frequencies and attention scale', async () => {
    const r = await call({ seed: 5, D: 16, T: 8, params: {} });
    assert.equal(r.ok, true, r.message);
    assert.deepEqual(r.result.kinds.map((k) => k.name), rotation.map((k) => k.name));
    assert.ok(rotation.length >= 5, 'rope and the four scalings');
    assert.deepEqual(r.result.lengths, [8, 16, 32, 64]);
    assert.equal(r.result.distances.length, 64);
    for (const k of r.result.kinds) {
      const t = M.positionTable(k.name, { positions: 1, dim: 16, params: k.params });
      assert.deepEqual(Array.from(k.invFreq), Array.from(t.invFreq), k.name);
      assert.equal(k.attentionScale, t.attentionScale, k.name);
      assert.equal(k.qk.length, 64);
      k.wavelength.forEach((w, i) => assert.equal(w, k.invFreq[i] > 0 ? (2 * Math.PI) / k.invFreq[i] : null, `${k.name} pair ${i}`));
      assert.equal(k.longerThanT, k.wavelength.filter((w) => w !== null && w > 8).length);
    }
  });

  it('classifies the pairs: rope all alone, PI all interpolated, YaRN a ramp between, partial unrotated, NTK between 1 and 1/factor', async () => {
    const r = byName(await call({ seed: 5, D: 64, T: 32, params: { 'rope-yarn': { factor: 4 } } }));
    assert.equal(r.rope.pairs.alone.length, 32);
    assert.equal(r['rope-pi'].pairs.interpolated.length, 32);
    r['rope-pi'].ratio.forEach((v) => assert.ok(Math.abs(v - 0.5) < 1e-12));
    const y = r['rope-yarn'];
    assert.ok(y.pairs.alone.length > 0 && y.pairs.interpolated.length > 0 && y.pairs.ramp.length > 0, JSON.stringify(y.pairs));
    for (const i of y.pairs.ramp) assert.ok(y.ratio[i] > 0.25 && y.ratio[i] < 1, `yarn pair ${i}: ${y.ratio[i]}`);
    assert.ok(Math.max(...y.pairs.alone) < Math.min(...y.pairs.ramp) && Math.max(...y.pairs.ramp) < Math.min(...y.pairs.interpolated));
    assert.equal(y.attentionScale, (0.1 * Math.log(4) + 1) ** 2);
    const part = r['rope-partial'];
    assert.ok(part.pairs.unrotated.length > 0);
    for (const i of part.pairs.unrotated) assert.equal(part.wavelength[i], null);
    const ntk = r['rope-ntk'];
    assert.deepEqual(ntk.pairs.alone, [0]);
    assert.ok(Math.abs(ntk.ratio[31] - 0.5) < 1e-12);
  });

  it("q·k is the engine's rotation with each kind, times its attention scale; at d = 0 it is q·k unrotated", async () => {
    const r = await call({ seed: 9, D: 8, T: 4, params: { 'rope-pi': { factor: 2 } } });
    const pair = (M.manualSeed(9), M.learnedPositions(2, 8));
    const q = pair.subarray(0, 8);
    const k = pair.subarray(8, 16);
    for (const kind of r.result.kinds) {
      const opts = { kind: kind.name, params: kind.params };
      const rk = M.ropeApply(k, 1, 8, 0, opts);
      for (const d of [0, 3, 31]) {
        const rq = M.ropeApply(q, 1, 8, d, opts);
        let s = 0;
        for (let c = 0; c < 8; c++) s += rq[c] * rk[c];
        assert.ok(Math.abs(kind.qk[d] - kind.attentionScale * s) <= 1e-6 * Math.max(1, Math.abs(s)), `${kind.name} d = ${d}`);
      }
      assert.ok(Math.abs(kind.qk[0] - kind.attentionScale * r.result.qkPlain) < 1e-5, kind.name);
    }
    // PI at distance 2d is RoPE at d
    const { rope, 'rope-pi': pi } = byName(r);
    for (const d of [1, 5, 15]) assert.equal(pi.qk[2 * d], rope.qk[d]);
  });

  it("a kind's parameters change its entry only", async () => {
    const a = byName(await call({ seed: 5, D: 16, T: 8, params: {} }));
    const b = byName(await call({ seed: 5, D: 16, T: 8, params: { 'rope-pi': { factor: 4 } } }));
    assert.equal(b['rope-pi'].params.factor, 4);
    assert.notDeepEqual(Array.from(b['rope-pi'].invFreq), Array.from(a['rope-pi'].invFreq));
    assert.deepEqual(Array.from(b['rope-yarn'].qk), Array.from(a['rope-yarn'].qk));
  });

  it('an odd D fails the whole request on D; D = 2 fails rope-ntk alone; a bad factor fails its kind on its field', async () => {
    const odd = await call({ seed: 5, D: 7, T: 8 }, { D: 'pd' });
    assert.equal(odd.ok, false);
    assert.match(odd.message, /dim must be even, got 7/);
    assert.deepEqual(odd.fields, ['pd']);
    const two = byName(await call({ seed: 5, D: 2, T: 8 }));
    assert.match(two['rope-ntk'].error, /rope-ntk: dim must be at least 4/);
    assert.deepEqual(two['rope-ntk'].fields, ['D']);
    for (const k of rotation.filter((x) => x.name !== 'rope-ntk')) assert.equal(two[k.name].error, undefined, k.name);
    const bad = byName(await call({ seed: 5, D: 8, T: 8, params: { 'rope-pi': { factor: 0.5 } } }));
    assert.match(bad['rope-pi'].error, /rope-pi factor 0\.5 must be a number in \[1, 1024\]/);
    assert.deepEqual(bad['rope-pi'].fields, ['rope-pi.factor']);
  });

  it('classifyPairs: 1 alone, 1/factor interpolated, 0 unrotated, the rest on the ramp', () => {
    assert.deepEqual(classifyPairs([1, 0.8, 0.5, 0], 2), { alone: [0], interpolated: [2], ramp: [1], unrotated: [3] });
    assert.deepEqual(classifyPairs([1, 0.5], undefined), { alone: [0], interpolated: [], ramp: [1], unrotated: [] });
  });
});

describe('ropeScalings sizes', () => {
  it('refuses 8T x D past the page budget on T and D, in the budget\'s words, also past the engine\'s limit', async () => {
    const r = await call({ seed: 5, D: 4096, T: 4096 }, { D: 'pd' });
    assert.equal(r.ok, false);
    assert.match(r.message, /^rope scalings: rotated queries 32768 x 4096 float32 need 512\.0 MiB; this page draws at most 256\.0 MiB/);
    assert.deepEqual(r.fields, ['T', 'pd']);
    const huge = await call({ seed: 5, D: 65536, T: 8192 }, { D: 'pd' });
    assert.equal(huge.ok, false);
    assert.match(huge.message, /rope scalings: rotated queries 65536 x 65536 float32 \(8T = 65536 distances\) need 16\.0 GiB/);
  });
});
