// Browser test of issue 10's table items: a GPT-2-shaped safetensors file (GPT-2's real tensor
// names; wte 50257 x 32 random, wpe 1024 x 768 smooth in position like GPT-2 small's learned
// positions: a few sines and cosines of the position plus small noise) is picked in the table
// view. Checked: the similarity heatmap of chosen tokens (its side = the number of tokens; an
// unknown token or too many give their message and keep the last heatmap), the histogram of
// all row norms (its count = the rows), "normalise rows" (cosines unchanged, euclidean <= 2,
// every affected caption says so; off again restores), and the "learned (imported)" card of
// the positions view (not blank, names the file), also for a file holding only wpe.weight.
//   node tests/browser/tables.test.mjs [--site build/web] [--shots build/screenshots]
import { assert, canvasStats, startHarness } from './harness.mjs';
import { random, safetensors } from '../js/table-files.mjs';

const h = await startHarness('tables tests');
const { test, openPage, consoleErrors, foreignRequests, shot } = h;

// (T, D), smooth in position: column c = amp_c sin(2 pi k_c p / T + phase_c), k_c in 1..4, + noise
function smoothPositions(T, D, seed) {
  const noise = random(T * D, seed);
  const a = new Float32Array(T * D);
  for (let c = 0; c < D; c++) {
    const k = 1 + (c % 4);
    const amp = 0.12 / k;
    const phase = c * 0.7;
    for (let p = 0; p < T; p++) a[p * D + c] = amp * Math.sin((2 * Math.PI * k * p) / T + phase) + 0.01 * noise[p * D + c];
  }
  return a;
}
const D = 32;
const wpe = smoothPositions(1024, 768, 2);
const file = safetensors([
  ['wte.weight', [50257, D], random(50257 * D, 1)],
  ['wpe.weight', [1024, 768], wpe],
  ['h.0.ln_1.weight', [D], random(D, 3)],
]);

const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
const text = (page, sel) => page.textContent(sel);
const dataset = (page, sel, key) => page.$eval(sel, (el, k) => el.dataset[k], key);

let page;
await test('the file loads; the similarity heatmap of the default tokens and the norms histogram are drawn', async () => {
  page = await openPage('#view=table');
  await page.setInputFiles('#import-file', { name: 'model.safetensors', mimeType: 'application/octet-stream', buffer: file });
  await page.waitForFunction(() => Number(document.querySelector('#import-card').dataset.loaded || 0) > 0, null, { timeout: 60000 });
  const note = await text(page, '#import-note');
  assert(/learned position table \(wpe\.weight, 1,024 × 768\) is drawn in the Positional encodings view/.test(note), `note: ${note}`);
  await frames(page);
  assert((await dataset(page, '#import-sim', 'n')) === '8', 'default tokens: not 8');
  const sim = await page.$eval('#import-sim canvas', canvasStats);
  assert(sim.variance > 5 && sim.colors > 5, 'similarity heatmap blank');
  assert((await page.$eval('#import-normalise', (el) => el.checked)) === false, 'normalise is on by default');
  assert((await dataset(page, '#import-norms', 'count')) === '50257', 'norms count');
  assert((await dataset(page, '#import-norms', 'binned')) === '50257', 'histogram does not count every row');
  const norms = await text(page, '#import-norms-note');
  assert(/50,257 rows: mean [\d.]+, median [\d.]+, min [\d.]+, max [\d.]+/.test(norms), `norms: ${norms}`);
  assert((await page.$$('#import-norms svg rect')).length >= 5, 'histogram has too few bars');
  console.log(`     (${(await text(page, '#import-sim-caption')).slice(0, 100)}…; ${norms.slice(0, 110)}…)`);
});

await test('chosen tokens: the heatmap side is their number; an unknown token or too many keep the last heatmap', async () => {
  await page.fill('#import-sim-tokens', ' the, of, and, cat,7');
  await page.click('#import-sim-form button');
  await page.waitForFunction(() => document.querySelector('#import-sim').dataset.n === '5', null, { timeout: 10000 });
  await frames(page);
  const before = await page.$eval('#import-sim canvas', canvasStats);
  assert(before.variance > 5, 'heatmap blank');
  const aria = await page.$eval('#import-sim canvas', (el) => el.getAttribute('aria-label'));
  assert(/similarity of 5 tokens/.test(aria), aria);
  await page.fill('#import-sim-tokens', ' the, qqzzxxyy');
  await page.click('#import-sim-form button');
  await page.waitForFunction(() => document.querySelector('#import-sim').dataset.error, null, { timeout: 10000 });
  const msg = await text(page, '#import-sim-note');
  assert(msg === 'similarity: "qqzzxxyy" is not a label of this table (50,257 rows); try a row number — still showing the previous tokens.', msg);
  await frames(page);
  assert((await dataset(page, '#import-sim', 'n')) === '5', 'the previous heatmap was replaced');
  assert((await page.$eval('#import-sim canvas', canvasStats)).hash === before.hash, 'the previous heatmap changed');
  await page.fill('#import-sim-tokens', Array.from({ length: 70 }, (_, i) => String(i)).join(' '));
  await page.click('#import-sim-form button');
  await page.waitForFunction(() => /at most 64/.test(document.querySelector('#import-sim-note').textContent), null, { timeout: 10000 });
  const many = await text(page, '#import-sim-note');
  assert(/^similarity: 70 tokens given, at most 64 fit the heatmap; remove 6/.test(many), many);
  await page.fill('#import-sim-tokens', ' king, queen, man, woman, the, of, and, cat,7');
  await page.click('#import-sim-form button');
  await page.waitForFunction(() => document.querySelector('#import-sim').dataset.n === '9', null, { timeout: 10000 });
  console.log(`     (${msg.slice(0, 60)}…; ${many.slice(0, 60)}…)`);
});

const nnRows = () => page.$$eval('#import-nn tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
const waitNeighbours = (n) => page.waitForFunction((k) => Number(document.querySelector('#import-card').dataset.neighbours || 0) > k, n, { timeout: 60000 });
const nnCount = async () => Number((await dataset(page, '#import-card', 'neighbours')) || 0);

await test('"normalise rows": cosines unchanged, euclidean <= 2, captions say so; off again restores', async () => {
  let n = await nnCount();
  await page.fill('#import-query', ' the');
  await page.click('#import-nn-form button');
  await waitNeighbours(n);
  const raw = await nnRows();
  const rawMap = await page.$eval('#import-map canvas', canvasStats);
  n = await nnCount();
  await page.check('#import-normalise');
  await waitNeighbours(n);
  await page.waitForFunction(() => document.querySelector('#import-sim').dataset.normalised === 'true' && /normalised/.test(document.querySelector('#import-norms-note').textContent), null, { timeout: 60000 });
  await frames(page);
  const unit = await nnRows();
  assert(unit.length === 10, 'neighbours missing');
  unit.forEach((r, i) => {
    assert(r[2] === raw[i][2], `row ${i}: ${r[2]} vs ${raw[i][2]}`);
    assert(Math.abs(Number(r[3]) - Number(raw[i][3])) <= 1.5e-4, `cosine changed: ${r[3]} vs ${raw[i][3]}`);
    assert(Number(r[4]) <= 2 && Math.abs(Number(r[4]) - Math.sqrt(2 - 2 * Number(r[3]))) < 1e-3, `euclidean: ${r[4]}`);
  });
  for (const sel of ['#import-nn-note', '#import-map-note', '#import-sim-caption', '#import-norms-note', '#import-normalise-note']) {
    assert(/rows normalised to length 1/i.test(await text(page, sel)), `${sel} does not say normalised: ${await text(page, sel)}`);
  }
  assert((await page.$eval('#import-map canvas', canvasStats)).hash !== rawMap.hash, 'the map did not change');
  await page.$eval('#import-card', (el) => el.scrollIntoView());
  await page.locator('#import-card').screenshot({ path: shot('tables-import-normalised.png') });
  n = await nnCount();
  await page.uncheck('#import-normalise');
  await waitNeighbours(n);
  await page.waitForFunction(() => document.querySelector('#import-sim').dataset.normalised === 'false' && !/normalised to/.test(document.querySelector('#import-norms-note').textContent), null, { timeout: 60000 });
  const back = await nnRows();
  assert(JSON.stringify(back) === JSON.stringify(raw), 'off again did not restore the neighbours');
  for (const sel of ['#import-nn-note', '#import-map-note', '#import-sim-caption', '#import-norms-note']) {
    assert(!/rows normalised to length 1/i.test(await text(page, sel)), `${sel} still says normalised`);
  }
  await frames(page);
  await page.locator('#import-card').screenshot({ path: shot('tables-import.png') });
  console.log(`     (" the": ${raw.slice(0, 3).map((r) => `${r[1]} cos ${r[3]} d ${r[4]}`).join(', ')}; normalised: d ${unit.slice(0, 3).map((r) => r[4]).join(', ')})`);
});

const importedCard = async (fileName) => {
  await page.waitForFunction((f) => {
    const c = document.querySelector('#positions-imported');
    return c && !c.hidden && c.dataset.file === f;
  }, fileName, { timeout: 90000 });
  await frames(page);
  const canvases = await page.$$eval('#positions-imported canvas', (els) => els.map((el) => el.className));
  const stats = [];
  for (const sel of ['#positions-imported .heatmap-canvas', '#positions-imported .scatter-canvas']) {
    for (const el of await page.$$(sel)) stats.push(await el.evaluate(canvasStats));
  }
  return { canvases, stats };
};

await test('positions view: a "learned (imported)" card with GPT-2\'s wpe from the file, heatmap, similarity and PCA drawn', async () => {
  await page.click('#tab-positions');
  const { canvases, stats } = await importedCard('model.safetensors');
  assert(stats.length === 3, `expected 2 heatmaps and a PCA, got ${canvases.join(', ')}`);
  stats.forEach((s, i) => assert(s.variance > 5 && s.colors > 5, `canvas ${i} blank`));
  const explain = await text(page, '#positions-imported .explain');
  assert(/From your file model\.safetensors, tensor wpe\.weight \(1,024 positions × 768\)/.test(explain) && /Nothing is trained/.test(explain), explain);
  const caption = await text(page, '#positions-imported-caption');
  assert(/^Read from model\.safetensors \(wpe\.weight\)/.test(caption), caption);
  const check = await text(page, '#positions-imported .check-line');
  assert(/Depends only on m − n: no/.test(check), `check: ${check}`);
  await page.$eval('#positions-imported', (el) => el.scrollIntoView());
  await frames(page);
  await page.screenshot({ path: shot('tables-positions-imported.png') });
  console.log(`     (${caption})`);
});

await test('a file holding only wpe.weight: the table is the position table, and the positions card shows it', async () => {
  await page.click('#tab-table');
  const alone = safetensors([['transformer.wpe.weight', [1024, 768], wpe]]);
  const loaded = Number(await dataset(page, '#import-card', 'loaded'));
  await page.setInputFiles('#import-file', { name: 'wpe-only.safetensors', mimeType: 'application/octet-stream', buffer: alone });
  await page.waitForFunction((k) => Number(document.querySelector('#import-card').dataset.loaded || 0) > k, loaded, { timeout: 60000 });
  assert((await dataset(page, '#import-card', 'recognised')) === 'gpt2 position table', 'not recognised');
  await page.click('#tab-positions');
  const { stats } = await importedCard('wpe-only.safetensors');
  stats.forEach((s, i) => assert(s.variance > 5, `canvas ${i} blank`));
  assert(/tensor transformer\.wpe\.weight/.test(await text(page, '#positions-imported .explain')), 'tensor not named');
});

await test('no console errors and no requests to other origins', async () => {
  assert(consoleErrors.length === 0, `console errors: ${consoleErrors.join(' | ')}`);
  assert(foreignRequests.length === 0, `foreign requests: ${foreignRequests.join(' ')}`);
});

await h.finish();
