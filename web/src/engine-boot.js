// The page's engine worker, started as early as the page can: index.html loads this tiny module
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
