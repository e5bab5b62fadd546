// Browser test of the length-extrapolation card with the RoPE scalings and the fine-tune (issue
// 26): the reader ticks the encodings in the compare card (cmpKinds in the link), sets the
// scalings' factor (cmpFactor) and the fine-tune steps (cmpFt); the card then shows held-out
// loss at T, 2T, 4T and 8T before and after a fine-tune at 2T, as a chart and a table, and
// learned positions say why they cannot be fine-tuned. Bad link values are named and dropped.
// Waits on the view's data attributes (data-compared, data-extrapolation…), never on a time.
//   node tests/browser/extrapolation.test.mjs [--site build/web] [--shots build/screenshots]
import { assert, canvasStats, startHarness, waitRenders } from './harness.mjs';

const h = await startHarness('extrapolation tests');
const { test, openPage, consoleErrors, foreignRequests, shot } = h;

const KINDS = ['learned', 'rope', 'rope-pi', 'rope-yarn'];
const ticked = (page) => page.$$eval('#compare-kinds input', (bs) => bs.filter((b) => b.checked).map((b) => b.value));
const compared = (page) => page.$eval('#view-train', (el) => Number(el.dataset.compared || 0));

await test('ticked kinds, factor and fine-tune steps from the link: loss at T..8T before and after a fine-tune at 2T, chart and table', async () => {
  const page = await openPage(`#view=train&cmp=80&cmpFt=30&cmpFactor=4&cmpKinds=${KINDS.join(',')}`);
  await waitRenders(page, 'train', 0);
  assert(JSON.stringify(await ticked(page)) === JSON.stringify(KINDS), `ticked: ${await ticked(page)}`);
  assert((await page.inputValue('#f-cmpFt')) === '30' && (await page.inputValue('#f-cmpFactor')) === '4', 'the settings fields do not show the link');
  await page.click('#train-compare');
  await page.waitForFunction(() => / \(fine-tune at 64\);/.test(document.querySelector('#compare-status').textContent), null, { timeout: 60000 });
  await page.waitForFunction(() => Number(document.querySelector('#view-train').dataset.compared || 0) > 0, null, { timeout: 120000 });
  const data = await page.$eval('#view-train', (el) => ({ before: JSON.parse(el.dataset.extrapolation), after: JSON.parse(el.dataset.extrapolationFinetuned) }));
  assert(JSON.stringify(Object.keys(data.before)) === JSON.stringify(KINDS), `kinds compared: ${Object.keys(data.before)}`);
  assert(data.before.learned[0] !== null && data.before.learned.slice(1).every((v) => v === null), `learned past T: ${data.before.learned}`);
  assert(data.after.learned === null, 'learned positions were fine-tuned');
  for (const k of KINDS.slice(1)) {
    assert(data.before[k].length === 4 && data.before[k].every(Number.isFinite), `${k} before: ${data.before[k]}`);
    assert(data.after[k].length === 4 && data.after[k].every(Number.isFinite), `${k} after: ${data.after[k]}`);
    assert(data.after[k][1] !== data.before[k][1], `${k}: the fine-tune changed nothing at 2T`);
  }
  const rows = await page.$$eval('#extrap-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  assert(rows.length === KINDS.length, `${rows.length} table rows`);
  const learned = rows[0].join(' ');
  assert(/no rows past T/.test(learned) && /fine-tune refused: next-token fine-tune: learned positions have no rows beyond T = 32 \(asked for 64\)/.test(learned), `learned row: ${learned}`);
  const rope = rows[1];
  assert(rope.length === 9 && Number(rope[2]) === Number(data.before.rope[1].toFixed(3)) && Number(rope[6]) === Number(data.after.rope[1].toFixed(3)), `rope row: ${rope}`);
  const heads = await page.$$eval('#extrap-table thead tr:first-child th', (ths) => ths.map((t) => t.textContent));
  assert(heads.includes('after 30 fine-tune steps at 64'), `table heads: ${heads}`);
  const note = await page.textContent('#compare-note');
  assert(/RoPE \+ interpolation, RoPE \+ YaRN: factor 4, original context 32\./.test(note) && /fine-tune: 30 steps on windows of 64/.test(note), `note: ${note}`);
  const exNote = await page.textContent('#extrap-note');
  assert(/evaluated on windows of 32, 64, 128, 256/.test(exNote) && /After 30 more steps on windows of 64 \(dashed\)/.test(exNote), `extrapolation note: ${exNote}`);
  const series = await page.$eval('#extrap-chart', (el) => el.dataset.series);
  assert(series.split('|').length === 2 * KINDS.length && series.includes('RoPE + YaRN, fine-tuned at 64'), `series: ${series}`);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const st = await page.$eval('#extrap-chart canvas', canvasStats);
  assert(st.colors > 5 && st.variance > 5, 'extrapolation chart blank');
  await page.$eval('#extrapolation-card', (el) => el.scrollIntoView());
  await page.locator('#extrapolation-card').screenshot({ path: shot('extrapolation-finetune.png') });
  console.log(`     (${exNote})`);
  await page.close();
});

await test('ticking a kind writes cmpKinds to the link; all ticked is the default; the last one cannot be unticked', async () => {
  const page = await openPage('#view=train&cmpKinds=rope');
  await waitRenders(page, 'train', 0);
  assert(JSON.stringify(await ticked(page)) === '["rope"]', `ticked: ${await ticked(page)}`);
  await page.click('#compare-kinds input[value="rope"]'); // the last one
  assert(JSON.stringify(await ticked(page)) === '["rope"]', 'the last kind was unticked');
  assert((await page.textContent('#compare-note')) === 'Compare at least one encoding.', await page.textContent('#compare-note'));
  await page.click('#compare-kinds input[value="alibi"]');
  await page.waitForFunction(() => /cmpKinds=rope,alibi(&|$)/.test(location.hash), null, { timeout: 10000 });
  for (const b of await page.$$('#compare-kinds input:not(:checked)')) await b.click();
  await page.waitForFunction(() => !/cmpKinds=/.test(location.hash), null, { timeout: 10000 });
  assert((await compared(page)) === 0, 'ticking ran a comparison');
  await page.close();
});

await test('bad link values are named: an unknown kind is dropped from cmpKinds, cmpFt and cmpFactor out of range fall back', async () => {
  const page = await openPage('#view=train&cmpKinds=rope,yarn&cmpFt=-1&cmpFactor=0.5');
  await waitRenders(page, 'train', 0);
  assert(JSON.stringify(await ticked(page)) === '["rope"]', `ticked: ${await ticked(page)}`);
  const notice = await page.textContent('#url-messages');
  for (const bit of ["ignored cmpKinds=yarn ('yarn' is not a positional kind", 'ignored cmpFt=-1 (cmpFt must be an integer in [0, 100000]); using the default 100',
    'ignored cmpFactor=0.5 (cmpFactor must be a number in [1, 1024]); using the default 2']) {
    assert(notice.includes(bit), `notice misses "${bit}": ${notice}`);
  }
  await page.close();
});

await test('no console errors and no requests to other origins', async () => {
  assert(consoleErrors.length === 0, `console errors: ${consoleErrors.slice(0, 3).join(' | ')}`);
  assert(foreignRequests.length === 0, `foreign requests: ${foreignRequests.slice(0, 3).join(', ')}`);
});

await h.finish();
