// The engine worker: the only code on the page that owns the wasm module. It loads
// embedlab.js once, announces {type: 'ready'} and answers every request (see protocol.js),
// failures included, with the C++ message. Handlers live in engine/*-handler.js; this file
// only wires them. Requests are handled one at a time in arrival order (the module is
// single-threaded and its generator is global state). Cancel messages skip that queue: they
// mark the request on the JobBoard at once, so a long job (which yields between chunks, see
// protocol.js) stops at its next chunk and a queued one never runs.
//
// Built by scripts/build-web.mjs into build/web/worker.js with './embedlab.js' left external
// (copied next to it), started by engine-boot.js (the page) or engine-client.js (the widget) as
// a module worker.
//
// Loading (docs/page.md, "How the page loads"): the first thing this module does is fetch the
// wasm and compile it while it streams (WebAssembly.compileStreaming; the server sends
// application/wasm), and import embedlab.js beside it, in parallel; the module goes to the
// Emscripten glue through its instantiateWasm hook, so the glue never fetches it again. The
// wasm's URL carries its content hash (embedlab.wasm?v=<sha256 prefix>, EMBEDLAB_WASM_VERSION:
// defined by build-web.mjs), so a cached copy (the server lets such URLs be cached for a year)
// is never the old wasm after a new build.
//
// Two builds of one source (docs/page.md, "Threads"): when this worker is cross-origin isolated
// (the page was served with COOP + COEP, as scripts/static-server.mjs does), it loads the
// threaded embedlab-mt.js + embedlab-mt.wasm (EMBEDLAB_WASM_MT_VERSION), whose pthread workers
// run embedlab-mt.worker.js; otherwise (a widget in another site's article, an iframe embed, a
// server without those headers) the single-thread embedlab.js + embedlab.wasm. Both compute the
// same bits; the ready message says which one runs (threads: M.threads(), build).
import { JobBoard, READY_ID, collectTransfers, isCancel, makeDispatcher, replyError } from './protocol.js';
import { makeTableHandler } from './handlers/table-handler.js';
import { makePositionsHandler } from './handlers/positions-handler.js';
import { makeTextPipeline } from './handlers/text-handler.js';
import { makeTrainHandlers } from './handlers/train-handler.js';
import { makeCompareHandlers } from './handlers/compare-handler.js';
import { makeImportHandlers } from './handlers/import-handler.js';
import { ImportedPositions } from './handlers/imported-positions.js';
import { makeLayoutHandlers } from './handlers/layout-handler.js';
import { pageMetadata } from './handlers/map-algorithms.js';
import { makeWhyPositionsHandler } from './handlers/why-positions-handler.js';
import { makeRopeScalingsHandler } from './handlers/rope-scalings-handler.js';

// Built-in corpora are served next to the page (build/web/corpora/, credited in README.md there).
async function loadCorpus(name) {
  // import.meta.url, not self.location: a widget on another site starts this worker from a blob: (element.js)
  const url = new URL(`./corpora/${name}.txt`, import.meta.url);
  const res = await fetch(url);
  if (!res.ok) throw new Error(`text: could not load corpus ${name} (${res.status} ${res.statusText})`);
  return res.text();
}

// SharedArrayBuffer exists only in a cross-origin isolated context: then the threaded build.
const THREADED = self.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
const BUILD = THREADED ? 'embedlab-mt' : 'embedlab';

// -> Promise<WebAssembly.Module>: compiled while it streams in; a server that sends another
// type than application/wasm gets it compiled from the downloaded bytes (as Emscripten's glue does)
function compileWasm() {
  const defined = THREADED ? typeof EMBEDLAB_WASM_MT_VERSION === 'string' && EMBEDLAB_WASM_MT_VERSION
    : typeof EMBEDLAB_WASM_VERSION === 'string' && EMBEDLAB_WASM_VERSION;
  const version = defined || '';
  const url = new URL(`./${BUILD}.wasm${version ? `?v=${version}` : ''}`, import.meta.url);
  return fetch(url, { credentials: 'same-origin' }).then((res) => {
    if (!res.ok) throw new Error(`could not fetch ${url.pathname} (${res.status} ${res.statusText})`);
    if (/^application\/wasm\b/.test(res.headers.get('content-type') || '')) return WebAssembly.compileStreaming(res);
    return res.arrayBuffer().then((bytes) => WebAssembly.compile(bytes));
  });
}
const compiling = compileWasm();
const glue = THREADED ? import('./embedlab-mt.js') : import('./embedlab.js');

// The threaded build's options: where its pthread workers' script is. From our own origin the
// glue's default (embedlab-mt.worker.js beside embedlab-mt.js) works. subtle: in another site's
// isolated article this worker is a blob: of that site (element.js), and a Worker's script must
// be same-origin, so each pthread worker is a same-origin blob: that imports ours (the site sends
// CORS and CORP headers), and the glue it loads is named by its absolute URL.
function threadOptions() {
  if (!THREADED || new URL(import.meta.url).origin === self.location.origin) return {};
  const script = new URL('./embedlab-mt.worker.js', import.meta.url).href;
  const blob = URL.createObjectURL(new Blob([`importScripts(${JSON.stringify(script)});\n`], { type: 'text/javascript' }));
  return {
    mainScriptUrlOrBlob: new URL('./embedlab-mt.js', import.meta.url).href,
    locateFile: (name) => (name === 'embedlab-mt.worker.js' ? blob : new URL(`./${name}`, import.meta.url).href),
  };
}

// -> Promise<the Emscripten module>, instantiated from the module compiled above
function createEngine() {
  return Promise.all([glue, compiling]).then(([{ default: createEmbedlab }, wasm]) => new Promise((resolve, reject) => {
    createEmbedlab({
      ...threadOptions(),
      // Emscripten's hook: instantiate and hand back (instance, module); {} = asynchronously.
      // The threaded build posts the module to its pthread workers, which instantiate it on the
      // same shared memory.
      instantiateWasm: (imports, receive) => {
        WebAssembly.instantiate(wasm, imports).then((instance) => receive(instance, wasm), reject);
        return {};
      },
    }).then(resolve, reject);
  }));
}

let dispatch = null;
let queue = Promise.resolve();
const board = new JobBoard((msg) => self.postMessage(msg));

const loading = createEngine().then(
  (M) => {
    const text = makeTextPipeline(M, loadCorpus);
    const importedPositions = new ImportedPositions(); // set by an import, drawn by the positions view
    const layout = makeLayoutHandlers(M); // the registry's maps of the imported and the training tables
    dispatch = makeDispatcher({
      ...makeTableHandler(M),
      ...makePositionsHandler(M, importedPositions),
      ...makeWhyPositionsHandler(M, loadCorpus),
      ...makeRopeScalingsHandler(M),
      ...text.handlers,
      ...makeTrainHandlers(M, text.ensureTokens, undefined, layout),
      ...makeCompareHandlers(M, text.ensureTokens),
      ...makeImportHandlers(M, importedPositions, layout),
      ...layout.handlers,
      // {n?} -> {threads, build}: asks for n threads first when n is given (M.setThreads)
      threads: (p) => ({ threads: p.n === undefined ? M.threads() : M.setThreads(p.n), build: BUILD }),
    }, board);
    self.postMessage({ id: READY_ID, type: 'ready', ok: true, result: { isa: M.isa(), threads: M.threads(), build: BUILD, positionalKinds: M.positionalKinds(), tableFormats: M.tableFormats(), mapAlgorithms: pageMetadata(layout.list) } });
  },
  (err) => {
    self.postMessage({ id: READY_ID, type: 'ready', ok: false, message: `engine: failed to load: ${err && err.message}` });
  },
);

self.onmessage = (e) => {
  const msg = e.data;
  if (isCancel(msg)) {
    board.cancel(msg.id); // now, not after the job it is meant to stop
    return;
  }
  if (msg && Number.isInteger(msg.id) && msg.id > 0) board.open(msg.id);
  queue = queue.then(async () => {
    await loading;
    const reply = dispatch ? await dispatch(msg) : replyError(msg && msg.id, 'engine: the wasm module did not load');
    try {
      self.postMessage(reply, collectTransfers(reply));
    } catch (err) {
      self.postMessage(replyError(reply.id, `worker: could not send the reply: ${err.message}`));
    }
  });
};
