// node:test for calls that fail after the engine has made something (issue 22: "Table.fromArray
// ({labels}) and Table.fromBytes({metadata}) leak the whole table when they fail; 120 such calls
// use up the 4 GiB"). Each test fails a call on a 32 MiB table CALLS times and asserts that the
// bytes malloc has handed out (M._heapInUse(), a mallinfo diagnostic, src/bindings/diagnostics.cpp)
// are the same after the calls as before them: a leak of even one table per call shows as
// 32 MiB more in use. 'the check sees a leaked table' plants such a leak and checks that it fails.
//
// Not here: failures rejected before anything is made (limits.test.mjs hammers those).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './load-engine.mjs';

const ROWS = 8192, DIM = 1024;                 // 32 MiB of float32
const CALLS = 8;

let M;
before(async () => { M = await loadEngine(); });

// Runs call() CALLS times; each must throw `message`; the bytes in use must not change after the
// first (which may leave lasting allocations of the engine's own, made once).
function failsFlat(t, call, message) {
  assert.throws(call, { message });
  const inUse = M._heapInUse(), stack = M.stackSave();
  for (let i = 0; i < CALLS; i++) {
    assert.throws(call, { message }, `call ${i}`);
  }
  assert.equal(M._heapInUse(), inUse, `bytes in use after ${CALLS} failing calls (before: ${inUse})`);
  assert.equal(M.stackSave(), stack, 'the stack pointer is unchanged');
  t.diagnostic(`${CALLS} failing calls on a ${(ROWS * DIM * 4) / 2 ** 20} MiB table; ${inUse} bytes in use before and after`);
  // the module works, and a table of the same size still fits
  const ok = M.Table.fromArray(new Float32Array(ROWS * DIM), ROWS, DIM);
  assert.equal(ok.rows, ROWS);
  ok.delete();
}

describe('failing calls that would make a table', () => {
  const data = Float32Array.from({ length: ROWS * DIM }, (_, i) => (i % 97) / 97);

  it('Table.fromArray with labels of the wrong count makes no table', (t) => {
    failsFlat(t, () => M.Table.fromArray(data, ROWS, DIM, { labels: ['a', 'b'] }),
      `Table.setLabels: labels: 2 labels for ${ROWS} rows`);
  });

  it('Table.fromBytes with metadata that does not fit deletes the table it read', (t) => {
    const npy = M.npyBytes(data, ROWS, DIM);
    const bad = 'w\ta\nx\tb\n';  // a header and one row for 8192 rows
    let message;
    try { M.Table.fromBytes(npy, { metadata: bad }); } catch (e) { message = e.message; }
    assert.match(message, /8192 rows/);
    failsFlat(t, () => M.Table.fromBytes(npy, { metadata: bad }), message);
    const good = M.Table.fromBytes(npy, { metadata: Array.from({ length: ROWS }, (_, i) => `w${i}`).join('\n') + '\n' });
    assert.equal(good.labels[5], 'w5');
    good.delete();
  });

  it('the check sees a leaked table', (t) => {
    const leaked = [];
    const leaky = () => { leaked.push(M.Table.fromArray(data, ROWS, DIM)); throw new Error('planted'); };
    assert.throws(() => failsFlat(t, leaky, 'planted'), (e) => e instanceof assert.AssertionError && /bytes in use/.test(e.message));
    for (const table of leaked) table.delete();
  });

  it('Table.fromBytes with metadata that is not text fails before reading the file', () => {
    const npy = M.npyBytes(new Float32Array(4), 2, 2);
    assert.throws(() => M.Table.fromBytes(npy, { metadata: 42 }),
      { message: 'Table.attachMetadata: expected the file\'s bytes (Uint8Array or ArrayBuffer), got 42' });
  });
});
