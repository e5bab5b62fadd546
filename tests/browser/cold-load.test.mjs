// How the page loads (docs/page.md, "How the page loads"), checked as order and structure, never
// as a duration (the clock is scripts/bench-page.mjs's cold_load figure):
//   - the engine worker is started by engine-boot.js, before app.js's module graph has loaded
//     (app.js is held back until worker.js has been asked for: without the early start, never);
//   - the worker fetches the wasm at its content-versioned URL: the one engine-boot.js preloads
//     (embedlab.wasm) when the page is not cross-origin isolated, the threaded build's
//     (embedlab-mt.wasm, versioned too) when it is, as scripts/static-server.mjs serves it;
//   - index.html's modulepreload links are exactly the chunks app.js imports statically and the
//     default view's code (its chunk and the chunks that imports), read from the built files,
//     transitively, so none is fetched one after another;
//   - a view's code (its chunk, chunks/NAME-view-HASH.js) is fetched when the view is first
//     shown, not with the page, for every view of the registry (views/registry.js).
// Usage: node tests/browser/cold-load.test.mjs [--site build/web]
import fs from 'node:fs';
import path from 'node:path';
import { startHarness, assert } from './harness.mjs';
import { contentVersion } from '../../scripts/static-server.mjs';
import { VIEWS } from '../../web/src/views/registry.js';
import { paramSpec } from '../../web/src/state.js';

const h = await startHarness('cold-load tests');

// a module's text -> the relative paths it imports statically (import … from "x", import "x"),
// not its import("x")
function staticImports(source) {
  const found = [];
  for (const m of source.matchAll(/(?:\bfrom\s*|\bimport\s*)(["'])(\.{1,2}\/[^"']+)\1/g)) {
    const before = source.slice(Math.max(0, m.index - 1), m.index);
    if (!before.endsWith('(')) found.push(m[2]);
  }
  return found;
}
// file (relative to the site) -> every .js file it loads before running, transitively
function staticClosure(file, seen = new Set()) {
  for (const spec of staticImports(fs.readFileSync(path.join(h.site, file), 'utf8'))) {
    const dep = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
    if (seen.has(dep)) continue;
    seen.add(dep);
    staticClosure(dep, seen);
  }
  return seen;
}

await h.test("index.html's modulepreload links are app.js's static chunks and the default view's code", async () => {
  const html = fs.readFileSync(path.join(h.site, 'index.html'), 'utf8');
  const preloads = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]).sort();
  const chunks = [...staticClosure('app.js')].filter((f) => f.startsWith('chunks/'));
  assert(chunks.length > 0, 'app.js imports no chunk statically: nothing to check');
  const def = paramSpec('view').def;
  const view = fs.readdirSync(path.join(h.site, 'chunks')).filter((f) => new RegExp(`^${def}-view-[A-Z0-9]+\\.js$`).test(f)).map((f) => `chunks/${f}`);
  assert(view.length === 1, `the default view's chunk: ${view.join(', ') || 'none'} (expected chunks/${def}-view-HASH.js)`);
  const expected = [...new Set([...chunks, ...view, ...staticClosure(view[0])])].sort();
  assert(preloads.join() === expected.join(), `modulepreload ${preloads.join(', ')} != ${expected.join(', ')}`);
});

await h.test('the engine worker starts before app.js has loaded, and compiles the wasm at its versioned URL', async () => {
  const version = contentVersion(fs.readFileSync(path.join(h.site, 'embedlab.wasm')));
  const page = await h.contextPage({ width: 1360, height: 900 });
  let workerAsked;
  const asked = new Promise((resolve) => (workerAsked = resolve));
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/worker.js') workerAsked();
  });
  const workers = [];
  page.on('worker', (w) => workers.push(w));
  // app.js is answered only once worker.js has been asked for: the early start must not need it
  let held = false;
  await page.route('**/app.js', async (route) => {
    held = true;
    await asked;
    await route.continue();
  });
  let timer;
  const failed = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('worker.js was not requested while app.js was held back')), 20000)));
  failed.catch(() => {}); // awaited below
  await page.goto(`${h.url}index.html`, { waitUntil: 'commit' }); // not 'load': that needs app.js
  await Promise.race([asked, failed]).finally(() => clearTimeout(timer));
  await page.waitForSelector('body[data-engine="ready"]', { timeout: 20000 });
  assert(held, 'app.js was never requested');
  const worker = workers.find((w) => new URL(w.url()).pathname === '/worker.js');
  assert(worker, `no worker.js worker among ${workers.map((w) => w.url()).join(', ')}`);
  const wasm = await worker.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name)).filter((u) => u.pathname.endsWith('.wasm')).map((u) => `${u.pathname}${u.search}`));
  const build = (await page.evaluate(() => self.crossOriginIsolated)) ? 'embedlab-mt' : 'embedlab';
  const want = `/${build}.wasm?v=${build === 'embedlab' ? version : contentVersion(fs.readFileSync(path.join(h.site, `${build}.wasm`)))}`;
  assert(wasm.join() === want, `the worker fetched ${wasm.join(', ') || 'no wasm'}, not ${want}`);
  // the page preloaded that build's wasm, and only that one (an isolated page never downloads both)
  const pagewasm = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name)).filter((u) => u.pathname.endsWith('.wasm')).map((u) => `${u.pathname}${u.search}`));
  const preloads = await page.evaluate(() => [...document.querySelectorAll('link[rel="preload"][as="fetch"]')].map((l) => { const u = new URL(l.href); return `${u.pathname}${u.search}`; }));
  assert(preloads.join() === want, `the page preloads ${preloads.join(', ') || 'no wasm'}, not ${want}`);
  assert(pagewasm.every((p) => p === want), `the page also fetched ${pagewasm.join(', ')}`);
  await page.close();
});

// page -> the views whose chunk (chunks/NAME-view-HASH.js) the page has fetched, in VIEWS order
const viewChunks = (page) => page.evaluate((names) => {
  const paths = performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname);
  return names.filter((n) => paths.some((p) => new RegExp(`^/chunks/${n}-view-[A-Z0-9]+\\.js$`).test(p)));
}, VIEWS.map((v) => v.name));

await h.test("a view's code is fetched when the view is first shown, not with the page", async () => {
  const page = await h.openPage('#view=table');
  await page.waitForFunction(() => Number(document.querySelector('#view-table').dataset.renders || 0) > 0, null, { timeout: 15000 });
  let fetched = await viewChunks(page);
  assert(fetched.join() === 'table', `after drawing the table view, the code of ${fetched.join(', ') || 'no view'} was fetched (expected: table only)`);
  for (const v of VIEWS.filter((x) => x.name !== 'table')) {
    await page.click(`.tabs button[data-view="${v.name}"]`);
    await page.waitForFunction((id) => Number(document.getElementById(id).dataset.renders || 0) > 0, v.section, { timeout: 30000 });
    fetched = await viewChunks(page);
    const expected = VIEWS.slice(0, VIEWS.indexOf(v) + 1).map((x) => x.name);
    assert(fetched.join() === expected.join(), `after showing ${v.name}: the code of ${fetched.join(', ')} was fetched, expected ${expected.join(', ')}`);
  }
  await page.close();
});

await h.test('no console errors and no requests to other origins', async () => {
  assert(h.consoleErrors.length === 0, `console errors: ${h.consoleErrors.slice(0, 3).join(' | ')}`);
  assert(h.foreignRequests.length === 0, `requests to other origins: ${h.foreignRequests.slice(0, 3).join(' ')}`);
});

await h.finish();
