// The page <-> worker message protocol (web/src/protocol.js) and the worker's handler for the
// 'table' request driven by the real wasm module (web/src/handlers/table-handler.js).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import {
  CANCELLED, JobBoard, NO_JOB, PROGRESS_DELAY_MS, PendingRequests, blame, blamed, collectTransfers, isCancel, isProgress,
  makeCancel, makeDispatcher, makeProgress, makeRequest, replyCancelled,
} from '../../web/src/protocol.js';
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

// Long jobs: progress messages from the worker, cancel messages that bypass its queue
// (protocol.js header). The worker's onmessage is modelled by `deliver` below: cancel marks the
// board at once, a request is opened on the board and queued behind the one before it.
describe('protocol: long jobs report progress and can be cancelled', () => {
  // A fake clock advanced by every yield, so progress timing does not depend on the machine.
  function rig(handlers) {
    let clock = 0;
    const posted = [];
    const board = new JobBoard((m) => posted.push(m), {
      yieldTask: () => new Promise((r) => setTimeout(r, 0)).then(() => (clock += 30)),
      now: () => clock,
    });
    const dispatch = makeDispatcher(handlers, board);
    let queue = Promise.resolve();
    const replies = [];
    const deliver = (msg) => {
      if (isCancel(msg)) return board.cancel(msg.id);
      board.open(msg.id);
      const done = queue.then(() => dispatch(msg)).then((r) => (replies.push(r), r));
      queue = done;
      return done;
    };
    return { board, posted, replies, deliver };
  }
  let chunks = 0;
  const handlers = {
    long: async ({ n }, job) => {
      for (let i = 1; i <= n; i++) {
        chunks++;
        await job.tick(i, n, `chunk ${i}`);
      }
      return n;
    },
    quick: ({ x }) => x,
  };

  it('messages: progress {id, type, done, total, note}, cancel {id, type}, the cancelled reply', () => {
    assert.deepEqual(makeProgress(3, 5, 10, 'rows'), { id: 3, type: 'progress', done: 5, total: 10, note: 'rows' });
    assert.deepEqual(makeCancel(3), { id: 3, type: 'cancel' });
    assert.deepEqual(replyCancelled(3), { id: 3, ok: false, cancelled: true, message: CANCELLED });
    assert.ok(isProgress(makeProgress(1, 0, 1)) && !isProgress({ id: 1, ok: true }) && !isProgress(null));
    assert.ok(isCancel(makeCancel(2)) && !isCancel(makeRequest(2, 'cancel2')) && !isCancel({ type: 'cancel' }));
  });

  it('a job posts progress once it has run PROGRESS_DELAY_MS, then throttled, and replies with its result', async () => {
    chunks = 0;
    const { posted, deliver } = rig(handlers);
    const reply = await deliver(makeRequest(1, 'long', { n: 40 }));
    assert.deepEqual(reply, { id: 1, ok: true, result: 40 });
    assert.equal(chunks, 40);
    assert.ok(posted.length >= 5 && posted.length < 40, `${posted.length} progress messages`);
    assert.ok(posted.every((m) => isProgress(m) && m.id === 1 && m.total === 40));
    assert.ok(posted[0].done * 30 >= PROGRESS_DELAY_MS, `first progress at chunk ${posted[0].done}`);
    const dones = posted.map((m) => m.done);
    assert.deepEqual(dones, [...dones].sort((a, b) => a - b));
    assert.match(posted.at(-1).note, /^chunk \d+$/);
  });

  it('a cancel stops a running job at its next chunk; the reply says cancelled; later requests run', async () => {
    chunks = 0;
    const { board, posted, deliver } = rig(handlers);
    const running = deliver(makeRequest(5, 'long', { n: 1000 }));
    const queued = deliver(makeRequest(6, 'quick', { x: 'after' }));
    while (posted.length === 0) await new Promise((r) => setTimeout(r, 0));
    assert.equal(deliver(makeCancel(5)), true); // handled now, not behind request 5 in the queue
    assert.deepEqual(await running, { id: 5, ok: false, cancelled: true, message: 'cancelled' });
    assert.ok(chunks < 1000 && chunks <= posted.at(-1).done + 1, `ran ${chunks} chunks after the cancel`);
    assert.deepEqual(await queued, { id: 6, ok: true, result: 'after' });
    assert.equal(board.isCancelled(5), false, 'the board forgets settled requests');
  });

  it('a request cancelled while queued never runs; cancelling a settled or unknown request does nothing', async () => {
    chunks = 0;
    const { deliver } = rig(handlers);
    const first = deliver(makeRequest(1, 'long', { n: 3 }));
    const second = deliver(makeRequest(2, 'long', { n: 3 }));
    deliver(makeCancel(2));
    assert.deepEqual(await first, { id: 1, ok: true, result: 3 });
    assert.deepEqual(await second, { id: 2, ok: false, cancelled: true, message: 'cancelled' });
    assert.equal(chunks, 3, 'request 2 ran');
    assert.equal(deliver(makeCancel(1)), false);
    assert.equal(deliver(makeCancel(99)), false);
    assert.deepEqual(await deliver(makeRequest(3, 'quick', { x: 1 })), { id: 3, ok: true, result: 1 });
  });

  it('an error that only looks cancelled is an ordinary failure', async () => {
    const { deliver } = rig({
      fake: () => {
        throw Object.assign(new Error('cancelled'), { cancelled: true });
      },
    });
    assert.deepEqual(await deliver(makeRequest(1, 'fake')), { id: 1, ok: false, message: 'cancelled' });
  });

  it('without a board handlers get NO_JOB: never cancelled, tick resolves', async () => {
    let seen = null;
    const dispatch = makeDispatcher({ h: async (p, job) => ((seen = job), await job.tick(1, 2, 'x'), 'ok') });
    assert.deepEqual(await dispatch(makeRequest(1, 'h')), { id: 1, ok: true, result: 'ok' });
    assert.equal(seen, NO_JOB);
    assert.equal(NO_JOB.cancelled, false);
  });

  it('the page side: progress goes to the request\'s onProgress; a cancelled reply rejects with err.cancelled', async () => {
    const p = new PendingRequests();
    const seen = [];
    const a = p.open('positions', { onProgress: (m) => seen.push(m) });
    assert.equal(p.has(a.id), true);
    assert.equal(p.progress(makeProgress(a.id, 1, 4, 'rows')), true);
    assert.equal(p.progress(makeProgress(99, 1, 4)), false);
    assert.equal(p.progress({ id: a.id, ok: true, result: 1 }), false, 'a reply is not progress');
    assert.deepEqual(seen, [makeProgress(a.id, 1, 4, 'rows')]);
    p.settle(replyCancelled(a.id));
    await assert.rejects(a.promise, (err) => err.cancelled === true && err.message === 'cancelled');
    assert.equal(p.has(a.id), false);
    assert.equal(p.progress(makeProgress(a.id, 2, 4)), false, 'no progress after the reply');
    const b = p.open('table');
    p.settle({ id: b.id, ok: false, message: 'lookup: token id 6 out of range [0, 6)' });
    await assert.rejects(b.promise, (err) => err.cancelled === undefined);
  });
});

// The two long jobs of the page on the real engine: the positions view at large T and the BPE
// tokenizer build. Their results are the engine's numbers, bit for bit, and they stop on cancel.
describe('protocol: the page\'s long jobs on the wasm engine', () => {
  let M;
  before(async () => {
    const { loadEngine } = await import('./load-engine.mjs');
    M = await loadEngine();
  });

  it('positions: the grid and the distance check equal the full position_similarity, bit for bit', async () => {
    const { makePositionsHandler } = await import('../../web/src/handlers/positions-handler.js');
    const { bitsEqual, strideSample, toeplitzDeviation } = await import('../../web/src/arrays.js');
    const h = makePositionsHandler(M);
    for (const [T, D, sim, maxSide] of [[16, 8, 'cos', 384], [300, 12, 'dot', 64], [700, 64, 'cos', 384], [129, 10, 'cos', 50]]) {
      const r = await h.positions({ seed: 5, T, D, sim, maxSide });
      const tables = { sinusoidal: M.sinusoidal(T, D), learned: (M.manualSeed(5), M.learnedPositions(T, D)), rope: M.ropeTable(T, D) };
      for (const k of r.kinds) {
        const full = M.positionSimilarity(tables[k.name], T, D, { cosine: sim === 'cos' });
        const g = strideSample(full, T, T, maxSide, maxSide);
        assert.ok(bitsEqual(g.data, k.similarity.data), `${k.name} T=${T} D=${D} ${sim}: grid differs`);
        assert.deepEqual([...k.similarity.rowIndex], [...g.rowIndex]);
        assert.equal(k.similarity.sampled, g.sampled);
        assert.equal(k.toeplitz, toeplitzDeviation(full, T), `${k.name} T=${T} D=${D} ${sim}: distance check differs`);
      }
    }
  });

  it('positions at T = 8192 reports progress and stops within one chunk of a cancel', async () => {
    const { makePositionsHandler } = await import('../../web/src/handlers/positions-handler.js');
    const posted = [];
    // every slice boundary (job.tick) yields one macrotask through yieldTask: count them
    let ticks = 0;
    const yieldTask = () => ((ticks += 1), new Promise((r) => setImmediate(r)));
    const board = new JobBoard((m) => posted.push(m), { yieldTask });
    const dispatch = makeDispatcher(makePositionsHandler(M), board);
    board.open(1);
    const reply = dispatch(makeRequest(1, 'positions', { seed: 1, T: 8192, D: 64, sim: 'cos', maxSide: 384 }));
    while (posted.length < 2) await new Promise((r) => setImmediate(r));
    const [ticksAtCancel, postedAtCancel] = [ticks, posted.length];
    board.cancel(1);
    assert.deepEqual(await reply, replyCancelled(1));
    // the job stops at its next slice: at most the slice in flight reaches one more tick, which throws
    assert.ok(ticks - ticksAtCancel <= 1, `${ticks - ticksAtCancel} slices ran after the cancel`);
    assert.equal(posted.length, postedAtCancel, 'progress was posted after the cancel');
    assert.ok(posted.every((m) => m.id === 1 && m.done > 0 && m.done < m.total), JSON.stringify(posted.at(-1)));
    assert.ok(posted.every((m, i) => i === 0 || m.done > posted[i - 1].done), 'progress did not advance between messages');
    assert.match(posted.at(-1).note, /^distance check, sinusoidal \(1 of 3\): row \d+ of 8192$/);
  });

  it('the BPE tokenizer build yields: progress, cancel, and the ids of Tokenizer.make(\'bpe\')', async () => {
    const fs = await import('node:fs');
    const { makeTextPipeline } = await import('../../web/src/handlers/text-handler.js');
    const shakespeare = fs.readFileSync(new URL('../../web/corpora/tinyshakespeare.txt', import.meta.url), 'utf8');
    const big = shakespeare.repeat(3); // 3.3 MB
    const text = makeTextPipeline(M, async () => big, { putText: async () => {}, getText: async () => null });
    const posted = [];
    // the page's Cancel, pressed as the first progress message arrives (so the build is cancelled
    // mid-way however fast this machine runs it: its next slice must stop it). The board's clock
    // moves a second per reading, so every slice posts progress, the first one included: the
    // BPE trainer may finish all 2,744 merges before a real clock reaches PROGRESS_DELAY_MS.
    let clock = 0;
    const board = new JobBoard((m) => {
      posted.push(m);
      if (posted.length === 1) board.cancel(1);
    }, { now: () => (clock += 1000) });
    const dispatch = makeDispatcher(text.handlers, board);
    const payload = { corpus: 'tinyshakespeare', enc: 'bpe', lower: false, bpeV: 3000 };
    board.open(1);
    const reply = dispatch(makeRequest(1, 'tokenize', payload));
    assert.deepEqual(await reply, replyCancelled(1));
    assert.equal(posted.length, 1, 'progress was posted after the cancel');
    assert.match(posted[0].note, /^training BPE: [\d,]+ of 3,000 ids$/);
    assert.equal(posted[0].total, 3000 - 256);
    // again, to the end: the same ids as the engine's one-call factory
    board.open(2);
    const ok = await dispatch(makeRequest(2, 'tokenize', payload));
    assert.equal(ok.ok, true, ok.message);
    const direct = M.Tokenizer.make('bpe', big, { vocabSize: 3000 });
    const ids = direct.encode(big);
    assert.equal(ok.result.tokens, ids.length);
    assert.equal(ok.result.vocabSize, 3000);
    const slice = await dispatch(makeRequest(3, 'tokenSlice', { start: 1000, count: 200 }));
    assert.deepEqual([...slice.result.ids], [...ids.subarray(1000, 1200)]);
    direct.delete();
  });
});
