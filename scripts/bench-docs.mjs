// Writes the generated part of docs/benchmarks.md from build/bench/results.jsonl, so the page's
// latest figures cannot drift from what scripts/bench measured. scripts/bench calls it after its
// sections ran; it also records each section's date, machine and load average.
//
//   node scripts/bench-docs.mjs [results.jsonl] [docs/benchmarks.md]
//     rewrites the block between "<!-- bench:begin -->" and "<!-- bench:end -->": one sub-block
//     per section ("<!-- bench:table -->" ... "<!-- /bench:table -->") with its date, machine,
//     load average, figures and a table of ratios and budgets, each beside its target and
//     met / missed (scripts/bench-summary.mjs computes them; bench-report.mjs prints the same).
//     Sections with no row in results.jsonl keep their previous sub-block, so `scripts/bench
//     table` refreshes only the table's. Fails, changing nothing, on a malformed line (naming
//     it) or a page without the markers.
//   node scripts/bench-docs.mjs --machine STARTED LOAD1 LOAD5 LOAD15
//     prints the JSON of a "run.<section>" row: started (ISO, as given) and finished (now), the
//     load averages before (given) and after (now), cores, CPU model, memory, Node's version.
//
// It does not: run benchmarks, touch anything outside the generated block, or keep history (the
// dated figures of earlier runs are kept by hand below the block).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SECTIONS, fmt, parseResults, summarise } from './bench-summary.mjs';

export const BEGIN = '<!-- bench:begin -->';
export const END = '<!-- bench:end -->';

// The machine as this process sees it now, and the section's start (given by scripts/bench).
export function machine(started, loadBefore) {
  let cpu = os.cpus()[0]?.model || 'unknown';
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) cpu = m[1].trim();
  } catch { /* not Linux: os.cpus() */ }
  const round2 = (x) => Number(x.toFixed(2));
  return {
    started, finished: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    loadavg_before: loadBefore.map(Number), loadavg_after: os.loadavg().map(round2),
    cores: os.availableParallelism ? os.availableParallelism() : os.cpus().length, cpu,
    memory_gb: round2(os.totalmem() / 2 ** 30), node: process.version,
  };
}

// Markdown-safe text: '|' and '*' escaped, <= and >= as ≤ and ≥, any other '<' as &lt;.
const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\*/g, '\\*').replace(/<=/g, '≤').replace(/>=/g, '≥').replace(/</g, '&lt;');
const utc = (iso) => (typeof iso === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : null);

function runLine(section, run) {
  const cmd = `\`scripts/bench ${section}\``;
  if (!run) return `${cmd}; no date or machine recorded with these rows.`;
  const from = utc(run.started), to = utc(run.finished);
  const when = from ? `${from}${to && to !== from ? `–${to.slice(11)}` : ''} UTC` : 'date not recorded';
  const load = (l) => (Array.isArray(l) ? l.map((x) => fmt(x)).join(' ') : 'n/a');
  return `${cmd}, ${when}; ${run.cores} cores, ${cell(run.cpu)}, ${fmt(run.memory_gb, 1)} GB, Node ${run.node}; ` +
    `load average (1, 5, 15 min) ${load(run.loadavg_before)} before, ${load(run.loadavg_after)} after.`;
}

// One section's summary -> its sub-block (markers included).
export function renderSection({ section, run, items }) {
  const out = [`<!-- bench:${section} -->`, `### ${section}`, '', runLine(section, run), ''];
  const lines = items.filter((it) => it.kind === 'line');
  const rows = items.filter((it) => it.kind !== 'line');
  for (const it of lines) out.push(`- ${cell(it.text.replace(/ {2,}/g, ' '))}`);
  if (lines.length) out.push('');
  if (rows.length) {
    out.push('| ratio or budget | figure | target | met |', '|---|---|---|---|');
    for (const it of rows) {
      if (it.kind === 'check') out.push(`| ${cell(it.label)} | ${fmt(it.value)} | ≥ ${it.target} | ${it.ok ? 'met' : '**missed**'} |`);
      else if (it.error !== null) out.push(`| ${cell(it.name)} | failed: ${cell(it.error)} | | **missed** |`);
      else {
        const target = it.budget === null ? 'information' : `${it.bound === 'min' ? '≥' : '≤'} ${it.budget} ${it.unit}`;
        const met = it.budget === null ? '' : it.ok ? 'met' : '**missed**';
        out.push(`| ${cell(it.name)} | ${fmt(it.value, 1)} ${it.unit} (load ${fmt(it.loadavg)}) | ${target} | ${met} |`);
      }
    }
    out.push('');
  }
  out.push(`<!-- /bench:${section} -->`);
  return out.join('\n');
}

const notRun = (section) =>
  [`<!-- bench:${section} -->`, `### ${section}`, '', `Not run yet: \`scripts/bench ${section}\`.`, '', `<!-- /bench:${section} -->`].join('\n');

// The page's text with its generated block rebuilt from rows; sub-blocks of sections without rows
// are kept as they were. Fails when the markers are missing.
export function rewrite(page, rows, where = 'docs/benchmarks.md') {
  const b = page.indexOf(BEGIN), e = page.indexOf(END);
  if (b < 0 || e < b) throw new Error(`${where} has no "${BEGIN}" ... "${END}" block to write into (add the two lines where the generated figures go)`);
  const old = new Map();
  for (const m of page.slice(b + BEGIN.length, e).matchAll(/<!-- bench:([a-z0-9-]+) -->[\s\S]*?<!-- \/bench:\1 -->/g)) old.set(m[1], m[0]);
  const fresh = new Map(summarise(rows).map((s) => [s.section, renderSection(s)]));
  const extra = [...new Set([...old.keys(), ...fresh.keys()])].filter((s) => !SECTIONS.includes(s)).sort();
  const blocks = [...SECTIONS, ...extra].map((s) => fresh.get(s) || old.get(s) || notRun(s));
  return `${page.slice(0, b)}${BEGIN}\n${blocks.join('\n\n')}\n${page.slice(e)}`;
}

function main(argv) {
  if (argv[0] === '--machine') {
    if (argv.length !== 5) throw new Error('--machine takes STARTED LOAD1 LOAD5 LOAD15 (e.g. 2026-11-28T05:40:00Z 1.2 0.9 0.8)');
    console.log(JSON.stringify(machine(argv[1], argv.slice(2))));
    return;
  }
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const results = argv[0] || path.join(root, 'build/bench/results.jsonl');
  const doc = argv[1] || path.join(root, 'docs/benchmarks.md');
  const rows = parseResults(fs.readFileSync(results, 'utf8'), results);
  const before = fs.readFileSync(doc, 'utf8');
  const after = rewrite(before, rows, doc);
  if (after !== before) {
    fs.writeFileSync(`${doc}.tmp`, after);
    fs.renameSync(`${doc}.tmp`, doc);
  }
  console.log(`bench-docs: ${doc}: ${summarise(rows).map((s) => s.section).join(', ') || 'no sections'} rewritten`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (e) {
    console.error(`bench-docs: ${e.message}`);
    process.exit(1);
  }
}
