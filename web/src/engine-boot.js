// The page's engine worker, started as early as the page can (and its wasm's preload): index.html loads this tiny module
// with its own <script type="module"> ahead of app.js, so worker.js (and, at its top, the wasm's
// streaming compile and embedlab.js) load while app.js's module graph is still arriving, instead
// of after it. main.js imports this same module (left external by scripts/build-web.mjs, so the
// URL, hence the module instance, is the one the script tag ran) and hands the worker to
// EngineClient, the worker's one owner from then on.
//
// It does not talk to the worker: it only keeps the events the worker sends before main.js takes
// it (its 'ready' message, a load error), which EngineClient then replays in order.
// Not used by the <embedlab-view> widget (element.js starts its own worker, shared by its elements).
//
//   import { adoptWorker } from './engine-boot.js';
//   const engine = new EngineClient('./worker.js', adoptWorker());   // {worker, early: [events]}

// The wasm the worker will fetch, preloaded beside worker.js: the threaded build when the page is
// cross-origin isolated (worker.js makes the same choice), else the single-thread one, so an
// isolated page never downloads both. scripts/build-web.mjs writes the builds' content versions
// over these two marks when it copies this file (a build that leaves one fails).
const WASM_VERSIONS = { embedlab: '@EMBEDLAB_WASM_VERSION@', 'embedlab-mt': '@EMBEDLAB_WASM_MT_VERSION@' };
const wasmBuild = self.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function' ? 'embedlab-mt' : 'embedlab';
const preload = document.createElement('link');
preload.rel = 'preload';
preload.as = 'fetch';
preload.type = 'application/wasm';
preload.crossOrigin = 'anonymous'; // the worker's fetch is a CORS request: a preload only serves its own mode
preload.href = new URL(`./${wasmBuild}.wasm?v=${WASM_VERSIONS[wasmBuild]}`, import.meta.url).href;
document.head.append(preload);

const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
let early = []; // message and error events that arrived before adoptWorker()
const keep = (e) => early.push(e);
worker.addEventListener('message', keep);
worker.addEventListener('error', keep);

// -> {worker, early}: the worker and its events so far; from now on the caller listens. Once only.
export function adoptWorker() {
  if (!early) throw new Error('engine-boot.js: the worker was adopted already');
  worker.removeEventListener('message', keep);
  worker.removeEventListener('error', keep);
  const events = early;
  early = null;
  return { worker, early: events };
}
