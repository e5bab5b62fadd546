// Resident tables (M.Table, src/bindings/tables.cpp): a table handed over once answers every
// query in place, with the same numbers as the copying calls (M.nearest, M.analogy, M.pca).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './load-engine.mjs';

let M;
before(async () => { M = await loadEngine(); });

function table(rows, dim, seed = 1) {
  const a = new Float32Array(rows * dim);
  let s = seed;
  for (let i = 0; i < a.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0; // 32-bit LCG (a plain * loses bits past 2^53)
    a[i] = s / 4294967296 - 0.5;
  }
  return a;
}

describe('M.Table', () => {
  it('answers neighbours, analogies, PCA, rows, norms and similarities like the copying calls', () => {
    const rows = 500, dim = 32, a = table(rows, dim);
    const t = M.Table.fromArray(a, rows, dim, { labels: Array.from({ length: rows }, (_, i) => `w${i}`) });
    assert.equal(t.rows, rows);
    assert.equal(t.dim, dim);
    assert.equal(t.labels[7], 'w7');
    assert.deepEqual(t.row(3), a.subarray(3 * dim, 4 * dim));
    for (const metric of ['cosine', 'euclidean']) {
      assert.deepEqual(t.neighbours({ id: 11, k: 10, metric }), M.nearest(a, rows, dim, { id: 11, k: 10, metric }));
    }
    assert.deepEqual(t.neighbours({ vector: a.subarray(0, dim), k: 5 }), M.nearest(a, rows, dim, { vector: a.subarray(0, dim), k: 5 }));
    assert.deepEqual(t.analogy({ positive: [1, 2], negative: [3], k: 5 }), M.analogy(a, rows, dim, { positive: [1, 2], negative: [3], k: 5 }));
    const p = t.pca({ k: 2 });
    assert.deepEqual(p.points, M.pca(a, rows, dim, { k: 2 }).points);
    const norms = t.norms();
    assert.ok(Math.abs(norms[4] - Math.hypot(...a.subarray(4 * dim, 5 * dim))) < 1e-5);
    const sim = t.similarity([4, 9]);
    assert.ok(Math.abs(sim[0] - 1) < 1e-6 && Math.abs(sim[3] - 1) < 1e-6 && sim[1] === sim[2]);
    t.delete();
    assert.throws(() => t.rows, { message: 'rows: this Table was deleted' });
  });

  it('refuses bad input with the value and the limit, and stays usable', () => {
    const t = M.Table.fromArray(table(10, 4), 10, 4);
    assert.throws(() => t.neighbours({ id: 10 }), { message: 'Table.neighbours: id 10 must be an integer in [0, 9]' });
    assert.throws(() => t.row(-1), { message: 'Table.row: row -1 must be an integer in [0, 9]' });
    assert.throws(() => M.Table.fromArray(new Float32Array(5), 2, 3), { message: 'Table.fromArray: data has 5 values, expected 2 x 3' });
    assert.throws(() => t.setLabels(['a']), { message: 'Table.setLabels: labels: 1 labels for 10 rows' });
    assert.equal(t.neighbours({ id: 2, k: 3 }).ids.length, 3);
    t.delete();
  });

  it('imports bytes: an .npy written by the engine comes back bit for bit, with the format named', () => {
    const a = table(7, 5, 3);
    const t = M.Table.fromBytes(M.npyBytes(a, 7, 5));
    assert.equal(t.format, 'npy');
    assert.deepEqual([t.rows, t.dim], [7, 5]);
    assert.deepEqual(t.row(6), a.subarray(30, 35));
    assert.deepEqual(new Uint8Array(t.export('npy')), new Uint8Array(M.npyBytes(a, 7, 5)));
    t.delete();
    // a truncated file: refused with a message, nothing half-loaded
    assert.throws(() => M.Table.fromBytes(M.npyBytes(a, 7, 5).subarray(0, 100)), /npy/);
  });

  it('normalised() is a new resident table of unit rows: same labels, same cosines, zero rows stay zero', () => {
    const rows = 200, dim = 19, a = table(rows, dim, 5);
    a.fill(0, 7 * dim, 8 * dim); // row 7 is all zeros
    const t = M.Table.fromArray(a, rows, dim, { labels: Array.from({ length: rows }, (_, i) => `w${i}`) });
    const u = t.normalised();
    assert.deepEqual([u.rows, u.dim, u.labels[3]], [rows, dim, 'w3']);
    const norms = u.norms();
    for (let r = 0; r < rows; r++) assert.ok(r === 7 ? norms[r] === 0 : Math.abs(norms[r] - 1) < 1e-6, `norm of row ${r}: ${norms[r]}`);
    assert.ok(u.row(7).every((v) => v === 0));
    const r3 = t.row(3);
    const n3 = Math.hypot(...r3);
    u.row(3).forEach((v, c) => assert.ok(Math.abs(v - r3[c] / n3) < 1e-6));
    // cosines are unchanged; dot products of unit rows are the cosines; distances are at most 2
    const before = t.neighbours({ id: 3, k: 8 });
    const after = u.neighbours({ id: 3, k: 8 });
    assert.deepEqual(after.ids, before.ids);
    after.scores.forEach((s, i) => assert.ok(Math.abs(s - before.scores[i]) < 1e-6));
    const dots = u.similarity([3, 4, 5], { cosine: false });
    const cos = t.similarity([3, 4, 5]);
    dots.forEach((d, i) => assert.ok(Math.abs(d - cos[i]) < 1e-6));
    assert.ok(u.neighbours({ id: 3, k: 10, metric: 'euclidean' }).scores.every((d) => d <= 2));
    assert.deepEqual(t.row(3), r3); // the original is unchanged
    u.delete();
    assert.equal(t.rows, rows); // and still usable
    t.delete();
  });

  it('normalised() refuses a table with a non-finite value, naming it, and a deleted table', () => {
    const a = table(4, 3);
    a[7] = NaN;
    const t = M.Table.fromArray(a, 4, 3);
    assert.throws(() => t.normalised(), { message: 'unit_rows: table value nan at row 2, column 1 is not finite' });
    t.delete();
    assert.throws(() => t.normalised(), { message: 'normalised: this Table was deleted' });
  });

  it('the table benchmark runs in wasm (figures: scripts/bench table, not a timed test)', () => {
    const r = M.benchTable({ rows: 3000, dim: 64, reps: 2 });
    assert.equal(r.bench, 'table');
    assert.ok(r.neighbours_ms >= 0 && r.pca_ms >= 0);
  });
});

describe('GPT-2 checkpoints', () => {
  it('a wte.weight tensor of 50257 rows comes labelled with the GPT-2 token strings, also from a file slice', () => {
    // a safetensors file in memory: 8-byte LE header length, JSON header, F32 data
    const rows = 50257, dim = 4;
    const data = new Float32Array(rows * dim).map((_, i) => Math.sin(i));
    const header = new TextEncoder().encode(JSON.stringify({ 'wte.weight': { dtype: 'F32', shape: [rows, dim], data_offsets: [0, data.byteLength] } }));
    const file = new Uint8Array(8 + header.length + data.byteLength);
    new DataView(file.buffer).setBigUint64(0, BigInt(header.length), true);
    file.set(header, 8);
    file.set(new Uint8Array(data.buffer), 8 + header.length);
    const t = M.Table.fromBytes(file);
    assert.equal(t.recognised, 'gpt2 token table');
    assert.equal(t.labels[15496], 'Hello');
    assert.deepEqual(t.row(7), data.subarray(28, 32));
    t.delete();
    // the page's way: the header first, then only the tensor's bytes (File.slice)
    const size = M.Table.safetensorsHeaderSize(file.subarray(0, 8));
    const [info] = M.Table.safetensorsHeader(file.subarray(0, size));
    assert.deepEqual([info.name, info.dtype, info.shape], ['wte.weight', 'F32', [rows, dim]]);
    const u = M.Table.fromTensor(file.subarray(info.begin, info.end), { dtype: info.dtype, shape: info.shape, name: info.name });
    assert.equal(u.recognised, 'gpt2 token table');
    assert.equal(u.labels[995], ' world');
    assert.deepEqual(u.neighbours({ id: 3, k: 4 }), M.nearest(data, rows, dim, { id: 3, k: 4 }));
    u.delete();
  });
});
