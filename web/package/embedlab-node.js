// The package's entry in Node (build/web/package.json, exports "." node condition):
// import { createEmbedlab } from 'embedlab'. Emscripten 3.1.6's ES6 output refers to `require`
// and `__dirname`, and Node's fetch cannot read files, so this supplies both and reads
// embedlab.wasm from this directory (as tests/js/load-engine.mjs does for build/wasm).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import factory from './embedlab.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** @param {import('./embedlab.d.ts').EmbedlabOptions} [opts] */
export function createEmbedlab(opts = {}) {
  globalThis.require ??= createRequire(import.meta.url);
  globalThis.__dirname ??= here;
  return factory({ wasmBinary: fs.readFileSync(path.join(here, 'embedlab.wasm')), ...opts });
}
export default createEmbedlab;
