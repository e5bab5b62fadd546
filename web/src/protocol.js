// The message protocol between the page and its worker. Pure (no DOM, no Worker), tested in
// Node (tests/js/protocol.test.mjs).
//
//   request  page -> worker   {id, type, payload}
//   reply    worker -> page   {id, ok: true, result} | {id, ok: false, message}
//   ready    worker -> page   {id: 0, type: 'ready', ok, result: {isa}} | {id: 0, type: 'ready', ok: false, message}
//
// Every request gets exactly one reply carrying its id, failures included; the message of a
// failure is the C++ Error's text ("Embedding: embeddingDim 0 must be ...").
// `type` is a verb naming what the worker should do ('table', 'positions', 'tokenize', ...).
//
// Intended usage:
//   worker:  const dispatch = makeDispatcher({table: (p) => ..., positions: async (p) => ...});
//            onmessage = async (e) => { const r = await dispatch(e.data); postMessage(r, collectTransfers(r)); };
//   page:    const pending = new PendingRequests();
//            const {id, promise} = pending.open(); worker.postMessage(makeRequest(id, 'table', {...}));
//            worker.onmessage = (e) => pending.settle(e.data);

export const READY_ID = 0;

export function makeRequest(id, type, payload) {
  return { id, type, payload: payload ?? {} };
}

export function replyOk(id, result) {
  return { id, ok: true, result };
}

export function replyError(id, message) {
  return { id, ok: false, message: String(message) };
}

function messageOf(err) {
  if (err && typeof err.message === 'string' && err.message) return err.message;
  return `worker: ${String(err)}`;
}

// handlers: {type: (payload) -> result | Promise<result>} -> async (msg) -> reply (never throws)
export function makeDispatcher(handlers) {
  const types = Object.keys(handlers);
  return async function dispatch(msg) {
    const id = msg && Number.isInteger(msg.id) ? msg.id : -1;
    if (id < 1) return replyError(id, `protocol: a request needs an integer id >= 1, got ${JSON.stringify(msg && msg.id)}`);
    const type = msg.type;
    if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(handlers, type)) {
      return replyError(id, `protocol: unknown request type ${JSON.stringify(type)}, expected one of ${types.join(', ')}`);
    }
    try {
      return replyOk(id, await handlers[type](msg.payload ?? {}));
    } catch (err) {
      return replyError(id, messageOf(err));
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

  // -> {id, promise}; the promise resolves with result or rejects with Error(message).
  open(type = '') {
    const id = this.nextId++;
    const promise = new Promise((resolve, reject) => this.open_.set(id, { resolve, reject, type }));
    return { id, promise };
  }

  get size() {
    return this.open_.size;
  }

  // reply -> true if it matched an open request.
  settle(reply) {
    const entry = reply && this.open_.get(reply.id);
    if (!entry) return false;
    this.open_.delete(reply.id);
    if (reply.ok) entry.resolve(reply.result);
    else entry.reject(new Error(reply.message || `${entry.type}: failed without a message`));
    return true;
  }

  // Rejects everything still open (the worker died).
  failAll(message) {
    for (const [, entry] of this.open_) entry.reject(new Error(message));
    this.open_.clear();
  }
}
