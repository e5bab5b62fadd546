// Browser test of "bring your own table" (issue 10): a GPT-2-shaped safetensors file (random
// values, GPT-2's real tensor names and shapes) is picked in the page; the worker reads only the
// header and the token table, which comes labelled with GPT-2's token strings; the page shows a
// PCA map of all 50,257 rows and the neighbours of a token with cosine, euclidean and map
// distances; a malformed file gives its message and the loaded table stays; files are read as
// the format their name names (a .safetensors with an absurd header length, random bytes named
// .npy), a BOM is skipped, and a header of 150,000 tensors fills the tensor menu.
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

await test('files read as what they are (issue 22): the name\'s format, a BOM, a header of 150,000 tensors', async () => {
  const p = await openPage('#view=table');
  const pick = async (name, buffer) => {
    const before = await p.$eval('#import-note', (el) => el.textContent);
    await p.setInputFiles('#import-file', { name, mimeType: 'application/octet-stream', buffer });
    await p.waitForFunction((b) => { const t = document.querySelector('#import-note').textContent; return t !== b && !t.startsWith('reading '); }, before, { timeout: 30000 });
    return p.textContent('#import-note');
  };
  // a .safetensors whose header length is absurd: the safetensors message, not a 0 x 1 TSV table
  const le64 = (n) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(n)); return b; };
  const entry = Buffer.from('{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}');
  let note = await pick('absurd.safetensors', Buffer.concat([le64(2 ** 40), entry, Buffer.alloc(4)]));
  assert(note === "read safetensors: byte 0: the header length 1099511627776 is over the format's limit of 100000000 bytes", `note: ${note}`);
  // random bytes named .npy: the npy message, with the bytes found
  note = await pick('random.npy', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x09, 0x31, 0x0a, 0x32, 0x09, 0x33, 0x09, 0x34, 0x0a]));
  assert(note === "read npy: byte 0: expected the magic \\x93NUMPY of a .npy file, got 'PK\\x03\\x04\\x091'", `note: ${note}`);
  // word2vec text saved with a BOM: 2 rows x 3 labelled, not GloVe one column wide
  note = await pick('bom.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('2 3\nking 1 2 3\nqueen 4 5 6\n')]));
  assert(/^bom\.txt: 2 rows × 3 \(word2vec-text\), labelled/.test(note), `note: ${note}`);
  // 150,000 2-D tensors: every one offered in the menu (a spread of them overflowed the stack)
  const n = 150000;
  const many = safetensors(Array.from({ length: n }, (_, i) => [`t${i}`, [1, 2], new Float32Array([i, -i])]));
  note = await pick('many.safetensors', many);
  assert(note === 'many.safetensors holds several tensors; choose the table to look at.', `note: ${note}`);
  assert((await p.$eval('#import-tensor', (el) => el.options.length)) === n + 1, 'not every tensor offered');
  await p.selectOption('#import-tensor', 't149999');
  await p.waitForFunction(() => /tensor t149999/.test(document.querySelector('#import-note').textContent), null, { timeout: 30000 });
  // one row has no PCA map, and the card says so (rather than keep the last table's map)
  await p.waitForFunction(() => /^No map: a PCA map needs at least 3 rows and 2 columns, and this table is 1 × 2\.$/
    .test(document.querySelector('#import-map-note').textContent), null, { timeout: 30000 });
  await p.$eval('#import-card', (el) => el.scrollIntoView());
  await p.screenshot({ path: shot('import-many-tensors.png') });
  console.log(`     (${await p.textContent('#import-note')})`);
  // numpy savetxt output (no labels): 4 rows x 2, mapped again
  note = await pick('saved.txt', Buffer.from('1 0\n0 1\n-1 0\n0 -1.5\n'));
  assert(/^saved\.txt: 4 rows × 2 \(savetxt\), no labels/.test(note), `note: ${note}`);
  await p.waitForSelector('#import-map .gl-scatter[data-drawn="4"]', { timeout: 30000 });
  assert(!(await p.$eval('#import-map', (el) => el.hidden)), 'the map stays hidden');
  await p.close();
});

await test('a browser that cannot draw a canvas in a worker gets the canvas map, and the card says so', async () => {
  const p = await h.openPage('#view=table', { offscreen: false });
  await p.setInputFiles('#import-file', { name: 'model.safetensors', mimeType: 'application/octet-stream', buffer: file });
  await p.waitForFunction(() => Number(document.querySelector('#import-card').dataset.loaded || 0) > 0, null, { timeout: 30000 });
  const note = await p.textContent('#import-map-note');
  assert(/cannot draw a canvas in a worker \(no OffscreenCanvas\), so the map is the simple canvas one/.test(note), `map note: ${note}`);
  assert(await p.$eval('#import-map-tools', (el) => el.hidden), 'search, colour and lasso are offered without OffscreenCanvas');
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
