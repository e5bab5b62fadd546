// Browser test of lean training frames (issue 24): a slice asks the worker only for the plots on
// screen (trainStep {show}, read off the page's own requests), a plot off screen is not drawn while
// the run goes on, and when it comes on screen it catches up once, to the step the run is at (one
// trainFrame when paused; the next slice while playing). The numbers of a drawn part are the
// engine's for its entries (tests/js/train-frame.test.mjs checks them against the full matrix).
// Asserts no duration: it waits on the page's data attributes (data-steps, data-NAME-draws,
// data-NAME-step of #view-train).
//   node tests/browser/train-frames.test.mjs [--site build/web] [--shots build/screenshots]
import { animationFrames, assert, startHarness, waitRenders, workerStep } from './harness.mjs';

const h = await startHarness('training frame tests');
const { test, openPage, consoleErrors, foreignRequests, shot } = h;

// the page's requests to the worker of `type`, recorded as they are posted: [{payload}]
async function recordRequests(page, type) {
  await page.addInitScript((t) => {
    window.__requests = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (msg, ...rest) {
      if (msg && msg.type === t) window.__requests.push(JSON.parse(JSON.stringify(msg.payload)));
      return post.call(this, msg, ...rest);
    };
  }, type);
}
const view = (page) => page.$eval('#view-train', (el) => ({ ...el.dataset }));
const onScreen = (page, sel) => page.$eval(sel, (el) => {
  const r = el.getBoundingClientRect();
  return r.height > 0 && r.bottom > 0 && r.top < innerHeight;
});

await test('a plot off screen gets no slice while the run goes on; scrolled in, it catches up once to the paused step', async () => {
  const page = await openPage();
  await recordRequests(page, 'trainStep');
  const url = page.url().replace(/#.*$/, '');
  await page.goto('about:blank'); // a new document, so the recorder is in place before the worker starts
  await page.goto(`${url}#view=train&enc=char`);
  await page.waitForSelector('body[data-engine="ready"]', { timeout: 15000 });
  await waitRenders(page, 'train', 0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await animationFrames(page);
  assert(await onScreen(page, '#train-loss'), 'the loss chart is not on screen at the top');
  assert(!(await onScreen(page, '#train-pos-learned')), 'the learned positions are on screen at the top: the test needs them off screen');
  const before = await view(page);
  assert(before.positionsStep === '0' && before.positionsDraws === '1', `the first render: positions drawn ${before.positionsDraws} times, at step ${before.positionsStep}`);
  await page.click('#train-play');
  await page.waitForFunction(() => Number(document.querySelector('#view-train').dataset.steps) >= 150, null, { timeout: 60000 });
  await page.click('#train-play'); // pause
  const steps = await workerStep(page); // the slice in flight has landed: the worker's own step
  await page.waitForFunction((s) => Number(document.querySelector('#view-train').dataset.steps) === s, steps, { timeout: 10000 });
  // workerStep typed into the neighbours form, far down the view: a slice that landed while the
  // page was scrolled there left the loss chart out. Back at the top it catches up, paused.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForFunction((s) => document.querySelector('#view-train').dataset.lossStep === String(s), steps, { timeout: 10000 });
  const shows = await page.evaluate(() => window.__requests.map((p) => p.show));
  assert(shows.length >= 2 && shows.every((s) => Array.isArray(s) && !s.includes('positions')), `slices asked for the off-screen positions: ${JSON.stringify(shows.slice(0, 4))}`);
  const paused = await view(page);
  assert(Number(paused.lossDraws) >= 2 && paused.lossStep === String(steps), `the loss chart on screen: ${paused.lossDraws} draws, at step ${paused.lossStep} of ${steps}`);
  assert(paused.positionsDraws === '1' && paused.positionsStep === '0', `off screen, the positions were drawn ${paused.positionsDraws} times, at step ${paused.positionsStep}`);
  // on screen: one catch-up (trainFrame), to the paused step, and no more
  await page.$eval('#train-pos-learned', (el) => el.scrollIntoView({ block: 'center' }));
  await page.waitForFunction((s) => document.querySelector('#view-train').dataset.positionsStep === String(s), steps, { timeout: 10000 });
  await animationFrames(page, 6);
  assert((await view(page)).positionsDraws === '2', `caught up ${Number((await view(page)).positionsDraws) - 1} times`);
  assert((await page.evaluate(() => window.__requests.length)) === shows.length, 'the catch-up stepped the run');
  await page.locator('#train-pos-card').screenshot({ path: shot('train-frames-caught-up.png') });
  await page.close();
});

await test('while playing, a plot scrolled in is drawn by the next slices and the one scrolled out stops', async () => {
  const page = await openPage('#view=train&enc=char');
  await waitRenders(page, 'train', 0);
  await page.click('#train-play');
  await page.$eval('#train-pos-learned', (el) => el.scrollIntoView({ block: 'center' }));
  await page.waitForFunction(() => Number(document.querySelector('#view-train').dataset.positionsStep || 0) > 0, null, { timeout: 60000 });
  assert(!(await onScreen(page, '#train-loss')), 'the loss chart is still on screen: the test needs it off screen');
  const a = await view(page);
  await page.waitForFunction((s) => Number(document.querySelector('#view-train').dataset.positionsStep) > s, Number(a.positionsStep), { timeout: 60000 });
  const b = await view(page); // still playing, the loss chart still off screen
  assert(Number(b.positionsDraws) > Number(a.positionsDraws), `positions drawn ${a.positionsDraws} -> ${b.positionsDraws}`);
  assert(b.lossDraws === a.lossDraws, `the off-screen loss chart was drawn ${a.lossDraws} -> ${b.lossDraws} times`);
  await page.click('#train-play'); // pause
  const steps = await workerStep(page);
  // Scrolled back in, the loss chart catches up to the paused step. Where the page is now is not
  // the test's to assume: workerStep typed into the neighbours form far down the view, and a
  // click's own scrolling depends on the layout under it.
  await page.$eval('#train-loss', (el) => el.scrollIntoView({ block: 'center' }));
  await page.waitForFunction((s) => document.querySelector('#view-train').dataset.lossStep === String(s), steps, { timeout: 10000 });
  assert(Number((await view(page)).lossPoints) === steps, `the curve misses steps`);
  await page.close();
});

await test('no console errors and no requests to other origins', async () => {
  assert(consoleErrors.length === 0, `console errors: ${consoleErrors.slice(0, 3).join(' | ')}`);
  assert(foreignRequests.length === 0, `foreign requests: ${foreignRequests.slice(0, 3).join(', ')}`);
});

await h.finish();
