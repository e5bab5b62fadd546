// Browser test of the <embedlab-view> widget (web/src/element.js) on article.html, an article
// with two widgets, the second far below the fold: both draw (canvases not blank, read inside
// their shadow roots), the lower one starts only once scrolled near, one worker serves both,
// an attribute change re-renders and fires embedlab-change, a bad attribute value is listed as
// ignored, the element is as tall as its content; no console errors, no request to another
// origin. Screenshots: article-1280.png, article-375.png and the widgets alone,
// article-1280-first.png, article-375-second.png (look at them).
//   node tests/browser/article.test.mjs [--site build/web] [--shots build/screenshots]
import { assert, canvasStats, startHarness } from './harness.mjs';

const h = await startHarness('article tests');
const { test, consoleErrors, foreignRequests, shot } = h;

async function openArticle(width, height = 900) {
  const page = await h.browser.newPage({ viewport: { width, height } });
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
  page.on('request', (r) => {
    if (!r.url().startsWith(h.url) && !r.url().startsWith('data:')) foreignRequests.push(r.url());
  });
  await page.goto(`${h.url}article.html`);
  return page;
}

const renders = (page, id) => page.$eval(`#${id}`, (el) => Number(el.dataset.renders || 0));
async function waitRenders(page, id, above, timeout = 20000) {
  await page.waitForFunction(([i, n]) => Number(document.getElementById(i).dataset.renders || 0) > n, [id, above], { timeout });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

// canvasStats of every heatmap canvas in the element's shadow root (CSS locators pierce open shadow roots)
async function heatmaps(page, id) {
  const canvases = page.locator(`#${id} canvas.heatmap-canvas`);
  const out = [];
  for (let i = 0; i < await canvases.count(); i++) out.push(await canvases.nth(i).evaluate(canvasStats));
  return out;
}

const page = await openArticle(1280);

await test('the first widget draws its card; the one below the fold has not started', async () => {
  await waitRenders(page, 'first', 0);
  const kinds = await page.$eval('#first', (el) => [...el.shadowRoot.querySelectorAll('[data-kind]')].map((c) => c.dataset.kind));
  assert(kinds.join() === 'sinusoidal', `card="sinusoidal" should show one card, got ${kinds.join()}`);
  const stats = await heatmaps(page, 'first');
  assert(stats.length === 2, `expected 2 heatmaps (table, similarity), got ${stats.length}`);
  for (const s of stats) assert(s.w > 100 && s.variance > 50 && s.colors > 20, `a heatmap looks blank: ${JSON.stringify(s)}`);
  const second = await page.$eval('#second', (el) => ({ started: el.dataset.started || '', renders: el.dataset.renders || '' }));
  assert(!second.started && !second.renders, `the second widget started before scrolling: ${JSON.stringify(second)}`);
});

await test('the second widget starts once scrolled near, draws three cards, on the same worker', async () => {
  await page.$eval('#second', (el) => el.scrollIntoView());
  await waitRenders(page, 'second', 0);
  assert((await page.$eval('#second', (el) => el.dataset.started)) === '1', 'data-started not set');
  const kinds = await page.$eval('#second', (el) => [...el.shadowRoot.querySelectorAll('[data-kind]')].map((c) => c.dataset.kind));
  assert(kinds.join() === 'sinusoidal,learned,rope', `expected the three cards, got ${kinds.join()}`);
  const stats = await heatmaps(page, 'second');
  assert(stats.length === 6 && stats.every((s) => s.variance > 50 && s.colors > 10), `a heatmap looks blank: ${JSON.stringify(stats)}`);
  const workers = await page.evaluate(() => customElements.get('embedlab-view').workersCreated);
  assert(workers === 1, `expected one worker for two widgets, got ${workers}`);
  const fetched = await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname.endsWith('/worker.js')).length);
  assert(fetched === 1, `worker.js fetched ${fetched} times`);
  const wasm = await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.wasm')).length);
  assert(wasm <= 1, `embedlab.wasm fetched ${wasm} times`);
});

await test('an attribute change re-renders and fires embedlab-change with the parsed state', async () => {
  const before = await renders(page, 'second');
  const hashBefore = (await heatmaps(page, 'second'))[0].hash;
  const detail = await page.evaluate(() => new Promise((resolve) => {
    const el = document.getElementById('second');
    el.addEventListener('embedlab-change', (e) => resolve({ T: e.detail.state.T, pd: e.detail.state.pd, seed: e.detail.state.seed, ignored: e.detail.ignored.length }), { once: true });
    el.setAttribute('T', '24');
    el.setAttribute('seed', '8');
  }));
  assert(detail.T === 24 && detail.pd === 32 && detail.seed === 8 && detail.ignored === 0, `event detail: ${JSON.stringify(detail)}`);
  assert((await renders(page, 'second')) === before + 1, 'two attributes set together should render once');
  const after = await heatmaps(page, 'second');
  assert(after[0].hash !== hashBefore, 'the table heatmap did not change');
});

await test('a bad attribute value is listed as ignored and the default is used', async () => {
  const before = await renders(page, 'second');
  await page.$eval('#second', (el) => el.setAttribute('T', 'lots'));
  await waitRenders(page, 'second', before);
  const notes = await page.$eval('#second', (el) => el.shadowRoot.querySelector('.embedlab-status + .embedlab-cards + .embedlab-status').textContent);
  assert(/ignored T=lots .*using the default 32/.test(notes), `note: ${notes}`);
});

await test('controls="T,seed" offers exactly those fields; changing one sets the attribute and re-renders', async () => {
  const before = await renders(page, 'second');
  await page.$eval('#second', (el) => el.setAttribute('controls', 'T,seed,bogus'));
  await waitRenders(page, 'second', before);
  const fields = await page.$eval('#second', (el) => [...el.shadowRoot.querySelectorAll('.embedlab-controls [name]')].map((f) => `${f.name}=${f.value}`));
  assert(fields.join(' ') === 'T=32 seed=8', `fields: ${fields.join(' ')}`);
  const notes = await page.$eval('#second', (el) => el.shadowRoot.querySelector('.embedlab-cards + .embedlab-status').textContent);
  assert(/ignored controls=bogus/.test(notes), `note: ${notes}`);
  const n = await renders(page, 'second');
  const field = page.locator('#second').locator('.embedlab-controls input[name="T"]');
  await field.fill('40');
  await field.press('Enter');
  await field.blur();
  await waitRenders(page, 'second', n);
  assert((await page.$eval('#second', (el) => el.getAttribute('T'))) === '40', 'the T field did not set the attribute');
  await page.locator('#second').screenshot({ path: shot('article-controls.png'), clip: undefined });
  console.log(`     (fields ${fields.join(', ')}; T set to 40 through the field)`);
});

await test('each widget is as tall as its content', async () => {
  for (const id of ['first', 'second']) {
    const m = await page.$eval(`#${id}`, (el) => {
      const host = el.getBoundingClientRect().height;
      const kids = [...el.shadowRoot.children].filter((c) => c.getBoundingClientRect().height > 0);
      const top = Math.min(...kids.map((c) => c.getBoundingClientRect().top));
      const bottom = Math.max(...kids.map((c) => c.getBoundingClientRect().bottom));
      return { host, content: bottom - top };
    });
    assert(m.host > 300 && Math.abs(m.host - m.content) < 2, `${id}: host ${m.host} px, content ${m.content} px`);
  }
});

await test('the host font is inherited inside the shadow root', async () => {
  const f = await page.$eval('#first', (el) => getComputedStyle(el.shadowRoot.querySelector('.explain')).fontFamily);
  assert(/Georgia/.test(f), `font-family inside: ${f}`);
});

await test('screenshots at 1280 and 375 px', async () => {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: shot('article-1280.png'), fullPage: true });
  await page.locator('#first').screenshot({ path: shot('article-1280-first.png') });
  const narrow = await openArticle(375, 800);
  await waitRenders(narrow, 'first', 0);
  await narrow.$eval('#second', (el) => el.scrollIntoView());
  await waitRenders(narrow, 'second', 0);
  const overflow = await narrow.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert(overflow <= 0, `the page scrolls sideways by ${overflow} px at 375 px`);
  await narrow.locator('#second').screenshot({ path: shot('article-375-second.png') });
  await narrow.evaluate(() => window.scrollTo(0, 0));
  await narrow.screenshot({ path: shot('article-375.png'), fullPage: true });
  await narrow.close();
});

await test('no console errors, no request to another origin', async () => {
  assert(consoleErrors.length === 0, `console errors: ${consoleErrors.join(' | ')}`);
  assert(foreignRequests.length === 0, `requests to other origins: ${foreignRequests.join(' ')}`);
});

await h.finish();
