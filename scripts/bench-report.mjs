// Summarises build/bench/results.jsonl as ratios measured in the same run.
// Usage: node scripts/bench-report.mjs build/bench/results.jsonl
import fs from 'node:fs';

const file = process.argv[2] || 'build/bench/results.jsonl';
const rows = Object.fromEntries(fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean)
  .map((l) => JSON.parse(l)).map((r) => [r.name, r.result]));
const fmt = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
const lines = [];
const check = (label, value, target) =>
  lines.push(`${label.padEnd(46)} ${fmt(value).padStart(7)}   target >= ${target}   ${value >= target ? 'ok' : 'MISSED'}`);

const n = rows['lookup.native'], w = rows['lookup.wasm'], t = rows['lookup.torch'];
if (n) {
  lines.push(`lookup native: ${fmt(n.median_ms, 3)} ms, ${fmt(n.gb_per_s)} GB/s (${n.isa}); memcpy ${fmt(n.memcpy_gb_per_s)} GB/s; sparse backward ${fmt(n.backward_ms, 3)} ms`);
  check('lookup native / memcpy (same run)', n.gb_per_s / n.memcpy_gb_per_s, 0.7);
}
if (w) {
  lines.push(`lookup wasm:   ${fmt(w.median_ms, 3)} ms, ${fmt(w.gb_per_s)} GB/s (${w.isa}); memcpy in wasm ${fmt(w.memcpy_gb_per_s)} GB/s; sparse backward ${fmt(w.backward_ms, 3)} ms`);
  if (n) check('lookup wasm / native', w.gb_per_s / n.gb_per_s, 0.6);
}
if (t) {
  lines.push(`lookup torch:  ${fmt(t.median_ms, 3)} ms, ${fmt(t.gb_per_s)} GB/s (${t.peer}, 1 thread); backward ${fmt(t.backward_ms, 3)} ms`);
  if (n) lines.push(`lookup native speed-up over torch: ${fmt(t.median_ms / n.median_ms)}x forward, ${fmt(t.backward_ms / n.backward_ms)}x backward`);
}
const tk = rows.tokenize;
if (tk) {
  lines.push(`tokenize GPT-2, ${tk.file} (${tk.bytes} bytes, ${tk.tokens} tokens): tiktoken ${tk.tiktoken.version} ${fmt(tk.tiktoken.mb_per_s)} MB/s, ` +
    `wasm ${fmt(tk.wasm.mb_per_s)} MB/s (${fmt(tk.wasm.js_api_mb_per_s)} through the JS API), native ${fmt(tk.native.mb_per_s)} MB/s`);
  check('tokenize native / tiktoken', tk.native.ratio_to_tiktoken, 2);
  check('tokenize wasm / tiktoken', tk.wasm.ratio_to_tiktoken, 1);
}
for (const [name, r] of Object.entries(rows)) {
  if (!name.startsWith('lookup.') && name !== 'tokenize') lines.push(`${name}: ${JSON.stringify(r)}`);
}
console.log('\n== summary\n' + lines.join('\n'));
