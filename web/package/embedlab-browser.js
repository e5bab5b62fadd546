// The package's entry for browsers and bundlers (build/web/package.json, exports "." default):
// import { createEmbedlab } from 'embedlab'. One loader for two builds of one source: a
// cross-origin isolated worker (crossOriginIsolated: SharedArrayBuffer is there) gets the
// threaded embedlab-mt.js (its pthread workers load embedlab-mt.worker.js from beside
// it), any other the single-thread embedlab.js; M.threads() says which (1 in the latter).
// Either module fetches its .wasm from the URL of the script that runs it (Emscripten's
// new URL('embedlab.wasm', import.meta.url)), so when a bundler inlines the module, serve the
// .wasm (and embedlab-mt.worker.js) next to the bundle or pass { locateFile: (name) => url }
// or { wasmBinary }. Types: embedlab.d.ts.
// subtle: only in a worker. A page's main thread must not block on a join (browsers forbid
// Atomics.wait there, so Emscripten would spin), so a main thread gets one thread, isolated or not.
const inWorker = typeof WorkerGlobalScope === 'function' && globalThis instanceof WorkerGlobalScope;
const threaded = inWorker && globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';

/** @param {import('./embedlab.d.ts').EmbedlabOptions} [opts] */
export function createEmbedlab(opts = {}) {
  return (threaded ? import('./embedlab-mt.js') : import('./embedlab.js')).then(({ default: factory }) => factory(opts));
}
export default createEmbedlab;
