// Browser tests of the static page in Debian's headless Chromium through playwright-core.
//   node tests/browser/page.test.mjs [--site build/web] [--shots build/screenshots]
// Serves the built site (scripts/build-web.mjs) on 127.0.0.1 with scripts/static-server.mjs, opens it and
// checks what a person would see: the engine loads, plots are drawn (pixel variance, not
// just "a canvas exists"), the seed changes the numbers, errors appear next to the control
// that caused them while the last plot stays, bad link values are reported, and the main
// thread keeps painting frames while the worker draws a 50257 x 768 table; the text, windows
// and BPE views. The train view (next-token, compare, word2vec): page-train.test.mjs.
// Prints one line per test and `page tests: N passed, M failed`; exits 1 on any failure.
// Size limits (engine and page budget messages on fields and plots): limits.test.mjs.
// Shared setup (server, browser, test runner): harness.mjs.
import { assert, canvasStats, renders, startHarness, typeInto, waitRenders } from './harness.mjs';

const h = await startHarness('page tests');
const { test, openPage, consoleErrors, foreignRequests, shot } = h;

let page;
// Records the gaps between animation frames in the page (the main thread must never block);
// stopFrameGaps returns them in ms.
async function startFrameGaps(page) {
  await page.evaluate(() => {
    window.__gaps = [];
    let last = performance.now();
    const tick = (t) => {
      window.__gaps.push(t - last);
      last = t;
      if (!window.__stopFrames) requestAnimationFrame(tick);
    };
    window.__stopFrames = false;
    requestAnimationFrame(tick);
  });
}
async function stopFrameGaps(page) {
  return page.evaluate(() => ((window.__stopFrames = true), window.__gaps));
}

await test('the page loads, the worker reports ready, the table view draws', async () => {
  page = await openPage();
  // ready, not an error ('engine working…' while the first draws are open past 300 ms)
  await page.waitForFunction(() => /engine ready/.test(document.querySelector('#engine-status').textContent), null, { timeout: 60000 })
    .catch(async () => assert(false, `status says "${await page.textContent('#engine-status')}"`));
  await waitRenders(page, 'table', 0);
  const s = await page.$eval('#view-table .heatmap-canvas', canvasStats);
  assert(s.variance > 50 && s.colors > 10, `table canvas looks blank: variance ${s.variance.toFixed(1)}, ${s.colors} colours`);
  const legend = await page.$eval('#table-legend canvas', canvasStats);
  assert(legend.variance > 50, 'legend canvas is blank');
  await page.screenshot({ path: shot('table.png'), fullPage: true });
});

await test('lookup and one-hot x W are bitwise identical, also with sqrt(D) scaling', async () => {
  assert((await page.textContent('#identical')) === 'identical: yes', `badge says "${await page.textContent('#identical')}"`);
  const n = await renders(page, 'table');
  await page.check('#f-scale');
  await waitRenders(page, 'table', n);
  assert((await page.textContent('#identical')) === 'identical: yes', 'not identical with scale on');
  assert(/√3/.test(await page.textContent('#table-shape')), 'shape does not mention the sqrt(D) factor');
  await page.uncheck('#f-scale');
  await waitRenders(page, 'table', n + 1);
});

await test('the √D card follows the lookup cards in the table view and measures the table\'s own D and seed', async () => {
  const p = await openPage('#view=table&D=64&seed=123');
  await waitRenders(p, 'table', 0);
  await p.waitForFunction(() => /^D = 64:/.test(document.querySelector('#scale-note').textContent), null, { timeout: 15000 });
  const order = await p.$$eval('#view-table > article.card h3', (hs) => hs.map((h) => h.textContent.trim()));
  assert(/^Lookup = one-hot × W/.test(order[1]) && order[2] === 'Why multiply token vectors by √D?', `table view cards: ${order.join(' | ')}`);
  const strips = await p.$eval('#scale-plot canvas', canvasStats);
  assert(strips.variance > 20, 'sqrt(D) length histograms blank');
  const note = await p.textContent('#scale-note');
  assert(/^D = 64: a sinusoidal row has length 5\.657/.test(note) && /The picked token 2's stored row has length/.test(note), note);
  // one explanation: the lookup card's caption points to the √D card instead of repeating it
  assert(!/sinusoidal/.test(await p.textContent('#row-caption')), await p.textContent('#row-caption'));
  // the old address of the card (view=positions) opens it in the table view
  await p.goto(p.url().replace(/#.*/, '#view=positions&embed=1&card=why-multiply-token-vectors-by-d&D=8'));
  await p.waitForFunction(() => /^D = 8:/.test(document.querySelector('#scale-note').textContent), null, { timeout: 15000 });
  assert(!(await p.isHidden('#scale-plot')) && (await p.isHidden('#import-card')), 'the moved card is not shown alone');
  await p.close();
});

await test('each view\'s first card links to its section of learn.html; the header links the article', async () => {
  const want = { table: 'learn.html#table', text: 'learn.html#text', bpe: 'learn.html#text', windows: 'learn.html#text', positions: 'learn.html#why-positions', train: 'learn.html#training' };
  const links = await page.$$eval('section.view', (secs) => secs.map((s) => {
    const a = s.querySelector('article.card').querySelector('.read-link a');
    return [s.dataset.view, a && a.getAttribute('href'), a && a.textContent, a && new URL(a.href).origin === location.origin];
  }));
  for (const [view, href, text, same] of links) {
    assert(href === want[view] && same, `${view}: first card links ${href}`);
    assert(/^Read: .+ →$/.test(text), `${view}: link text "${text}"`);
  }
  assert((await page.getAttribute('.topbar a[href="learn.html"]', 'href')) === 'learn.html', 'no Learn link in the header');
});

await test('seed 123, 6 x 3 gives torch numbers; changing the seed changes the table', async () => {
  const first = await page.$$eval('#row-values tbody tr', (trs) => trs.map((tr) => tr.children[1].textContent));
  // /usr/bin/python3: torch.manual_seed(123); nn.Embedding(6, 3).weight[2] -> 1.275301 -0.200953 -0.160564 (torch 1.13)
  assert(first.join(' ') === '1.275301 -0.200953 -0.160564', `row 2 is ${first.join(' ')}`);
  const before = await page.$eval('#view-table', (el) => el.dataset.checksum);
  const pixBefore = await page.$eval('#view-table .heatmap-canvas', canvasStats);
  const n = await renders(page, 'table');
  await typeInto(page, 'f-seed', '7');
  await waitRenders(page, 'table', n);
  const after = await page.$eval('#view-table', (el) => el.dataset.checksum);
  const pixAfter = await page.$eval('#view-table .heatmap-canvas', canvasStats);
  assert(before !== after, `checksum unchanged (${before})`);
  assert(pixBefore.hash !== pixAfter.hash, 'canvas pixels unchanged');
  assert(/seed=7/.test(await page.evaluate(() => location.hash)), 'the URL hash does not carry seed=7');
});

await test('hovering a cell shows (token, dim, value)', async () => {
  const box = await page.$eval('#view-table .heatmap-canvas', (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.x, y: r.y, w: r.width, h: r.height };
  });
  await page.mouse.move(box.x + box.w * 0.5, box.y + 20);
  const tip = await page.textContent('#view-table .tooltip');
  assert(/^token \d+, dim \d+: -?[\d.e+-]+/.test(tip), `tooltip says "${tip}"`);
});

await test('keyboard: arrow keys on the focused table plot move the picked token', async () => {
  const n = await renders(page, 'table');
  await page.focus('#table-plot .heatmap-canvas');
  await page.keyboard.press('ArrowDown');
  await waitRenders(page, 'table', n);
  assert((await page.textContent('#tok-label')) === '3', `picked ${await page.textContent('#tok-label')}`);
  assert(/tok=3/.test(await page.evaluate(() => location.hash)), 'tok not in the URL');
});

await test('D = 0 typed into the field shows the engine message there and keeps the last plot', async () => {
  const before = await page.$eval('#view-table', (el) => el.dataset.checksum);
  await typeInto(page, 'f-D', '0');
  await page.waitForFunction(() => document.querySelector('.field[data-key="D"] .field-error').textContent.length > 0, null, { timeout: 10000 });
  const msg = await page.textContent('.field[data-key="D"] .field-error');
  assert(/^Embedding: embeddingDim 0/.test(msg), `message under D: "${msg}"`);
  assert(await page.isVisible('#table-stale'), 'no "last good plot" badge');
  assert((await page.textContent('#view-table .plot-error-message')) === msg, 'the message is not shown over the plot');
  const s = await page.$eval('#view-table .heatmap-canvas', canvasStats);
  assert(s.variance > 50, 'plot went blank');
  assert(before === (await page.$eval('#view-table', (el) => el.dataset.checksum)), 'table changed');
  await page.screenshot({ path: shot('engine-error.png'), fullPage: true });
  const n = await renders(page, 'table');
  await typeInto(page, 'f-D', '3');
  await waitRenders(page, 'table', n);
  assert((await page.textContent('.field[data-key="D"] .field-error')) === '', 'error not cleared after a good value');
  assert(await page.isHidden('#view-table .plot-error'), 'plot error not cleared after a good value');
});

await test('V too large names the byte limit; a 50257 x 768 table is drawn downsampled (600 rows from the worker), frames keep coming', async () => {
  await typeInto(page, 'f-V', '2000000000');
  await typeInto(page, 'f-D', '1000');
  const limit = 'Embedding: table 2000000000 x 1000 float32 need 7.3 TiB; the limit here is 2.0 GiB';
  await page.waitForFunction((m) => document.querySelector('.field[data-key="D"] .field-error').textContent === m, limit, { timeout: 10000 });
  assert((await page.textContent('#view-table .plot-error-message')) === limit, 'size message not shown over the plot');
  const n = await renders(page, 'table');
  await startFrameGaps(page);
  await typeInto(page, 'f-V', '50257');
  await typeInto(page, 'f-D', '768');
  await waitRenders(page, 'table', n, 45000); // two large draws (50257 x 1000, then x 768): ~3 s quiet, ~15 s on a busy machine
  const gaps = await stopFrameGaps(page);
  const worst = Math.max(...gaps.slice(1));
  const caption = await page.textContent('#table-caption');
  assert(/Downsampled for drawing: 600 evenly spaced rows of 50257/.test(caption), `caption: ${caption.slice(0, 80)}`);
  assert(gaps.length >= 2, `${gaps.length} animation frames while the worker drew the table`);
  // V = 50257 is GPT-2's vocabulary, so the token's string may follow its id
  assert(/^every row from 0 to 47, around token 3( .*)?: no rows skipped/.test(await page.textContent('#around-title')), 'no exact window around the picked token');
  const around = await page.$eval('#around-plot .heatmap-canvas', canvasStats);
  assert(around.variance > 50, 'window around the picked token is blank');
  console.log(`     (${gaps.length} frames during the 50257 x 768 draw, longest gap ${worst.toFixed(0)} ms)`);
  await page.screenshot({ path: shot('table-large.png'), fullPage: true });
});

await test('the positions view draws six non-blank plots and checks distance dependence', async () => {
  const n = await renders(page, 'positions');
  await page.click('.tabs button[data-view="positions"]');
  await waitRenders(page, 'positions', n);
  const stats = await page.$$eval('#view-positions .cards3 .heatmap-canvas', (els, fn) => els.map((el) => new Function(`return (${fn})`)()(el)), canvasStats.toString());
  assert(stats.length === 6, `${stats.length} heatmaps`); // the encoding cards (the bias panels: positions.test.mjs)
  assert(!(await page.$('#view-positions #scale-plot')), 'the √D card is still in the positions view');
  for (const [i, s] of stats.entries()) assert(s.variance > 50 && s.colors > 10, `heatmap ${i} blank (variance ${s.variance.toFixed(1)})`);
  const checks = await page.$$eval('#view-positions .check-line', (els) => els.map((e) => e.textContent));
  assert(/yes/.test(checks[0]) && /no/.test(checks[1]) && /yes/.test(checks[2]), `checks: ${checks.join(' | ')}`);
  await page.screenshot({ path: shot('positions.png'), fullPage: true });
  await page.close();
});

await test('bad link values (#seed=abc&D=-3&view=nope) are reported and defaults used', async () => {
  const p = await openPage('#seed=abc&D=-3&view=nope&zzz=1');
  await waitRenders(p, 'table', 0);
  const text = await p.textContent('#url-messages');
  assert(await p.isVisible('#url-messages'), 'no visible message');
  for (const s of ['seed=abc', 'D=-3', 'view=nope', "unknown setting 'zzz'"]) assert(text.includes(s), `message lacks ${s}: ${text}`);
  assert((await p.inputValue('#f-seed')) === '123' && (await p.inputValue('#f-D')) === '3', 'defaults not used');
  await p.screenshot({ path: shot('bad-url.png'), fullPage: true });
  await p.close();
});

const statValue = (p, label) => p.$$eval('#text-stats div', (divs, l) => {
  const d = divs.find((x) => x.querySelector('dt').textContent === l);
  return d ? d.querySelector('dd').textContent : null;
}, label);

await test('text view: the-verdict in GPT-2 ids (5,145 tokens, 40 367 2885 1464 ...), chips with bytes on hover', async () => {
  page = await openPage('#view=text');
  await waitRenders(page, 'text', 0);
  assert((await statValue(page, 'tokens')) === '5,145', `tokens ${await statValue(page, 'tokens')}`);
  const ids = await page.$$eval('#chips-holder .chip-id', (els) => els.slice(0, 4).map((e) => e.textContent).join(' '));
  assert(ids === '40 367 2885 1464', `first ids ${ids}`);
  await page.hover('#chips-holder .chip:nth-child(2)');
  const tip = await page.textContent('#chips-holder .tooltip');
  assert(tip === 'token #1 · id 367 · bytes 20 48 · " H"', `tooltip "${tip}"`);
  await page.screenshot({ path: shot('text.png'), fullPage: true });
});

await test('text view: 1.1 MB Tiny Shakespeare tokenizes in the worker, draws at most 400 chips', async () => {
  const n = await renders(page, 'text');
  await startFrameGaps(page);
  await page.selectOption('#f-corpus', 'tinyshakespeare');
  await waitRenders(page, 'text', n);
  const worst = Math.max(...(await stopFrameGaps(page)).slice(1));
  assert((await statValue(page, 'tokens')) === '338,025', `tokens ${await statValue(page, 'tokens')}`);
  const chips = await page.$$eval('#chips-holder .chip', (els) => els.length);
  assert(chips <= 400 && chips > 100, `${chips} chips in the DOM`);
  console.log(`     (longest frame gap while tokenizing 1.1 MB: ${worst.toFixed(0)} ms)`);
  await page.$eval('#chips-pos', (el) => {
    el.value = '200000';
    el.dispatchEvent(new Event('input'));
  });
  await page.waitForFunction(() => /^tokens 200,000–/.test(document.querySelector('#chips-range').textContent), null, { timeout: 5000 });
  assert(/at=200000/.test(await page.evaluate(() => location.hash)), 'position not in the URL');
});

await test('text view: pasted text is tokenized, rendered as text (never HTML) and carried by the link', async () => {
  const n = await renders(page, 'text');
  await page.fill('#custom-text', 'Hello world <img src=x onerror="window.__pwned=1">');
  await page.click('#use-text');
  await waitRenders(page, 'text', n);
  const ids = await page.$$eval('#chips-holder .chip-id', (els) => els.slice(0, 2).map((e) => e.textContent).join(' '));
  assert(ids === '15496 995', `ids ${ids}`);
  assert((await page.$$('#chips-holder img')).length === 0, 'an <img> element was created from user text');
  assert(!(await page.evaluate(() => window.__pwned)), 'user text ran as code');
  await page.waitForFunction(() => /txt=[A-Za-z0-9_-]+/.test(location.hash), null, { timeout: 5000 });
  const link = await page.evaluate(() => location.hash);
  await page.close();
  // the link alone reproduces the tokens of the pasted text
  page = await openPage(link);
  await waitRenders(page, 'text', 0);
  const again = await page.$$eval('#chips-holder .chip-id', (els) => els.slice(0, 2).map((e) => e.textContent).join(' '));
  assert(again === '15496 995', `from the link: ids ${again}`);
  assert((await page.inputValue('#custom-text')).startsWith('Hello world <img'), 'text box not filled from the link');
  await page.close();
});

await test('windows view: L=4, stride=4, batch 4 on the-verdict -> 1,286 windows, 321 batches, 5,136 input tokens', async () => {
  page = await openPage('#view=windows');
  await waitRenders(page, 'windows', 0);
  const summary = await page.textContent('#win-summary');
  for (const s of ['5,145 tokens', '1,286 windows of 4', '321 batches of 4', '5,136 input tokens']) assert(summary.includes(s), `summary lacks "${s}": ${summary}`);
  const row = await page.$$eval('#win-pairs tbody tr:first-child td', (tds) => tds.map((t) => t.textContent));
  assert(row[2] === '[40, 367, 2885, 1464]' && row[3] === '[367, 2885, 1464, 1807]', `first pair ${row[2]} -> ${row[3]}`);
  const n = await renders(page, 'windows');
  await typeInto(page, 'f-stride', '2');
  await waitRenders(page, 'windows', n);
  assert((await page.textContent('#win-summary')).includes('overlap by 2 tokens'), 'overlap not explained');
  const m = await renders(page, 'windows');
  await page.$eval('#win-first', (el) => {
    el.value = '100';
    el.dispatchEvent(new Event('input'));
  });
  await waitRenders(page, 'windows', m);
  const paged = await page.$$eval('#win-pairs tbody tr:first-child td', (tds) => tds.map((t) => t.textContent));
  assert(paged[0] === '100' && paged[1] === '200', `window 100 starts at ${paged[1]}`);
  await page.$eval('#win-first', (el) => {
    el.value = '0';
    el.dispatchEvent(new Event('input'));
  });
  await waitRenders(page, 'windows', m + 1);
  // The strip places window k's input at columns [2k, 2k + 4) and its target one to the right.
  const spans = await page.$eval('#win-strip', (grid) => {
    const out = {};
    let label = null;
    let col = 0;
    for (const c of grid.children) {
      if (c.classList.contains('win-label')) { label = c.textContent; col = 0; out[label] = []; continue; }
      if (label && c.classList.contains('win-cell')) {
        if (c.classList.contains('input') || c.classList.contains('target')) out[label].push(col);
        col++;
      }
    }
    return out;
  });
  assert(JSON.stringify(spans['input 1']) === '[2,3,4,5]', `input 1 covers columns ${JSON.stringify(spans['input 1'])}`);
  assert(JSON.stringify(spans['target 1']) === '[3,4,5,6]', `target 1 covers columns ${JSON.stringify(spans['target 1'])}`);
  await page.screenshot({ path: shot('windows.png'), fullPage: true });
  await typeInto(page, 'f-stride', '0');
  await page.waitForFunction(() => document.querySelector('.field[data-key="stride"] .field-error').textContent.length > 0, null, { timeout: 5000 });
  assert((await page.textContent('.field[data-key="stride"] .field-error')) === 'windows: stride must be >= 1, got 0', 'stride error');
  assert(await page.isVisible('#windows-stale'), 'no stale badge');
  await page.close();
});

await test('BPE view: each merge adds a token and an embedding row', async () => {
  page = await openPage('#view=bpe');
  await waitRenders(page, 'bpe', 0);
  assert((await page.$eval('#view-bpe', (el) => el.dataset.vocab)) === '256', 'does not start at 256');
  let n = await renders(page, 'bpe');
  await page.click('#bpe-step1');
  await waitRenders(page, 'bpe', n);
  const first = await page.$$eval('#bpe-merges tbody tr:first-child td', (tds) => tds.map((t) => t.textContent));
  // the most frequent byte pair of the-verdict's GPT-2 pre-tokenized chunks: (32, 116) " t", 462 times
  // (counted independently with Python re over the ASCII text)
  assert(first.join('|') === '256|" " + "t"  (32 + 116)|" t"|462', `first merge ${first.join('|')}`);
  n = await renders(page, 'bpe');
  await page.click('#bpe-step10');
  await waitRenders(page, 'bpe', n);
  assert((await page.$eval('#view-bpe', (el) => el.dataset.vocab)) === '267', 'vocab after 11 merges');
  const s = await page.$eval('#view-bpe .heatmap-canvas', canvasStats);
  assert(s.variance > 50, 'BPE table plot blank');
  assert((await page.textContent('#bpe-summary')).includes('267 × 16'), 'row count not shown');
  await page.screenshot({ path: shot('bpe.png'), fullPage: true });
  await page.close();
});

const dataNum = (p, key) => p.$eval('#view-train', (el, k) => Number(el.dataset[k] || 0), key);

await test('no console errors and no requests to other origins', async () => {
  assert(consoleErrors.length === 0, `console errors: ${consoleErrors.join(' | ')}`);
  assert(foreignRequests.length === 0, `foreign requests: ${foreignRequests.join(' ')}`);
});

await h.finish();
