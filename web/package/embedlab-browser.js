// The package's entry for browsers and bundlers (build/web/package.json, exports "." default):
// import { createEmbedlab } from 'embedlab'. The module fetches embedlab.wasm from the URL of
// the script that runs it (Emscripten's new URL('embedlab.wasm', import.meta.url)), so when a
// bundler inlines embedlab.js, serve embedlab.wasm next to the bundle or pass
// { locateFile: (name) => url } or { wasmBinary }. Types: embedlab.d.ts.
import factory from './embedlab.js';

/** @param {import('./embedlab.d.ts').EmbedlabOptions} [opts] */
export function createEmbedlab(opts = {}) {
  return factory(opts);
}
export default createEmbedlab;
