// The table formats come from one registry (src/io/formats.hpp): M.tableFormats() lists it, and
// what cannot be generated from it at run time is checked against it here: the hand-written
// unions of web/embedlab.d.ts (TableFormatName, ExportFormat), the CLI's convert --format
// choices, and the page's import accept list and export buttons.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { loadEngine, repoRoot } from './load-engine.mjs';

let M;
before(async () => { M = await loadEngine(); });

// The string literals of `export type NAME = 'a' | 'b' ...;` in web/embedlab.d.ts.
function unionOf(name) {
  const dts = fs.readFileSync(path.join(repoRoot, 'web', 'embedlab.d.ts'), 'utf8');
  const m = dts.match(new RegExp(`export type ${name} =([^;]*);`));
  assert.ok(m, `web/embedlab.d.ts declares no type ${name}`);
  return [...m[1].matchAll(/'([^']*)'/g)].map((x) => x[1]);
}

describe('M.tableFormats(): the format registry', () => {
  it('lists every format the engine reads, in the order its messages name them', () => {
    const formats = M.tableFormats();
    // today's formats first, in the order the messages have always named them (a new one comes after)
    assert.deepEqual(formats.map((f) => f.name).slice(0, 7), ['npy', 'safetensors', 'tsv', 'word2vec-text', 'word2vec-binary', 'glove', 'savetxt']);
    assert.deepEqual(formats.filter((f) => f.canWrite).map((f) => f.name).slice(0, 4), ['npy', 'tsv', 'word2vec-text', 'word2vec-binary']);
    assert.ok(formats.every((f) => f.canRead && typeof f.label === 'string' && f.label.length > 0));
    const byName = Object.fromEntries(formats.map((f) => [f.name, f]));
    assert.deepEqual(byName['word2vec-binary'].extensions, ['bin']);
    assert.equal(byName['word2vec-text'].outExtension, 'txt');
    assert.equal(byName.safetensors.tensors, true);
    // the message that lists the formats read is made from the same list
    assert.throws(() => M.Table.fromBytes(Buffer.from('x'), { format: 'nope' }),
      { message: `import: unknown format 'nope', expected ${formats.map((f) => f.name).join(', ')}` });
  });

  it('equals the d.ts unions TableFormatName and ExportFormat (less the labels file)', () => {
    const formats = M.tableFormats();
    assert.deepEqual(unionOf('TableFormatName').sort(), formats.map((f) => f.name).sort());
    assert.deepEqual(unionOf('ExportFormat').filter((n) => n !== 'metadata').sort(),
      formats.filter((f) => f.canWrite).map((f) => f.name).sort());
  });

  it('gives convert its --format choices', () => {
    const cli = process.env.EMBEDLAB_CLI || path.join(repoRoot, 'build/native/embedlab');
    const r = spawnSync(cli, ['convert', '--help'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const choices = r.stdout.match(/--format ([^\] ]+)/)[1];
    assert.equal(choices, M.tableFormats().filter((f) => f.canWrite).map((f) => f.name).join('|'));
  });
});

describe("the page's table downloads", () => {
  it('offer every format the registry writes, and the page-made files besides', async () => {
    const { tableExportFormats } = await import('../../web/src/handlers/table-exports.js');
    // the order the worker's message has named them in since issue 10 (a new format before the CSVs)
    const all = tableExportFormats(M);
    assert.deepEqual([...all.slice(0, 5), ...all.slice(-2)], ['npy', 'tsv', 'metadata', 'word2vec-text', 'word2vec-binary', 'csv2', 'csv3']);
    const writable = M.tableFormats().filter((f) => f.canWrite).map((f) => f.name);
    const pageMade = ['metadata', 'csv2', 'csv3'];  // metadata.tsv and the map's CSV: not tables
    assert.deepEqual(tableExportFormats(M).filter((f) => !pageMade.includes(f)), writable);
  });
});
