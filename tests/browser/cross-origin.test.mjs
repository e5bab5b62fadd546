// Browser test of <embedlab-view> on another site's page (docs/widgets.md, "From another site"): the site is
// served on one origin (the harness's static server), an article on a second origin (another
// port, a server in this file) loads embedlab-element.js from the first with one script tag.
// The element starts its worker through a same-origin blob: module that imports ours (CORS), and
// the widgets draw; with a strict article CSP that allows only what docs/widgets.md lists they still
// draw; a CSP without worker-src blob: gives every widget the reason, and nothing crashes.
//   node tests/browser/cross-origin.test.mjs [--site build/web] [--shots build/screenshots]
import http from 'node:http';
import { assert, canvasStats, startHarness } from './harness.mjs';

const h = await startHarness('cross-origin tests');
const { test, consoleErrors, shot } = h;
const site = h.url.replace(/\/$/, ''); // http://127.0.0.1:A

// The article: static text and two widgets, the script from the site's origin. `csp`: the
// article's own Content-Security-Policy header (none by default, as most blogs).
function articleHtml() {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>An article on another site</title>
<script type="module" src="${site}/embedlab-element.js"></script></head>
<body><main><h1>Positions, embedded from another site</h1>
<p>The widget below is served by ${site}; this page is not.</p>
<embedlab-view id="one" view="positions" seed="3" pd="32" T="40" card="sinusoidal"></embedlab-view>
<p>And a text widget, which makes the worker fetch a corpus from the widget's site.</p>
<embedlab-view id="two" view="text" enc="char" card="tokens"></embedlab-view>
</main></body></html>`;
}
let csp = '';
const server = http.createServer((req, res) => {
  const headers = { 'content-type': 'text/html; charset=utf-8' };
  if (csp) headers['content-security-policy'] = csp;
  if (req.url.startsWith('/framed')) {
    // an article that embeds a card of the page in an iframe (the page's Embed snippet)
    res.writeHead(200, headers);
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>A framed card</title></head>
<body><main><h1>A card of the page, framed from another site</h1>
<iframe id="card" title="embedlab card" src="${site}/index.html#view=table&amp;embed=1&amp;card=embedding-table-w" style="width: 100%; height: 700px; border: 0"></iframe>
</main></body></html>`);
    return;
  }
  res.writeHead(req.url === '/' || req.url.startsWith('/article') ? 200 : 404, headers);
  res.end(req.url === '/' || req.url.startsWith('/article') ? articleHtml() : 'not found');
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const article = `http://127.0.0.1:${server.address().port}/article.html`;

async function open() {
  const page = await h.browser.newPage({ viewport: { width: 1100, height: 900 } });
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto(article);
  return { page, errors };
}

const statuses = (page) => page.evaluate(() => ['one', 'two'].map((id) => document.getElementById(id).shadowRoot.querySelector('.embedlab-status').textContent).join(' | '));

async function drawn(page, errors) {
  try {
    await page.waitForFunction(() => ['one', 'two'].every((id) => Number(document.getElementById(id).dataset.renders || 0) > 0), null, { timeout: 30000 });
  } catch {
    throw new Error(`the widgets did not draw: ${await statuses(page)}; console: ${errors.slice(0, 3).join(' | ')}`);
  }
  const heat = await page.locator('#one canvas.heatmap-canvas').first().evaluate(canvasStats);
  const chips = await page.locator('#two .chip').count();
  const workers = await page.evaluate(() => customElements.get('embedlab-view').workersCreated);
  return { heat, chips, workers };
}

await test('an article on another origin: both widgets draw through one worker (blob: module importing ours)', async () => {
  assert(new URL(article).origin !== new URL(site).origin, 'the article is not on another origin');
  csp = '';
  const { page, errors } = await open();
  const r = await drawn(page, errors);
  assert(r.heat.variance > 50, `the heatmap is blank (variance ${r.heat.variance})`);
  assert(r.chips > 50, `the text widget shows ${r.chips} chips`);
  assert(r.workers === 1, `${r.workers} workers`);
  assert(errors.length === 0, `console errors: ${errors.slice(0, 3).join(' | ')}`);
  await page.screenshot({ path: shot('cross-origin.png'), fullPage: true });
  await page.close();
});

await test("with the article CSP docs/widgets.md gives (script-src and worker-src the widget's site, worker-src blob:, connect-src the site) they draw", async () => {
  // module imports inside a module worker are fetched as "worker" requests: worker-src needs the site too
  csp = `default-src 'self'; script-src 'self' ${site} 'wasm-unsafe-eval'; worker-src blob: ${site}; connect-src ${site}; style-src 'self'; img-src 'self' data:`;
  const { page, errors } = await open();
  const r = await drawn(page, errors);
  assert(r.heat.variance > 50 && r.chips > 50 && r.workers === 1, `drawn: ${JSON.stringify(r)}`);
  assert(errors.length === 0, `console errors: ${errors.slice(0, 3).join(' | ')}`);
  await page.close();
});

await test('an article CSP without worker-src blob: gives each widget the reason; nothing crashes', async () => {
  csp = `default-src 'self'; script-src 'self' ${site} 'wasm-unsafe-eval'; connect-src ${site}; img-src data:`;
  const { page, errors } = await open();
  try {
    await page.waitForFunction(() => ['one', 'two'].every((id) => /cannot start the engine worker/.test(document.getElementById(id).shadowRoot.textContent)), null, { timeout: 20000 });
  } catch {
    throw new Error(`no reason shown: ${await statuses(page)}; console: ${errors.slice(0, 3).join(' | ')}`);
  }
  const text = await page.evaluate(() => document.getElementById('one').shadowRoot.querySelector('.embedlab-status').textContent);
  assert(text.includes(`worker-src blob: ${site}`), `status: ${text}`);
  await page.close();
});

await test('a card of the page in a cross-origin iframe draws and logs nothing (issue 22: the Start-over dialog\'s autofocus was "Blocked autofocusing … in a cross-origin subframe")', async () => {
  csp = ''; // the framing article has no CSP of its own (the tests above set one)
  const page = await h.browser.newPage({ viewport: { width: 1100, height: 900 } });
  const messages = [];
  page.on('console', (m) => messages.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => messages.push(`pageerror: ${e.message}`));
  await page.goto(article.replace('/article.html', '/framed.html'));
  const frame = page.frameLocator('#card');
  try {
    await frame.locator('#view-table[data-renders]').waitFor({ state: 'attached', timeout: 30000 });
  } catch (err) {
    throw new Error(`the framed card did not draw: ${err.message.split('\n')[0]}; console: ${messages.slice(0, 5).join(' | ')}`);
  }
  // the page's console messages (the frame's included) after its first render: the focus ones
  // arrive while the frame's document is parsed, before this point
  const focus = messages.filter((m) => /autofocus|focus/i.test(m));
  assert(focus.length === 0, `console: ${focus.join(' | ')}`);
  assert(!messages.some((m) => m.startsWith('error') || m.startsWith('pageerror')), `console: ${messages.join(' | ')}`);
  await page.close();
});

await test('no console errors on the site origin', async () => {
  assert(consoleErrors.length === 0, `console errors: ${consoleErrors.slice(0, 3).join(' | ')}`);
});

server.close();
await h.finish();
