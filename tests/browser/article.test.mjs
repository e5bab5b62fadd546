// Browser test of the <embedlab-view> widget (web/src/element.js) on article.html, an article
// with widgets of every view, all but the first far below the fold: each draws (canvases not
// blank, read inside their shadow roots), the lower ones start only once scrolled near, one worker
// serves them all, an attribute change re-renders and fires embedlab-change, a bad attribute
// value, an unknown card and a setting the view does not read are listed as ignored, `controls`
// fields change the plot, a training widget trains through its own Play button (and pauses when
// scrolled away), the text and windows widgets keep their own tokenizers on the shared worker,
// each element is as tall as its content; no console errors, no request to another origin.
// Screenshots: article-1280.png, article-375.png and the widgets alone, article-1280-first.png,
// article-375-second.png, article-{sqrtd,table,text,windows,train}-{1280,375}.png (look at them).
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

// canvasStats of every shown canvas (of `cls`) in the element's shadow root (CSS locators pierce
// open shadow roots; the cards a card= attribute hides are display: none, so their canvases have no offsetParent)
async function heatmaps(page, id, cls = 'heatmap-canvas') {
  const canvases = page.locator(`#${id} canvas${cls ? `.${cls}` : ''}`);
  const out = [];
  for (let i = 0; i < await canvases.count(); i++) {
    const c = canvases.nth(i);
    if (await c.evaluate((el) => el.offsetParent !== null)) out.push(await c.evaluate(canvasStats));
  }
  return out;
}

// the shown cards of a widget -> their kind, id or heading
const shownCards = (page, id) => page.$eval(`#${id}`, (el) => [...el.shadowRoot.querySelectorAll('article.card')]
  .filter((c) => c.offsetParent !== null).map((c) => c.dataset.kind || c.id || c.querySelector('h3').textContent.trim()));
const notesOf = (page, id) => page.$eval(`#${id}`, (el) => el.shadowRoot.querySelector('.embedlab-notes').textContent);
// The train widget's step count as its worker sees it: a neighbours request through the widget's
// own engine scope is answered after any training slice already sent (the worker answers in
// order), so two calls with no step between them show a paused run did not step, with no sleep.
const widgetStep = (page, query) => page.$eval('#train', async (el, q) => (await el.widget.engine.request('trainNeighbours', { query: q, k: 3 })).step, query);
const sectionData = (page, id) => page.$eval(`#${id}`, (el) => ({ ...el.shadowRoot.querySelector('section.view').dataset }));

const page = await openArticle(1280);

await test('the first widget draws its card; the one below the fold has not started', async () => {
  await waitRenders(page, 'first', 0);
  const kinds = await shownCards(page, 'first');
  assert(kinds.join() === 'sinusoidal', `card="sinusoidal" should show one card, got ${kinds.join()}`);
  const stats = await heatmaps(page, 'first');
  assert(stats.length === 2, `expected 2 heatmaps (table, similarity), got ${stats.length}`);
  for (const s of stats) assert(s.w > 100 && s.variance > 50 && s.colors > 20, `a heatmap looks blank: ${JSON.stringify(s)}`);
  const second = await page.$eval('#second', (el) => ({ started: el.dataset.started || '', renders: el.dataset.renders || '' }));
  assert(!second.started && !second.renders, `the second widget started before scrolling: ${JSON.stringify(second)}`);
});

await test('the second widget starts once scrolled near, draws the whole positions view, on the same worker', async () => {
  await page.$eval('#second', (el) => el.scrollIntoView());
  await waitRenders(page, 'second', 0);
  assert((await page.$eval('#second', (el) => el.dataset.started)) === '1', 'data-started not set');
  const kinds = await page.$eval('#second', (el) => [...el.shadowRoot.querySelectorAll('#positions-cards [data-kind]')].map((c) => c.dataset.kind));
  assert(kinds.join() === 'sinusoidal,learned,rope', `expected the three encoding cards, got ${kinds.join()}`);
  const cards = await shownCards(page, 'second');
  for (const want of ['RoPE on real vectors', 'alibi']) {
    assert(cards.some((c) => c.startsWith(want)), `the view's ${want} panel is not shown: ${cards.join(' | ')}`);
  }
  const stats = await heatmaps(page, 'second');
  assert(stats.length >= 6 && stats.every((s) => s.variance > 20 && s.colors > 5), `a heatmap looks blank: ${JSON.stringify(stats)}`);
  const workers = await page.evaluate(() => customElements.get('embedlab-view').workersCreated);
  assert(workers === 1, `expected one worker for two widgets, got ${workers}`);
  const fetched = await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname.endsWith('/worker.js')).length);
  assert(fetched === 1, `worker.js fetched ${fetched} times`);
  const wasm = await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname.endsWith('.wasm')).length);
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
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))); // heatmaps draw on the next frame
  const after = await heatmaps(page, 'second');
  assert(after[0].hash !== hashBefore, 'the table heatmap did not change');
});

await test('a bad attribute value is listed as ignored and the default is used', async () => {
  const before = await renders(page, 'second');
  await page.$eval('#second', (el) => el.setAttribute('T', 'lots'));
  await waitRenders(page, 'second', before);
  const notes = await page.$eval('#second', (el) => el.shadowRoot.querySelector('.embedlab-notes').textContent);
  assert(/ignored T=lots .*using the default 32/.test(notes), `note: ${notes}`);
});

await test('controls="T,seed" offers exactly those fields; changing one sets the attribute and re-renders', async () => {
  const before = await renders(page, 'second');
  await page.$eval('#second', (el) => el.setAttribute('controls', 'T,seed,bogus'));
  await waitRenders(page, 'second', before);
  const fields = await page.$eval('#second', (el) => [...el.shadowRoot.querySelectorAll('.embedlab-controls [name]')].map((f) => `${f.name}=${f.value}`));
  assert(fields.join(' ') === 'T=32 seed=8', `fields: ${fields.join(' ')}`);
  const notes = await page.$eval('#second', (el) => el.shadowRoot.querySelector('.embedlab-notes').textContent);
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

await test('card= the √D card: only that card of the table view, its length strips drawn; no link to learn.html in a widget', async () => {
  await page.$eval('#sqrtd', (el) => el.scrollIntoView());
  await waitRenders(page, 'sqrtd', 0);
  // the lengths come after the table (the card draws when the engine's scaleDemo reply arrives)
  await page.waitForFunction(() => /^D = 64:/.test(document.getElementById('sqrtd').shadowRoot.querySelector('#scale-note').textContent), null, { timeout: 20000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const cards = await shownCards(page, 'sqrtd');
  assert(cards.length === 1 && cards[0] === 'Why multiply token vectors by √D?', `cards shown: ${cards.join(' | ')}`);
  const strips = await heatmaps(page, 'sqrtd', 'strips-canvas');
  assert(strips.length === 1 && strips[0].w > 200 && strips[0].variance > 50 && strips[0].colors > 5, `strips: ${JSON.stringify(strips)}`);
  assert((await notesOf(page, 'sqrtd')) === '', `notes: ${await notesOf(page, 'sqrtd')}`);
  assert(/^D = 64: a sinusoidal row has length 5\.657/.test(await page.$eval('#sqrtd', (el) => el.shadowRoot.querySelector('#scale-note').textContent)), 'the card does not measure the widget\'s D');
  // the widget's files sit on the article's site, where no learn.html is: no "Read:" links in widgets
  for (const id of ['first', 'sqrtd']) assert(await page.$eval(`#${id}`, (el) => el.shadowRoot.querySelectorAll('.read-link, a[href*="learn.html"]').length) === 0, `${id}: a widget links learn.html`);
  // the card's old address (view="positions", before it moved to the table view) still shows it
  const n = await renders(page, 'sqrtd');
  await page.$eval('#sqrtd', (el) => el.setAttribute('view', 'positions'));
  await waitRenders(page, 'sqrtd', n);
  const moved = await shownCards(page, 'sqrtd');
  assert(moved.length === 1 && moved[0] === 'Why multiply token vectors by √D?', `view=positions card=why-…: cards shown: ${moved.join(' | ')}`);
  await page.$eval('#sqrtd', (el) => el.setAttribute('view', 'table'));
});

await test('table widget: one card, controls="V,D" fields redraw it; an unknown card and a setting the view does not read are listed', async () => {
  await page.$eval('#table', (el) => el.scrollIntoView());
  await waitRenders(page, 'table', 0);
  const cards = await shownCards(page, 'table');
  assert(cards.length === 1 && cards[0].startsWith('Embedding table W (40 × 12)'), `cards shown: ${cards.join(' | ')}`);
  const before = { data: await sectionData(page, 'table'), plot: (await heatmaps(page, 'table'))[0] };
  assert(before.plot && before.plot.variance > 50 && before.plot.colors > 20, `the table heatmap looks blank: ${JSON.stringify(before.plot)}`);
  const fields = await page.$eval('#table', (el) => [...el.shadowRoot.querySelectorAll('.embedlab-controls [name]')].map((f) => `${f.name}=${f.value}`));
  assert(fields.join(' ') === 'V=40 D=12', `fields: ${fields.join(' ')}`);
  const n = await renders(page, 'table');
  const field = page.locator('#table').locator('.embedlab-controls input[name="D"]');
  await field.fill('20');
  await field.press('Enter');
  await waitRenders(page, 'table', n);
  const after = { data: await sectionData(page, 'table'), plot: (await heatmaps(page, 'table'))[0] };
  assert((await page.$eval('#table', (el) => el.getAttribute('d'))) === '20', 'the D field did not set the attribute');
  assert(after.data.checksum !== before.data.checksum && after.plot.hash !== before.plot.hash,
    `the fingerprint or the pixels did not change: ${before.data.checksum} -> ${after.data.checksum}`);
  assert((await shownCards(page, 'table'))[0].startsWith('Embedding table W (40 × 20)'), 'the title did not follow D');
  await page.locator('#table').screenshot({ path: shot('article-table-1280.png') });
  // an unknown card: the first card shown, and the names listed; a setting the view does not read
  const m = await renders(page, 'table');
  await page.$eval('#table', (el) => {
    el.setAttribute('card', 'no-such-card');
    el.setAttribute('controls', 'V,D,T');
  });
  await waitRenders(page, 'table', m);
  const notes = await notesOf(page, 'table');
  assert(/ignored card=no-such-card \(the table view has no card named 'no-such-card' \(its cards: embedding-table-w, lookup-one-hot-w-for-token, why-multiply-token-vectors-by-d\); showing its first card\)/.test(notes), `notes: ${notes}`);
  assert(/ignored controls=T \(the table view does not read T \(it reads seed, V, D, pad, maxn, scale, tok, cmap\)\)/.test(notes), `notes: ${notes}`);
  assert((await shownCards(page, 'table')).length === 1, 'an unknown card should show the view\'s first card only');
  const k = await renders(page, 'table');
  await page.$eval('#table', (el) => {
    el.setAttribute('card', 'embedding-table-w');
    el.setAttribute('controls', 'V,D');
  });
  await waitRenders(page, 'table', k);
  assert((await notesOf(page, 'table')) === '' && (await shownCards(page, 'table')).length === 1, 'the card did not come back');
  console.log(`     (fingerprint ${before.data.checksum} -> ${after.data.checksum} after D 12 -> 20 through the field)`);
});

await test('text and windows widgets keep their own tokenizers on the one worker (characters / GPT-2)', async () => {
  await page.$eval('#text', (el) => el.scrollIntoView());
  await waitRenders(page, 'text', 0);
  await page.$eval('#windows', (el) => el.scrollIntoView());
  await waitRenders(page, 'windows', 0);
  // the windows widget tokenized with GPT-2 after the text widget's characters: the text widget pages on
  await page.$eval('#text', (el) => el.scrollIntoView());
  const chips = async () => page.$eval('#text', (el) => [...el.shadowRoot.querySelectorAll('.chip .chip-text')].slice(0, 6).map((c) => c.textContent));
  const next = page.locator('#text').locator('#chips-next');
  await next.click();
  await page.waitForFunction(() => /^tokens 400/.test(document.getElementById('text').shadowRoot.querySelector('#chips-range').textContent), null, { timeout: 10000 });
  const paged = await chips();
  assert(paged.length === 6 && paged.every((t) => [...t].length <= 2), `the text widget's chips are not characters after paging: ${JSON.stringify(paged)}`);
  const stats = await page.$eval('#text', (el) => el.shadowRoot.querySelector('#text-stats').textContent);
  assert(/vocabulary size V\s*6\d(?!\d)/.test(stats), `character vocabulary expected (about 60 ids): ${stats}`);
  const summary = await page.$eval('#windows', (el) => el.shadowRoot.querySelector('#win-summary').textContent);
  // ⌊(5145 − 6 − 1) / 3⌋ + 1 = 1713 windows of the 5,145 GPT-2 ids of the-verdict
  assert(/^5,145 tokens → 1,713 windows of 6/.test(summary), `windows of GPT-2 ids expected: ${summary}`);
  const strip = await page.$eval('#windows', (el) => el.shadowRoot.querySelectorAll('#win-strip .chip').length);
  assert(strip > 6, `the windows strip has ${strip} chips`);
  await page.locator('#text').screenshot({ path: shot('article-text-1280.png') });
  await page.locator('#windows').screenshot({ path: shot('article-windows-1280.png') });
  console.log(`     (text chips after paging ${JSON.stringify(paged)}; ${summary.split(',')[0]}…)`);
});

await test('train widget: its own Play trains (the loss changes), Pause stops, scrolling away pauses; one worker for all', async () => {
  await page.$eval('#train', (el) => el.scrollIntoView());
  await waitRenders(page, 'train', 0);
  const cards = await shownCards(page, 'train');
  assert(cards.length === 1 && cards[0] === 'Train an embedding table on this text', `cards shown: ${cards.join(' | ')}`);
  const play = page.locator('#train').locator('#train-play');
  await play.click();
  await page.waitForFunction(() => Number(document.getElementById('train').shadowRoot.querySelector('section.view').dataset.steps || 0) >= 40, null, { timeout: 30000 });
  await play.click(); // Pause
  const paused = await widgetStep(page, 'e');
  await page.waitForFunction((n) => Number(document.getElementById('train').shadowRoot.querySelector('section.view').dataset.steps) === n, paused, { timeout: 10000 });
  const d = await sectionData(page, 'train');
  const still = await widgetStep(page, 't');
  assert(still === paused && Number((await sectionData(page, 'train')).steps) === paused, `Pause did not stop the run: ${paused} -> ${still}`);
  assert(Number(d.lastLoss) < Number(d.firstLoss) - 0.3, `the loss did not go down: ${d.firstLoss} -> ${d.lastLoss} after ${d.steps} steps`);
  const chart = await heatmaps(page, 'train', '');
  assert(chart.length >= 1 && chart.every((c) => c.variance > 5 && c.colors > 3), `the loss chart looks blank: ${JSON.stringify(chart)}`);
  await page.locator('#train').screenshot({ path: shot('article-train-1280.png') });
  // Play again, then scroll to the top: the run pauses out of view
  await play.click();
  const s0 = Number((await sectionData(page, 'train')).steps);
  await page.waitForFunction((n) => Number(document.getElementById('train').shadowRoot.querySelector('section.view').dataset.steps) > n + 5, s0, { timeout: 20000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  // out of view, the widget pauses (its Play button says Play again); then no step follows
  await page.waitForFunction(() => /play/i.test(document.getElementById('train').shadowRoot.querySelector('#train-play').textContent), null, { timeout: 10000 });
  const s1 = await widgetStep(page, 'e');
  const s2 = await widgetStep(page, 't');
  assert(s1 === s2, `training went on out of view: ${s1} -> ${s2}`);
  assert((await play.textContent()).includes('Play'), 'the button should offer Play again');
  const workers = await page.evaluate(() => customElements.get('embedlab-view').workersCreated);
  const fetched = await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname.endsWith('/worker.js')).length);
  assert(workers === 1 && fetched === 1, `expected one worker for ${await page.$$eval('embedlab-view', (l) => l.length)} widgets: created ${workers}, fetched ${fetched}`);
  console.log(`     (loss ${Number(d.firstLoss).toFixed(3)} -> ${Number(d.lastLoss).toFixed(3)} in ${d.steps} steps; paused at step ${s1} out of view)`);
});

await test('each widget is as tall as its content', async () => {
  for (const id of ['first', 'second', 'sqrtd', 'table', 'text', 'windows', 'train']) {
    const m = await page.$eval(`#${id}`, (el) => {
      const host = el.getBoundingClientRect().height;
      const kids = [...el.shadowRoot.children].filter((c) => c.getBoundingClientRect().height > 0);
      const top = Math.min(...kids.map((c) => c.getBoundingClientRect().top));
      const bottom = Math.max(...kids.map((c) => c.getBoundingClientRect().bottom));
      return { host, content: bottom - top };
    });
    assert(m.host > 200 && Math.abs(m.host - m.content) < 2, `${id}: host ${m.host} px, content ${m.content} px`);
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
  await page.locator('#sqrtd').screenshot({ path: shot('article-sqrtd-1280.png') });
  for (const id of ['second', 'sqrtd', 'table', 'text', 'windows', 'train']) {
    await narrow.$eval(`#${id}`, (el) => el.scrollIntoView());
    await waitRenders(narrow, id, 0, 30000);
  }
  const overflow = await narrow.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert(overflow <= 0, `the page scrolls sideways by ${overflow} px at 375 px`);
  const wide = await narrow.$$eval('embedlab-view', (els) => els.filter((el) => el.getBoundingClientRect().width > window.innerWidth).map((el) => el.id));
  assert(wide.length === 0, `widgets wider than the 375 px page: ${wide.join(' ')}`);
  await narrow.locator('#second').screenshot({ path: shot('article-375-second.png') });
  for (const id of ['sqrtd', 'table', 'text', 'windows', 'train']) await narrow.locator(`#${id}`).screenshot({ path: shot(`article-${id}-375.png`) });
  await narrow.evaluate(() => window.scrollTo(0, 0));
  await narrow.screenshot({ path: shot('article-375.png'), fullPage: true });
  await narrow.close();
});

await test('no console errors, no request to another origin', async () => {
  assert(consoleErrors.length === 0, `console errors: ${consoleErrors.join(' | ')}`);
  assert(foreignRequests.length === 0, `requests to other origins: ${foreignRequests.join(' ')}`);
});

await h.finish();
