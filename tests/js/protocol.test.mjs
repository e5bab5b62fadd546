// The page <-> worker message protocol (web/src/protocol.js) and the worker's handler for the
// 'table' request driven by the real wasm module (web/src/engine/table-handler.js).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { PendingRequests, collectTransfers, makeDispatcher, makeRequest } from '../../web/src/protocol.js';
import { errorTarget } from '../../web/src/error-target.js';

describe('protocol.makeDispatcher', () => {
  const dispatch = makeDispatcher({
    add: ({ a, b }) => a + b,
    later: async ({ x }) => x * 2,
    boom: () => {
      throw new Error('Embedding: embeddingDim 0 must be an integer in [1, 2147483647]');
    },
    weird: () => {
      throw 'a string'; // eslint-disable-line no-throw-literal
    },
  });

  it('a reply echoes the id and carries the result', async () => {
    assert.deepEqual(await dispatch(makeRequest(7, 'add', { a: 2, b: 3 })), { id: 7, ok: true, result: 5 });
    assert.deepEqual(await dispatch(makeRequest(8, 'later', { x: 4 })), { id: 8, ok: true, result: 8 });
  });

  it('a failing handler replies ok:false with the error message', async () => {
    assert.deepEqual(await dispatch(makeRequest(9, 'boom')), {
      id: 9, ok: false, message: 'Embedding: embeddingDim 0 must be an integer in [1, 2147483647]',
    });
    assert.deepEqual(await dispatch(makeRequest(10, 'weird')), { id: 10, ok: false, message: 'worker: a string' });
  });

  it('unknown types and missing ids get a reply naming the problem', async () => {
    assert.deepEqual(await dispatch({ id: 3, type: 'nope' }), {
      id: 3, ok: false, message: 'protocol: unknown request type "nope", expected one of add, later, boom, weird',
    });
    assert.deepEqual(await dispatch({ type: 'add' }), { id: -1, ok: false, message: 'protocol: a request needs an integer id >= 1, got undefined' });
    assert.equal((await dispatch(null)).ok, false);
    assert.equal((await dispatch({ id: 4, type: 'toString' })).ok, false); // not an own handler
  });
});

describe('protocol.PendingRequests', () => {
  it('ids count up from 1 and each reply settles its own request', async () => {
    const p = new PendingRequests();
    const a = p.open('table');
    const b = p.open('positions');
    assert.deepEqual([a.id, b.id], [1, 2]);
    assert.equal(p.settle({ id: 2, ok: true, result: 'B' }), true);
    assert.equal(p.settle({ id: 1, ok: false, message: 'lookup: token id 10 out of range [0, 6)' }), true);
    assert.equal(await b.promise, 'B');
    await assert.rejects(a.promise, { message: 'lookup: token id 10 out of range [0, 6)' });
    assert.equal(p.size, 0);
  });

  it('a reply with an unknown id is ignored', () => {
    const p = new PendingRequests();
    p.open();
    assert.equal(p.settle({ id: 99, ok: true }), false);
    assert.equal(p.size, 1);
  });

  it('failAll rejects everything open', async () => {
    const p = new PendingRequests();
    const a = p.open();
    p.failAll('worker: died');
    await assert.rejects(a.promise, { message: 'worker: died' });
  });
});

describe('protocol.collectTransfers', () => {
  it('finds each typed-array buffer once, nested in objects and arrays', () => {
    const f = new Float32Array(4);
    const i = new Int32Array(2);
    const buffers = collectTransfers({ grid: { data: f, rowIndex: i }, again: f, list: [{ x: new Uint8Array(1) }], n: 3 });
    assert.equal(buffers.length, 3);
    assert.ok(buffers.includes(f.buffer) && buffers.includes(i.buffer));
  });

  it('skips empty buffers and plain values', () => {
    assert.deepEqual(collectTransfers({ a: new Float32Array(0), b: 'x', c: null }), []);
    assert.deepEqual(collectTransfers(5), []);
  });
});

describe('error-target.errorTarget', () => {
  const table = ['seed', 'V', 'D', 'pad', 'scale', 'tok'];
  it('routes engine messages to the control they name', () => {
    assert.equal(errorTarget('Embedding: embeddingDim 0.000000 must be an integer in [1, 2147483647]', table, 'seed'), 'D');
    assert.equal(errorTarget('Embedding: numEmbeddings 0.000000 must be an integer in [1, 2147483647]', table, 'D'), 'V');
    assert.equal(errorTarget('Embedding: padding_idx 9 out of range [-6, 6)', table, 'V'), 'pad');
    assert.equal(errorTarget('lookup: token id 10 out of range [0, 6)', table, 'V'), 'tok');
    assert.equal(errorTarget('sinusoidal: dim must be even, got 3', ['seed', 'T', 'pd', 'sim'], 'seed'), 'pd');
    assert.equal(errorTarget('LearnedPositions: context_length must be >= 1, got 0', ['seed', 'T', 'pd', 'sim'], 'seed'), 'T');
  });

  it('routes text-pipeline messages to their controls', () => {
    const win = ['corpus', 'enc', 'lower', 'bpeV', 'L', 'stride', 'B'];
    assert.equal(errorTarget('windows: stride must be >= 1, got 0', win, 'L'), 'stride');
    assert.equal(errorTarget('windows: max_length must be >= 1, got 0', win, 'stride'), 'L');
    assert.equal(errorTarget('windows: batch_size must be >= 1, got 0', win, 'L'), 'B');
    assert.equal(errorTarget('bpe train: vocab_size must be >= 256, got 100', win, 'L'), 'bpeV');
    assert.equal(errorTarget('text: no custom text yet; paste or upload some first', win, 'enc'), 'corpus');
  });

  it('a size message goes to the control changed last, else the first candidate', () => {
    const msg = 'Embedding: a table of 2000000000 x 1000 values needs 8000000000000 bytes, more than the limit of 3758096384 bytes';
    assert.equal(errorTarget(msg, table, 'V'), 'V');
    assert.equal(errorTarget(msg, table, 'D'), 'D');
    assert.equal(errorTarget(msg, table, 'cmap'), 'seed');
  });
});
