// scripts/build-web.mjs and scripts/static-server.mjs together: the wasm's URL carries its content
// version (embedlab.wasm?v=<sha256 prefix>, in worker.js and in index.html's preload link), the
// server lets that URL be cached for a year, and a rebuild with a changed wasm changes the URL,
// so a browser never gets the old wasm from its cache. Also: index.html's modulepreload links are
// the static chunks of esbuild's metafile (staticChunks). Builds into a temporary directory from
// build/wasm's embedlab.js (skipped, with the hint, when it is not built).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IMMUTABLE, contentVersion, serve } from '../../scripts/static-server.mjs';
import { chunkOf, staticChunks } from '../../scripts/build-web.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const wasmDir = path.join(repo, 'build', 'wasm');
const built = ['embedlab.wasm', 'embedlab.js', 'embedlab-mt.wasm', 'embedlab-mt.js'].every((f) => fs.existsSync(path.join(wasmDir, f)));

function get(port, p) {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: p }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

// wasm bytes + a custom section (id 0, name 'rebuilt'): still a valid module, other bytes
function withCustomSection(bytes, note) {
  const name = Buffer.from('rebuilt');
  const payload = Buffer.concat([Buffer.from([name.length]), name, Buffer.from(note)]);
  assert.ok(payload.length < 128, 'one-byte LEB128 size');
  return Buffer.concat([bytes, Buffer.from([0, payload.length]), payload]);
}

describe('staticChunks: the chunks an entry loads before it runs', () => {
  it('follows import statements transitively, not dynamic imports, each once', () => {
    const metafile = { outputs: {
      'out/app.js': { imports: [{ path: 'out/chunks/a.js', kind: 'import-statement' }, { path: 'out/chunks/lazy.js', kind: 'dynamic-import' }, { path: './engine-boot.js', kind: 'import-statement', external: true }] },
      'out/chunks/a.js': { imports: [{ path: 'out/chunks/b.js', kind: 'import-statement' }] },
      'out/chunks/b.js': { imports: [{ path: 'out/chunks/a.js', kind: 'import-statement' }] },
      'out/chunks/lazy.js': { imports: [{ path: 'out/chunks/c.js', kind: 'import-statement' }] },
      'out/chunks/c.js': { imports: [] },
    } };
    assert.deepEqual(staticChunks(metafile, 'out/app.js', path.join(repo, 'out')), ['chunks/a.js', 'chunks/b.js']);
  });

  it('finds the chunk of a dynamically imported module by its entry point', () => {
    const metafile = { outputs: {
      'out/chunks/table-view-X.js.map': { imports: [] },
      'out/chunks/table-view-X.js': { imports: [], entryPoint: 'web/src/views/table-view.js' },
      'out/chunks/chunk-Y.js': { imports: [] },
    } };
    assert.equal(chunkOf(metafile, 'web/src/views/table-view.js'), 'out/chunks/table-view-X.js');
    assert.equal(chunkOf(metafile, 'web/src/views/train-view.js'), null);
  });
});

describe('a rebuilt wasm gets a new URL', { skip: built ? false : 'build/wasm not built (scripts/build wasm)' }, () => {
  let tmp;
  let server;
  let port;
  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-build-'));
    fs.mkdirSync(path.join(tmp, 'wasm'));
    // the threaded build as built (build-web.mjs ships both builds); only embedlab.wasm changes below
    for (const f of ['embedlab.js', 'embedlab-mt.js', 'embedlab-mt.wasm', 'embedlab-mt.worker.js', 'embedlab-mt.worker.cjs']) {
      fs.copyFileSync(path.join(wasmDir, f), path.join(tmp, 'wasm', f));
    }
  });
  after(async () => {
    if (server) await new Promise((r) => server.close(r));
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  const build = (bytes) => {
    fs.writeFileSync(path.join(tmp, 'wasm', 'embedlab.wasm'), bytes);
    execFileSync(process.execPath, [path.join(repo, 'scripts', 'build-web.mjs'), '--wasm-dir', path.join(tmp, 'wasm'), '--out', path.join(tmp, 'web')], { stdio: 'pipe' });
    const v = contentVersion(bytes);
    return { v, worker: fs.readFileSync(path.join(tmp, 'web', 'worker.js'), 'utf8'), boot: fs.readFileSync(path.join(tmp, 'web', 'engine-boot.js'), 'utf8') };
  };

  it("worker.js and engine-boot.js's preload name the new version; the server caches only the current one", async () => {
    const first = withCustomSection(fs.readFileSync(path.join(wasmDir, 'embedlab.wasm')), 'one');
    const second = withCustomSection(fs.readFileSync(path.join(wasmDir, 'embedlab.wasm')), 'two');
    const a = build(first);
    assert.ok(a.worker.includes(a.v), `worker.js does not hold the version ${a.v}`);
    const mt = contentVersion(fs.readFileSync(path.join(wasmDir, 'embedlab-mt.wasm')));
    assert.ok(a.worker.includes(mt), `worker.js does not hold the threaded build's version ${mt}`);
    assert.ok(a.boot.includes(`embedlab: '${a.v}', 'embedlab-mt': '${mt}'`), "engine-boot.js does not preload the builds' versions");
    assert.ok(!/@EMBEDLAB_/.test(a.boot), 'engine-boot.js kept a version mark');
    server = await serve(path.join(tmp, 'web'), 0);
    port = server.address().port;
    let r = await get(port, `/embedlab.wasm?v=${a.v}`);
    assert.equal(r.headers['content-type'], 'application/wasm');
    assert.equal(r.headers['cache-control'], IMMUTABLE);
    assert.ok(r.body.equals(first), 'the first build did not serve its wasm');
    assert.equal((await get(port, '/embedlab.wasm')).headers['cache-control'], 'no-cache', 'an unversioned URL is cached');

    const b = build(second);
    assert.notEqual(b.v, a.v);
    assert.ok(b.worker.includes(b.v) && !b.worker.includes(a.v), `worker.js still names ${a.v} (or not ${b.v})`);
    assert.ok(b.boot.includes(`embedlab: '${b.v}'`) && !b.boot.includes(a.v), 'engine-boot.js still preloads the old version');
    r = await get(port, `/embedlab.wasm?v=${b.v}`);
    assert.equal(r.headers['cache-control'], IMMUTABLE);
    assert.ok(r.body.equals(second), 'the new URL does not serve the new wasm');
    // the old URL after the rebuild: the new bytes, but never kept under the old name
    assert.equal((await get(port, `/embedlab.wasm?v=${a.v}`)).headers['cache-control'], 'no-cache');
  });
});
