// Browser tests of the train view when the engine's replies arrive late (a busy machine): the
// test holds the worker's replies back and lets them through later, in the order the worker sent
// them, so a user's action falls between a request and its reply every time, not one run in ten.
//   - a setting typed while the previous run's render awaits its sinusoidal panel: each render
//     names its own run (data-rendered-run), not the settings typed after it
//   - Play pressed between a new run's request and its render (the worker steps the new run):
//     the render does not replay the step that slice wrote as the link's step; Play on the drawn
//     run (SGD at lr 1e6) ends in the divergence message, which stays
// Asserts no duration: it waits on the page's data attributes and on the worker's replies
// (workerStep: a neighbours round trip, answered after every request sent before it).
//   node tests/browser/train-order.test.mjs [--site build/web]
import { assert, startHarness, typeInto, waitRenders, workerStep } from './harness.mjs';

const h = await startHarness('train order tests');
const { test, openPage, consoleErrors, foreignRequests } = h;

// In the page, before its scripts: the engine worker's replies (worker.js; not the map's
// scatter-worker.js) can be held back. window.__replies:
//   posted: the types of the page's requests, in the order they were sent
//   hold(type): queue the reply to the next request of `type` and every reply after it
//   release(): let the queued replies through in the worker's order, one task each (as they
//   arrive from a worker), and those that come meanwhile behind them -> Promise
function holdReplies() {
  const ctl = { posted: [], from: null, held: null, handler: null };
  window.__replies = ctl;
  const types = new Map(); // request id -> type
  const Base = window.Worker;
  window.Worker = class extends Base {
    constructor(url, ...rest) {
      super(url, ...rest);
      if (!/\/worker\.js(\?|$)/.test(String(url))) return;
      Object.defineProperty(this, 'onmessage', { get: () => ctl.handler, set: (f) => (ctl.handler = f) });
      this.addEventListener('message', (e) => {
        const reply = e.data && e.data.type !== 'progress' ? types.get(e.data.id) : undefined;
        if (ctl.from && reply === ctl.from) {
          ctl.from = null;
          ctl.held = [];
        }
        if (ctl.held) ctl.held.push(e);
        else if (ctl.handler) ctl.handler(e);
      });
      const post = this.postMessage.bind(this);
      this.postMessage = (msg, ...r) => {
        if (msg && msg.type) {
          types.set(msg.id, msg.type);
          ctl.posted.push(msg.type);
        }
        return post(msg, ...r);
      };
    }
  };
  ctl.hold = (type) => (ctl.from = type);
  ctl.release = async () => {
    ctl.from = null;
    while (ctl.held && ctl.held.length) {
      ctl.handler(ctl.held.shift());
      await new Promise((r) => setTimeout(r, 0)); // the next reply in a task of its own
    }
    ctl.held = null;
  };
}

async function heldPage(hash) {
  const context = await h.browser.newContext({ viewport: { width: 1360, height: 900 } });
  await context.addInitScript(holdReplies);
  const page = await openPage(hash, { context });
  page.on('close', () => context.close().catch(() => {}));
  await waitRenders(page, 'train', 0);
  // every value data-rendered-run takes from now on, in order
  await page.evaluate(() => {
    const el = document.querySelector('#view-train');
    window.__renderedRuns = [];
    new MutationObserver(() => window.__renderedRuns.push(el.dataset.renderedRun)).observe(el, { attributes: true, attributeFilter: ['data-rendered-run'] });
  });
  return page;
}
const posted = (page, type) => page.evaluate((t) => window.__replies.posted.filter((x) => x === t).length, type);
const waitPosted = (page, type, above) => page.waitForFunction(([t, n]) => window.__replies.posted.filter((x) => x === t).length > n, [type, above], { timeout: 10000 });
const rendered = (page) => page.$eval('#view-train', (el) => el.dataset.renderedRun);

// the default encoding (learned) shows the sinusoidal panel, which render() awaits
await test('a setting typed while the previous run is still being drawn: each render names its own run', async () => {
  const page = await heldPage('#view=train&enc=char');
  const n0 = await posted(page, 'trainStart');
  const p0 = await posted(page, 'positions');
  await page.evaluate(() => window.__replies.hold('positions')); // SGD's render waits for its panel
  await page.selectOption('#f-opt', 'sgd');
  await waitPosted(page, 'positions', p0);
  await typeInto(page, 'f-lr', '1000000'); // typed while that render waits
  await waitPosted(page, 'trainStart', n0 + 1);
  assert((await rendered(page)) === 'adam 0.01', `rendered ${await rendered(page)} before the held replies came`);
  await page.evaluate(() => window.__replies.release());
  await page.waitForFunction(() => document.querySelector('#view-train').dataset.renderedRun === 'sgd 1000000', null, { timeout: 20000 });
  const runs = await page.evaluate(() => window.__renderedRuns);
  assert(JSON.stringify(runs) === JSON.stringify(['sgd 0.01', 'sgd 1000000']), `renders named ${JSON.stringify(runs)}`);
  await page.close();
});

await test('Play pressed before the new run (SGD at lr 1e6) is drawn: its slice is not replayed as the link\'s step; Play on it ends in the divergence message, which stays', async () => {
  const page = await heldPage('#view=train&enc=char&opt=sgd');
  assert((await rendered(page)) === 'sgd 0.01', `first render ${await rendered(page)}`);
  const n0 = await posted(page, 'trainStart');
  await page.evaluate(() => window.__replies.hold('trainStart')); // the new run's reply waits
  await typeInto(page, 'f-lr', '1000000');
  await waitPosted(page, 'trainStart', n0);
  await page.click('#train-play'); // the page still shows lr 0.01; the worker steps the new run
  await waitPosted(page, 'trainStep', 0);
  await page.evaluate(() => window.__replies.release());
  await page.waitForFunction(() => document.querySelector('#view-train').dataset.renderedRun === 'sgd 1000000', null, { timeout: 20000 });
  await workerStep(page); // every reply sent before it has landed: the slice, the render's panel
  const gap = await page.$eval('#view-train', (el) => ({ replayed: el.dataset.replayed, steps: Number(el.dataset.steps) }));
  const gapMessage = await page.textContent('#train-message');
  // the new render stops Play (a new run starts paused); the slice's steps are the new run's
  assert(gap.steps > 0 && gap.replayed === undefined && !/^Replayed/.test(gapMessage), `after the slice of the gap: step ${gap.steps}, replayed ${gap.replayed}, message "${gapMessage}"`);
  assert((await page.textContent('#train-play')) === '▶ Play', 'the new run is playing');
  // Play on the drawn run: it diverges (or, diverged in that slice already, fails again at once)
  await page.click('#train-play');
  await page.waitForFunction(() => document.querySelector('#train-play').textContent === '▶ Play' && /loss became/.test(document.querySelector('#train-message').textContent), null, { timeout: 20000 });
  await workerStep(page);
  const m = await page.textContent('#train-message');
  assert(/^train: loss became (nan|inf) at step \d+ with learning rate 1e\+06/.test(m), `message: ${m}`);
  await page.close();
});

await test('no console errors and no requests to other origins', async () => {
  assert(consoleErrors.length === 0, `console errors: ${consoleErrors.join(' | ')}`);
  assert(foreignRequests.length === 0, `foreign requests: ${foreignRequests.join(' ')}`);
});

await h.finish();
