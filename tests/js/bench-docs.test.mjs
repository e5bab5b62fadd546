// node:test for scripts/bench-docs.mjs, the writer of docs/benchmarks.md's generated block: from a
// fixture results.jsonl in scripts/bench's format (tests/js/fixtures/bench-results.jsonl) it
// writes each section's figures and its table of ratios beside their targets, keeps the blocks
// of sections the file does not hold and the hand-kept text around the block, and refuses a
// malformed line (naming it) or a page without markers, changing nothing.
// It does not run any benchmark or assert any duration: the figures are the fixture's.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './load-engine.mjs';

const script = path.join(repoRoot, 'scripts/bench-docs.mjs');
const fixture = path.join(repoRoot, 'tests/js/fixtures/bench-results.jsonl');
const page = (inside = '') =>
  `# Benchmarks\n\nhand-kept intro\n\n<!-- bench:begin -->\n${inside}<!-- bench:end -->\n\n## History\n\n2026-11-22: kept by hand\n`;
const block = (text, section) => {
  const m = new RegExp(`<!-- bench:${section} -->[\\s\\S]*?<!-- /bench:${section} -->`).exec(text);
  assert(m, `no ${section} block in:\n${text}`);
  return m[0];
};

let dir;
before(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-docs-')); });
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function run(results, doc) {
  return spawnSync(process.execPath, [script, results, doc], { encoding: 'utf8' });
}
function docWith(name, text) {
  const f = path.join(dir, name);
  fs.writeFileSync(f, text);
  return f;
}

describe('bench-docs', () => {
  it('writes each section of the results as its figures and a table of ratios beside their targets', () => {
    const doc = docWith('written.md', page());
    const r = run(fixture, doc);
    assert.equal(r.status, 0, r.stderr);
    const out = fs.readFileSync(doc, 'utf8');
    assert.equal(block(out, 'lookup'), [
      '<!-- bench:lookup -->',
      '### lookup',
      '',
      '`scripts/bench lookup`, 2026-11-28 05:40 UTC; 2 cores, AMD EPYC 7B13, 7.8 GB, Node v20.19.2; load average (1, 5, 15 min) 1.52 1.20 0.98 before, 1.61 1.25 1.01 after.',
      '',
      '- lookup native: 2.300 ms, 10.96 GB/s (avx2); memcpy 14.02 GB/s; sparse backward 4.750 ms',
      '- lookup wasm: 2.530 ms, 9.95 GB/s (wasm_simd128); memcpy in wasm 13.10 GB/s; sparse backward 5.060 ms',
      '- lookup torch: 6.460 ms, 3.90 GB/s (torch 1.13.0a0, 1 thread); backward 19.890 ms',
      '- lookup native speed-up over torch: 2.81x forward, 4.19x backward',
      '',
      '| ratio or budget | figure | target | met |',
      '|---|---|---|---|',
      '| lookup native / memcpy (same run) | 0.78 | ≥ 0.7 | met |',
      '| lookup wasm / native | 0.91 | ≥ 0.6 | met |',
      '',
      '<!-- /bench:lookup -->',
    ].join('\n'));
    const table = block(out, 'table');
    assert.match(table, /^`scripts\/bench table`, 2026-11-28 05:41–05:42 UTC; 2 cores/m);
    for (const row of [
      '| table neighbours wasm ≤ 30 ms: 30 / wasm ms | 1.83 | ≥ 1 | met |',
      '| table PCA sklearn / wasm | 0.83 | ≥ 1 | **missed** |',
      '| table neighbours native speed-up over wasm | 0.99 | ≥ 1.5 | **missed** |',
      '| table neighbours native read / memcpy GB/s | 0.69 | ≥ 0.7 | **missed** |',
    ]) assert(table.includes(`\n${row}\n`), `table block lacks "${row}":\n${table}`);
    const pageBlock = block(out, 'page');
    assert(pageBlock.includes('| cold load (median of 5) | 612.0 ms (load 1.10) | ≤ 1000 ms | met |'), pageBlock);
    assert(pageBlock.includes('| longest task while training | 71.5 ms (load 1.20) | ≤ 50 ms | **missed** |'), pageBlock);
    assert(pageBlock.includes('| frames per second while training | 58.2 /s (load 1.20) | ≥ 55 /s | met |'), pageBlock); // bound 'min'
    assert(pageBlock.includes('| first chips of 5 MB | failed: Timeout 30000ms exceeded | | **missed** |'), pageBlock);
    assert(pageBlock.includes('no date or machine recorded'), pageBlock);
    assert(block(out, 'umap').includes('- umap umap-js: skipped (umap-js is not installed)'));
    assert(block(out, 'tsne').includes('| tsne sklearn s / wasm s | 7.88 | ≥ 1 | met |'));
    assert(block(out, 'umap-large').includes('Not run yet: `scripts/bench umap-large`.'));
    // the sections in scripts/bench's order, and the hand-kept text around the block untouched
    const order = [...out.matchAll(/<!-- bench:([a-z-]+) -->/g)].map((m) => m[1]).filter((s) => s !== 'begin' && s !== 'end');
    assert.deepEqual(order, ['lookup', 'tokenize', 'train', 'table', 'page', 'umap', 'umap-seeds', 'umap-large', 'tsne', 'threads']);
    assert(block(out, 'threads').includes('| gpt2_encode native: 2 threads vs 1 | 1.79 | ≥ 1.7 | met |'), block(out, 'threads'));
    assert(block(out, 'threads').includes('- gpt2_encode native: s at 1: 0.050, 2: 0.028, 3: 0.028, 4: 0.029 threads; same bits; serial fraction 0.12, 8 cores 4.85x; load 2.1'), block(out, 'threads'));
    assert(out.startsWith('# Benchmarks\n\nhand-kept intro\n\n<!-- bench:begin -->\n'));
    assert(out.endsWith('<!-- bench:end -->\n\n## History\n\n2026-11-22: kept by hand\n'));
  });

  it('keeps the blocks of sections the results do not hold, and replaces those they do', () => {
    const kept = '<!-- bench:tokenize -->\n### tokenize\n\nan older tokenize run, kept\n<!-- /bench:tokenize -->';
    const stale = '<!-- bench:lookup -->\n### lookup\n\na stale lookup run\n<!-- /bench:lookup -->';
    const doc = docWith('kept.md', page(`${stale}\n\n${kept}\n`));
    assert.equal(run(fixture, doc).status, 0);
    let out = fs.readFileSync(doc, 'utf8');
    assert.equal(block(out, 'tokenize'), kept);
    assert(!out.includes('a stale lookup run'));
    const lookup = block(out, 'lookup');

    // a later `scripts/bench table`: only the table's block changes
    const tableOnly = fs.readFileSync(fixture, 'utf8').split('\n').filter((l) => /"name":"(run\.)?table/.test(l))
      .map((l) => l.replace('"neighbours_ms":16.382', '"neighbours_ms":40'));
    const results = docWith('table-only.jsonl', `${tableOnly.join('\n')}\n`);
    const r = run(results, doc);
    assert.equal(r.status, 0, r.stderr);
    out = fs.readFileSync(doc, 'utf8');
    assert.equal(block(out, 'lookup'), lookup);
    assert.equal(block(out, 'tokenize'), kept);
    assert(block(out, 'table').includes('| table neighbours wasm ≤ 30 ms: 30 / wasm ms | 0.75 | ≥ 1 | **missed** |'), block(out, 'table'));
    assert.match(r.stdout, /table rewritten/);
  });

  it('refuses a malformed line, naming it, and leaves the page as it was', () => {
    const lines = fs.readFileSync(fixture, 'utf8').split('\n');
    const original = page('<!-- bench:lookup -->\nold\n<!-- /bench:lookup -->\n');
    for (const [bad, message] of [
      ['{"name":"lookup.torch","result":{"peer":"torch"', /line 3 is not JSON \(.+\): \{"name":"lookup\.torch"/],
      ['{"name":"lookup.torch"}', /line 3 \("lookup\.torch"\) has no "result" object/],
      ['{"result":{}}', /line 3 has no "name" string/],
      ['{"name":"lookup torch","result":{}}', /line 3: name "lookup torch" is not "section\.what"/],
    ]) {
      const results = docWith('bad.jsonl', [...lines.slice(0, 2), bad, ...lines.slice(3)].join('\n'));
      const doc = docWith('unchanged.md', original);
      const r = run(results, doc);
      assert.equal(r.status, 1, `"${bad}" was accepted`);
      assert.match(r.stderr, /^bench-docs: .*bad\.jsonl /);
      assert.match(r.stderr, message);
      assert.equal(fs.readFileSync(doc, 'utf8'), original);
    }
  });

  it('refuses a page without the markers, leaving it as it was', () => {
    const doc = docWith('no-markers.md', '# Benchmarks\n\nno block here\n');
    const r = run(fixture, doc);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /no-markers\.md has no "<!-- bench:begin -->" \.\.\. "<!-- bench:end -->" block/);
    assert.equal(fs.readFileSync(doc, 'utf8'), '# Benchmarks\n\nno block here\n');
  });

  it('--machine records the start and load given, the load after and the machine', () => {
    const r = spawnSync(process.execPath, [script, '--machine', '2026-11-28T05:40:00Z', '1.5', '1.25', '1'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const m = JSON.parse(r.stdout);
    assert.equal(m.started, '2026-11-28T05:40:00Z');
    assert.deepEqual(m.loadavg_before, [1.5, 1.25, 1]);
    assert.equal(m.loadavg_after.length, 3);
    assert(Number.isInteger(m.cores) && m.cores >= 1);
    assert(typeof m.cpu === 'string' && m.cpu.length > 0);
    assert(m.memory_gb > 0);
    assert.equal(m.node, process.version);
    assert.match(m.finished, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const usage = spawnSync(process.execPath, [script, '--machine', 'now'], { encoding: 'utf8' });
    assert.equal(usage.status, 1);
    assert.match(usage.stderr, /--machine takes STARTED LOAD1 LOAD5 LOAD15/);
  });
});
