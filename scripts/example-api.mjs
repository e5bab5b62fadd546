// The JS API example of docs/js-api.md, runnable in Node after `scripts/build wasm`:
//   node scripts/example-api.mjs
// (tests/js/example.test.mjs runs it, so the documented example cannot rot.)
// In a browser or worker the same calls follow `import createEmbedlab from './embedlab.js';
// const M = await createEmbedlab();` with no options.
import { loadEngine } from '../tests/js/load-engine.mjs';

const M = await loadEngine();  // createEmbedlab({ wasmBinary }) on build/wasm/embedlab.{js,wasm}

M.manualSeed(123);                                   // torch.manual_seed(123)
const emb = new M.Embedding(4, 5);                   // nn.Embedding(4, 5)
const row = (a, k, D) => Array.from(a.slice(k * D, k * D + D), (v) => v.toFixed(4)).join(' ');
console.log('W[0]            ', row(emb.weight(), 0, 5));
const out = emb.forward([2, 3, 1]);                  // rows 2, 3, 1
const viaOneHot = emb.oneHotForward([2, 3, 1]);      // one_hot(ids, 4) @ W
console.log('lookup row 0    ', row(out, 0, 5));
console.log('same bits       ', out.every((v, i) => Object.is(v, viaOneHot[i])));
const pe = M.sinusoidal(4, 8);
console.log('sinusoidal[1]   ', row(pe, 1, 8));
const tok = M.Tokenizer.gpt2();
console.log('gpt2 ids        ', Array.from(tok.encode('Hello world')).join(' '));
try {
  emb.forward([4]);
} catch (e) {
  console.log('error           ', e.message);
}
tok.delete();
emb.delete();
