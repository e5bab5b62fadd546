// The positional-encoding registry is the one list of kinds: the wasm module's
// M.positionalKinds(), the CLI's `embedlab kinds`, the page's URL values (state.js) and its
// select (views/position-fields.js, checked in the browser by tests/browser/page-train.test.mjs) all
// come from it, and every kind trains through the CLI and the bindings to the same numbers.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEngine, repoRoot } from './load-engine.mjs';
import { DEFAULTS, paramSpec, parseHash, positionParams, serializeHash, setPositionalKinds } from '../../web/src/state.js';

const cli = path.join(repoRoot, 'build/native/embedlab');
let M;
let kinds;
before(async () => {
  M = await loadEngine();
  kinds = M.positionalKinds();
  setPositionalKinds(kinds);
});

describe('M.positionalKinds()', () => {
  it('lists every kind with a description, what it provides and its parameters', () => {
    assert.deepEqual(kinds.map((k) => k.name).slice(0, 5), ['none', 'sinusoidal', 'learned', 'rope', 'alibi']);
    for (const k of kinds) {
      assert.ok(k.description.length > 20, k.name);
      assert.ok(['none', 'additive', 'rotation', 'bias'].includes(k.provides), k.name);
      for (const p of k.params) assert.ok(p.min <= p.default && p.default <= p.max, `${k.name}.${p.name}`);
    }
  });

  it('is the list the CLI prints (`embedlab kinds`)', () => {
    const cliKinds = JSON.parse(execFileSync(cli, ['kinds'], { encoding: 'utf8' })).positional;
    const shape = (k) => ({ name: k.name, label: k.label, description: k.description, provides: k.provides, trainable: k.trainable,
      params: k.params.map((p) => ({ name: p.name, default: p.default, min: p.min, max: p.max, integer: p.integer, help: p.help })) });
    assert.deepEqual(cliKinds.map(shape), kinds.map(shape));
  });
});

describe('the page state takes its encodings from the registry', () => {
  it('the pos values equal M.positionalKinds()', () => {
    assert.deepEqual(paramSpec('pos').values, kinds.map((k) => k.name));
  });

  it('every parameter is a URL key with the engine default and range', () => {
    for (const k of kinds) {
      for (const p of k.params) {
        const spec = paramSpec(`${k.name}.${p.name}`);
        assert.equal(spec.def, p.default);
        assert.equal(DEFAULTS[`${k.name}.${p.name}`], p.default);
        assert.deepEqual([spec.min, spec.max], [p.min, p.max]);
      }
    }
    const { state, ignored } = parseHash('#pos=alibi&alibi.slope=0.125&rope.base=5e13&rope.base=500.5');
    assert.equal(state.pos, 'alibi');
    assert.deepEqual(positionParams(state), { slope: 0.125 });
    assert.deepEqual(ignored.map((i) => i.reason), ['rope.base must be a number in [1, 1000000000000]']);
    assert.equal(state['rope.base'], 500.5);
    assert.equal(serializeHash(state), 'pos=alibi&rope.base=500.5&alibi.slope=0.125');
    assert.deepEqual(parseHash('#pos=spiral').ignored[0].reason, `pos must be one of ${kinds.map((k) => k.name).join(', ')}`);
  });
});

describe('every kind trains the same through the CLI and the bindings', () => {
  it('the held-out loss of a short char run is equal in both builds for every kind', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kinds-'));
    const text = fs.readFileSync(path.join(repoRoot, 'web/corpora/the-verdict.txt'), 'utf8').slice(0, 6000);
    const file = path.join(dir, 'text.txt');
    fs.writeFileSync(file, text);
    const tok = M.Tokenizer.fromCorpus('char', text);
    const ids = tok.encode(text);
    const cut = ids.length - Math.floor(ids.length * 0.1);
    for (const k of kinds) {
      const out = JSON.parse(execFileSync(cli, ['train', '--model', 'next-token', '--encoding', 'char', '--pos', k.name, '--seed', '3',
        '--steps', '20', '--vector-size', '16', '--context', '16', '--batch-size', '4', '--lr', '0.01', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
      const tr = M.Trainer.nextToken(ids.subarray(0, cut), { vocabSize: tok.vocabSize, vectorSize: 16, context: 16, batchSize: 4, pos: k.name, lr: 0.01, seed: 3 });
      const st = tr.step(20);
      assert.equal(st.totalSteps, 20);
      assert.equal(Number(tr.evaluate(ids.subarray(cut)).toPrecision(9)), out.valid_loss, k.name);
      assert.deepEqual(out.settings.pos_params, tr.settings.posParams, k.name);
      tr.delete();
    }
    tok.delete();
    fs.rmSync(dir, { recursive: true });
  });

  it('a parameter of another kind is refused by name in both', () => {
    assert.throws(() => M.Trainer.nextToken([1, 2, 3], { vocabSize: 4, pos: 'rope', alibiSlope: 0.5 }),
      { message: "Trainer.nextToken: alibiSlope applies to pos 'alibi', not 'rope'" });
    assert.throws(() => execFileSync(cli, ['train', '--model', 'next-token', '--encoding', 'char', '--pos', 'rope', '--seed', '1',
      '--alibi-slope', '0.5', path.join(repoRoot, 'web/corpora/the-verdict.txt')], { stdio: 'pipe' }),
      (e) => /--alibi-slope: applies to --pos alibi, not --pos rope/.test(String(e.stderr)));
  });
});

describe('t5: the relative position bias', () => {
  it('is in the registry with its parameters, URL keys and flat options', () => {
    assert.deepEqual(kinds.find((k) => k.name === 't5').params.map((p) => [p.name, p.default, p.min, p.max, p.option]),
      [['num_buckets', 32, 2, 1024, 't5NumBuckets'], ['max_distance', 128, 2, 1048576, 't5MaxDistance']]);
    const { state, ignored } = parseHash('#pos=t5&t5.num_buckets=16&t5.max_distance=4000000');
    assert.deepEqual(positionParams(state), { num_buckets: 16, max_distance: 128 });
    assert.deepEqual(ignored.map((i) => i.reason), ['t5.max_distance must be an integer in [2, 1048576]']);
  });

  it('trains with its own bias table and refuses parameters out of range', () => {
    const ids = Int32Array.from({ length: 300 }, (_, i) => (i * 7) % 11);
    const tr = M.Trainer.nextToken(ids, { vocabSize: 11, vectorSize: 8, context: 12, pos: 't5', t5NumBuckets: 6, t5MaxDistance: 8, seed: 2, lr: 0.01 });
    const t = tr.table('position');
    assert.deepEqual([t.rows, t.cols], [6, 1]);
    const before = Array.from(t.data);
    const a = tr.step(30).loss;
    const b = tr.step(30).loss;
    assert.ok(b < a, `${a} -> ${b}`);
    assert.notDeepEqual(Array.from(tr.table('position').data), before);
    assert.deepEqual(tr.settings.posParams, { num_buckets: 6, max_distance: 8 });
    tr.delete();
    assert.throws(() => M.Trainer.nextToken(ids, { vocabSize: 11, pos: 't5', posParams: { num_buckets: 32, max_distance: 16 } }),
      { message: 't5: max_distance 16 must be greater than num_buckets / 2 = 16' });
    const cliOut = JSON.parse(execFileSync(cli, ['posenc', '--kind', 't5', '--positions', '4', '--dim', '2', '--seed', '1', '--t5-num-buckets', '4', '--t5-max-distance', '3']));
    const js = M.positionTable('t5', { positions: 4, heads: 2, seed: 1, params: { num_buckets: 4, max_distance: 3 } });
    assert.deepEqual(cliOut.shape, js.shape);
    assert.deepEqual(cliOut.data.map((v) => (v === null ? -Infinity : v)), Array.from(js.data, (v) => Number(v.toPrecision(9))));
  });
});

describe('the RoPE scalings: rope-pi, rope-ntk, rope-yarn, rope-partial', () => {
  it('are in the registry with their flat options and URL keys', () => {
    const opts = (name) => kinds.find((k) => k.name === name).params.map((p) => [p.name, p.default, p.option]);
    assert.deepEqual(opts('rope-pi'), [['base', 10000, 'ropePiBase'], ['factor', 2, 'ropePiFactor'], ['original_context', 32, 'ropePiOriginalContext']]);
    assert.deepEqual(opts('rope-ntk').map((p) => p[2]), ['ropeNtkBase', 'ropeNtkFactor', 'ropeNtkOriginalContext']);
    assert.deepEqual(opts('rope-yarn').slice(3), [['beta_fast', 32, 'ropeYarnBetaFast'], ['beta_slow', 1, 'ropeYarnBetaSlow']]);
    assert.deepEqual(opts('rope-partial'), [['base', 10000, 'ropePartialBase'], ['fraction', 0.75, 'ropePartialFraction']]);
    const { state } = parseHash('#pos=rope-yarn&rope-yarn.factor=4.5&rope-yarn.beta_fast=16');
    assert.deepEqual(positionParams(state), { base: 10000, factor: 4.5, original_context: 32, beta_fast: 16, beta_slow: 1 });
  });

  it('posenc prints the table, inv_freq and attention_scale that M.positionTable returns', () => {
    for (const [kind, flags, params] of [
      ['rope-yarn', ['--rope-yarn-factor', '4', '--rope-yarn-original-context', '64'], { factor: 4, original_context: 64 }],
      ['rope-partial', ['--rope-partial-fraction', '0.5', '--base', '100'], { fraction: 0.5, base: 100 }],
      ['rope', [], {}]]) {
      const cliOut = JSON.parse(execFileSync(cli, ['posenc', '--kind', kind, '--positions', '5', '--dim', '8', ...flags], { encoding: 'utf8' }));
      const js = M.positionTable(kind, { positions: 5, dim: 8, params });
      assert.deepEqual(cliOut.shape, js.shape, kind);
      assert.deepEqual(cliOut.data, Array.from(js.data, (v) => Number(v.toPrecision(9))), kind);
      assert.deepEqual(cliOut.inv_freq, Array.from(js.invFreq, (v) => Number(v.toPrecision(9))), kind);
      assert.equal(cliOut.attention_scale, Number(js.attentionScale.toPrecision(9)), kind);
    }
    const yarn = M.positionTable('rope-yarn', { positions: 2, dim: 8, params: { factor: 4, original_context: 64 } });
    assert.deepEqual(Array.from(yarn.invFreq, (v) => Number(v.toPrecision(12))), [1, 0.0625, 0.0025, 0.00025]);  // rope_yarn.cpp's example
    assert.equal(yarn.attentionScale, (0.1 * Math.log(4) + 1) ** 2);
    assert.equal(M.positionTable('alibi', { positions: 3, heads: 1 }).invFreq, undefined);
  });

  it('take their flat options in the bindings and their flags in the CLI', () => {
    const ids = Int32Array.from({ length: 300 }, (_, i) => (i * 7) % 11);
    const tr = M.Trainer.nextToken(ids, { vocabSize: 11, vectorSize: 8, context: 8, pos: 'rope-yarn', ropeYarnFactor: 2.5, ropeYarnBetaSlow: 0.5, seed: 2 });
    assert.deepEqual(tr.settings.posParams, { base: 10000, factor: 2.5, original_context: 32, beta_fast: 32, beta_slow: 0.5 });
    tr.delete();
    assert.throws(() => execFileSync(cli, ['posenc', '--kind', 'rope-pi', '--positions', '4', '--dim', '8', '--rope-pi-factor', '0.5'], { stdio: 'pipe' }),
      (e) => /rope-pi factor 0\.5 must be a number in \[1, 1024\]/.test(String(e.stderr)));
  });
});

describe('M.ropeApply with a rotation kind: the engine rotates with the kind\'s inv_freq', () => {
  const D = 12;
  const vec = () => Float32Array.from({ length: D }, (_, i) => Math.sin(1.7 * i + 0.3) * (1 + i / 5));
  const bits = (a) => Array.from(new Uint32Array(a.buffer.slice(a.byteOffset, a.byteOffset + a.byteLength)));

  it("kind 'rope' (at its default base) gives the bits of ropeApply without opts", () => {
    const x = Float32Array.from({ length: 5 * D }, (_, i) => Math.cos(0.37 * i) * 2);
    assert.deepEqual(bits(M.ropeApply(x, 5, D, 7, { kind: 'rope' })), bits(M.ropeApply(x, 5, D, 7)));
    assert.notDeepEqual(bits(M.ropeApply(x, 5, D, 7, { kind: 'rope', params: { base: 500 } })), bits(M.ropeApply(x, 5, D, 7)));
  });

  it('rope-pi with factor 2 at position 2p is RoPE at p, bit for bit (inv_freq / 2 and 2p are exact in doubles)', () => {
    for (const p of [0, 1, 5, 31, 100, 1000]) {
      const pi = M.ropeApply(vec(), 1, D, 2 * p, { kind: 'rope-pi', params: { factor: 2 } });
      assert.deepEqual(bits(pi), bits(M.ropeApply(vec(), 1, D, p)), `p = ${p}`);
    }
    // an odd position falls between two of RoPE's
    assert.notDeepEqual(bits(M.ropeApply(vec(), 1, D, 3, { kind: 'rope-pi', params: { factor: 2 } })), bits(M.ropeApply(vec(), 1, D, 1)));
  });

  it('rope-partial leaves its unrotated pairs (inv_freq 0) bit-identical and rotates the others', () => {
    const params = { fraction: 0.5 };
    const inv = M.positionTable('rope-partial', { positions: 1, dim: D, params }).invFreq;
    const still = [...inv.keys()].filter((i) => inv[i] === 0);
    assert.ok(still.length > 0 && still.length < D / 2, `unrotated pairs ${still}`);
    const x = vec();
    const y = M.ropeApply(x, 1, D, 40, { kind: 'rope-partial', params });
    for (let i = 0; i < D / 2; i++) {
      const same = bits(y.subarray(2 * i, 2 * i + 2)).join() === bits(x.subarray(2 * i, 2 * i + 2)).join();
      assert.equal(same, inv[i] === 0, `pair ${i} (inv_freq ${inv[i]})`);
    }
  });

  it('refuses a kind that is not a rotation kind, an unknown kind and bad parameters, naming the value', () => {
    const rotation = kinds.filter((k) => k.provides === 'rotation').map((k) => k.name).join(', ');
    assert.throws(() => M.ropeApply(vec(), 1, D, 0, { kind: 'alibi' }), { message: `ropeApply: kind 'alibi' is not a rotation kind (${rotation})` });
    assert.throws(() => M.ropeApply(vec(), 1, D, 0, { kind: 'spiral' }), /unknown kind 'spiral'/);
    assert.throws(() => M.ropeApply(vec(), 1, D, 0, { kind: 'rope-pi', params: { factor: 0.5 } }), /rope-pi factor 0\.5 must be a number in \[1, 1024\]/);
    assert.throws(() => M.ropeApply(vec(), 1, D, 0, { kind: 'rope-pi', params: { slope: 1 } }), /rope-pi has no parameter 'slope'/);
    assert.throws(() => M.ropeApply(new Float32Array(7), 1, 7, 0, { kind: 'rope-yarn' }), /rope-yarn positions need an even dimension, got 7/);
    assert.throws(() => M.ropeApply(new Float32Array(2), 1, 2, 0, { kind: 'rope-ntk' }), /rope-ntk: dim must be at least 4/);
    assert.throws(() => M.ropeApply(vec(), 1, D, 0, 'rope'), { message: 'ropeApply: opts must be an object, got "rope"' });
  });
});
