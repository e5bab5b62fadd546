// Runs the wasm module's benchmarks in Node and prints one JSON line per benchmark.
// Usage: node scripts/bench-wasm.mjs lookup [V D B T reps] | table [rows dim reps]
import { loadEngine } from '../tests/js/load-engine.mjs';

const [what = 'lookup', ...rest] = process.argv.slice(2);
const M = await loadEngine();
if (what === 'lookup') {
  const [V = 50257, D = 768, B = 32, T = 256, reps = 15] = rest.map(Number);
  console.log(JSON.stringify(M.benchLookup({ numEmbeddings: V, embeddingDim: D, batch: B, context: T, reps })));
} else if (what === 'table') {
  const [rows = 50257, dim = 768, reps = 7] = rest.map(Number);
  console.log(JSON.stringify(M.benchTable({ rows, dim, reps })));
} else {
  console.error(`bench-wasm: unknown benchmark '${what}', expected lookup or table`);
  process.exit(2);
}
