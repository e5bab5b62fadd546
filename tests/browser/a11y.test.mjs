// Accessibility, small screens, small defects and cold load of the page, in headless Chromium.
//   node tests/browser/a11y.test.mjs [--site build/web] [--shots build/screenshots]
// - axe-core 4.14 (node_modules/axe-core, run inside the page under its own CSP) finds no serious
//   or critical violation on any view once it has drawn, in the light theme, the dark theme
//   (theme=dark, and theme=auto on a system that prefers dark) and at the large label size, nor on
//   the widget test page (article.html, the widgets' shadow roots included) in either theme;
//   every view is screenshotted in the dark theme at the large label size;
// - the tabs follow the ARIA tabs pattern (tablist/tab/tabpanel, aria-selected, roving tabindex,
//   arrow keys, Home/End) and a skip link leads to the main content;
// - at 375 px the settings sit in a drawer (a button with aria-expanded) and nothing is wider
//   than the screen; every view is screenshotted at 1280 and 375 px;
// - BPE: vocabulary size 256 works from the link; the view hides the controls it does not use;
//   its count column and the corpus select are not clipped; sizes read in KiB/MiB/GiB;
// - cold load: the main thread fetches and compiles no wasm (the worker does; its time is
//   measured by scripts/bench page), and the server sends the wasm as application/wasm and the bundles compressed.
// Prints one line per test and `a11y tests: N passed, M failed`; exits 1 on any failure.
import fs from 'node:fs';
import path from 'node:path';
import { assert, repo, startHarness, waitRenders, animationFrames } from './harness.mjs';

const h = await startHarness('a11y tests');
const { consoleErrors, foreignRequests, shot } = h;
// A11Y_ONLY=regex runs only the tests whose title matches (while working on one of them).
const only = process.env.A11Y_ONLY ? new RegExp(process.env.A11Y_ONLY) : null;
const test = (title, fn) => (only && !only.test(title) ? Promise.resolve() : h.test(title, fn));

const AXE = fs.readFileSync(path.join(repo, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
// the notebooks' order (issue 21): the table, text to ids, BPE, windows, positions, training
const VIEWS = ['table', 'text', 'bpe', 'windows', 'positions', 'train'];
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 740 };

// A fresh page (own context: no cache) at a viewport, with the link's hash, once the engine is ready.
async function open(hash = '', viewport = DESKTOP) {
  const page = await h.contextPage(viewport);
  await page.goto(`${h.url}index.html${hash}`);
  await page.waitForSelector('body[data-engine="ready"]', { timeout: 15000 });
  return page;
}

async function openView(view, viewport = DESKTOP, extra = '') {
  const page = await open(`#view=${view}${extra}`, viewport);
  await waitRenders(page, view, 0, 30000);
  return page;
}

// axe-core inside the page (page.evaluate is not subject to the page's CSP, which stays on).
async function axeViolations(page) {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
}

// Elements wider than the viewport (what makes a phone scroll sideways), at most 5.
const overflowing = (page) =>
  page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    const out = [];
    for (const el of document.querySelectorAll('body *')) {
      if (el.closest('[hidden]') || el.closest('.table-scroll, .win-scroll, .chips, pre')) continue;
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > w + 1) out.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className} right=${Math.round(r.right)}`);
      if (out.length >= 5) break;
    }
    return { pageWidth: document.documentElement.scrollWidth, viewport: w, out };
  });

// ---------------------------------------------------------------------------------------------
// 1. axe-core on every view

for (const view of VIEWS) {
  await test(`axe-core 4.14: no serious or critical violation on the ${view} view`, async () => {
    const page = await openView(view);
    const found = await axeViolations(page);
    await page.close();
    assert(found.length === 0, `${found.length} violation(s): ${found.join('; ')}`);
  });
}

// The dark theme at the large label size: what the page looks like (screenshots to look at) and
// what axe finds (contrast above all); the large labels alone in the light theme.
for (const view of VIEWS) {
  await test(`axe-core 4.14, dark theme and large labels: no serious or critical violation on the ${view} view; screenshot`, async () => {
    const page = await openView(view, DESKTOP, '&theme=dark&fs=large');
    assert(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--plot-theme').trim()) === 'dark', 'the page is not dark');
    await animationFrames(page);
    await page.screenshot({ path: shot(`a11y-${view}-dark-large-1280.png`), fullPage: true });
    const found = await axeViolations(page);
    await page.close();
    assert(found.length === 0, `${found.length} violation(s): ${found.join('; ')}`);
  });
  await test(`axe-core 4.14, large labels (light theme): no serious or critical violation on the ${view} view`, async () => {
    const page = await openView(view, DESKTOP, '&fs=large');
    const found = await axeViolations(page);
    await page.close();
    assert(found.length === 0, `${found.length} violation(s): ${found.join('; ')}`);
  });
}

await test('theme=auto follows prefers-color-scheme: dark variables and dark plots on a dark system, no axe violation', async () => {
  const context = await h.browser.newContext({ viewport: DESKTOP, colorScheme: 'dark' });
  const page = await context.newPage();
  page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
  await page.goto(`${h.url}index.html#view=positions`);
  await page.waitForSelector('body[data-engine="ready"]', { timeout: 15000 });
  await waitRenders(page, 'positions', 0, 30000);
  const r = await page.evaluate(() => ({
    theme: getComputedStyle(document.documentElement).getPropertyValue('--plot-theme').trim(),
    bg: getComputedStyle(document.documentElement).backgroundColor,
  }));
  assert(r.theme === 'dark' && r.bg === 'rgb(17, 21, 28)', `auto on a dark system: ${JSON.stringify(r)}`);
  const found = await axeViolations(page);
  // the setting wins over the system: light on a dark system
  await page.evaluate(() => { location.hash = '#view=positions&theme=light'; });
  await page.waitForFunction(() => getComputedStyle(document.documentElement).getPropertyValue('--plot-theme').trim() === 'light', null, { timeout: 5000 });
  await context.close();
  assert(found.length === 0, `${found.length} violation(s): ${found.join('; ')}`);
});

// The widget test page: both widgets drawn (the second after scrolling to it), then axe on the
// document (axe-core descends into open shadow roots), in the light theme, with the widgets'
// theme attribute dark, and with theme=auto on a dark system.
async function openArticle(colorScheme = 'light') {
  const context = await h.browser.newContext({ viewport: DESKTOP, colorScheme });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
  page.on('close', () => context.close().catch(() => {}));
  await page.goto(`${h.url}article.html`);
  for (const id of ['first', 'second']) {
    await page.$eval(`#${id}`, (el) => el.scrollIntoView());
    await page.waitForFunction((i) => Number(document.getElementById(i).dataset.renders || 0) > 0, id, { timeout: 30000 });
  }
  return page;
}

await test('axe-core 4.14: no serious or critical violation on the widget test page (article.html), light', async () => {
  const page = await openArticle();
  const found = await axeViolations(page);
  await page.close();
  assert(found.length === 0, `${found.length} violation(s): ${found.join('; ')}`);
});

await test('axe-core 4.14: widgets with theme="dark" fs="large" and widgets on a dark system (theme auto): dark inside their shadow roots, no serious or critical violation', async () => {
  const page = await openArticle();
  const renders = await page.$eval('#second', (el) => Number(el.dataset.renders));
  await page.evaluate(() => {
    for (const el of document.querySelectorAll('embedlab-view')) {
      el.setAttribute('theme', 'dark');
      el.setAttribute('fs', 'large');
    }
  });
  await page.waitForFunction((n) => Number(document.getElementById('second').dataset.renders) > n, renders, { timeout: 30000 });
  await animationFrames(page);
  const inside = await page.$eval('#second', (el) => {
    const card = el.shadowRoot.querySelector('.card');
    const cs = getComputedStyle(card);
    return { bg: cs.backgroundColor, theme: cs.getPropertyValue('--plot-theme').trim(), scale: cs.getPropertyValue('--plot-scale').trim() };
  });
  assert(inside.bg === 'rgb(26, 31, 41)' && inside.theme === 'dark' && inside.scale === '1.4', `inside the widget: ${JSON.stringify(inside)}`);
  await page.locator('#second').screenshot({ path: shot('a11y-article-widget-dark-large.png') });
  const found = await axeViolations(page);
  await page.close();
  assert(found.length === 0, `theme="dark": ${found.length} violation(s): ${found.join('; ')}`);
  const auto = await openArticle('dark');
  const theme = await auto.$eval('#first', (el) => getComputedStyle(el.shadowRoot.querySelector('.card')).getPropertyValue('--plot-theme').trim());
  const foundAuto = await axeViolations(auto);
  await auto.close();
  assert(theme === 'dark', `a widget without a theme attribute on a dark system is ${theme}`);
  assert(foundAuto.length === 0, `theme auto, dark system: ${foundAuto.length} violation(s): ${foundAuto.join('; ')}`);
});

await test('the tabs follow the ARIA tabs pattern: tabpanels, aria-controls, roving tabindex, arrow keys', async () => {
  const page = await openView('table');
  const tabs = await page.$$eval('[role=tablist] [role=tab]', (els) =>
    els.map((t) => ({ view: t.dataset.view, controls: t.getAttribute('aria-controls'), selected: t.getAttribute('aria-selected'), tabindex: t.getAttribute('tabindex'), id: t.id })));
  assert(tabs.map((t) => t.view).join(' ') === VIEWS.join(' '), `tabs in the order ${tabs.map((t) => t.view).join(' ')}, not the notebooks' ${VIEWS.join(' ')}`);
  for (const t of tabs) {
    assert(t.controls === `view-${t.view}`, `tab ${t.view}: aria-controls=${t.controls}`);
    const panel = await page.$eval(`#${t.controls}`, (el) => ({ role: el.getAttribute('role'), labelledby: el.getAttribute('aria-labelledby') }));
    assert(panel.role === 'tabpanel', `#view-${t.view} has role ${panel.role}`);
    assert(panel.labelledby && panel.labelledby === t.id, `#view-${t.view} aria-labelledby=${panel.labelledby}, tab id ${t.id}`);
    const on = t.view === 'table';
    assert(t.selected === String(on), `tab ${t.view}: aria-selected=${t.selected}`);
    assert(t.tabindex === (on ? '0' : '-1'), `tab ${t.view}: tabindex=${t.tabindex} (roving tabindex: 0 on the selected tab, -1 elsewhere)`);
  }
  await page.focus('[role=tab][data-view=table]');
  await page.keyboard.press('ArrowRight');
  const focused = await page.evaluate(() => document.activeElement.dataset.view);
  assert(focused === 'text', `ArrowRight moved focus to ${focused}`);
  await waitRenders(page, 'text', 0, 30000);
  assert(!(await page.$eval('#view-text', (el) => el.hidden)), 'ArrowRight did not show the text view');
  assert((await page.getAttribute('[role=tab][data-view=text]', 'tabindex')) === '0', 'the new tab is not the tab stop');
  await page.keyboard.press('End');
  assert((await page.evaluate(() => document.activeElement.dataset.view)) === 'train', 'End does not go to the last tab');
  await page.keyboard.press('ArrowRight');
  assert((await page.evaluate(() => document.activeElement.dataset.view)) === 'table', 'ArrowRight does not wrap to the first tab');
  await page.keyboard.press('ArrowLeft');
  assert((await page.evaluate(() => document.activeElement.dataset.view)) === 'train', 'ArrowLeft does not wrap to the last tab');
  await page.keyboard.press('Home');
  assert((await page.evaluate(() => document.activeElement.dataset.view)) === 'table', 'Home does not go to the first tab');
  await page.close();
});

await test('a skip link is the first tab stop and moves focus to the main content', async () => {
  const page = await openView('table');
  await page.keyboard.press('Tab');
  const first = await page.evaluate(() => ({ tag: document.activeElement.tagName, href: document.activeElement.getAttribute('href'), text: document.activeElement.textContent.trim() }));
  assert(first.tag === 'A' && first.href && first.href.startsWith('#'), `first tab stop is ${first.tag} "${first.text}"`);
  const visible = await page.evaluate(() => {
    const r = document.activeElement.getBoundingClientRect();
    return r.width > 1 && r.height > 1 && r.top >= 0 && r.left >= 0;
  });
  assert(visible, 'the skip link is not visible when focused');
  await page.keyboard.press('Enter');
  const target = await page.evaluate(() => ({ id: document.activeElement.id, inMain: !!document.activeElement.closest('main') || document.activeElement.tagName === 'MAIN' }));
  assert(target.inMain, `after the skip link focus is on #${target.id}, not in <main>`);
  await page.keyboard.press('Tab');
  const next = await page.evaluate(() => ({ inPanel: !!document.activeElement.closest('.panel'), role: document.activeElement.getAttribute('role') }));
  assert(!next.inPanel, 'after the skip link the next tab stop is back in the settings panel');
  await page.close();
});

await test('scroll regions (value tables) are reachable by keyboard and named', async () => {
  const page = await openView('table');
  const regions = await page.$$eval('.table-scroll', (els) => els.map((e) => ({ tabindex: e.getAttribute('tabindex'), name: e.getAttribute('aria-label') || e.getAttribute('aria-labelledby') })));
  assert(regions.length > 0, 'no .table-scroll');
  for (const r of regions) assert(r.tabindex === '0' && r.name, `a .table-scroll has tabindex=${r.tabindex}, name=${r.name}`);
  await page.close();
});

// ---------------------------------------------------------------------------------------------
// 2. small screens: settings drawer, charts as wide as the screen; screenshots of every view

await test('at 375 px the settings are in a collapsed drawer with aria-expanded, the plot comes first', async () => {
  const page = await openView('positions', PHONE);
  const toggle = await page.$('[aria-controls="controls"][aria-expanded]');
  assert(toggle, 'no button with aria-controls="controls" and aria-expanded');
  assert(await toggle.isVisible(), 'the drawer button is not visible at 375 px');
  assert((await toggle.getAttribute('aria-expanded')) === 'false', 'the drawer starts open on a phone');
  assert(!(await page.isVisible('#f-T')), 'the settings are visible while the drawer is closed');
  // the view's first card (since issue 21 "Why positions?", with its strip plot) starts on the first screen
  const plotTop = await page.$eval('#view-positions article.card', (el) => el.getBoundingClientRect().top);
  assert(plotTop < PHONE.height, `the first card starts at ${Math.round(plotTop)} px, below the first screen (${PHONE.height} px)`);
  await toggle.click();
  assert((await toggle.getAttribute('aria-expanded')) === 'true', 'aria-expanded did not turn true');
  assert(await page.isVisible('#f-T'), 'the T field is not visible in the open drawer');
  await page.screenshot({ path: shot('a11y-375-drawer-open.png') });
  await page.fill('#f-T', '24');
  await page.press('#f-T', 'Enter');
  await waitRenders(page, 'positions', 1, 30000);
  await toggle.click();
  assert((await toggle.getAttribute('aria-expanded')) === 'false', 'the drawer did not close');
  assert(!(await page.isVisible('#f-T')), 'the settings stay visible after closing the drawer');
  await page.close();
  // on a desktop the panel is always shown and the button hidden
  const wide = await openView('table');
  assert(await wide.isVisible('#f-V'), 'the settings are hidden at 1280 px');
  const t = await wide.$('[aria-controls="controls"][aria-expanded]');
  assert(t && !(await t.isVisible()), 'the drawer button shows at 1280 px');
  await wide.close();
});

for (const view of VIEWS) {
  await test(`at 375 px the ${view} view fits the screen (charts resize to the width); screenshots at 375 and 1280 px`, async () => {
    const page = await openView(view, PHONE);
    await page.screenshot({ path: shot(`a11y-${view}-375.png`), fullPage: true });
    const o = await overflowing(page);
    const plots = await page.$$eval(`#view-${view} canvas`, (cs) => cs.filter((c) => c.offsetParent).map((c) => Math.round(c.getBoundingClientRect().right)));
    await page.setViewportSize(DESKTOP);
    await animationFrames(page);
    await page.screenshot({ path: shot(`a11y-${view}-1280.png`), fullPage: true });
    await page.close();
    assert(o.pageWidth <= o.viewport, `the page is ${o.pageWidth} px wide at ${o.viewport} px: ${o.out.join(', ')}`);
    assert(plots.every((r) => r <= PHONE.width), `a canvas ends at ${Math.max(...plots)} px`);
  });
}

// The histograms' x span as a share of the chart's width: saturated (coloured) pixel columns.
// Labels, axes and the dashed reference line are grey, so they do not count.
function histogramSpan(canvas) {
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  let lo = Infinity;
  let hi = -Infinity;
  for (let x = 0; x < canvas.width; x++) {
    for (let y = 0; y < canvas.height; y++) {
      const i = (y * canvas.width + x) * 4;
      if (Math.max(data[i], data[i + 1], data[i + 2]) - Math.min(data[i], data[i + 1], data[i + 2]) > 60 && data[i + 3] > 30) {
        lo = Math.min(lo, x);
        hi = Math.max(hi, x);
        break;
      }
    }
  }
  return { share: hi > lo ? (hi - lo) / canvas.width : 0, cssWidth: canvas.getBoundingClientRect().width, right: canvas.getBoundingClientRect().right };
}

await test('at 375 px the √D chart is not crushed: the histograms span at least half of a chart as wide as the card', async () => {
  const page = await openView('table', PHONE);
  await page.waitForFunction(() => /^D = /.test(document.querySelector('#scale-note').textContent), null, { timeout: 15000 });
  await page.$eval('#scale-plot', (el) => el.scrollIntoView());
  await animationFrames(page);
  const r = await page.$eval('#scale-plot canvas', histogramSpan);
  await page.screenshot({ path: shot('a11y-scale-375.png') });
  await page.setViewportSize(DESKTOP);
  await animationFrames(page);
  const wide = await page.$eval('#scale-plot canvas', histogramSpan);
  await page.close();
  assert(r.right <= PHONE.width && r.cssWidth >= 300, `√D chart is ${Math.round(r.cssWidth)} px wide, ends at ${Math.round(r.right)}`);
  assert(r.share >= 0.5, `at 375 px the histograms span ${(100 * r.share).toFixed(0)}% of the chart's width (labels take the rest)`);
  assert(wide.share >= 0.5, `at 1280 px the histograms span ${(100 * wide.share).toFixed(0)}% of the chart's width`);
});

// ---------------------------------------------------------------------------------------------
// 3. smaller defects

await test('BPE vocabulary size 256 (no merges) is accepted by the link and by the view', async () => {
  const page = await openView('bpe', DESKTOP, '&bpeV=256');
  const notice = await page.$eval('#url-messages', (el) => (el.hidden ? '' : el.textContent));
  assert(!/bpeV/.test(notice), `the link parser refused bpeV=256: ${notice}`);
  assert((await page.inputValue('#f-bpeV')) === '256', `the field shows ${await page.inputValue('#f-bpeV')}`);
  const target = await page.textContent('#bpe-summary');
  assert(/target 256/.test(target), `summary: ${target}`);
  const field = await page.textContent('.field[data-key="bpeV"] .field-error');
  assert(!field, `field error: ${field}`);
  // 255 is refused, with the value and the limit
  const bad = await open('#view=bpe&bpeV=255');
  const msg = await bad.$eval('#url-messages', (el) => el.textContent);
  assert(/bpeV=255/.test(msg) && /256/.test(msg), `bpeV=255: "${msg}"`);
  await bad.close();
  await page.close();
});

await test('the BPE view hides the tokenizer and lower-case controls, which do nothing there', async () => {
  const page = await openView('bpe');
  assert(await page.isVisible('#f-corpus'), 'corpus select hidden');
  assert(await page.isVisible('#f-bpeV'), 'bpeV hidden');
  assert(!(await page.isVisible('#f-enc')), 'the tokenizer select shows on the BPE view');
  assert(!(await page.isVisible('#f-lower')), 'the lower-case box shows on the BPE view');
  await page.click('[role=tab][data-view=text]');
  assert(await page.isVisible('#f-enc'), 'the tokenizer select is hidden on the text view');
  assert(await page.isVisible('#f-lower'), 'the lower-case box is hidden on the text view');
  await page.close();
});

await test('the BPE merges table shows its count column whole and the corpus select is not truncated', async () => {
  for (const viewport of [DESKTOP, PHONE]) {
    const page = await openView('bpe', viewport, '&bpeV=420');
    await page.click('#bpe-run'); // longer merged tokens, wider pair and token columns
    await page.waitForFunction(() => document.querySelector('#view-bpe').dataset.vocab === '420', null, { timeout: 60000 });
    const r = await page.$eval('#bpe-merges', (table) => {
      const box = table.closest('.table-scroll').getBoundingClientRect();
      const cells = [...table.querySelectorAll('tr > :last-child')].map((c) => c.getBoundingClientRect());
      return { boxRight: box.right, cellRight: Math.max(...cells.map((c) => c.right)), n: cells.length };
    });
    assert(r.n > 1 && r.cellRight <= r.boxRight + 1, `${viewport.width} px: count column ends at ${Math.round(r.cellRight)}, its box at ${Math.round(r.boxRight)}`);
    if (viewport === PHONE) await page.click('[aria-controls="controls"][aria-expanded]');
    const sel = await page.$eval('#f-corpus', (s) => {
      const cs = getComputedStyle(s);
      const ctx = document.createElement('canvas').getContext('2d');
      ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const widest = Math.max(...[...s.options].map((o) => ctx.measureText(o.text).width));
      const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20; // the arrow
      return { widest, room };
    });
    await page.screenshot({ path: shot(`a11y-bpe-controls-${viewport.width}.png`) });
    await page.close();
    assert(sel.widest <= sel.room, `${viewport.width} px: the corpus select has room for ${Math.round(sel.room)} px, its longest option is ${Math.round(sel.widest)} px`);
  }
});

await test('sizes in messages read in KiB/MiB/GiB, not raw byte counts', async () => {
  const page = await openView('text');
  const big = Buffer.alloc(33 * 1024 * 1024 + 5, 97);
  await page.setInputFiles('#custom-file', { name: 'big.txt', mimeType: 'text/plain', buffer: big });
  await page.waitForFunction(() => /big\.txt/.test(document.querySelector('#view-text').innerText), null, { timeout: 15000 });
  const text = await page.evaluate(() => document.querySelector('#view-text').innerText);
  const line = (text.match(/.*big\.txt.*/) || [''])[0];
  assert(/33\.0 MiB/.test(line) && /32\.0 MiB/.test(line), `the file-size message has no MiB: "${line}"`);
  // the page budget: V x D float32 beyond 256 MiB, in the same units
  await page.close();
  const table = await open('#view=table&V=200000&D=1024');
  await table.waitForFunction(() => /need/.test(document.querySelector('#controls').innerText), null, { timeout: 15000 }).catch(() => {});
  const msg = await table.evaluate(() => document.querySelector('#controls').innerText);
  await table.close();
  assert(/781\.3 MiB/.test(msg) && /256\.0 MiB/.test(msg), `the page budget message: ${msg.match(/.*need.*/) || msg.slice(0, 200)}`);
});

// ---------------------------------------------------------------------------------------------
// 4. cold load

await test('the server sends wasm as application/wasm and compresses js, wasm, css and html', async () => {
  for (const [file, type] of [['embedlab.wasm', 'application/wasm'], ['app.js', 'text/javascript'], ['worker.js', 'text/javascript'], ['embedlab.js', 'text/javascript'], ['style.css', 'text/css'], ['index.html', 'text/html']]) {
    const res = await fetch(`${h.url}${file}`, { headers: { 'accept-encoding': 'br, gzip' } });
    const body = await res.arrayBuffer();
    assert(res.status === 200, `${file}: ${res.status}`);
    assert(res.headers.get('content-type').startsWith(type), `${file}: ${res.headers.get('content-type')}`);
    assert(/^(br|gzip)$/.test(res.headers.get('content-encoding') || ''), `${file}: content-encoding ${res.headers.get('content-encoding')}`);
    assert(body.byteLength > 0, `${file}: empty`);
    assert(res.headers.get('content-security-policy'), `${file}: no CSP header`);
  }
});

// The cold-load time (navigation start to the first table plot, budget 1 s) is measured by
// scripts/bench page; here, the property behind it: the main thread makes no engine call (the
// worker fetches, compiles and calls the wasm module), and the first plot is drawn from its reply.
await test('cold load: the main thread fetches and compiles no wasm; the first table plot comes from the worker', async () => {
  const context = await h.browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.__wasmCalls = [];
    for (const name of ['compile', 'compileStreaming', 'instantiate', 'instantiateStreaming', 'validate']) {
      const f = WebAssembly[name];
      WebAssembly[name] = function (...args) {
        window.__wasmCalls.push(name);
        return f.apply(this, args);
      };
    }
    const Module = WebAssembly.Module;
    WebAssembly.Module = function (...args) {
      window.__wasmCalls.push('Module');
      return new Module(...args);
    };
  });
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.goto(`${h.url}index.html`);
  await page.waitForSelector('body[data-engine="ready"]', { timeout: 20000 });
  await waitRenders(page, 'table', 0, 20000);
  const r = await page.evaluate(() => ({
    calls: window.__wasmCalls,
    // index.html's <link rel="preload"> of the wasm (initiator 'link') only fills the HTTP cache
    // for the worker's fetch (docs/page.md, "How the page loads"): not a fetch of the main thread's
    fetched: performance.getEntriesByType('resource').filter((e) => e.initiatorType !== 'link' || !/\.wasm$/.test(new URL(e.name).pathname)).map((e) => new URL(e.name).pathname),
    drawn: document.querySelector('#view-table canvas')?.width > 0,
  }));
  await context.close();
  assert(r.calls.length === 0, `the main thread called WebAssembly.${r.calls.join(', ')}`);
  // (the worker's own imports, embedlab.js among them, are listed in the document's timeline too)
  const engine = r.fetched.filter((p) => /\.wasm$/.test(p));
  assert(engine.length === 0, `the main thread fetched ${engine.join(', ')}`);
  assert(workers.some((u) => /\/worker\.js$/.test(new URL(u).pathname)), `no worker.js worker: ${workers.join(', ')}`);
  assert(r.drawn, 'no canvas at the first render');
  console.log(`     (main thread: ${r.fetched.length} resources, no wasm; worker ${workers.map((u) => new URL(u).pathname).join(', ')})`);
});

await test('no console errors and nothing requested from another origin', async () => {
  assert(consoleErrors.length === 0, consoleErrors.slice(0, 3).join(' | '));
  assert(foreignRequests.length === 0, foreignRequests.slice(0, 3).join(' | '));
});

await h.finish();
