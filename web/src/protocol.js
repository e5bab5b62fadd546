// The message protocol between the page and its worker. Pure (no DOM, no Worker), tested in
// Node (tests/js/protocol.test.mjs).
//
//   request  page -> worker   {id, type, payload[, fields]}
//   reply    worker -> page   {id, ok: true, result} | {id, ok: false, message[, fields]}
//   ready    worker -> page   {id: 0, type: 'ready', ok, result: {isa}} | {id: 0, type: 'ready', ok: false, message}
//   progress worker -> page   {id, type: 'progress', done, total, note}   (zero or more, before the reply)
//   cancel   page -> worker   {id, type: 'cancel'}                         (id: the request to stop; no reply of its own)
//   cancelled reply           {id, ok: false, cancelled: true, message: 'cancelled'}
//
// Every request gets exactly one reply carrying its id, failures included; the message of a
// failure is the C++ Error's text ("Embedding: embeddingDim 0 must be ...").
// `type` is a verb naming what the worker should do ('table', 'positions', 'tokenize', ...).
//
// Which page field caused a failure is passed along, not guessed from the text: a handler
// wraps each engine call in blame(['T', 'D'], () => M.sinusoidal(T, D)), naming the payload
// arguments the call depends on (most likely culprit first). The request may say which page
// field produced each argument (`fields`: {D: 'pd'}; unnamed arguments are fields of the same
// name), and the failure reply lists those fields: {ok: false, message, fields: ['T', 'pd']}.
//
// Long jobs (anything that can take over 0.5 s) work in chunks and say how far they are. A
// handler is called as handler(payload, job); between chunks it awaits
//     await job.tick(done, total, note)      // e.g. (4096, 8192, 'distance check: RoPE')
// which yields one macrotask (so the worker sees a cancel message that arrived meanwhile),
// throws a cancelled error if the request was cancelled, and posts a progress message (the
// first after PROGRESS_DELAY_MS of work, then at most every PROGRESS_EVERY_MS, so quick jobs
// send none). The worker handles cancel messages as they arrive, outside its one-at-a-time
// queue (JobBoard.cancel): a running job stops at its next tick, a queued one is answered
// 'cancelled' without running. Cancelling a request that already finished does nothing. The
// page keeps what it drew last; a cancelled request rejects with err.cancelled = true.
//
// Intended usage:
//   worker:  const dispatch = makeDispatcher({table: (p) => ..., positions: async (p) => ...});
//            onmessage = async (e) => { const r = await dispatch(e.data); postMessage(r, collectTransfers(r)); };
//   page:    const pending = new PendingRequests();
//            const {id, promise} = pending.open(); worker.postMessage(makeRequest(id, 'table', {...}));
//            worker.onmessage = (e) => pending.settle(e.data);
//   long:    const board = new JobBoard((m) => postMessage(m)); const dispatch = makeDispatcher(handlers, board);
//            onmessage: if (isCancel(e.data)) board.cancel(e.data.id) at once, else board.open(id) and queue it.
//            page: pending.open(type, {onProgress}); pending.progress(msg) routes progress messages;
//            worker.postMessage(makeCancel(id)) stops request id.

export const READY_ID = 0;
export const CANCELLED = 'cancelled'; // the message of a cancelled request's reply
export const PROGRESS_DELAY_MS = 150; // a job's first progress message after this much work
export const PROGRESS_EVERY_MS = 100; // then at most one per this many ms

// fields (optional): {payload argument: page field} where their names differ.
export function makeRequest(id, type, payload, fields) {
  return fields ? { id, type, payload: payload ?? {}, fields } : { id, type, payload: payload ?? {} };
}

export function replyOk(id, result) {
  return { id, ok: true, result };
}

// fields (optional): the page fields the failure concerns, most likely first.
export function replyError(id, message, fields) {
  const r = { id, ok: false, message: String(message) };
  if (Array.isArray(fields) && fields.length) r.fields = fields;
  return r;
}

// The reply to a cancelled request.
export function replyCancelled(id) {
  return { id, ok: false, cancelled: true, message: CANCELLED };
}

// progress of request id: done of total units (any unit the job likes), note: what it is doing.
export function makeProgress(id, done, total, note = '') {
  return { id, type: 'progress', done, total, note: String(note) };
}

// page -> worker: stop request id.
export function makeCancel(id) {
  return { id, type: 'cancel' };
}

export const isProgress = (msg) => !!msg && msg.type === 'progress' && Number.isInteger(msg.id);
export const isCancel = (msg) => !!msg && msg.type === 'cancel' && Number.isInteger(msg.id);

// What job.tick throws once its request is cancelled.
export function cancelledError() {
  const err = new Error(CANCELLED);
  err.cancelled = true;
  return err;
}

const macrotask = () => new Promise((resolve) => setTimeout(resolve, 0));

// A job for handlers run without a board (Node tests, one-off calls): never cancelled, no progress.
export const NO_JOB = Object.freeze({ id: 0, cancelled: false, tick: () => Promise.resolve() });

// The worker's record of open requests and cancels. post(msg) sends a progress message.
// yieldTask and now are injectable for tests.
export class JobBoard {
  constructor(post, { yieldTask = macrotask, now = () => performance.now() } = {}) {
    this.post = post;
    this.yieldTask = yieldTask;
    this.now = now;
    this.open_ = new Map(); // id -> {cancelled}
  }

  // A request arrived (it may wait in the queue before it runs).
  open(id) {
    if (!this.open_.has(id)) this.open_.set(id, { cancelled: false });
  }

  // -> true when id was open (running or queued) and is now marked cancelled.
  cancel(id) {
    const entry = this.open_.get(id);
    if (!entry) return false;
    entry.cancelled = true;
    return true;
  }

  isCancelled(id) {
    const entry = this.open_.get(id);
    return !!entry && entry.cancelled;
  }

  close(id) {
    this.open_.delete(id);
  }

  // The handle a handler gets for request id (see the header).
  job(id) {
    const board = this;
    const start = this.now();
    let lastPost = -Infinity;
    return {
      id,
      get cancelled() {
        return board.isCancelled(id);
      },
      async tick(done, total, note) {
        await board.yieldTask();
        if (board.isCancelled(id)) throw cancelledError();
        const t = board.now();
        if (done === undefined || t - start < PROGRESS_DELAY_MS || t - lastPost < PROGRESS_EVERY_MS) return;
        lastPost = t;
        board.post(makeProgress(id, done, total, note));
      },
    };
  }
}

// err tagged with `args` (payload argument names) unless something closer to the engine call
// tagged it already; returns err.
export function blamed(err, args) {
  if (err && typeof err === 'object' && !Array.isArray(err.args)) {
    try {
      err.args = args;
    } catch {
      // a frozen error object: shown without a field
    }
  }
  return err;
}

// Runs fn() (sync or async); an error it throws is tagged by blamed(err, args). Returns what
// fn returns.
//   blame(['V', 'D'], () => new M.Embedding(V, D))
export function blame(args, fn) {
  try {
    const r = fn();
    if (r && typeof r.then === 'function') {
      return r.then(undefined, (err) => {
        throw blamed(err, args);
      });
    }
    return r;
  } catch (err) {
    throw blamed(err, args);
  }
}

// The page fields an error concerns: its blamed args renamed by the request's fields map.
function fieldsOf(err, fields) {
  const args = err && typeof err === 'object' && Array.isArray(err.args) ? err.args : [];
  const map = fields && typeof fields === 'object' ? fields : {};
  const out = [];
  for (const a of args) {
    const f = Object.prototype.hasOwnProperty.call(map, a) ? map[a] : a;
    if (typeof f === 'string' && !out.includes(f)) out.push(f);
  }
  return out;
}

function messageOf(err) {
  if (err && typeof err.message === 'string' && err.message) return err.message;
  return `worker: ${String(err)}`;
}

// A wasm trap (WebAssembly.RuntimeError: memory access out of bounds, unreachable, ...) leaves
// the module in an unknown state: its later answers could be wrong. The engine is built so no
// input reaches one; should one happen anyway, this request and every later one fail with
// this message instead of computing on a damaged module.
function trapMessage(err) {
  return `engine: the wasm module stopped (${err.message}); reload the page to restart it`;
}
const isTrap = (err) => typeof WebAssembly !== 'undefined' && err instanceof WebAssembly.RuntimeError;

// handlers: {type: (payload, job) -> result | Promise<result>} -> async (msg) -> reply (never
// throws). board (optional, a JobBoard): gives handlers a cancellable job with progress; without
// one they get NO_JOB.
export function makeDispatcher(handlers, board = null) {
  const types = Object.keys(handlers);
  let trapped = null; // the trap message, once the module trapped
  async function run(msg, id) {
    const type = msg.type;
    if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(handlers, type)) {
      return replyError(id, `protocol: unknown request type ${JSON.stringify(type)}, expected one of ${types.join(', ')}`);
    }
    if (trapped) return replyError(id, trapped);
    if (board && board.isCancelled(id)) return replyCancelled(id); // cancelled while it waited in the queue: never ran
    try {
      if (board) board.open(id);
      return replyOk(id, await handlers[type](msg.payload ?? {}, board ? board.job(id) : NO_JOB));
    } catch (err) {
      if (err && err.cancelled === true && board && board.isCancelled(id)) return replyCancelled(id);
      if (isTrap(err)) {
        trapped = trapMessage(err);
        return replyError(id, trapped, fieldsOf(err, msg.fields));
      }
      return replyError(id, messageOf(err), fieldsOf(err, msg.fields));
    }
  }
  return async function dispatch(msg) {
    const id = msg && Number.isInteger(msg.id) ? msg.id : -1;
    if (id < 1) return replyError(id, `protocol: a request needs an integer id >= 1, got ${JSON.stringify(msg && msg.id)}`);
    try {
      return await run(msg, id);
    } finally {
      if (board) board.close(id); // whatever the reply, the request is no longer open
    }
  };
}

// The ArrayBuffers of typed arrays found in a reply (two levels deep, arrays of them too),
// each once, so postMessage can move them instead of copying.
export function collectTransfers(value) {
  const seen = new Set();
  const visit = (v, depth) => {
    if (!v || typeof v !== 'object') return;
    if (ArrayBuffer.isView(v)) {
      if (v.buffer instanceof ArrayBuffer && v.buffer.byteLength > 0) seen.add(v.buffer);
      return;
    }
    if (depth > 3) return;
    for (const k of Object.keys(v)) visit(v[k], depth + 1);
  };
  visit(value, 0);
  return [...seen];
}

// Open requests on the page side: ids count up from 1; a reply settles the request with its id.
export class PendingRequests {
  constructor() {
    this.nextId = 1;
    this.open_ = new Map(); // id -> {resolve, reject, type}
  }

  // -> {id, promise}; the promise resolves with result or rejects with Error(message)
  // (carrying .fields when the reply names them, .cancelled = true for a cancelled request).
  // onProgress(msg) (optional) gets the request's progress messages.
  open(type = '', { onProgress = null } = {}) {
    const id = this.nextId++;
    const promise = new Promise((resolve, reject) => this.open_.set(id, { resolve, reject, type, onProgress }));
    return { id, promise };
  }

  get size() {
    return this.open_.size;
  }

  has(id) {
    return this.open_.has(id);
  }

  // progress message -> true if it matched an open request (its onProgress was called).
  progress(msg) {
    const entry = isProgress(msg) && this.open_.get(msg.id);
    if (!entry) return false;
    if (entry.onProgress) entry.onProgress(msg);
    return true;
  }

  // reply -> true if it matched an open request.
  settle(reply) {
    const entry = reply && this.open_.get(reply.id);
    if (!entry) return false;
    this.open_.delete(reply.id);
    if (reply.ok) entry.resolve(reply.result);
    else {
      const err = new Error(reply.message || `${entry.type}: failed without a message`);
      if (Array.isArray(reply.fields)) err.fields = reply.fields;
      if (reply.cancelled === true) err.cancelled = true;
      entry.reject(err);
    }
    return true;
  }

  // Rejects everything still open (the worker died).
  failAll(message) {
    for (const [, entry] of this.open_) entry.reject(new Error(message));
    this.open_.clear();
  }
}
