// Browser test of the two wasm builds and their one loader (docs/page.md, "Threads"; issue 25):
//   - the page served by scripts/static-server.mjs is cross-origin isolated (COOP + COEP), its
//     engine worker loads the threaded build (embedlab-mt.*), and M.setThreads(2) gives 2 threads;
//   - the same page from a server that leaves those headers out ({isolation: false}) loads the
//     single-thread build (threads 1), and both draw the same table fingerprint and train to the
//     same loss and table fingerprint;
//   - a widget in another site's article (not isolated) loads the single-thread build and draws
//     the same numbers as the page; in an article that sends COOP/COEP, the threaded build;
//   - the page in a cross-origin iframe (the Embed snippet) draws, single-threaded;
//   - the badge says how many threads run, and the threads field (URL key `threads`) changes them
//     and not the table; the single-thread page's field says why it has one.
// No durations: every wait is on state.
//   node tests/browser/threads.test.mjs [--site build/web] [--shots build/screenshots]
import http from 'node:http';
import { assert, startHarness, waitRenders } from './harness.mjs';
import { serve } from '../../scripts/static-server.mjs';

const h = await startHarness('threads tests');
const { test, consoleErrors } = h;
const plain = await serve(h.site, 0, { isolation: false }); // the same site without COOP/COEP
const plainUrl = `http://127.0.0.1:${plain.address().port}/`;

const TABLE = '#view=table&seed=42&V=40&D=12';
// words: a vocabulary of thousands, so the head's products and chunks run on the pool too
const TRAIN = '#view=train&tEnc=word&tD=32&ctx=32&tB=32&seed=5';

// The engine worker's answer to {type: 'threads', payload}, asked inside the worker through its
// own message handler (the page keeps its EngineClient to itself).
async function askThreads(worker, payload) {
  return worker.evaluate((p) => new Promise((resolve) => {
    const ID = 2 ** 30;
    const post = self.postMessage;
    self.postMessage = function (msg, transfer) {
      if (msg && msg.id === ID) {
        self.postMessage = post;
        resolve(msg);
      } else post.call(self, msg, transfer);
    };
    self.onmessage({ data: { id: ID, type: 'threads', payload: p } });
  }), payload);
}

// base URL, hash -> {page, worker (the engine's), wasm (the .wasm files the worker fetched), isolated}
async function openAt(base, hash) {
  const page = await h.contextPage({ width: 1360, height: 900 });
  const wasm = [];
  page.on('request', (r) => {
    const p = new URL(r.url()).pathname;
    if (/\.wasm$/.test(p) && r.resourceType() !== 'other') wasm.push(p);
  });
  const workers = [];
  page.on('worker', (w) => workers.push(w));
  await page.goto(`${base}index.html${hash}`);
  await page.waitForSelector('body[data-engine="ready"]', { timeout: 30000 });
  const worker = workers.find((w) => new URL(w.url()).pathname === '/worker.js');
  assert(worker, `no engine worker: ${workers.map((w) => w.url()).join(', ')}`);
  const isolated = await page.evaluate(() => self.crossOriginIsolated);
  return { page, worker, wasm, isolated };
}

const tableChecksum = async (page) => {
  await waitRenders(page, 'table', 0, 30000);
  return page.$eval('#view-table', (el) => el.dataset.checksum);
};

// three training steps -> {checksum, loss} (the readout's loss, 4 decimals, and the table's fingerprint)
async function train3(page) {
  await waitRenders(page, 'train', 0, 30000);
  for (let n = 1; n <= 3; n++) {
    await page.click('#train-step');
    await page.waitForFunction((k) => Number(document.querySelector('#view-train').dataset.steps) === k, n, { timeout: 30000 });
  }
  return page.$eval('#view-train', (el) => ({
    checksum: el.dataset.checksum,
    loss: (/\bloss\s*([0-9.]+)/.exec(document.querySelector('#train-readout').textContent) || [])[1],
  }));
}

const results = {};

await test('the page from scripts/static-server.mjs is cross-origin isolated and runs the threaded build; setThreads(2) gives 2 threads', async () => {
  const { page, worker, isolated } = await openAt(h.url, TABLE);
  assert(isolated === true, 'the page is not crossOriginIsolated');
  const asked = await askThreads(worker, {});
  assert(asked.ok && asked.result.build === 'embedlab-mt', `build: ${JSON.stringify(asked)}`);
  const set = await askThreads(worker, { n: 2 });
  assert(set.ok && set.result.threads === 2, `setThreads(2): ${JSON.stringify(set)}`);
  const again = await askThreads(worker, {});
  assert(again.result.threads === 2, `threads() after setThreads(2): ${again.result.threads}`);
  const bad = await askThreads(worker, { n: 0 });
  assert(!bad.ok && bad.message.includes('threads 0 out of range [1, 64]'), `setThreads(0): ${JSON.stringify(bad)}`);
  results.isolatedTable = await tableChecksum(page);
  await page.close();
});

// the badge's "engine ready (isa, N threads)" -> N
const badgeThreads = (page) => page.$eval('#engine-status', (el) => {
  const m = /^engine ready \([^,]+, (\d+) threads?\)$/.exec(el.textContent);
  return m ? Number(m[1]) : el.textContent;
});

await test('the badge shows the threads in use; the threads field and its URL key change them, not the numbers', async () => {
  const { page, worker } = await openAt(h.url, TABLE);
  const cores = await page.evaluate(() => Math.min(64, navigator.hardwareConcurrency));
  await page.waitForFunction((n) => document.body.dataset.threads === String(n), cores, { timeout: 30000 });
  assert(await badgeThreads(page) === cores, `badge: ${await badgeThreads(page)}, cores ${cores}`);
  if (cores > 1) assert(cores > 1 && (await askThreads(worker, {})).result.threads === cores, 'the worker does not run every core');
  // one thread from the drawer: the link keeps it, the worker runs it, the table is the same
  if (await page.isVisible('#drawer-toggle')) await page.click('#drawer-toggle'); // a narrow layout's drawer
  await page.fill('#f-threads', '1');
  await page.press('#f-threads', 'Enter');
  await page.waitForFunction(() => document.body.dataset.threads === '1', null, { timeout: 30000 });
  assert(await badgeThreads(page) === 1, `badge after threads=1: ${await badgeThreads(page)}`);
  assert(/[#&]threads=1(&|$)/.test(await page.evaluate(() => location.hash)), `the link lacks threads=1: ${await page.evaluate(() => location.hash)}`);
  assert((await askThreads(worker, {})).result.threads === 1, 'the worker still runs more than one thread');
  assert(await tableChecksum(page) === results.isolatedTable, 'the table changed with the thread count');
  await page.close();
  // the URL key alone, and a bad value named
  const opened = await openAt(h.url, `${TABLE}&threads=2`);
  await opened.page.waitForFunction((n) => document.body.dataset.threads === String(n), Math.min(2, cores), { timeout: 30000 });
  await opened.page.close();
  const bad = await openAt(h.url, `${TABLE}&threads=0`);
  const notice = await bad.page.$eval('#url-messages', (el) => el.textContent);
  assert(notice.includes('threads'), `no message for threads=0: ${notice}`);
  await bad.page.waitForFunction((n) => document.body.dataset.threads === String(n), cores, { timeout: 30000 });
  await bad.page.close();
});

await test('without COOP/COEP the same page runs the single-thread build: same table fingerprint', async () => {
  const { page, worker, wasm, isolated } = await openAt(plainUrl, TABLE);
  assert(isolated === false, 'the page is isolated without the headers');
  const asked = await askThreads(worker, {});
  assert(asked.ok && asked.result.build === 'embedlab' && asked.result.threads === 1, `build: ${JSON.stringify(asked)}`);
  assert(!wasm.some((p) => p.includes('embedlab-mt')), `the single-thread page fetched ${wasm.join(', ')}`);
  const set = await askThreads(worker, { n: 2 });
  assert(set.ok && set.result.threads === 1, `setThreads(2) in the single-thread build: ${JSON.stringify(set)}`);
  const sum = await tableChecksum(page);
  assert(sum && sum === results.isolatedTable, `fingerprint ${sum}, threaded build ${results.isolatedTable}`);
  await page.waitForFunction(() => document.body.dataset.threads === '1', null, { timeout: 30000 });
  const note = await page.$eval('#threads-note', (el) => el.textContent);
  assert(note.includes('not cross-origin isolated'), `the threads field does not say why one thread: ${note}`);
  await page.close();
});

await test('training: three steps give the same loss and table fingerprint in both builds (2 threads asked for)', async () => {
  const runs = [];
  for (const base of [h.url, plainUrl]) {
    const { page, worker, wasm } = await openAt(base, TRAIN);
    await askThreads(worker, { n: 2 });
    runs.push({ ...(await train3(page)), mt: wasm.some((p) => p.includes('embedlab-mt')) });
    await page.close();
  }
  assert(runs[0].mt && !runs[1].mt, `builds: ${JSON.stringify(runs)}`);
  assert(runs[0].loss && runs[0].checksum, `no loss or fingerprint: ${JSON.stringify(runs[0])}`);
  assert(runs[0].loss === runs[1].loss && runs[0].checksum === runs[1].checksum, `threaded ${JSON.stringify(runs[0])}, single ${JSON.stringify(runs[1])}`);
});

// another site: an article with a table widget, and one that frames a card of the page
const site = h.url.replace(/\/$/, '');
const foreign = http.createServer((req, res) => {
  // /isolated.html: the article with the two headers docs/widgets.md tells an author to add
  const isolation = req.url.startsWith('/isolated') ? { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' } : {};
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...isolation });
  res.end(req.url.startsWith('/framed')
    ? `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Framed</title></head>
<body><iframe id="card" title="embedlab card" src="${site}/index.html${TABLE}&amp;embed=1" style="width: 100%; height: 700px; border: 0"></iframe></body></html>`
    : `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Article</title>
<script type="module" src="${site}/embedlab-element.js"></script></head>
<body><embedlab-view id="t" view="table" seed="42" V="40" D="12"></embedlab-view></body></html>`);
});
await new Promise((r) => foreign.listen(0, '127.0.0.1', r));
const article = `http://127.0.0.1:${foreign.address().port}/`;

await test('a widget in a foreign article (not isolated) loads the single-thread build and draws the same fingerprint', async () => {
  const page = await h.browser.newPage({ viewport: { width: 1100, height: 900 } });
  const wasm = [];
  page.on('request', (r) => /\.wasm$/.test(new URL(r.url()).pathname) && wasm.push(new URL(r.url()).pathname));
  await page.goto(`${article}article.html`);
  await page.waitForFunction(() => Number(document.getElementById('t').dataset.renders || 0) > 0, null, { timeout: 30000 });
  const r = await page.evaluate(() => ({ isolated: self.crossOriginIsolated, sum: document.getElementById('t').shadowRoot.querySelector('section.view').dataset.checksum }));
  assert(r.isolated === false, 'the article is isolated');
  assert(wasm.length > 0 && wasm.every((p) => p === '/embedlab.wasm'), `wasm fetched: ${wasm.join(', ')}`);
  assert(r.sum === results.isolatedTable, `widget fingerprint ${r.sum}, page ${results.isolatedTable}`);
  await page.close();
});

await test('a widget in a foreign article that sends COOP/COEP runs the threaded build (blob: pthread workers) with the same fingerprint', async () => {
  const page = await h.browser.newPage({ viewport: { width: 1100, height: 900 } });
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const workers = [];
  page.on('worker', (w) => workers.push(w));
  await page.goto(`${article}isolated.html`);
  await page.waitForFunction(() => Number(document.getElementById('t').dataset.renders || 0) > 0, null, { timeout: 30000 });
  const r = await page.evaluate(() => ({ isolated: self.crossOriginIsolated, sum: document.getElementById('t').shadowRoot.querySelector('section.view').dataset.checksum }));
  assert(r.isolated === true, 'the article is not isolated');
  const engine = workers[0]; // the element's blob: module worker (made first; the pthread workers after it)
  const asked = await askThreads(engine, { n: 2 });
  assert(asked.ok && asked.result.build === 'embedlab-mt' && asked.result.threads === 2, `threads: ${JSON.stringify(asked)}`);
  assert(r.sum === results.isolatedTable, `widget fingerprint ${r.sum}, page ${results.isolatedTable}`);
  assert(errors.length === 0, `console errors: ${errors.slice(0, 3).join(' | ')}`);
  await page.close();
});

await test('the page in a cross-origin iframe (Embed snippet) draws with the single-thread build', async () => {
  const page = await h.browser.newPage({ viewport: { width: 1100, height: 900 } });
  const wasm = [];
  page.on('request', (r) => /\.wasm$/.test(new URL(r.url()).pathname) && wasm.push(new URL(r.url()).pathname));
  await page.goto(`${article}framed.html`);
  const frame = page.frameLocator('#card');
  await frame.locator('#view-table[data-renders]').waitFor({ state: 'attached', timeout: 30000 });
  const sum = await frame.locator('#view-table').getAttribute('data-checksum');
  assert(sum === results.isolatedTable, `framed fingerprint ${sum}, page ${results.isolatedTable}`);
  assert(!wasm.some((p) => p.includes('embedlab-mt')), `the frame fetched ${wasm.join(', ')}`);
  await page.close();
});

await test('no console errors', async () => {
  assert(consoleErrors.length === 0, consoleErrors.slice(0, 3).join(' | '));
});

foreign.close();
plain.close();
await h.finish();
