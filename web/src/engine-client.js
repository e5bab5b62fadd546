// The one owner of the engine worker on the page. Everything that needs the wasm engine
// calls `engine.request(type, payload)` and gets a Promise; nothing else touches the Worker.
// It does not interpret results (views do) and never blocks: all engine work runs in
// worker.js.
//
// Intended usage:
//   const engine = new EngineClient('./worker.js');
//   const engine = new EngineClient('./worker.js', adoptWorker());  // a worker started earlier
//                                           // (engine-boot.js), with the events it sent meanwhile
//   const {isa} = await engine.ready;            // rejects with the load error
//   const r = await engine.request('table', {seed: 123, V: 6, D: 3});
//   // failures reject with Error(<the C++ message>), err.fields = the page fields it concerns
//   engine.request('positions', {T, D: state.pd}, {D: 'pd'});   // payload D came from field pd
//
// `latest(key, type, payload)` is request() for inputs that change quickly (typing in a
// field): a reply that arrives after a newer request with the same key resolves to null,
// so an old table never overwrites a newer one; the older request is cancelled (a long job
// stops at its next chunk, a queued one never runs).
//
// Long jobs (protocol.js): the worker sends progress messages for a request; the last argument
// of request()/latest() takes {onProgress(msg), signal (an AbortSignal: abort() cancels)}, and
// every progress message also goes to onJob (set by the page, which shows a progress bar with
// a Cancel button): onJob({phase: 'progress', id, key, done, total, note}) while it runs,
// onJob({phase: 'end', id, key}) when it settled. engine.cancel(id) stops request id; its
// promise rejects with err.cancelled = true (the page keeps its last plot).
//   const ac = new AbortController();
//   engine.request('positions', {T: 8192, D: 64}, {D: 'pd'}, {signal: ac.signal, onProgress: (p) => bar.show(p)});
//   ac.abort();
//
// Several views on one worker (the <embedlab-view> widgets of a page, element.js): each gets
// `engine.scope(name)`, the same request/latest/cancel with its latest() keys prefixed by
// `name:` (so one widget never supersedes another's request) and, on the requests whose state
// the worker keeps per slot (training, comparison, BPE: train-handler.js), slot: name.
//   const mine = engine.scope('element-2');   // views take it in place of the engine
import { PendingRequests, READY_ID, makeCancel, makeRequest } from './protocol.js';

// request types whose worker state is kept per slot (layout*: the training table's map is the slot's)
const SLOTTED = /^(train|compare|bpe|layout)[A-Z]/;

export class EngineClient {
  // url: the worker's script; started: {worker, early: [message/error events]} of a worker that
  // is running already (engine-boot.js): it is used instead, and its early events replayed
  constructor(url, started = null) {
    this.pending = new PendingRequests();
    this.generation = new Map(); // key -> latest request number
    this.latestId = new Map(); // key -> id of its newest request (cancelled when superseded)
    this.onJob = null; // (event) => void, set by the page (see the header)
    this.worker = started ? started.worker : new Worker(url, { type: 'module' });
    this.ready = new Promise((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    this.worker.onmessage = (e) => this.onMessage(e.data);
    this.onCrash = null; // (message) => void, set by the page
    this.onBusy = null; // (open requests) => void, set by the page
    this.worker.onerror = (e) => {
      const message = `worker: ${e.message || 'failed to load'}; reload the page to restart the engine`;
      this.rejectReady(new Error(message));
      this.pending.failAll(message);
      if (this.onCrash) this.onCrash(message);
    };
    for (const e of started ? started.early : []) {
      if (e.type === 'message') this.onMessage(e.data);
      else this.worker.onerror(e);
    }
  }

  onMessage(msg) {
    if (msg && msg.id === READY_ID && msg.type === 'ready') {
      if (msg.ok) this.resolveReady(msg.result);
      else this.rejectReady(new Error(msg.message));
      return;
    }
    if (this.pending.progress(msg)) return;
    this.pending.settle(msg);
  }

  // fields (optional): {payload argument: page field} where the names differ (protocol.js).
  // opts: {onProgress, signal, key} (key: what onJob reports: latest() passes its key; the page
  // shows a job without one on the visible view). -> a Promise with .id (the id for cancel()).
  request(type, payload, fields, { onProgress = null, signal = null, key = null } = {}) {
    const { id, promise } = this.pending.open(type, {
      onProgress: (msg) => {
        if (onProgress) onProgress(msg);
        if (this.onJob) this.onJob({ phase: 'progress', id, key, done: msg.done, total: msg.total, note: msg.note });
      },
    });
    this.worker.postMessage(makeRequest(id, type, payload, fields));
    this.busyChanged();
    const done = () => {
      this.busyChanged();
      if (this.onJob) this.onJob({ phase: 'end', id, key });
    };
    promise.then(done, done);
    if (signal) {
      if (signal.aborted) this.cancel(id);
      else signal.addEventListener('abort', () => this.cancel(id), { once: true });
    }
    promise.id = id;
    return promise;
  }

  // Stops request id (a no-op once it has settled). Its promise rejects with err.cancelled.
  cancel(id) {
    if (this.pending.has(id)) this.worker.postMessage(makeCancel(id));
  }

  // Calls onBusy(openRequests) when it changes (the page shows "working…").
  busyChanged() {
    if (this.onBusy) this.onBusy(this.pending.size);
  }

  // -> {ready, request, latest, cancel, name} for one widget (see the header)
  scope(name) {
    const slotted = (type, payload) => (SLOTTED.test(type) ? { ...payload, slot: name } : payload);
    return {
      name,
      ready: this.ready,
      request: (type, payload, ...rest) => this.request(type, slotted(type, payload), ...rest),
      latest: (key, type, payload, ...rest) => this.latest(`${name}:${key}`, type, slotted(type, payload), ...rest),
      cancel: (id) => this.cancel(id),
    };
  }

  async latest(key, type, payload, fields, opts = {}) {
    const n = (this.generation.get(key) || 0) + 1;
    this.generation.set(key, n);
    const older = this.latestId.get(key);
    if (older !== undefined) this.cancel(older); // its reply would be dropped anyway
    try {
      const pending = this.request(type, payload, fields, { key, ...opts });
      this.latestId.set(key, pending.id);
      const result = await pending;
      return this.generation.get(key) === n ? result : null;
    } catch (err) {
      if (this.generation.get(key) !== n) return null;
      throw err;
    }
  }
}
