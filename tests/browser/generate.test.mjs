// Browser tests of the "Sample text" card (web/src/views/sample-view.js, trainSample in
// train-handler.js): a run trained in the page (char encoding, replayed to a step from the link)
// samples, for a seed, exactly the text and ids that `embedlab generate` prints on the state
// the page autosaved (and from the file its "Download the run's state" button saves); the prompt is drawn apart from the continuation; errors land under the
// field they concern; word2vec runs disable the form and say why; it works at 375 px in the dark
// theme and from the keyboard, with no serious or critical axe-core violation in the card.
//   node tests/browser/generate.test.mjs [--site build/web] [--shots build/screenshots]
// Native CLI: EMBEDLAB_CLI (default build/native/embedlab).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assert, repo, startHarness, waitRenders } from './harness.mjs';

const h = await startHarness('generate tests');
const { test, openPage, consoleErrors, foreignRequests, shot } = h;
const cli = process.env.EMBEDLAB_CLI || path.join(repo, 'build/native/embedlab');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-generate-page-'));

const AXE = fs.readFileSync(path.join(repo, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
// axe-core's serious or critical violations inside the sample card (as a11y.test.mjs runs it)
async function axeViolations(page) {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const r = await window.axe.run(document.querySelector('#sample-card'), { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
}

const SETTINGS = '#view=train&corpus=tinyshakespeare&enc=char&model=next&tD=16&ctx=16&tB=8&seed=5';
const card = (page) => page.$eval('#sample-card', (el) => ({ ...el.dataset }));
// The page's autosaved run (IndexedDB 'embedlab' / 'session' / 'train@TAB') -> {step, state: number[]}
const savedRun = (page) => page.evaluate(() => new Promise((resolve, reject) => {
  const req = indexedDB.open('embedlab');
  req.onerror = () => reject(new Error('cannot open IndexedDB'));
  req.onsuccess = () => {
    const get = req.result.transaction('session').objectStore('session').get(`train@${document.body.dataset.sessionTab}`); // this tab's run (session.js)
    get.onsuccess = () => resolve(get.result ? { step: get.result.step, state: Array.from(get.result.state) } : null);
    get.onerror = () => reject(new Error('cannot read the record'));
  };
}));

async function sample(page, { prompt, tokens, temperature, seed }) {
  await page.fill('#sample-prompt', prompt);
  await page.fill('#sample-tokens', String(tokens));
  await page.fill('#sample-temperature', String(temperature));
  await page.fill('#sample-seed', String(seed));
  const before = (await card(page)).sampleState;
  await page.click('#sample-button');
  await page.waitForFunction(() => ['done', 'failed'].includes(document.querySelector('#sample-card').dataset.sampleState), null, { timeout: 30000 });
  return { before, ...(await card(page)) };
}

async function trained(hash, step) {
  const page = await openPage(`${hash}&step=${step}`);
  await page.waitForFunction((n) => Number(document.querySelector('#view-train').dataset.replayed || -1) === n, step, { timeout: 60000 });
  await page.waitForFunction((n) => Number(document.querySelector('#view-train').dataset.savedStep ?? -1) === n, step, { timeout: 30000 });
  return page;
}

await test("the page's sample is the text `embedlab generate` prints on the page's saved state", async () => {
  const page = await trained(SETTINGS, 40);
  const o = { prompt: 'ROMEO: What', tokens: 120, temperature: 0.8, seed: 3 };
  const s = await sample(page, o);
  assert(s.sampleState === 'done', `sample state ${s.sampleState}: ${await page.textContent('#sample-note')}`);
  assert(s.sampleStep === '40', `sampled at step ${s.sampleStep}`);
  const rec = await savedRun(page);
  assert(rec && rec.step === 40, `the autosave is at step ${rec && rec.step}`);
  const state = path.join(dir, 'page.state');
  fs.writeFileSync(state, Uint8Array.from(rec.state));
  const native = JSON.parse(execFileSync(cli, ['generate', '--state', state, '--prompt', o.prompt, '--tokens', String(o.tokens),
    '--temperature', String(o.temperature), '--seed', String(o.seed)], { encoding: 'utf8' }));
  assert(s.sampleText === native.text, `page text ${JSON.stringify(s.sampleText)} != CLI ${JSON.stringify(native.text)}`);
  assert(s.sampleIds === native.ids.join(','), `page ids ${s.sampleIds} != CLI ${native.ids}`);
  // the card's download holds the same state: the CLI samples the same text from the file
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#sample-state')]);
  const downloaded = path.join(dir, download.suggestedFilename());
  await download.saveAs(downloaded);
  assert(download.suggestedFilename() === 'embedlab-next-token-learned-step40-seed5-state.bin', `file name ${download.suggestedFilename()}`);
  const fromFile = JSON.parse(execFileSync(cli, ['generate', '--state', downloaded, '--prompt', o.prompt, '--tokens', String(o.tokens),
    '--temperature', String(o.temperature), '--seed', String(o.seed)], { encoding: 'utf8' }));
  assert(fromFile.text === native.text && fromFile.ids.join(',') === native.ids.join(','), 'the downloaded state samples other text');
  const saidNote = await page.textContent('#sample-note');
  assert(saidNote.includes(`embedlab generate --state ${download.suggestedFilename()} --prompt "ROMEO: What" --tokens 120 --temperature 0.8 --seed 3`), `note: ${saidNote}`);
  // drawn as text: the prompt in its own shaded span, then the continuation
  const shown = await page.$eval('#sample-output', (el) => ({
    prompt: el.querySelector('.sample-prompt-text').textContent, text: el.querySelector('.sample-continuation').textContent,
    promptBg: getComputedStyle(el.querySelector('.sample-prompt-text')).backgroundColor,
    textBg: getComputedStyle(el.querySelector('.sample-continuation')).backgroundColor, hidden: el.hidden,
  }));
  assert(!shown.hidden && shown.prompt === o.prompt && shown.text === native.text, `output ${JSON.stringify(shown)}`);
  assert(shown.promptBg !== shown.textBg, `the prompt is not set apart (${shown.promptBg} vs ${shown.textBg})`);
  // the same seed again: the same text; another seed: another
  assert((await sample(page, o)).sampleIds === native.ids.join(','), 'the same seed sampled other ids');
  assert((await sample(page, { ...o, seed: 4 })).sampleIds !== native.ids.join(','), 'another seed sampled the same ids');
  await sample(page, o);
  await page.locator('#sample-card').screenshot({ path: shot('sample-card.png') });
  await page.close();
});

await test('errors are shown under the field they concern, and the card stays usable', async () => {
  const page = await trained(SETTINGS, 2);
  const o = { prompt: 'ROMEO', tokens: 20, temperature: 1, seed: 1 };
  for (const [change, field, message] of [
    [{ prompt: '' }, 'prompt', 'generate: the prompt is empty; give at least one token'],
    [{ tokens: 5000 }, 'tokens', 'generate: tokens 5000 must be an integer in [0, 4096]'],
    [{ temperature: -1 }, 'temperature', 'generate: temperature must be finite and >= 0, got -1'],
    [{ seed: 'abc' }, 'seed', 'generate: seed "abc" is not a number'],
  ]) {
    const s = await sample(page, { ...o, ...change });
    assert(s.sampleState === 'failed', `${JSON.stringify(change)}: state ${s.sampleState}`);
    const shown = await page.textContent(`#sample-${field} ~ .field-error`);
    assert(shown === message, `${JSON.stringify(change)}: "${shown}", expected "${message}"`);
    assert(await page.getAttribute(`#sample-${field}`, 'aria-invalid') === 'true', `${field} not marked invalid`);
  }
  await page.locator('#sample-card').screenshot({ path: shot('sample-error.png') });
  const errorAxe = await axeViolations(page);
  assert(errorAxe.length === 0, `axe on the card with an error: ${errorAxe.join('; ')}`);
  const s = await sample(page, o);
  assert(s.sampleState === 'done' && s.sampleIds.split(',').length === 20, `after the errors: ${JSON.stringify(s)}`);
  assert(await page.textContent('#sample-tokens ~ .field-error') === '', 'the old error stayed');
  await page.close();
});

await test('word2vec runs have no next-token head: the form is disabled and says so', async () => {
  const page = await openPage('#view=train&corpus=tinyshakespeare&enc=whitespace&model=skipgram&tD=8&ep=1&seed=5');
  await waitRenders(page, 'train', 0, 30000);
  const c = await card(page);
  assert(c.sampleState === 'unavailable', `state ${c.sampleState}`);
  assert(await page.$eval('#sample-button', (b) => b.disabled), 'the Sample button is enabled for word2vec');
  const note = await page.textContent('#sample-note');
  assert(note.startsWith('Sampling needs the next-token model'), `note: ${note}`);
  await page.locator('#sample-card').screenshot({ path: shot('sample-word2vec.png') });
  await page.close();
});

await test('the card at 375 px in the dark theme, from the keyboard', async () => {
  const page = await trained(`${SETTINGS}&theme=dark`, 20);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.fill('#sample-prompt', 'KING');
  await page.focus('#sample-seed');
  await page.keyboard.press('Enter'); // submits the form
  await page.waitForFunction(() => document.querySelector('#sample-card').dataset.sampleState === 'done', null, { timeout: 30000 });
  const box = await page.$eval('#sample-card', (el) => ({ w: el.getBoundingClientRect().width, scroll: el.scrollWidth, client: el.clientWidth }));
  assert(box.scroll <= box.client + 1, `the card overflows at 375 px: ${JSON.stringify(box)}`);
  await page.locator('#sample-card').screenshot({ path: shot('sample-card-375-dark.png') });
  const found = await axeViolations(page);
  assert(found.length === 0, `axe at 375 px, dark, with a sample drawn: ${found.join('; ')}`);
  await page.close();
});

await test('no console errors and no requests to other origins', async () => {
  assert(consoleErrors.length === 0, consoleErrors.join(' | '));
  assert(foreignRequests.length === 0, foreignRequests.join(' | '));
});

fs.rmSync(dir, { recursive: true, force: true });
await h.finish();
