// The message protocol between the page and its worker. Pure (no DOM, no Worker), tested in
// Node (tests/js/protocol.test.mjs).
//
//   request  page -> worker   {id, type, payload[, fields]}
//   reply    worker -> page   {id, ok: true, result} | {id, ok: false, message[, fields]}
//   ready    worker -> page   {id: 0, type: 'ready', ok, result: {isa}} | {id: 0, type: 'ready', ok: false, message}
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
// Intended usage:
//   worker:  const dispatch = makeDispatcher({table: (p) => ..., positions: async (p) => ...});
//            onmessage = async (e) => { const r = await dispatch(e.data); postMessage(r, collectTransfers(r)); };
//   page:    const pending = new PendingRequests();
//            const {id, promise} = pending.open(); worker.postMessage(makeRequest(id, 'table', {...}));
//            worker.onmessage = (e) => pending.settle(e.data);

export const READY_ID = 0;

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

// handlers: {type: (payload) -> result | Promise<result>} -> async (msg) -> reply (never throws)
export function makeDispatcher(handlers) {
  const types = Object.keys(handlers);
  let trapped = null; // the trap message, once the module trapped
  return async function dispatch(msg) {
    const id = msg && Number.isInteger(msg.id) ? msg.id : -1;
    if (id < 1) return replyError(id, `protocol: a request needs an integer id >= 1, got ${JSON.stringify(msg && msg.id)}`);
    const type = msg.type;
    if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(handlers, type)) {
      return replyError(id, `protocol: unknown request type ${JSON.stringify(type)}, expected one of ${types.join(', ')}`);
    }
    if (trapped) return replyError(id, trapped);
    try {
      return replyOk(id, await handlers[type](msg.payload ?? {}));
    } catch (err) {
      if (isTrap(err)) {
        trapped = trapMessage(err);
        return replyError(id, trapped, fieldsOf(err, msg.fields));
      }
      return replyError(id, messageOf(err), fieldsOf(err, msg.fields));
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
  // (carrying .fields when the reply names them).
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
    else {
      const err = new Error(reply.message || `${entry.type}: failed without a message`);
      if (Array.isArray(reply.fields)) err.fields = reply.fields;
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
