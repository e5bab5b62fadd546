// The page <-> worker message protocol (web/src/protocol.js) and the worker's handler for the
// 'table' request driven by the real wasm module (web/src/engine/table-handler.js).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { PendingRequests, blame, blamed, collectTransfers, makeDispatcher, makeRequest } from '../../web/src/protocol.js';
import { errorTarget, failedField } from '../../web/src/error-target.js';

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

describe('protocol: a wasm trap', () => {
  it('fails that request and every later one with a message to reload, never computing on a damaged module', async () => {
    let calls = 0;
    const dispatch = makeDispatcher({
      ok: () => ++calls,
      trap: () => blame(['T'], () => {
        throw new WebAssembly.RuntimeError('memory access out of bounds');
      }),
    });
    assert.deepEqual(await dispatch(makeRequest(1, 'ok')), { id: 1, ok: true, result: 1 });
    const stopped = 'engine: the wasm module stopped (memory access out of bounds); reload the page to restart it';
    assert.deepEqual(await dispatch(makeRequest(2, 'trap', {}, { T: 'len' })), { id: 2, ok: false, message: stopped, fields: ['len'] });
    assert.deepEqual(await dispatch(makeRequest(3, 'ok')), { id: 3, ok: false, message: stopped });
    assert.equal(calls, 1);
  });
});

describe('protocol: which field caused a failure', () => {
  const SIZE = 'positions: similarity matrix 65536 x 65536 float32 need 16.0 GiB; the limit here is 2.0 GiB';
  const dispatch = makeDispatcher({
    positions: ({ T, D }) => {
      blame(['T', 'D'], () => (D % 2 ? Promise.reject(new Error('sinusoidal: dim must be even, got 3')) : null));
      return blame(['T'], () => {
        if (T > 4096) throw new Error(SIZE);
        return T * D;
      });
    },
    nested: () => blame(['corpus'], () => blame(['bpeV'], () => {
      throw new Error('bpe train: vocab_size must be >= 256, got 100');
    })),
    later: ({ L }) => blame(['L', 'stride'], async () => {
      if (L < 1) throw new Error('windows: max_length must be >= 1, got 0');
      return L;
    }),
    unblamed: () => {
      throw new Error('windows: tokenize a text first');
    },
  });

  it('a failure lists the page fields of the blamed arguments, renamed by the request', async () => {
    assert.deepEqual(await dispatch(makeRequest(1, 'positions', { T: 65536, D: 64 }, { D: 'pd' })), { id: 1, ok: false, message: SIZE, fields: ['T'] });
    assert.deepEqual(await dispatch(makeRequest(2, 'positions', { T: 16, D: 64 }, { D: 'pd' })), { id: 2, ok: true, result: 1024 });
  });

  it('arguments without a name in the request are fields of the same name', async () => {
    assert.deepEqual((await dispatch(makeRequest(3, 'positions', { T: 65536, D: 64 }))).fields, ['T']);
  });

  it('the blame closest to the engine call wins', async () => {
    assert.deepEqual((await dispatch(makeRequest(4, 'nested'))).fields, ['bpeV']);
  });

  it('async calls are blamed too; a failure nobody blamed has no fields', async () => {
    assert.deepEqual(await dispatch(makeRequest(5, 'later', { L: 0 }, { stride: 'step' })), {
      id: 5, ok: false, message: 'windows: max_length must be >= 1, got 0', fields: ['L', 'step'],
    });
    assert.deepEqual(await dispatch(makeRequest(6, 'unblamed')), { id: 6, ok: false, message: 'windows: tokenize a text first' });
  });

  it('makeRequest carries fields only when given; blamed tags an error once', () => {
    assert.deepEqual(makeRequest(1, 'table', { V: 6 }), { id: 1, type: 'table', payload: { V: 6 } });
    assert.deepEqual(makeRequest(1, 'positions', { D: 8 }, { D: 'pd' }), { id: 1, type: 'positions', payload: { D: 8 }, fields: { D: 'pd' } });
    const e = blamed(new Error('x'), ['tok']);
    assert.deepEqual(blamed(e, ['V']).args, ['tok']);
    assert.equal(blamed('a string', ['V']), 'a string');
  });

  it('the page side rejects with an Error carrying the fields', async () => {
    const p = new PendingRequests();
    const a = p.open('positions');
    p.settle({ id: a.id, ok: false, message: SIZE, fields: ['T'] });
    await assert.rejects(a.promise, (err) => err.message === SIZE && err.fields.length === 1 && err.fields[0] === 'T');
    const b = p.open('table');
    p.settle({ id: b.id, ok: false, message: 'lookup: token id 6 out of range [0, 6)' });
    await assert.rejects(b.promise, (err) => err.fields === undefined);
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
    const msg = 'Embedding: table 2000000000 x 1000 float32 need 7.3 TiB; the limit here is 2.0 GiB';
    assert.equal(errorTarget(msg, table, 'V'), 'V');
    assert.equal(errorTarget(msg, table, 'D'), 'D');
    assert.equal(errorTarget(msg, table, 'cmap'), 'seed');
  });

  it('failedField: the fields the worker named come first, also for values from the link', () => {
    const keys = ['seed', 'T', 'pd', 'sim'];
    const size = 'positions: similarity matrix 65536 x 65536 float32 need 16.0 GiB; the limit here is 2.0 GiB';
    assert.equal(failedField({ message: size, fields: ['T'] }, keys, null), 'T'); // was 'seed' before the worker named it
    assert.equal(failedField({ message: size, fields: ['T'] }, keys, 'seed'), 'T');
    const table = 'sinusoidal: position table 4096 x 1000000 float32 need 15.3 GiB; the limit here is 2.0 GiB';
    assert.equal(failedField({ message: table, fields: ['T', 'pd'] }, keys, 'pd'), 'pd');
    assert.equal(failedField({ message: table, fields: ['T', 'pd'] }, keys, null), 'T');
    assert.equal(failedField({ message: 'sinusoidal: dim must be even, got 3', fields: ['T', 'pd'] }, keys, 'T'), 'pd');
    // fields outside the view, or none: the message patterns and the last change decide as before
    assert.equal(failedField({ message: 'sinusoidal: dim must be even, got 3', fields: ['zzz'] }, keys, 'seed'), 'pd');
    assert.equal(failedField({ message: size }, keys, 'sim'), 'sim');
  });
});
