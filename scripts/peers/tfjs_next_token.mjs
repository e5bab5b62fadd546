// Speed peer for `embedlab bench train --model next-token`: the same model in
// @tensorflow/tfjs-core on @tensorflow/tfjs-backend-wasm (SIMD, one thread), in Node.
// One-hot formulation for the token lookup (one_hot(ids) @ E): the wasm backend has no
// gradient for gather. Learned positions, q/k/v, causal softmax attention + residual, linear
// head, softmax cross-entropy over all B*T positions, Adam (lr 1e-3). One warm-up step, then
// STEPS timed steps; prints one JSON line with tokens/s.
// Usage: node scripts/peers/tfjs_next_token.mjs [V D T B STEPS]
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

// subtle: tfjs-core's published ESM files import without extensions and its CJS bundle does not
// register gradients, so bundle core + all gradients + the wasm backend once with esbuild.
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const bundle = path.join(root, 'build/peers/tfjs-wasm-bundle.cjs');
if (!fs.existsSync(bundle)) {
  fs.mkdirSync(path.dirname(bundle), { recursive: true });
  await esbuild.build({
    stdin: {
      contents: "export * from '@tensorflow/tfjs-core'; import '@tensorflow/tfjs-core/dist/register_all_gradients';" +
        " export * as wasm from '@tensorflow/tfjs-backend-wasm';",
      resolveDir: root,
    },
    bundle: true, platform: 'node', format: 'cjs', mainFields: ['module', 'main'], outfile: bundle, logLevel: 'error',
  });
}
const require = createRequire(import.meta.url);
const tf = require(bundle);
const wasm = tf.wasm;
wasm.setWasmPaths(path.join(root, 'node_modules/@tensorflow/tfjs-backend-wasm/dist/'));
wasm.setThreadsCount?.(1);

const [V = 5000, D = 64, T = 32, B = 256, STEPS = 2] = process.argv.slice(2).map(Number);
await tf.setBackend('wasm');
await tf.ready();

const init = (shape, scale) => tf.variable(tf.randomUniform(shape, -scale, scale, 'float32', 0));
const E = tf.variable(tf.randomNormal([V, D], 0, 1, 'float32', 1));
const P = tf.variable(tf.randomNormal([T, D], 0, 1, 'float32', 2));
const Wq = init([D, D], 1 / Math.sqrt(D)), Wk = init([D, D], 1 / Math.sqrt(D)), Wv = init([D, D], 1 / Math.sqrt(D));
const H = init([D, V], 1 / Math.sqrt(D));
const mask = tf.linalg.bandPart(tf.ones([T, T]), -1, 0);                 // 1 on and below the diagonal
const negative = tf.mul(tf.sub(1, mask), -1e9);
const opt = tf.train.adam(1e-3);

function batch(step) {
  const n = B * (T + 1);
  const ids = new Int32Array(n);
  let s = 12345 + step;
  for (let i = 0; i < n; i++) { s = (s * 1103515245 + 12345) >>> 0; ids[i] = s % V; }
  const x = [], y = [];
  for (let b = 0; b < B; b++) for (let t = 0; t < T; t++) { x.push(ids[b * (T + 1) + t]); y.push(ids[b * (T + 1) + t + 1]); }
  return { x: tf.tensor1d(x, 'int32'), y: tf.tensor1d(y, 'int32') };
}

function lossOf(x, y) {
  const h0 = tf.add(tf.reshape(tf.matMul(tf.oneHot(x, V), E), [B, T, D]), P);
  const flat = tf.reshape(h0, [B * T, D]);
  const q = tf.reshape(tf.matMul(flat, Wq), [B, T, D]);
  const k = tf.reshape(tf.matMul(flat, Wk), [B, T, D]);
  const v = tf.reshape(tf.matMul(flat, Wv), [B, T, D]);
  const scores = tf.add(tf.div(tf.matMul(q, k, false, true), Math.sqrt(D)), negative);
  const h = tf.add(h0, tf.matMul(tf.softmax(scores), v));
  const logits = tf.matMul(tf.reshape(h, [B * T, D]), H);
  return tf.losses.softmaxCrossEntropy(tf.oneHot(y, V), logits);
}

function step(i) {
  const { x, y } = batch(i);
  const loss = opt.minimize(() => lossOf(x, y), true, [E, P, Wq, Wk, Wv, H]);
  const value = loss.dataSync()[0];
  tf.dispose([x, y, loss]);
  return value;
}

const first = step(0);
const t0 = performance.now();
let last = first;
for (let i = 0; i < STEPS; i++) last = step(i + 1);
const seconds = (performance.now() - t0) / 1000;
console.log(JSON.stringify({
  peer: `tfjs-backend-wasm ${wasm.version_wasm ?? ''} (${tf.env().getBool('WASM_HAS_SIMD_SUPPORT') ? 'simd' : 'no simd'})`.trim(),
  V, D, T, B, steps: STEPS, ms_per_step: +(seconds / STEPS * 1000).toFixed(1),
  tokens_per_s: Math.round(B * T * STEPS / seconds), first_loss: +first.toFixed(4), last_loss: +last.toFixed(4),
}));
