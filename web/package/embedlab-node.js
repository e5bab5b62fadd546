// The package's entry in Node (build/web/package.json, exports "." node condition):
// import { createEmbedlab } from 'embedlab'. Node always gets the threaded build,
// embedlab-mt.{js,wasm} (Node shares memory between worker_threads without any header; the
// single-thread embedlab.js stays for browsers that are not cross-origin isolated).
// Emscripten 3.1.6's ES6 output refers to `require` and `__dirname`, and Node's fetch cannot
// read files, so this supplies both and reads embedlab-mt.wasm from this directory (as
// tests/js/load-engine.mjs does for build/wasm). Its pthread workers run
// embedlab-mt.worker.cjs: the same script as embedlab-mt.worker.js, named .cjs because it uses
// require() and this package is "type": "module"; they do not keep the process alive.
// M.threads() is the count in use.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import factory from './embedlab-mt.js';

const here = path.dirname(fileURLToPath(import.meta.url));

// Emscripten's file name -> the file in this directory (the workers' script as its .cjs twin)
function locateFile(name) {
  return path.join(here, name === 'embedlab-mt.worker.js' ? 'embedlab-mt.worker.cjs' : name);
}

/** @param {import('./embedlab.d.ts').EmbedlabOptions} [opts] */
export function createEmbedlab(opts = {}) {
  globalThis.require ??= createRequire(import.meta.url);
  globalThis.__dirname ??= here;
  return factory({ wasmBinary: fs.readFileSync(path.join(here, 'embedlab-mt.wasm')), locateFile, ...opts }).then((M) => {
    // subtle: a worker_threads Worker keeps Node running; the pool's workers (all made before the
    // module resolves, PTHREAD_POOL_SIZE_STRICT=2) must not, or a script never exits by itself
    for (const w of [...M.PThread.unusedWorkers, ...M.PThread.runningWorkers]) w.unref();
    return M;
  });
}
export default createEmbedlab;
