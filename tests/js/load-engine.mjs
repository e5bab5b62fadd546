// Loads the wasm build (build/wasm/embedlab.js, an ES6 MODULARIZE module) in Node.
// Emscripten 3.1.6's ES6 output refers to `require` and `__dirname`, and Node 20's global
// fetch cannot read file paths, so both are supplied here (see TOOLCHAIN.md).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..', '..');

export async function loadEngine(dir = process.env.EMBEDLAB_WASM_DIR || path.join(repoRoot, 'build', 'wasm')) {
  const js = path.join(dir, 'embedlab.js');
  if (!fs.existsSync(js)) {
    throw new Error(`${js} not found. HINT: build the wasm module first: bash scripts/build`);
  }
  globalThis.require ??= createRequire(import.meta.url);
  globalThis.__dirname ??= dir;
  const { default: createEmbedlab } = await import(pathToFileURL(js).href);
  return createEmbedlab({ wasmBinary: fs.readFileSync(path.join(dir, 'embedlab.wasm')) });
}
