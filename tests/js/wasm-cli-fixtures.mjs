// Shared by the tests that run the wasm engine and the native CLI on one text (checkpoint.test.mjs,
// finetune.test.mjs): node:test hooks of the importing file that, before its tests, load the engine
// (M) and write the text to `text.txt` (file) in a new temporary folder (dir), and remove the
// folder after them. The native binary is EMBEDLAB_CLI, else build/native/embedlab (cli).
// Not here: any test, or how a test runs the CLI.
//   import { cli, M, dir, file, engineAndText } from './wasm-cli-fixtures.mjs';
//   engineAndText('embedlab-finetune-', TEXT);   // at the top level of the test file
import { before, after } from 'node:test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEngine, repoRoot } from './load-engine.mjs';

export const cli = process.env.EMBEDLAB_CLI || path.join(repoRoot, 'build/native/embedlab');

// Live bindings: set by the before hook that engineAndText registers, read by the file's tests
// (node --test runs each test file in its own process, so one file's hooks set them).
export let M, dir, file;

// Registers the hooks: a folder named `${prefix}XXXXXX` in the system's temporary folder.
export function engineAndText(prefix, text) {
  before(async () => {
    M = await loadEngine();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    file = path.join(dir, 'text.txt');
    fs.writeFileSync(file, text);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
}
