// Browser test of "bring your own table" (issue 10): a GPT-2-shaped safetensors file (random
// values, GPT-2's real tensor names and shapes) is picked in the page; the worker reads only the
// header and the token table, which comes labelled with GPT-2's token strings; the page shows a
// PCA map of all 50,257 rows and the neighbours of a token with cosine, euclidean and map
// distances; a malformed file gives its message and the loaded table stays.
//   node tests/browser/import.test.mjs [--site build/web] [--shots build/screenshots]
import { assert, canvasStats, screenshotStats, startHarness } from './harness.mjs';
import { random, safetensors } from '../js/table-files.mjs';

const h = await startHarness('import tests');
const { test, openPage, consoleErrors, foreignRequests, shot } = h;

const D = 32;
const file = safetensors([
  ['wte.weight', [50257, D], random(50257 * D, 1)],
  ['wpe.weight', [1024, D], random(1024 * D, 2)],
  ['h.0.ln_1.weight', [D], random(D, 3)],
]);

let page;
await test('a GPT-2-shaped safetensors file: the token table is found, labelled with GPT-2 token strings, mapped and queried', async () => {
  page = await openPage('#view=table');
  await page.setInputFiles('#import-file', { name: 'model.safetensors', mimeType: 'application/octet-stream', buffer: file });
  await page.waitForFunction(() => Number(document.querySelector('#import-card').dataset.loaded || 0) > 0, null, { timeout: 30000 });
  const note = await page.textContent('#import-note');
  assert(/^model\.safetensors: 50,257 rows × 32 \(safetensors, tensor wte\.weight\), labelled/.test(note), `note: ${note}`);
  assert(/GPT-2's token table/.test(note), `not recognised: ${note}`);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  // the map is WebGL (a 2-D getContext on it is null): every row in the drawn layer, pixels from a screenshot
  await page.waitForSelector('#import-map .gl-scatter[data-drawn]', { timeout: 30000 });
  assert((await page.$eval('#import-map .gl-scatter', (el) => el.dataset.drawn)) === '50257', 'not every row drawn');
  const map = await screenshotStats(page, '#import-map');
  assert(map.variance > 5 && map.colors > 5 && map.saturated > 1000, `map blank: ${JSON.stringify(map)}`);
  await page.fill('#import-query', ' the'); // GPT-2's " the" (id 262), not "the" (id 1169)
  await page.click('#import-nn-form button');
  await page.waitForFunction(() => document.querySelectorAll('#import-nn tbody tr').length === 10, null, { timeout: 10000 });
  const rows = await page.$$eval('#import-nn tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  assert(/^Nearest rows to " the" \(row 262\)/.test(await page.textContent('#import-nn-note')), 'query not resolved to " the"');
  for (const r of rows) {
    assert(Number(r[3]) <= 1 && Number(r[4]) > 0 && Number(r[5]) >= 0, `distances: ${r.join(' | ')}`);
  }
  console.log(`     (${note.slice(0, 120)}…; " the" -> ${rows.slice(0, 3).map((r) => r[1]).join(' ')})`);
  await page.$eval('#import-card', (el) => el.scrollIntoView());
  await page.screenshot({ path: shot('import.png') });
});

await test('the position table can be chosen; a malformed file gives its message and keeps the loaded table', async () => {
  await page.selectOption('#import-tensor', 'wpe.weight');
  await page.waitForFunction(() => /wpe\.weight/.test(document.querySelector('#import-note').textContent), null, { timeout: 20000 });
  assert((await page.$eval('#import-card', (el) => el.dataset.recognised)) === 'gpt2 position table', 'wpe not recognised');
  const bad = Buffer.concat([file.subarray(0, 8), Buffer.from('{"wte.weight": {"dtype": "F32", "shape": [50257, 32], "data_offsets": [0, 99999999999]}}')]);
  bad.writeBigUInt64LE(BigInt(bad.length - 8));
  await page.setInputFiles('#import-file', { name: 'broken.safetensors', mimeType: 'application/octet-stream', buffer: bad });
  await page.waitForFunction(() => document.querySelector('#import-card').dataset.importError, null, { timeout: 20000 });
  const note = await page.textContent('#import-note');
  assert(/still showing model\.safetensors\.$/.test(note), `note: ${note}`);
  assert((await page.$eval('#import-card', (el) => el.dataset.rows)) === '1024', 'the loaded table was replaced');
  console.log(`     (${note})`);
});

await test('a browser without WebGL2 gets the canvas map, and the card says so', async () => {
  const p = await h.openPage('#view=table', { webgl2: false });
  await p.setInputFiles('#import-file', { name: 'model.safetensors', mimeType: 'application/octet-stream', buffer: file });
  await p.waitForFunction(() => Number(document.querySelector('#import-card').dataset.loaded || 0) > 0, null, { timeout: 30000 });
  const note = await p.textContent('#import-map-note');
  assert(/no WebGL2, so the map is the simple canvas one/.test(note), `map note: ${note}`);
  assert(await p.$eval('#import-map-tools', (el) => el.hidden), 'search, colour and lasso are offered without WebGL2');
  await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const map = await p.$eval('#import-map canvas', canvasStats);
  assert(map.variance > 5 && map.colors > 5, `canvas map blank: ${JSON.stringify(map)}`);
  await p.$eval('#import-map', (el) => el.scrollIntoView());
  await p.screenshot({ path: shot('import-no-webgl2.png') });
  console.log(`     (${map.colors} colours on the canvas map; "${note.slice(0, 90)}…")`);
  await p.close();
});

await test('no console errors and no requests to other origins', async () => {
  assert(consoleErrors.length === 0, `console errors: ${consoleErrors.join(' | ')}`);
  assert(foreignRequests.length === 0, `foreign requests: ${foreignRequests.join(' ')}`);
});

await h.finish();
