// The two wasm builds in Node (issue 25): the package's Node entry (build/web/embedlab-node.js,
// what `import { createEmbedlab } from 'embedlab'` gives in Node) always loads the threaded build
// embedlab-mt (its pthread workers from embedlab-mt.worker.cjs); M.threads() / M.setThreads(n)
// clamp to the cores and give the same numbers as the single-thread build (build/wasm/embedlab.js).
// Runs the entry in a child process, as a package user would: the process must also exit by
// itself (the pthread workers do not keep it alive).
//   node --test tests/js/threads-wasm.test.mjs   (needs build/web: node scripts/build-web.mjs)
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadEngine, repoRoot } from './load-engine.mjs';

const site = process.env.EMBEDLAB_SITE_DIR || path.join(repoRoot, 'build', 'web');

// the numbers both builds must agree on: a seeded table, a lookup through it, a bad id's message
// (run here on the single-thread build, and its source in the child on the threaded one)
function probe(M) {
  M.manualSeed(123);
  const emb = new M.Embedding(50, 8);
  const out = Array.from(emb.forward([3, 1, 4, 1, 5]));
  let err = '';
  try {
    emb.forward([50]);
  } catch (e) {
    err = e.message;
  }
  emb.delete();
  return { out, err };
}

function runEntry(body) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-threads-'));
  try {
    const file = path.join(dir, 'run.mjs');
    fs.writeFileSync(file, `import { createEmbedlab } from ${JSON.stringify(pathToFileURL(path.join(site, 'embedlab-node.js')).href)};
const M = await createEmbedlab();
${body}`);
    return JSON.parse(execFileSync(process.execPath, [file], { encoding: 'utf8', timeout: 60000 }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('the Node entry loads the threaded build', () => {
  it('has SharedArrayBuffer memory, threads() = the cores (at most 64), and setThreads clamps and checks', () => {
    const r = runEntry(`const shared = M.HEAP8.buffer instanceof SharedArrayBuffer;
const first = M.threads();
const two = M.setThreads(2);
const many = M.setThreads(64);
let bad = '';
try { M.setThreads(0); } catch (e) { bad = e.message; }
console.log(JSON.stringify({ shared, first, two, many, bad }));`);
    const cores = Math.min(64, os.cpus().length);
    assert.equal(r.shared, true, 'the Node entry did not load the threaded build (memory is not shared)');
    assert.equal(r.first, cores);
    assert.equal(r.two, Math.min(2, cores));
    assert.equal(r.many, cores);
    assert.equal(r.bad, 'setThreads: threads 0 out of range [1, 64]');
  });

  it('computes the same bits as the single-thread build, and C++ errors keep their messages', async () => {
    const r = runEntry(`const probe = ${probe.toString()};
console.log(JSON.stringify(probe(M)));`);
    const M = await loadEngine(); // build/wasm/embedlab.js: one thread
    assert.equal(M.threads(), 1);
    assert.equal(M.setThreads(8), 1);
    const expected = probe(M);
    assert.equal(expected.out.length, 40);
    assert.deepEqual(r.out, expected.out);
    assert.equal(r.err, 'lookup: token id 50 out of range [0, 50)');
    assert.equal(expected.err, r.err);
  });
});
