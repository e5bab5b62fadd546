// node:test for the embedlab CLI's tables: --table PATH[:TENSOR] in every format, inspect and
// convert, and tables read as what they are (issue 22). Runs the native binary: EMBEDLAB_CLI,
// else build/native/embedlab (cli-fixtures.mjs).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './load-engine.mjs';
import { cli, json, fails, npy, dir, table, vocab, missing, notFound } from './cli-fixtures.mjs';

describe('tables in every format: --table PATH[:TENSOR], inspect, convert', () => {
  const fixtures = path.join(repoRoot, 'tests/reference/tables');
  const model = path.join(fixtures, 'model.safetensors');
  const w2v = path.join(fixtures, 'w2v.bin');

  it('inspect lists tensors, dtypes, shapes and byte ranges', () => {
    const r = json(['inspect', '--table', model]);
    assert.equal(r.format, 'safetensors');
    assert.deepEqual(r.tensors.map((t) => [t.name, t.dtype, t.shape]).slice(0, 4),
      [['wte.weight', 'F32', [5, 4]], ['wpe.weight', 'F32', [3, 4]], ['half', 'F16', [5, 4]], ['brain', 'BF16', [5, 4]]]);
    assert.equal(r.tensors[0].end - r.tensors[0].begin, 80);
    assert.deepEqual(r.metadata, { format: 'pt', source: 'gen-table-fixtures.py' });
    assert.deepEqual(json(['inspect', '--table', w2v]).tensors[0].shape, [5, 4]);
    assert.equal(json(['inspect', '--table', path.join(fixtures, 'w_f16.npy')]).tensors[0].dtype, 'F16');
    fails(['inspect', '--table', missing], notFound('--table', missing));
    fails(['inspect', '--table', model, 'stray'], "inspect: unexpected argument 'stray' (inspect takes no FILE)");
  });

  it('--table PATH:TENSOR picks a safetensors tensor; a path with a colon still reads', () => {
    const a = json(['neighbours', '--table', `${model}:wte.weight`, '--id', '0', '--k', '4']);
    const b = json(['neighbours', '--table', w2v, '--id', '0', '--k', '4']);
    assert.deepEqual(a.neighbours, b.neighbours.map(({ id, score }) => ({ id, score })));
    assert.equal(json(['neighbours', '--table', w2v, '--word', 'cat', '--k', '1']).query.label, 'cat');
    assert.deepEqual(json(['pca', '--table', `${model}:half`, '--k', '2']).points.shape, [5, 2]);
    assert.deepEqual(json(['analogy', '--table', path.join(fixtures, 'glove.txt'), '--positive', 'the,cat', '--negative', 'sat', '--k', '1']).negative, [3]);
    const colon = path.join(dir, 'a:b.npy');
    fs.copyFileSync(table, colon);
    assert.deepEqual(json(['pca', '--table', colon]).points.shape, [4, 2]);
    fails(['pca', '--table', `${model}:nope`], `--table ${model}: read safetensors: no tensor 'nope'; the file has: `
      + 'wte.weight F32 [5, 4], wpe.weight F32 [3, 4], half F16 [5, 4], brain BF16 [5, 4], double F64 [2, 4], '
      + 'bias F32 [4], cube F32 [2, 2, 2], ints I32 [2, 2]');
    fails(['pca', '--table', `${model}:cube`], `--table ${model}: read safetensors: tensor 'cube': shape [2, 2, 2] has 3 dimensions; a table is 1-D or 2-D`);
  });

  it('convert writes .npy, .tsv + metadata.tsv, word2vec .txt and .bin that read back bit for bit', () => {
    const npyOut = path.join(dir, 'w.npy');
    json(['convert', '--table', w2v, '--out', npyOut]);
    assert.deepEqual(fs.readFileSync(npyOut), fs.readFileSync(path.join(fixtures, 'w_f32.npy')));
    const txt = path.join(dir, 'w.txt');
    const r = json(['convert', '--table', `${model}:wte.weight`, '--metadata', path.join(fixtures, 'metadata.tsv'), '-o', txt]);
    assert.deepEqual([r.format, r.rows, r.cols, r.labels], ['word2vec-text', 5, 4, true]);
    assert.equal(fs.readFileSync(txt, 'utf8'), fs.readFileSync(path.join(fixtures, 'w2v.txt'), 'utf8'));
    const tsvDir = path.join(dir, 'projector');
    fs.mkdirSync(tsvDir, { recursive: true });
    const t = json(['convert', '--table', txt, '--out', path.join(tsvDir, 'vectors.tsv')]);
    assert.deepEqual(t.files, [path.join(tsvDir, 'vectors.tsv'), path.join(tsvDir, 'metadata.tsv')]);
    const bin = path.join(dir, 'w.bin');
    json(['convert', '--table', path.join(tsvDir, 'vectors.tsv'), '--metadata', path.join(tsvDir, 'metadata.tsv'), '--out', bin]);
    assert.deepEqual(fs.readFileSync(bin), fs.readFileSync(w2v));
    const forced = path.join(dir, 'w.dat');
    json(['convert', '--table', bin, '--out', forced, '--format', 'word2vec-text']);
    assert.equal(fs.readFileSync(forced, 'utf8'), fs.readFileSync(txt, 'utf8'));
  });

  it('convert: bad input gives one line and writes nothing', () => {
    const out = path.join(dir, 'never.npy');
    fails(['convert', '--table', w2v, '--out', path.join(dir, 'x.csv')],
      `convert: cannot tell the format from '${path.join(dir, 'x.csv')}' (expected .npy, .tsv, .txt or .bin); give --format`);
    fails(['convert', '--table', w2v, '--out', out, '--format', 'csv'],
      "--format: unknown format 'csv', expected npy, tsv, word2vec-text or word2vec-binary");
    fails(['convert', '--table', w2v, '--out', out, '--metadata', vocab], `--metadata ${vocab}: read metadata: 4 rows for a table of 5 rows`);
    fails(['convert', '--table', w2v, '--out', out, '--metadata', vocab, '--vocab', vocab], 'convert: give labels as --metadata or as --vocab, not both');
    fails(['convert', '--out', out], '--table: is required');
    fails(['convert', '--table', path.join(fixtures, 'w_i32.npy'), '--out', out],
      `--table ${path.join(fixtures, 'w_i32.npy')}: read npy: dtype '<i4' is not supported (expected '<f4', '<f8' or '<f2')`);
    assert.equal(fs.existsSync(out), false);
  });
});

describe('tables read as what they are (issue 22): the format a name gives, empty tables, messages, JSON', () => {
  const le64 = (n) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    return b;
  };
  const file = (name, bytes) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, bytes);
    return p;
  };
  // stdout must be UTF-8 (a fatal decoder) and JSON
  const strictJson = (args) => {
    const r = spawnSync(cli, args);
    assert.equal(r.status, 0, `embedlab ${args.join(' ')} failed: ${r.stderr}`);
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(r.stdout));
  };

  it('a .safetensors with an absurd header length or a short header: the safetensors message, no output', () => {
    const json1 = Buffer.from('{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}');
    const absurd = file('absurd.safetensors', Buffer.concat([le64(2 ** 40), json1, Buffer.alloc(4)]));
    const out = path.join(dir, 'absurd.npy');
    const message = `--table ${absurd}: read safetensors: byte 0: the header length 1099511627776 is over the format's limit of 100000000 bytes`;
    fails(['convert', '--table', absurd, '--out', out], message);
    fails(['inspect', '--table', absurd], message);
    assert.equal(fs.existsSync(out), false);
    const short = file('short.safetensors', Buffer.concat([le64(json1.length + 100), json1, Buffer.alloc(4)]));
    fails(['inspect', '--table', short], `--table ${short}: read safetensors: the header needs ${json1.length + 108} bytes `
      + `(8 + its length ${json1.length + 100}), the file has ${json1.length + 12}: it is cut short`);
  });

  it('random bytes named .npy get the npy message; a table of 0 rows is refused before --id is checked', () => {
    const junk = file('junk.npy', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x09, 0x31, 0x0a, 0x32, 0x09, 0x33, 0x09, 0x34, 0x0a]));
    fails(['neighbours', '--table', junk, '--id', '0'], `--table ${junk}: read npy: byte 0: expected the magic \\x93NUMPY of a .npy file, got 'PK\\x03\\x04\\x091'`);
    const empty = file('empty.npy', npy(0, 4, []));
    fails(['neighbours', '--table', empty, '--id', '0'],
      `--table ${empty}: read npy: the table is 0 x 4: it has no rows; a table needs at least one row and one column`);
    const blank = file('blank.tsv', '\n\n');
    fails(['convert', '--table', blank, '--out', path.join(dir, 'blank.npy')],
      `--table ${blank}: read tsv: the table is 0 x 0: it has no rows; a table needs at least one row and one column`);
  });

  it('a BOM before word2vec text or vectors.tsv, and numpy savetxt output, read as what they are', () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const w2v = file('bom.txt', Buffer.concat([bom, Buffer.from('2 3\na 1 2 3\nb 4 5 6\n')]));
    const i = json(['inspect', '--table', w2v]);
    assert.deepEqual([i.format, i.tensors[0].shape], ['word2vec-text', [2, 3]]);
    const tsv = file('bom-vectors.tsv', Buffer.concat([bom, Buffer.from('1\t2\n3\t4\n')]));
    assert.deepEqual(json(['inspect', '--table', tsv]).tensors[0].shape, [2, 2]);
    const saved = file('saved.txt', '1.000000000000000000e+00 2.000000000000000000e+00\n3.000000000000000000e+00 4.000000000000000000e+00\n');
    const s = json(['inspect', '--table', saved]);
    assert.deepEqual([s.format, s.tensors[0].shape], ['savetxt', [2, 2]]);
  });

  it('labels and tensor names that are not UTF-8 come out as JSON (U+FFFD), as a browser decodes them', () => {
    const words = file('latin1.txt', Buffer.concat([Buffer.from('2 2\ncaf'), Buffer.from([0xe9]), Buffer.from(' 1 0\nx'),
      Buffer.from([0xff]), Buffer.from(' 0 1\n')]));
    const n = strictJson(['neighbours', '--table', words, '--id', '0', '--k', '1']);
    assert.equal(n.query.label, 'caf\ufffd');
    assert.equal(n.query.label, new TextDecoder().decode(Buffer.from([0x63, 0x61, 0x66, 0xe9])));
    const header = Buffer.concat([Buffer.from('{"w'), Buffer.from([0xc3, 0x28]), Buffer.from('":{"dtype":"F32","shape":[1,1],"data_offsets":[0,4]}}')]);
    const st = file('names.safetensors', Buffer.concat([le64(header.length), header, Buffer.alloc(4)]));
    assert.equal(strictJson(['inspect', '--table', st]).tensors[0].name, 'w\ufffd(');
  });
});
