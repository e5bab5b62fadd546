// Browser test of a link's training step (state.js MAX_LINK_STEP, train-view.js play/replay):
// step=1000000000 is refused with a note naming the value and the limit (no replay starts), and
// a long replay (step=100000, the limit) shows its progress, step n of N, in the job box of the
// page (job-progress.js) and stops at the step it reached when Cancel is pressed; the run then
// stays paused there (the worker's own step count does not move). Waits on state only.
// Screenshot: link-step-replay.png.
//   node tests/browser/link-step.test.mjs [--site build/web] [--shots build/screenshots]
import { assert, startHarness, waitRenders, workerStep } from './harness.mjs';

const h = await startHarness('link step tests');
const { test, openPage, consoleErrors, shot } = h;

const RUN = '#view=train&tEnc=char&tD=8&ctx=16&tB=8&seed=5';

await test('step=1000000000: refused, the note names the value and the limit; no replay starts', async () => {
  const page = await openPage(`${RUN}&step=1000000000`);
  await waitRenders(page, 'train', 0, 30000);
  const lines = await page.$$eval('#url-messages p', (ps) => ps.map((p) => p.textContent));
  assert(lines.length === 1 && lines[0] === 'Link setting ignored step=1000000000 (step must be an integer in [0, 100000], a link replays at most 100,000 steps); using the default 0.', `notice: ${JSON.stringify(lines)}`);
  const t = await page.$eval('#view-train', (el) => ({ steps: Number(el.dataset.steps || 0), playing: document.querySelector('#train-play').textContent }));
  assert(t.steps === 0 && t.playing === '▶ Play', `the run: ${JSON.stringify(t)}`);
  await page.close();
});

await test('step=100000: the replay shows step n of N with Cancel; Cancel stops it where it is, paused', async () => {
  const page = await openPage(`${RUN}&step=100000`);
  await waitRenders(page, 'train', 0, 30000);
  const box = page.locator('#view-train .replay-progress');
  await page.waitForFunction(() => {
    const b = document.querySelector('#view-train .replay-progress');
    return b && !b.hidden && b.dataset.state === 'running' && /step [\d,]+ of 100,000/.test(b.textContent);
  }, null, { timeout: 30000 });
  const note = await box.locator('.job-note').textContent();
  assert(/^Replaying the link's run: step [\d,]+ of 100,000$/.test(note), `progress note: ${note}`);
  await box.screenshot({ path: shot('link-step-replay.png') });
  await box.locator('.job-cancel').click();
  await page.waitForFunction(() => document.querySelector('#view-train').dataset.replayCancelled !== undefined, null, { timeout: 30000 });
  const at = await page.$eval('#view-train', (el) => ({ cancelled: Number(el.dataset.replayCancelled), steps: Number(el.dataset.steps), replayed: el.dataset.replayed }));
  assert(at.cancelled === at.steps && at.steps > 0 && at.steps < 100000 && at.replayed === undefined, `after Cancel: ${JSON.stringify(at)}`);
  const message = await page.textContent('#train-message');
  assert(message === `Replay cancelled at step ${at.steps.toLocaleString('en')} of the link's 100,000; Play goes on from here.`, `message: ${message}`);
  assert((await page.textContent('#train-play')) === '▶ Play', 'still playing after Cancel');
  assert(await box.evaluate((b) => b.hidden), 'the progress box stays up after Cancel');
  // paused: the worker's own count does not move between two questions
  const a = await workerStep(page, 'e');
  const b = await workerStep(page, 'e');
  assert(a === b && a === at.steps, `worker at step ${a}, then ${b}; the view says ${at.steps}`);
  console.log(`     (cancelled at step ${at.steps} of 100,000)`);
  await page.close();
});

await test('no console errors', async () => {
  assert(consoleErrors.length === 0, `console errors: ${consoleErrors.join(' | ')}`);
});

await h.finish();
