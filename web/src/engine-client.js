// The one owner of the engine worker on the page. Everything that needs the wasm engine
// calls `engine.request(type, payload)` and gets a Promise; nothing else touches the Worker.
// It does not interpret results (views do) and never blocks: all engine work runs in
// worker.js.
//
// Intended usage:
//   const engine = new EngineClient('./worker.js');
//   const {isa} = await engine.ready;            // rejects with the load error
//   const r = await engine.request('table', {seed: 123, V: 6, D: 3});
//   // failures reject with Error(<the C++ message>), err.fields = the page fields it concerns
//   engine.request('positions', {T, D: state.pd}, {D: 'pd'});   // payload D came from field pd
//
// `latest(key, type, payload)` is request() for inputs that change quickly (typing in a
// field): a reply that arrives after a newer request with the same key resolves to null,
// so an old table never overwrites a newer one.
import { PendingRequests, READY_ID, makeRequest } from './protocol.js';

export class EngineClient {
  constructor(url) {
    this.pending = new PendingRequests();
    this.generation = new Map(); // key -> latest request number
    this.worker = new Worker(url, { type: 'module' });
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
  }

  onMessage(msg) {
    if (msg && msg.id === READY_ID && msg.type === 'ready') {
      if (msg.ok) this.resolveReady(msg.result);
      else this.rejectReady(new Error(msg.message));
      return;
    }
    this.pending.settle(msg);
  }

  // fields (optional): {payload argument: page field} where the names differ (protocol.js).
  request(type, payload, fields) {
    const { id, promise } = this.pending.open(type);
    this.worker.postMessage(makeRequest(id, type, payload, fields));
    this.busyChanged();
    const done = () => this.busyChanged();
    promise.then(done, done);
    return promise;
  }

  // Calls onBusy(openRequests) when it changes (the page shows "working…").
  busyChanged() {
    if (this.onBusy) this.onBusy(this.pending.size);
  }

  async latest(key, type, payload, fields) {
    const n = (this.generation.get(key) || 0) + 1;
    this.generation.set(key, n);
    try {
      const result = await this.request(type, payload, fields);
      return this.generation.get(key) === n ? result : null;
    } catch (err) {
      if (this.generation.get(key) !== n) return null;
      throw err;
    }
  }
}
