// Downloads (issue 10): the bindings behind them (Table.export('metadata'), M.coordinatesCsv),
// the page's worker path (makeImportHandlers importExport, makeTrainHandlers trainExport
// {format}) against the CLI's `embedlab convert` bytes, round trips import -> export -> import,
// numpy reading the page's .npy, and the file names (file-names.js).
// Native CLI: EMBEDLAB_CLI (default build/native/embedlab); wasm: EMBEDLAB_WASM_DIR (build/wasm).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEngine, repoRoot } from './load-engine.mjs';
import { makeImportHandlers } from '../../web/src/handlers/import-handler.js';
import { fileName, projectorConfig, safePart } from '../../web/src/file-names.js';
import { DEFAULTS } from '../../web/src/state.js';

const cli = process.env.EMBEDLAB_CLI || path.join(repoRoot, 'build/native/embedlab');
const dec = (b) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(b);
const same = (a, b) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

let M;
before(async () => { M = await loadEngine(); });

// awkward float32 values: subnormals, extremes, many digits, tiny and negative zero
function values(rows, dim, seed = 5) {
  const a = new Float32Array(rows * dim);
  let s = seed;
  for (let i = 0; i < a.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    a[i] = (s / 4294967296 - 0.5) * 10 ** ((i % 9) - 4);
  }
  a[0] = 1.17549435e-38;
  a[1] = 1.4e-45;
  a[2] = -3.40282347e38;
  a[3] = -0;
  return a;
}
const LABELS = ['the', '"q"', 'a,b', '<svg>', 'naïve', '日本', 'x', 'tab\\t?'];

describe('Table.export("metadata") and M.coordinatesCsv', () => {
  it('metadata is the single-column metadata.tsv, or every column with its header, and fails without labels', () => {
    const t = M.Table.fromArray(values(3, 2), 3, 2, { labels: ['a', 'b\tc', ''] });
    assert.equal(dec(t.export('metadata')), 'a\nb\\tc\n\n');
    t.attachMetadata('word\tcount\nthe\t12\ncat\t3\ndog\t1\n');
    assert.equal(dec(t.export('metadata')), 'word\tcount\nthe\t12\ncat\t3\ndog\t1\n');
    const u = M.Table.fromArray(values(2, 2), 2, 2);
    assert.throws(() => u.export('metadata'), { message: 'Table.export: metadata: this table has no labels (attach a metadata.tsv or vocabulary file)' });
    t.delete();
    u.delete();
  });

  it('CSV: header, quoted labels, shortest float32 text that reads back to the same bits, CRLF', () => {
    // worked example: 0.5f -> "0.5", -1e-5f -> "-1e-05", 1/3 as float32 -> "0.33333334"
    const csv = dec(M.coordinatesCsv(new Float32Array([0.5, -1e-5, 1 / 3, 2]), 2, 2, ['say "hi", 1', 'ok']));
    assert.equal(csv, 'row,label,x,y\r\n0,"say ""hi"", 1",0.5,-1e-05\r\n1,"ok",0.33333334,2.0\r\n');
    assert.equal(dec(M.coordinatesCsv(new Float32Array([1, 2, 3]), 1, 3, null)), 'row,label,x,y,z\r\n0,"",1.0,2.0,3.0\r\n');
    const p = values(40, 3);
    const lines = dec(M.coordinatesCsv(p, 40, 3, null)).trimEnd().split('\r\n').slice(1);
    const back = Float32Array.from(lines.flatMap((l) => l.split(',').slice(2).map(Number)));
    assert.ok(same(back, p), 'CSV values do not read back to the same float32 bits');
    assert.throws(() => M.coordinatesCsv(new Float32Array(4), 2, 4, null), /k 4 must be an integer in \[2, 3\]/);
    assert.throws(() => M.coordinatesCsv(new Float32Array(4), 3, 2, null), { message: 'coordinates_csv: points hold 4 values, expected 3 x 2' });
    assert.throws(() => M.coordinatesCsv(new Float32Array(4), 2, 2, ['a']), { message: 'coordinatesCsv: got 1 labels for 2 rows' });
  });
});

describe('the page\'s table downloads (worker importExport) are the engine\'s and the CLI\'s bytes', () => {
  let dir;
  let h;
  let input; // word2vec text of an 8 x 6 labelled table
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-exports-'));
    h = makeImportHandlers(M);
    const src = M.Table.fromArray(values(8, 6), 8, 6, { labels: LABELS });
    input = src.export('word2vec-text');
    src.delete();
    fs.writeFileSync(path.join(dir, 'in.txt'), input);
  });
  const load = (bytes, name) => h.importTable({ file: new File([bytes], name) });
  const cliConvert = (out, extra = []) => {
    execFileSync(cli, ['convert', '--table', path.join(dir, 'in.txt'), '--out', path.join(dir, out), ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
    return new Uint8Array(fs.readFileSync(path.join(dir, out)));
  };

  it('npy, vectors.tsv + metadata.tsv, word2vec text and binary equal `embedlab convert`', async () => {
    const r = await load(input, 'in.txt');
    assert.deepEqual([r.rows, r.dim, r.format], [8, 6, 'word2vec-text']);
    const page = (format) => h.importExport({ format }).bytes;
    assert.ok(same(page('npy'), cliConvert('out.npy')), '.npy differs from the CLI\'s');
    assert.ok(same(page('tsv'), cliConvert('vectors.tsv')), 'vectors.tsv differs from the CLI\'s');
    assert.ok(same(page('metadata'), new Uint8Array(fs.readFileSync(path.join(dir, 'metadata.tsv')))), 'metadata.tsv differs from the CLI\'s');
    assert.ok(same(page('word2vec-text'), cliConvert('out.txt')), 'word2vec text differs from the CLI\'s');
    assert.ok(same(page('word2vec-text'), input), 'word2vec text is not the imported file');
    assert.ok(same(page('word2vec-binary'), cliConvert('out.bin')), 'word2vec binary differs from the CLI\'s');
  });

  it('CSV of the map holds the map\'s points; the 3-D CSV the engine\'s 3-component PCA', async () => {
    await load(input, 'in.txt');
    const t = M.Table.fromBytes(input);
    const map = h.importMap({ normalise: false });
    assert.ok(same(h.importExport({ format: 'csv2' }).bytes, M.coordinatesCsv(map.points, 8, 2, LABELS)));
    assert.ok(same(h.importExport({ format: 'csv3' }).bytes, M.coordinatesCsv(t.pca({ k: 3 }).points, 8, 3, LABELS)));
    assert.throws(() => h.importExport({ format: 'xlsx' }), /export: unknown format 'xlsx', expected npy, tsv, metadata/);
    t.delete();
  });

  it('round trip import -> export -> import is bit-exact for npy, tsv, word2vec text and binary', async () => {
    await load(input, 'in.txt');
    const reference = h.importExport({ format: 'npy' }).bytes;
    for (const format of ['npy', 'tsv', 'word2vec-text', 'word2vec-binary']) {
      await load(input, 'in.txt');
      const bytes = h.importExport({ format }).bytes;
      const r = await load(bytes, `again.${format}`);
      assert.equal(r.format, format);
      assert.ok(same(h.importExport({ format: 'npy' }).bytes, reference), `${format}: values changed on the way back`);
      if (format.startsWith('word2vec')) assert.deepEqual(r.labels, LABELS);
    }
  });

  it('numpy loads the page\'s .npy to the same float32 bits', async (t) => {
    const py = '/usr/bin/python3';
    const probe = spawnSync(py, ['-c', 'import numpy'], { encoding: 'utf8' });
    if (probe.error || probe.status !== 0) {
      t.skip(`${py} with numpy not found (scripts/setup installs python3-numpy): ${probe.error ? probe.error.message : probe.stderr.trim()}`);
      return;
    }
    await load(input, 'in.txt');
    const file = path.join(dir, 'page.npy');
    fs.writeFileSync(file, h.importExport({ format: 'npy' }).bytes);
    const out = execFileSync(py, ['-c', 'import numpy, sys; a = numpy.load(sys.argv[1]); print(a.dtype.str, a.shape[0], a.shape[1], a.tobytes().hex())', file], { encoding: 'utf8' });
    const v = values(8, 6);
    assert.equal(out.trim(), `<f4 8 6 ${Buffer.from(v.buffer).toString('hex')}`);
  });
});

describe('file-names.js', () => {
  const state = { ...DEFAULTS, pos: 'learned' };
  it('names carry the model, the step and the seed', () => {
    assert.equal(fileName({ ...state, model: 'skipgram', seed: 42 }, { subject: 'train', step: 1200, what: 'vectors', ext: 'tsv' }),
      'embedlab-word2vec-skipgram-step1200-seed42-vectors.tsv');
    assert.equal(fileName({ ...state, model: 'next', pos: 'rope', seed: 7 }, { subject: 'train', step: 3, what: 'loss', ext: 'svg' }),
      'embedlab-next-token-rope-step3-seed7-loss.svg');
    assert.equal(fileName({ ...state, T: 128, pd: 64, seed: 42 }, { subject: 'positions', kind: 'sinusoidal', what: 'similarity', ext: 'svg' }),
      'embedlab-positions-sinusoidal-T128-D64-seed42-similarity.svg');
    assert.equal(fileName(state, { subject: 'import', table: { name: 'model.safetensors', recognised: 'gpt2 token table' }, what: 'pca2', ext: 'csv' }),
      'embedlab-gpt2-wte-pca2.csv');
    assert.equal(fileName(state, { subject: 'import', table: { name: 'my table (v2).safetensors', tensor: 'emb/weight' }, what: 'table', ext: 'npy' }),
      'embedlab-my-table-v2-emb-weight-table.npy');
    assert.equal(fileName({ ...state, seed: 9 }, { subject: 'compare', what: 'final-loss', ext: 'png' }),
      'embedlab-compare-tinyshakespeare-char-steps600-seed9-final-loss.png');
  });
  it('parts keep only safe characters', () => {
    assert.equal(safePart('../../etc/passwd'), 'etc-passwd');
    assert.equal(safePart('a\u0000b<c>"d"'), 'a-b-c-d');
  });
  it('projector_config.json names the files as saved', () => {
    assert.equal(projectorConfig({ tensorName: 'embedlab-words', rows: 8, dim: 6, tensorPath: 'v.tsv', metadataPath: 'm.tsv' }),
      '{\n  "embeddings": [\n    {\n      "tensorName": "embedlab-words",\n      "tensorShape": [\n        8,\n        6\n      ],\n      "tensorPath": "v.tsv",\n      "metadataPath": "m.tsv"\n    }\n  ]\n}\n');
    assert.ok(!('metadataPath' in JSON.parse(projectorConfig({ tensorName: 'x', rows: 1, dim: 1, tensorPath: 'v.tsv' })).embeddings[0]));
  });
});
