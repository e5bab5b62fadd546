// Runs the wasm module's benchmarks in Node and prints one JSON line per benchmark.
// Usage: node scripts/bench-wasm.mjs lookup [V D B T reps] | table [rows dim reps] | tsne [rows dim clusters iterations]
import { loadEngine } from '../tests/js/load-engine.mjs';

const [what = 'lookup', ...rest] = process.argv.slice(2);
const M = await loadEngine();
if (what === 'lookup') {
  const [V = 50257, D = 768, B = 32, T = 256, reps = 15] = rest.map(Number);
  console.log(JSON.stringify(M.benchLookup({ numEmbeddings: V, embeddingDim: D, batch: B, context: T, reps })));
} else if (what === 'table') {
  const [rows = 50257, dim = 768, reps = 7] = rest.map(Number);
  console.log(JSON.stringify(M.benchTable({ rows, dim, reps })));
} else if (what === 'tsne') {
  const [rows = 10000, dim = 100, clusters = 10, iterations = 1000] = rest.map(Number);
  const cpu0 = process.cpuUsage();
  const r = M.benchTsne({ rows, dim, clusters, iterations });
  const cpu = process.cpuUsage(cpu0);  // the wasm run's CPU time (other jobs stretch wall time, not this)
  r.cpu_seconds = Math.round((cpu.user + cpu.system) / 1000) / 1000;
  console.log(JSON.stringify(r));
} else {
  console.error(`bench-wasm: unknown benchmark '${what}', expected lookup, table or tsne`);
  process.exit(2);
}
