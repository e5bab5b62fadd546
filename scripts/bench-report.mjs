// Summarises build/bench/results.jsonl as ratios measured in the same run (scripts/bench-summary.mjs
// computes them; this prints them as text; scripts/bench-docs.mjs writes them into docs/benchmarks.md).
// Usage: node scripts/bench-report.mjs build/bench/results.jsonl
import fs from 'node:fs';
import { fmt, parseResults, summarise } from './bench-summary.mjs';

const file = process.argv[2] || 'build/bench/results.jsonl';
let rows;
try {
  rows = parseResults(fs.readFileSync(file, 'utf8'), file);
} catch (e) {
  console.error(`bench-report: ${e.message}`);
  process.exit(1);
}
const lines = [];
for (const { items } of summarise(rows)) {
  for (const it of items) {
    if (it.kind === 'line') lines.push(it.text);
    else if (it.kind === 'check') {
      lines.push(`${it.label.padEnd(46)} ${fmt(it.value).padStart(7)}   target >= ${it.target}   ${it.ok ? 'ok' : 'MISSED'}`);
    } else if (it.error !== null) lines.push(`  ${it.name.padEnd(44)} FAILED: ${it.error}`);
    else {
      const verdict = it.budget === null ? 'information' : `budget ${it.bound === 'min' ? '>=' : '<='} ${it.budget} ${it.unit}   ${it.ok ? 'ok' : 'MISSED'}`;
      lines.push(`  ${it.name.padEnd(44)} ${fmt(it.value, 1).padStart(7)} ${it.unit.padEnd(3)}  ${verdict}   (load ${fmt(it.loadavg)})`);
    }
  }
}
console.log('\n== summary\n' + lines.join('\n'));
