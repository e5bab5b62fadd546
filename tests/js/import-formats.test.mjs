// Tables read as the format they are, in the wasm engine (M.Table) and the page's import handler
// (handlers/import-handler.js), issue 22: a file's name picks its format (a .safetensors with an
// absurd header length, random bytes named .npy), empty tables are refused, a checkpoint cut
// short says so, a BOM or numpy savetxt output is read as what it is, a header with very many
// tensors is listed (and named in messages only in part), and an amplifying text table neither
// grows the wasm heap nor gets planned past a few times its size.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { File } from 'node:buffer';
import { loadEngine } from './load-engine.mjs';
import { makeImportHandlers } from '../../web/src/handlers/import-handler.js';
import { random, safetensors } from './table-files.mjs';

let M;
before(async () => { M = await loadEngine(); });

const le64 = (n) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
};
const bom = Buffer.from([0xef, 0xbb, 0xbf]);
const entry = Buffer.from('{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}');
const absurd = Buffer.concat([le64(2 ** 40), entry, Buffer.alloc(4)]);
const junk = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x09, 0x31, 0x0a, 0x32, 0x09, 0x33, 0x09, 0x34, 0x0a]);

describe('M.Table reads a file as the format its name names, else as detected', () => {
  it('a .safetensors with an absurd header length, random bytes named .npy: their format\'s message', () => {
    assert.throws(() => M.Table.fromBytes(absurd, { name: 'model.safetensors' }),
      { message: "read safetensors: byte 0: the header length 1099511627776 is over the format's limit of 100000000 bytes" });
    assert.throws(() => M.Table.fromBytes(junk, { name: 'table.npy' }),
      { message: "read npy: byte 0: expected the magic \\x93NUMPY of a .npy file, got 'PK\\x03\\x04\\x091'" });
    // unnamed, the bytes are no text table either
    assert.throws(() => M.Table.fromBytes(absurd), /^Error: import: cannot tell the format: .* byte 0 is 0x00, which no text table holds/);
  });

  it('a BOM before word2vec text, numpy savetxt output, word2vec text with a short line 2', () => {
    const w = M.Table.fromBytes(Buffer.concat([bom, Buffer.from('2 3\na 1 2 3\nb 4 5 6\n')]), { name: 'w.txt' });
    assert.deepEqual([w.format, w.rows, w.dim, w.labels], ['word2vec-text', 2, 3, ['a', 'b']]);
    w.delete();
    const s = M.Table.fromBytes(Buffer.from('1.000000000000000000e+00 2.000000000000000000e+00\n3.000000000000000000e+00 4.000000000000000000e+00\n'));
    assert.deepEqual([s.format, s.rows, s.dim, s.labels], ['savetxt', 2, 2, null]);
    s.delete();
    assert.throws(() => M.Table.fromBytes(Buffer.from('2 3\na 1 2\nb 4 5 6\n')),
      { message: 'read word2vec: line 2: expected 3 numbers after the word, got 2' });
  });

  it('a table with no rows or no columns is refused by fromArray, fromTensor and fromBytes', () => {
    const none = '; a table needs at least one row and one column';
    assert.throws(() => M.Table.fromArray(new Float32Array(0), 0, 4), { message: `Table.fromArray: the table is 0 x 4: it has no rows${none}` });
    assert.throws(() => M.Table.fromTensor(new Uint8Array(0), { dtype: 'F32', shape: [0, 4], name: 'e' }),
      { message: `read safetensors: tensor 'e': the table is 0 x 4: it has no rows${none}` });
    assert.throws(() => M.Table.fromBytes(Buffer.from('\n\n'), { name: 'vectors.tsv' }), { message: `read tsv: the table is 0 x 0: it has no rows${none}` });
  });

  it('a safetensors file cut short says so, naming the tensor, not an internal function', () => {
    const file = safetensors([['w', [5, 4], random(20, 1)]]);
    const size = M.Table.safetensorsHeaderSize(file.subarray(0, 8));
    const head = file.subarray(0, size);
    assert.equal(M.Table.safetensorsHeader(head, { fileSize: file.length }).length, 1);
    assert.throws(() => M.Table.safetensorsHeader(head, { fileSize: file.length - 40 }),
      { message: `read safetensors: tensor 'w': its data [${size}, ${size + 80}) runs past the end of the file (${file.length - 40} bytes): the file is cut short` });
    assert.throws(() => M.Table.safetensorsHeader(head.subarray(0, 20), { fileSize: 20 }),
      { message: `read safetensors: the header needs ${size} bytes (8 + its length ${size - 8}), the file has 20: it is cut short` });
    assert.throws(() => M.Table.fromTensor(file.subarray(size, size + 40), { dtype: 'F32', shape: [5, 4], name: 'w' }),
      { message: "read safetensors: tensor 'w': shape [5, 4] F32 needs 5 x 4 x 4 = 80 bytes, got 40: the file is cut short" });
  });

  it('an amplifying vectors.tsv or GloVe file (88 KB) fails on line 2 without growing the heap', () => {
    const n = 22000;
    const tsv = Buffer.from(`${Array(n).fill('0').join('\t')}\n${'0\n'.repeat(n)}`);
    const glove = Buffer.from(`w ${Array(n).fill('0').join(' ')}\n${'w\n'.repeat(n)}`);
    const heap = M.HEAP8.length;
    assert.throws(() => M.Table.fromBytes(tsv, { name: 'vectors.tsv' }), { message: `read tsv: line 2: expected ${n} values (as line 1), got 1` });
    assert.throws(() => M.Table.fromBytes(glove), { message: `read glove: line 2: expected ${n} numbers after the word, got 0` });
    // the engine copies the file once (88 KB); a table planned from line 1's width would be 1.9 GB
    const grown = M.HEAP8.length - heap;
    assert.ok(grown <= 16 * tsv.length, `the wasm heap grew by ${grown} bytes for a ${tsv.length}-byte file`);
  });
});

describe('the import handler: names, cut-short checkpoints, headers of many tensors', () => {
  it('reads by the file\'s name and says when a checkpoint is cut short', async () => {
    const h = makeImportHandlers(M);
    await assert.rejects(h.importTable({ file: new File([absurd], 'model.safetensors') }), { message: /^read safetensors: byte 0: the header length 1099511627776/ });
    await assert.rejects(h.importTable({ file: new File([junk], 'random.npy') }), { message: /^read npy: byte 0: expected the magic/ });
    const w = await h.importTable({ file: new File([bom, '2 3\na 1 2 3\nb 4 5 6\n'], 'w.txt') });
    assert.deepEqual([w.format, w.rows, w.dim, w.labels], ['word2vec-text', 2, 3, ['a', 'b']]);
    const full = safetensors([['wte.weight', [50, 4], random(200, 1)], ['wpe.weight', [8, 4], random(32, 2)]]);
    await assert.rejects(h.importTable({ file: new File([full.subarray(0, full.length - 100)], 'model.safetensors') }),
      { message: /runs past the end of the file \(\d+ bytes\): the file is cut short$/ });
    const short = Buffer.from(full);
    short.writeBigUInt64LE(BigInt(full.length)); // a header length past the file's end
    await assert.rejects(h.importTable({ file: new File([short], 'model.safetensors') }), { message: /the file has \d+: it is cut short$/ });
  });

  it('a header of 150,000 2-D tensors: all are offered, a missing one is named with 20 of them', async () => {
    const n = 150000;
    const file = safetensors(Array.from({ length: n }, (_, i) => [`t${i}`, [1, 1], new Float32Array([i])]));
    const h = makeImportHandlers(M);
    const r = await h.importTable({ file: new File([file], 'many.safetensors') });
    assert.equal(r.needTensor, true);
    assert.equal(r.tensors.length, n);
    const one = await h.importTable({ file: new File([file], 'many.safetensors'), tensor: 't149999' });
    assert.deepEqual([one.rows, one.dim, one.tensor], [1, 1, 't149999']);
    await assert.rejects(h.importTable({ file: new File([file], 'many.safetensors'), tensor: 'nope' }),
      { message: `import: no tensor 'nope' in many.safetensors; it has t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16, t17, t18, t19 and ${n - 20} more` });
  });
});
