// Browser tests of training that teaches the right lesson (issue 21):
//   node tests/browser/held-out.test.mjs [--site build/web] [--shots build/screenshots]
// - the default run (characters of Tiny Shakespeare) draws training loss, held-out loss and the
//   chance line ln V, and once held-out loss has fallen the chart says the model is learning,
//   with no memorising message;
// - a run on GPT-2 ids of The Verdict (an older link: corpus=the-verdict&enc=gpt2, read as the
//   training text and said so) says in words that the model is memorising this text;
// - word2vec draws no held-out or chance line and says why;
// - the compare card on The Verdict + GPT-2 says the text is too small to learn from instead of
//   naming the lowest encoding.
// Every wait is on state the page exposes (data attributes of #train-loss and #view-train).
// Shared setup: harness.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { assert, repo, screenshotStats, startHarness, waitRenders } from './harness.mjs';

const h = await startHarness('held-out tests');
const { test, openPage, consoleErrors, foreignRequests, shot } = h;

const AXE = fs.readFileSync(path.join(repo, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
// axe-core's serious and critical violations on the page as it is (a11y.test.mjs does the same)
async function axeViolations(page) {
  await page.evaluate(AXE);
  return page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`));
}

const chart = (page) => page.$eval('#train-loss', (el) => ({ ...el.dataset }));
// plays until the chart's data attributes satisfy cond (a function of them, run in the page)
async function playUntil(page, cond, timeout) {
  await page.click('#train-play');
  await page.waitForFunction(cond, null, { timeout });
  await page.click('#train-play'); // pause
  await page.waitForFunction(() => document.querySelector('#train-play').textContent.includes('Play'));
}

await test('the default run draws training, held-out and chance lines, and says it learns once held-out loss falls', async () => {
  const page = await openPage('#view=train');
  await waitRenders(page, 'train', 0, 60000);
  assert((await page.inputValue('#f-tCorpus')) === 'tinyshakespeare' && (await page.inputValue('#f-tEnc')) === 'char', 'the default training text is not characters of Tiny Shakespeare');
  let d = await chart(page);
  const V = Number(d.vocab);
  assert(d.series === `training loss|held-out loss|chance ln ${V} = ${Math.log(V).toFixed(2)}`, `series ${d.series}`);
  assert(Math.abs(Number(d.chance) - Math.log(V)) < 1e-12, `chance ${d.chance} for V ${V}`);
  const note = await page.textContent('#train-loss-note');
  assert(/last tenth of the text \(111,539 tokens, never trained on/.test(note) && /first 8,193 tokens/.test(note), `note: ${note}`);
  await playUntil(page, () => Number(document.querySelector('#train-loss').dataset.heldPoints) >= 9, 90000); // step 400
  d = await chart(page);
  const held = Number(d.heldOut);
  const train = Number(await page.$eval('#view-train', (el) => el.dataset.lastLoss));
  assert(held < Number(d.chance) - 1, `held-out ${held} not well below chance ${d.chance}`);
  assert(Math.abs(held - train) < 0.5, `held-out ${held} far from training ${train}`);
  assert(d.verdict === 'learning' && d.memorising === 'false', `verdict ${d.verdict}, memorising ${d.memorising}`);
  const verdict = await page.textContent('#train-verdict');
  assert(/^Learning: held-out loss \d\.\d\d on text it never trained on is \d\.\d\d nats below chance ln \d+ = \d\.\d\d/.test(verdict), `verdict: ${verdict}`);
  assert(!/memoris/.test(verdict), 'a memorising message on a run that generalises');
  const readout = await page.textContent('#train-readout');
  assert(/held-out loss\d\.\d{4} \(step \d+\)/.test(readout), `readout: ${readout}`);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const px = await screenshotStats(page, '#train-loss canvas');
  // training loss in blue (#0072B2, hue ~200: bucket 6), held-out in vermillion (#D55E00, hue ~25: bucket 0)
  assert(px.hues[6] > 50 && px.hues[0] > 20, `lines not drawn: hues ${px.hues.join(',')}`);
  await page.$eval('#train-loss', (el) => el.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: shot('held-out-default.png') });
  // the autosave keeps the held-out curve: a reload restores the run with the same points and verdict
  await page.waitForFunction(() => { const v = document.querySelector('#view-train').dataset; return v.savedStep === v.steps; }, null, { timeout: 30000 });
  const saved = await chart(page);
  await page.reload();
  await page.waitForFunction(() => document.querySelector('#view-train').dataset.restored !== undefined, null, { timeout: 60000 });
  const back = await chart(page);
  assert(back.heldPoints === saved.heldPoints && back.heldOut === saved.heldOut && back.verdict === 'learning', `restored ${JSON.stringify(back)}, saved ${JSON.stringify(saved)}`);
  await page.close();
});

await test('GPT-2 ids of The Verdict (an older link): the chart says the model is memorising this text', async () => {
  const page = await openPage('#view=train&corpus=the-verdict&enc=gpt2');
  await waitRenders(page, 'train', 0, 60000);
  const messages = await page.textContent('#url-messages');
  assert(/older link.*tCorpus=the-verdict, tEnc=gpt2/.test(messages), `no migration notice: ${messages}`);
  let d = await chart(page);
  assert(d.vocab === '1416' && d.series.endsWith('chance ln 1,416 = 7.26'), `series ${d.series}, V ${d.vocab}`);
  await playUntil(page, () => document.querySelector('#train-loss').dataset.memorising === 'true', 120000);
  d = await chart(page);
  assert(Number(d.heldOut) >= Number(d.chance), `held-out ${d.heldOut} below chance ${d.chance}`);
  const verdict = await page.textContent('#train-verdict');
  assert(/^The model is memorising this text: held-out loss \d+\.\d\d is above chance ln 1,416 = 7\.26 while training loss is \d\.\d\d\. .*Tiny Shakespeare/.test(verdict), `verdict: ${verdict}`);
  assert(await page.$eval('#train-verdict', (el) => el.classList.contains('memorising') && !el.hidden), 'the message is not shown as a warning');
  await page.$eval('#train-loss', (el) => el.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: shot('held-out-memorising.png') });
  // the link now names the training text, so it is not read as an older one again
  const hash = await page.evaluate(() => location.hash);
  assert(/tCorpus=the-verdict/.test(hash) && /tEnc=gpt2/.test(hash), `hash ${hash}`);
  const found = await axeViolations(page);
  assert(found.length === 0, `axe: ${found.join('; ')}`);
  await page.close();
});

await test('the memorising message at 375 px in the dark theme: readable, clean under axe-core', async () => {
  const page = await openPage('#view=train&tCorpus=the-verdict&tEnc=gpt2&theme=dark');
  await page.setViewportSize({ width: 375, height: 800 });
  await waitRenders(page, 'train', 0, 60000);
  await playUntil(page, () => document.querySelector('#train-loss').dataset.memorising === 'true', 120000);
  const box = await page.$eval('#train-verdict', (el) => el.getBoundingClientRect().right);
  assert(box <= 375, `the message runs off the screen (right ${box})`);
  const found = await axeViolations(page);
  assert(found.length === 0, `axe: ${found.join('; ')}`);
  await page.$eval('#train-loss', (el) => el.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: shot('held-out-memorising-dark-375.png') });
  await page.close();
});

await test('word2vec: no held-out or chance line, and the note says why', async () => {
  const page = await openPage('#view=train&model=skipgram&tEnc=whitespace&tLower=1&tCorpus=the-verdict&tD=16');
  await waitRenders(page, 'train', 0, 60000);
  const d = await chart(page);
  assert(d.series === 'training loss' && d.heldOut === undefined && d.chance === undefined, `series ${d.series}, held-out ${d.heldOut}`);
  assert(/no held-out next-token loss and no ln V chance level/.test(await page.textContent('#train-loss-note')), 'no note');
  assert(await page.isHidden('#train-verdict'), 'a verdict on word2vec');
  await page.close();
});

await test('compare on GPT-2 ids of The Verdict says the text is too small to learn from, not "Lowest: …"', async () => {
  const page = await openPage('#view=train&cmpCorpus=the-verdict&cmpEnc=gpt2&cmp=150&cmpFt=0');
  await waitRenders(page, 'train', 0, 60000);
  await page.click('#train-compare');
  await page.waitForFunction(() => Number(document.querySelector('#view-train').dataset.compared || 0) > 0, null, { timeout: 120000 });
  const verdict = await page.$eval('#view-train', (el) => el.dataset.compareVerdict);
  const note = await page.textContent('#compare-note');
  assert(verdict === 'too-small', `compare verdict ${verdict}: ${note}`);
  assert(/^This text is too small to learn from: after 150 steps every encoding's held-out loss \(\d+\.\d\d–\d+\.\d\d\) is at or above chance ln 1,416 = 7\.26/.test(note), `note: ${note}`);
  assert(!/Lowest:/.test(note), `the note names a winner: ${note}`);
  const bars = await page.$$eval('#compare-bars text', (ts) => ts.map((t) => t.textContent).join(' '));
  assert(!bars.includes('(lowest)'), `a bar is marked lowest: ${bars}`);
  await page.$eval('#compare-card', (el) => el.scrollIntoView());
  await page.screenshot({ path: shot('held-out-compare-too-small.png') });
  await page.close();
});

await test('no console errors, no requests to other origins', async () => {
  assert(consoleErrors.length === 0, `console errors: ${consoleErrors.join(' | ')}`);
  assert(foreignRequests.length === 0, `foreign requests: ${foreignRequests.join(' ')}`);
});

await h.finish();
