// Browser tests of the text, windows and table views (issue 9), in headless Chromium.
//   node tests/browser/text.test.mjs [--site build/web] [--shots build/screenshots]
// - sliding windows: the windows drop_last leaves out are drawn as dropped, and each window names its batch;
// - text -> table: clicking a chip shows its row (lookup = one-hot x W) and nearest rows; the table
//   view with V = the vocabulary names its rows by token;
// - a 5 MB file goes to the worker as a File (no message to the worker carries its text as a
//   string), its first chips are drawn, the text box shows a summary, not megabytes (the time to
//   the first chips and the main thread's long tasks are measured by scripts/bench page);
// - a custom text too long for the link is saved in IndexedDB and survives a reload (text, cards,
//   Play); a link naming a text this browser lacks says so and uses the built-in corpus;
// - bidi controls and invisible characters are marks in chips (⟨RLO⟩, ⟨ZWJ⟩, ...);
// - axe-core: labelled file input, chip id contrast, keyboard-reachable scroll regions in these views;
// - lowering V below the picked token moves the picked token instead of failing.
// Screenshots of the three views at 1280 and 375 px. Prints `text tests: N passed, M failed`;
// --only WORD runs the tests whose title contains WORD.
import fs from 'node:fs';
import path from 'node:path';
import { assert, canvasStats, renders, repo, startHarness, typeInto, waitRenders } from './harness.mjs';

const h = await startHarness('text tests');
const { openPage, consoleErrors, foreignRequests, shot } = h;
// --only WORD runs the tests whose title contains WORD (while working on one of them)
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
const test = (title, fn) => (!only || title.includes(only) ? h.test(title, fn) : undefined);
const AXE = fs.readFileSync(path.join(repo, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
const SHAKESPEARE = fs.readFileSync(path.join(repo, 'web', 'corpora', 'tinyshakespeare.txt'));

const statValue = (page, label) => page.$$eval('#text-stats div', (ds, l) => {
  const d = ds.find((x) => x.querySelector('dt').textContent === l);
  return d ? d.querySelector('dd').textContent : null;
}, label);
const chipTexts = (page, n = 8) => page.$$eval('#chips-holder .chip-text', (els, k) => els.slice(0, k).map((e) => e.textContent), n);

// Screenshots of a view at 1280 and 375 px wide (full page), then back to the harness size.
async function shots(page, name) {
  await page.mouse.move(0, 0);
  await page.evaluate(() => document.querySelectorAll('.tooltip').forEach((t) => (t.hidden = true))); // none left from a hover
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({ path: shot(`text-${name}-${width}.png`), fullPage: true });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert(wide <= width + 1, `${name} at ${width} px: the page is ${wide} px wide`);
  }
  await page.setViewportSize({ width: 1360, height: 900 });
}

// Pseudo-random words (does not compress below the link limit): n characters, same every run.
function noiseText(n) {
  let x = 7;
  const rnd = () => (x = (x * 48271) % 2147483647) / 2147483647;
  const parts = [];
  let len = 0;
  while (len < n) {
    const w = Array.from({ length: 2 + Math.floor(rnd() * 7) }, () => String.fromCharCode(97 + Math.floor(rnd() * 26))).join('');
    parts.push(w);
    len += w.length + 1;
    if (rnd() < 0.08) parts.push('\n');
  }
  return parts.join(' ').slice(0, n);
}

await test('windows: on The Verdict (L=4, stride 4, B=4) windows 1284–1285 are shown as dropped by drop_last, and each window names its batch', async () => {
  const page = await openPage('#view=windows');
  await waitRenders(page, 'windows', 0);
  const n = await renders(page, 'windows');
  await page.$eval('#win-first', (el) => {
    el.value = '1282';
    el.dispatchEvent(new Event('input'));
  });
  await waitRenders(page, 'windows', n);
  const rows = await page.$$eval('#win-pairs tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  assert(rows.map((r) => r[0]).join(' ') === '1282 1283 1284 1285', `windows ${rows.map((r) => r[0]).join(' ')}`);
  assert(rows.map((r) => r[1]).join(' ') === '5128 5132 5136 5140', `starts ${rows.map((r) => r[1]).join(' ')}`);
  assert(rows[2][2] === '[338, 645, 42393, 803]' && rows[3][3] === '[1611, 286, 1242, 526]', `ids of the dropped windows: ${rows[2][2]} ${rows[3][3]}`);
  const batch = rows.map((r) => r[6]);
  assert(batch.join('|') === '320|320|dropped (drop_last)|dropped (drop_last)', `batch column: ${batch.join('|')}`);
  const summary = await page.textContent('#win-summary');
  assert(summary.includes('drops the last 2 windows (1284–1285)') && summary.includes('Batch b holds windows 4·b to 4·b + 3'), `summary: ${summary}`);
  // the strip: every window's rows are there, dropped ones marked, batches named
  const strip = await page.$eval('#win-strip', (g) => ({
    cols: g.querySelectorAll('.win-pos').length,
    droppedCells: g.querySelectorAll('.win-cell.input.dropped').length,
    batches: [...g.querySelectorAll('.win-batch')].map((b) => b.textContent).filter(Boolean),
    labels: [...g.querySelectorAll('.win-label.input')].map((l) => l.textContent),
  }));
  assert(strip.cols >= 16, `strip has ${strip.cols} columns`);
  assert(strip.droppedCells === 8, `${strip.droppedCells} dropped input cells (expected 2 windows x 4)`);
  assert(strip.batches.join('|') === 'batch|batch 320|dropped|dropped', `batch column of the strip: ${strip.batches.join('|')}`);
  assert(strip.labels.join('|') === 'input 1282|input 1283|input 1284|input 1285', `labels ${strip.labels.join('|')}`);
  await shots(page, 'windows-dropped');
  // from the start: batch 0 is windows 0-3, batch 1 starts at window 4
  const m = await renders(page, 'windows');
  await page.$eval('#win-first', (el) => {
    el.value = '0';
    el.dispatchEvent(new Event('input'));
  });
  await waitRenders(page, 'windows', m);
  const first = await page.$$eval('#win-pairs tbody tr', (trs) => trs.map((tr) => tr.children[6].textContent));
  assert(first.join(' ') === '0 0 0 0 1 1', `batches of windows 0-5: ${first.join(' ')}`);
  await shots(page, 'windows');
  await page.close();
});

await test('text -> table: clicking a chip shows its row (lookup = one-hot x W) and nearest rows; the table view then names rows by token', async () => {
  const page = await openPage('#view=text');
  await waitRenders(page, 'text', 0);
  // a leading space is a muted · (not blank width), said as "space + H" to a screen reader
  const lead = await page.$eval('#chips-holder .chip:nth-child(2)', (c) => ({
    text: c.querySelector('.chip-text').textContent, mark: c.querySelector('.chip-space')?.textContent, hidden: c.querySelector('.chip-space')?.getAttribute('aria-hidden'),
    said: c.querySelector('.sr-only')?.textContent, muted: getComputedStyle(c.querySelector('.chip-space')).color !== getComputedStyle(c.querySelector('.chip-text')).color,
  }));
  assert(lead.text === '·H' && lead.mark === '·' && lead.hidden === 'true' && lead.said === 'space + ' && lead.muted, `chip " H": ${JSON.stringify(lead)}`);
  assert(await page.$eval('#chips-holder .chip:nth-child(1)', (c) => !c.querySelector('.chip-space') && c.querySelector('.chip-text').textContent === 'I'), 'the first chip "I" has a space mark');
  await page.click('#chips-holder .chip:nth-child(2)'); // " H", id 367
  await page.waitForSelector('#token-card:not([hidden])', { timeout: 10000 });
  await page.waitForFunction(() => document.querySelectorAll('#token-nn tbody tr').length > 0, null, { timeout: 10000 });
  const title = await page.textContent('#token-title');
  assert(title === '367 “ H”', `card title "${title}"`);
  assert(/identical bits/.test(await page.textContent('#token-identical')), 'no bitwise check');
  const row = await page.$$eval('#token-row tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  assert(row.length === 3 && row.every((r) => r[1] === r[2]), `row ${JSON.stringify(row)}`);
  const nn = await page.$$eval('#token-nn tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  assert(nn.length === 8 && nn.every((r) => /^"/.test(r[2]) && Number(r[3]) <= 1), `neighbours ${JSON.stringify(nn.slice(0, 2))}`);
  assert(/nn\.Embedding\(50,257, 3\)/.test(await page.textContent('#token-explain')), 'the card does not name the table');
  await shots(page, 'text-token');
  // the same row in the table view: V = 50,257, picked row 367, rows named by token
  const t = await renders(page, 'table');
  await page.click('#token-open');
  await waitRenders(page, 'table', t);
  await page.waitForFunction(() => document.querySelector('#view-table').dataset.rowNames === 'tokens', null, { timeout: 10000 });
  assert(/V=50257/.test(await page.evaluate(() => location.hash)) && /tok=367/.test(await page.evaluate(() => location.hash)), 'link lacks V and tok');
  const lookup = await page.$$eval('#row-values tbody tr', (trs) => trs.map((tr) => tr.children[1].textContent));
  assert(lookup.join(' ') === row.map((r) => r[1]).join(' '), `table view row ${lookup.join(' ')} vs card ${row.map((r) => r[1]).join(' ')}`);
  assert((await page.textContent('#tok-label')) === '367 " H"', `lookup card names "${await page.textContent('#tok-label')}"`);
  await page.$eval('#around-plot .heatmap-canvas', (el) => el.scrollIntoView({ block: 'center' }));
  const box = await page.$eval('#around-plot .heatmap-canvas', (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.x, y: r.y, w: r.width, h: r.height };
  });
  await page.mouse.move(box.x + box.w * 0.6, box.y + box.h * 0.4);
  const tip = await page.textContent('#around-plot .tooltip');
  assert(/^token \d+ ".*", dim \d+: /.test(tip), `hover says "${tip}"`);
  await shots(page, 'table-tokens');
  await page.close();
});

let bigLink = null;
await test('a 5 MB file goes to the worker as a File, not as a string: first chips, all tokens counted, a summary instead of the text in the box', async () => {
  const page = await openPage('#view=text');
  await waitRenders(page, 'text', 0);
  const big = Buffer.concat(Array.from({ length: 5 }, () => SHAKESPEARE)).subarray(0, 5 * 1024 * 1024);
  await page.evaluate(() => {
    // what the page posts to the worker from now on: Files (name, size) and the longest string
    window.__posted = { files: [], longestString: 0, messages: 0 };
    const walk = (v, depth) => {
      if (typeof v === 'string') window.__posted.longestString = Math.max(window.__posted.longestString, v.length);
      else if (v instanceof File) window.__posted.files.push([v.name, v.size]);
      else if (v && typeof v === 'object' && depth < 6 && !ArrayBuffer.isView(v) && !(v instanceof ArrayBuffer)) for (const x of Object.values(v)) walk(x, depth + 1);
    };
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (msg, ...rest) {
      window.__posted.messages += 1;
      walk(msg, 0);
      return post.call(this, msg, ...rest);
    };
    const holder = document.querySelector('#chips-holder');
    new MutationObserver(() => {
      const c = holder.querySelector('.chip-text');
      if (c && c.textContent === 'First') window.__firstChips = true;
    }).observe(holder, { childList: true, subtree: true });
  });
  await page.setInputFiles('#custom-file', { name: 'shakespeare-x5.txt', mimeType: 'text/plain', buffer: big });
  await page.waitForFunction(() => window.__firstChips, null, { timeout: 20000 });
  // the whole load: tokens of all 5 MB counted, the text kept (link or this browser's storage)
  await page.waitForFunction(() => /saved in this browser|kept in the page link|not saved|kept in this tab/i.test(document.querySelector('#custom-caption').textContent), null, { timeout: 30000 });
  const posted = await page.evaluate(() => window.__posted);
  const tokens = await statValue(page, 'tokens');
  console.log(`     (${tokens} tokens; ${posted.messages} messages to the worker, Files ${JSON.stringify(posted.files)}, longest string ${posted.longestString} characters)`);
  assert(posted.files.some(([name, size]) => name === 'shakespeare-x5.txt' && size === big.length), `no File of ${big.length} bytes posted: ${JSON.stringify(posted.files)}`);
  assert(posted.longestString < 100000, `a string of ${posted.longestString} characters was posted to the worker`);
  assert(Number(tokens.replace(/,/g, '')) > 1_500_000, `tokens ${tokens}`);
  assert((await statValue(page, 'UTF-8 bytes')) === big.length.toLocaleString('en'), `bytes ${await statValue(page, 'UTF-8 bytes')}`);
  assert((await page.inputValue('#custom-text')).length === 0, 'the text box mirrors the file');
  const summary = await page.textContent('#custom-summary');
  assert(/shakespeare-x5\.txt, 5,\d{3},\d{3} characters, 5\.0 MiB/.test(summary) && summary.includes('First Citizen'), `summary: ${summary}`);
  bigLink = await page.evaluate(() => location.hash);
  await shots(page, 'text-5mb');
  await page.close();
});

await test('a custom text too long for the link survives a reload (IndexedDB, txtdb= in the link): text, cards and Play work; a browser without it falls back to the built-in corpus', async () => {
  const page = await openPage('#view=text&enc=char');
  await waitRenders(page, 'text', 0);
  const text = noiseText(120_000);
  const n = await renders(page, 'text');
  await page.setInputFiles('#custom-file', { name: 'noise.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });
  await waitRenders(page, 'text', n);
  await page.waitForFunction(() => /txtdb=[0-9a-f]{24}/.test(location.hash), null, { timeout: 15000 });
  const caption = await page.textContent('#custom-caption');
  assert(/too long for the page link \(compressed, this text takes [\d,]+ characters; a link holds at most 8,000\): download it.* Saved in this browser too \(IndexedDB\)/.test(caption), `caption: ${caption}`);
  const link = await page.evaluate(() => location.hash);
  assert(/corpus=custom/.test(link) && !/txt=/.test(link), `link ${link}`);
  const before = { tokens: await statValue(page, 'tokens'), chips: (await chipTexts(page)).join('|') };
  await page.reload();
  await page.waitForSelector('body[data-engine="ready"]', { timeout: 15000 });
  await waitRenders(page, 'text', 0);
  const after = { tokens: await statValue(page, 'tokens'), chips: (await chipTexts(page)).join('|') };
  assert(JSON.stringify(after) === JSON.stringify(before), `after reload ${JSON.stringify(after)} vs ${JSON.stringify(before)}`);
  assert(/from this browser's storage/.test(await page.textContent('#custom-caption')), `caption after reload: ${await page.textContent('#custom-caption')}`);
  assert((await page.textContent('#custom-summary')).includes(text.slice(0, 30)), 'no summary of the stored text');
  // Play trains on it
  await page.click('.tabs button[data-view="train"]');
  await waitRenders(page, 'train', 0, 30000);
  await page.click('#train-play');
  await page.waitForFunction(() => Number(document.querySelector('#view-train').dataset.steps) >= 5, null, { timeout: 30000 });
  await page.click('#train-play');
  await page.close();
  // another browser (a fresh context: no IndexedDB entry): said so, built-in corpus
  const other = await openPage(link);
  await waitRenders(other, 'text', 0);
  const notice = await other.textContent('#url-messages');
  assert(/ignored txtdb=[0-9a-f]{24} \(text: the text saved for this link is not in this browser's storage.*\); using the built-in corpus/.test(notice), `notice: ${notice}`);
  assert((await other.inputValue('#f-corpus')) === 'the-verdict', `corpus ${await other.inputValue('#f-corpus')}`);
  assert((await chipTexts(other, 1))[0] === 'I', `first chip ${(await chipTexts(other, 1))[0]}`);
  await other.close();
  assert(bigLink === null || /txtdb=/.test(bigLink), `the 5 MB text's link ${bigLink}`);
});

await test('bidi controls and invisible characters are marks in chips: "evil" after U+202E reads ⟨RLO⟩evil, never "live"', async () => {
  const page = await openPage('#view=text&enc=whitespace');
  await waitRenders(page, 'text', 0);
  const n = await renders(page, 'text');
  await page.fill('#custom-text', 'user\u202Eevil.txt a\u200Db \u200Bx \u2066y\u2069 so\u00ADft \uFEFFz l\u200Er\u200F \u061Cq \u202Dw\u202C');
  await page.click('#use-text');
  await waitRenders(page, 'text', n);
  const chips = await chipTexts(page, 20);
  const want = ['user⟨RLO⟩evil.txt', 'a⟨ZWJ⟩b', '⟨ZWSP⟩x', '⟨LRI⟩y⟨PDI⟩', 'so⟨SHY⟩ft', '⟨BOM⟩z', 'l⟨LRM⟩r⟨RLM⟩', '⟨ALM⟩q', '⟨LRO⟩w⟨PDF⟩'];
  assert(JSON.stringify(chips) === JSON.stringify(want), `chips ${JSON.stringify(chips)}`);
  const raw = await page.$eval('#chips-holder .chips', (el) => /[\u00AD\u061C\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/.test(el.textContent));
  assert(!raw, 'a raw invisible or bidi character is left in the chips');
  // drawn left to right: "evil" is to the right of the ⟨RLO⟩ mark
  const order = await page.$eval('#chips-holder .chip-text', (el) => {
    const node = el.firstChild;
    const at = (i) => {
      const r = document.createRange();
      r.setStart(node, i);
      r.setEnd(node, i + 1);
      return r.getBoundingClientRect().x;
    };
    const s = node.textContent;
    return [at(s.indexOf('⟨')), at(s.indexOf('e', 4)), at(s.lastIndexOf('l'))];
  });
  assert(order[0] < order[1] && order[1] < order[2], `glyph x positions ${order.join(', ')}`);
  await page.hover('#chips-holder .chip:nth-child(1)');
  assert((await page.textContent('#chips-holder .tooltip')).includes('"user⟨RLO⟩evil.txt"'), 'tooltip shows the raw text');
  await shots(page, 'text-bidi');
  await page.close();
});

// axe-core inside the page (page.evaluate is not subject to the page's CSP).
async function axeOn(page, selector) {
  await page.evaluate(AXE);
  return page.evaluate(async (sel) => {
    const r = await window.axe.run(sel, { runOnly: ['label', 'color-contrast', 'scrollable-region-focusable', 'aria-input-field-name', 'nested-interactive'] });
    return r.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((x) => x.target.join(' ')).join('; ')}`);
  }, selector);
}

await test('accessibility (axe-core): labelled file input, chip ids at >= 4.5:1, keyboard-reachable scroll regions in the text, windows and table views', async () => {
  const page = await openPage('#view=text');
  await waitRenders(page, 'text', 0);
  if (await page.$('#token-card')) { // the token card is checked too, when there is one
    await page.click('#chips-holder .chip:nth-child(3)');
    await page.waitForSelector('#token-card:not([hidden])');
    await page.waitForFunction(() => document.querySelectorAll('#token-nn tbody tr').length > 0);
  }
  const found = await axeOn(page, '#view-text');
  for (const [view, hash] of [['windows', '#view=windows'], ['table', '#view=table&V=300&D=40']]) {
    await page.goto(`${h.url}index.html${hash}`);
    await page.waitForSelector('body[data-engine="ready"]');
    await waitRenders(page, view, 0);
    found.push(...(await axeOn(page, `#view-${view}`)));
  }
  assert(found.length === 0, found.join(' | '));
  // the chip strip is reached with Tab and scrolls with the keyboard
  await page.close();
  const page2 = await openPage('#view=text&corpus=tinyshakespeare');
  await waitRenders(page2, 'text', 0);
  await page2.waitForFunction(() => document.querySelectorAll('#chips-holder .chip').length === 400);
  await page2.focus('#chips-holder .chips');
  await page2.keyboard.press('ArrowDown');
  await page2.keyboard.press('PageDown');
  await page2.waitForFunction(() => document.querySelector('#chips-holder .chips').scrollTop > 0, null, { timeout: 3000 }).catch(() => {});
  const sc = await page2.$eval('#chips-holder .chips', (el) => ({ top: el.scrollTop, h: el.scrollHeight, ch: el.clientHeight, focused: document.activeElement === el }));
  assert(sc.focused && sc.top > 0, `PageDown on the focused chips does not scroll: ${JSON.stringify(sc)}`);
  await page2.close();
});

await test('lowering V below the picked token moves the picked token to V - 1 and says so, with no error', async () => {
  const page = await openPage('#view=table&V=6&tok=5');
  await waitRenders(page, 'table', 0);
  const n = await renders(page, 'table');
  await typeInto(page, 'f-V', '3');
  await page.waitForFunction((k) => Number(document.querySelector('#view-table').dataset.renders) > k ||
    document.querySelector('.field[data-key="tok"] .field-error').textContent || document.querySelector('.field[data-key="V"] .field-error').textContent, n, { timeout: 15000 });
  for (const k of ['V', 'tok']) assert((await page.textContent(`.field[data-key="${k}"] .field-error`)) === '', `error under ${k}: ${await page.textContent(`.field[data-key="${k}"] .field-error`)}`);
  assert((await page.textContent('#tok-label')) === '2', `picked ${await page.textContent('#tok-label')}`);
  assert((await page.inputValue('#f-tok')) === '2', `tok field ${await page.inputValue('#f-tok')}`);
  for (const k of ['V', 'tok']) assert((await page.textContent(`.field[data-key="${k}"] .field-error`)) === '', `error under ${k}`);
  assert(await page.isHidden('#view-table .plot-error'), 'an error over the plot');
  const note = await page.textContent('#tok-note');
  assert(await page.isVisible('#tok-note') && note === 'picked token moved from 5 to 2: V = 3 has rows 0 to 2.', `note "${note}"`);
  const hash = await page.evaluate(() => location.hash);
  assert(/V=3/.test(hash) && !/tok=/.test(hash), `link ${hash} (tok 2 is the default)`);
  const s = await page.$eval('#view-table .heatmap-canvas', canvasStats);
  assert(s.variance > 50, 'table plot blank');
  await shots(page, 'table-clamp');
  await page.close();
  // the same from a link
  const linked = await openPage('#view=table&V=3&tok=5');
  await waitRenders(linked, 'table', 0);
  assert((await linked.textContent('#tok-label')) === '2', `from the link: picked ${await linked.textContent('#tok-label')}`);
  await linked.close();
});

await test('no console errors and no requests to other origins', async () => {
  assert(consoleErrors.length === 0, consoleErrors.slice(0, 3).join(' | '));
  assert(foreignRequests.length === 0, foreignRequests.slice(0, 3).join(' | '));
});

await h.finish();
