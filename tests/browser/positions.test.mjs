// Browser tests of the positions view's additions and of long engine jobs (issue 9, part
// "positions view and long engine jobs"), in Debian's headless Chromium through playwright-core:
//   - one attention-bias panel per kind of the engine's registry that provides a bias:
//     per-head bias heatmaps, bias against distance, the slopes of linear kinds, the lesson;
//   - RoPE on a real pair q, k: q·k against m − n at offsets 0, 100, 1000, curves coincide,
//     the caption gives the measured difference;
//   - long jobs show progress and can be cancelled, leaving the last good plot: the positions
//     view at T = 8192 and the BPE tokenizer build on a 5.6 MB text.
//   node tests/browser/positions.test.mjs [--site build/web] [--shots build/screenshots]
// Screenshots at 1280 and 375 px wide: positions-*.png, bpe-cancel-*.png in the shots folder.
import fs from 'node:fs';
import path from 'node:path';
import { assert, canvasStats, renders, repo, startHarness, typeInto, waitRenders } from './harness.mjs';
import { loadEngine } from '../js/load-engine.mjs';

// The engine the page loads, for the expected numbers.
const siteArg = process.argv.includes('--site') ? process.argv[process.argv.indexOf('--site') + 1] : 'build/web';
const M = await loadEngine(path.resolve(siteArg));
const biasKinds = M.positionalKinds().filter((k) => k.provides === 'bias');

const h = await startHarness('positions tests');
const { test, openPage, consoleErrors, foreignRequests, shot } = h;

const stats = (page, selector) => page.$$eval(selector, (els, fn) => els.map((el) => new Function(`return (${fn})`)()(el)), canvasStats.toString());
// Waits n animation frames (a resize is observed in one frame and drawn in the next).
const frames = (page, n = 3) => page.evaluate((k) => new Promise((r) => {
  const f = () => (--k > 0 ? requestAnimationFrame(f) : r());
  requestAnimationFrame(f);
}), n);

// Records what the page's worker posts from now on: [{id, type, cancelled}] in self.__sent.
async function recordWorkerReplies(page) {
  const worker = page.workers().find((w) => /\/worker\.js$/.test(new URL(w.url()).pathname));
  assert(worker, `no worker.js among ${page.workers().map((w) => w.url()).join(', ')}`);
  await worker.evaluate(() => {
    self.__sent = [];
    const post = self.postMessage.bind(self);
    self.postMessage = (m, t) => (self.__sent.push({ id: m.id, type: m.type || 'reply', cancelled: m.cancelled === true }), post(m, t));
  });
  return () => worker.evaluate(() => self.__sent);
}

// the page's number format (web/src/plots/scales.js formatNumber)
function formatNumber(v) {
  if (!Number.isFinite(v)) return String(v);
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e5 || a < 1e-3) return v.toExponential(3);
  return Number(v.toPrecision(4)).toString();
}

let page;

await test('an attention-bias panel per bias kind of the registry: 8 per-head heatmaps, bias against distance, slopes of linear kinds', async () => {
  assert(biasKinds.length >= 1, 'the registry has no bias kind');
  page = await openPage('#view=positions');
  await waitRenders(page, 'positions', 0);
  for (const kind of biasKinds) {
    const panel = `#view-positions .bias-panel[data-kind="${kind.name}"]`;
    await page.waitForSelector(panel, { timeout: 5000 });
    const title = await page.textContent(`${panel} h3`);
    assert(title.includes(kind.label), `panel title "${title}" lacks the kind's label "${kind.label}"`);
    assert((await page.textContent(`${panel} .explain`)) === kind.description, 'the panel does not show the kind\'s description');
    const heads = await stats(page, `${panel} .bias-grid .heatmap-canvas`);
    assert(heads.length === 8, `${heads.length} head heatmaps, expected 8`);
    heads.forEach((s, i) => assert(s.variance > 20 && s.colors > 8, `${kind.name} head ${i + 1} heatmap looks blank (variance ${s.variance.toFixed(1)})`));
    const [chart] = await stats(page, `${panel} .line-chart canvas`);
    assert(chart && chart.variance > 5, `${kind.name}: the bias-against-distance chart is blank`);
    // the engine's (8, 32, 32) bias: linear in the distance -> slopes -bias[h, 1, 0] in a table
    const { data } = M.positionTable(kind.name, { positions: 32, heads: 8, seed: 123 });
    const slope = (hd) => -data[hd * 32 * 32 + 32];
    let linear = true;
    for (let hd = 0; hd < 8; hd++) {
      for (let i = 0; i < 32; i++) for (let j = 0; j <= i; j++) if (Math.abs(data[hd * 1024 + i * 32 + j] + slope(hd) * (i - j)) > 1e-5 * Math.max(1, slope(hd) * 32)) linear = false;
    }
    const cells = await page.$$eval(`${panel} .slopes-table tbody td`, (tds) => tds.map((td) => td.textContent));
    const lesson = await page.textContent(`${panel} .bias-lesson`);
    if (linear) {
      const want = Array.from({ length: 8 }, (_, hd) => formatNumber(slope(hd)));
      assert(cells.join(' ') === want.join(' '), `${kind.name} slopes shown "${cells.join(' ')}", engine "${want.join(' ')}"`);
      assert(/fixed penalty that grows with the distance/.test(lesson) && /Steeper heads look more locally/.test(lesson), `lesson: ${lesson}`);
      const titles = await page.$$eval(`${panel} .bias-head-title`, (els) => els.map((e) => e.textContent));
      assert(titles[0] === `head 1: slope ${want[0]}`, `head title "${titles[0]}"`);
    } else {
      assert(cells.length === 0, `${kind.name} is not linear in the distance but shows slopes`);
      assert(/Not linear in the distance/.test(lesson), `lesson: ${lesson}`);
    }
  }
  // ALiBi, the panel: H = 8 heads use 2^(-8h/H) = 1/2 ... 1/256
  if (biasKinds.some((k) => k.name === 'alibi')) {
    const cells = await page.$$eval('.bias-panel[data-kind="alibi"] .slopes-table tbody td', (tds) => tds.map((td) => td.textContent));
    assert(cells[0] === '0.5' && cells[7] === '0.003906', `ALiBi slopes ${cells.join(' ')}`);
  }
  const panel = await page.$(`.bias-panel[data-kind="${biasKinds[0].name}"]`);
  await panel.screenshot({ path: shot('positions-bias-1280.png') });
});

await test('RoPE on a real pair: q·k against m − n for keys at n = 0, 100, 1000 coincide; the caption gives the measured difference', async () => {
  await page.waitForSelector('#view-positions .rope-demo .line-chart canvas', { timeout: 5000 });
  const [chart] = await stats(page, '#view-positions .rope-demo .line-chart canvas');
  assert(chart.variance > 5 && chart.colors > 5, `the q·k chart looks blank (variance ${chart.variance.toFixed(1)})`);
  const legend = await page.$$eval('#view-positions .rope-demo .u-legend .u-series th', (ths) => ths.map((t) => t.textContent.trim()));
  for (const o of [0, 100, 1000]) assert(legend.some((t) => t === `key at n = ${o}`), `legend lacks offset ${o}: ${legend.join(' | ')}`);
  // the same computation in Node: manual_seed(123); q, k = nn.Embedding(2, 64) rows; RoPE by the engine
  M.manualSeed(123);
  const qk = M.learnedPositions(2, 64);
  const q = qk.subarray(0, 64);
  const k = qk.subarray(64);
  const Q = new Float32Array(128 * 64);
  for (let d = 0; d < 128; d++) Q.set(q, d * 64);
  const curves = [0, 100, 1000].map((o) => {
    const rq = M.ropeApply(Q, 128, 64, o);
    const rk = M.ropeApply(k, 1, 64, o);
    return Array.from({ length: 128 }, (_, d) => rq.subarray(d * 64, d * 64 + 64).reduce((s, v, c) => s + v * rk[c], 0));
  });
  let maxDiff = 0;
  let maxAbs = 0;
  for (let d = 0; d < 128; d++) {
    maxAbs = Math.max(maxAbs, Math.abs(curves[0][d]));
    for (const c of curves.slice(1)) maxDiff = Math.max(maxDiff, Math.abs(c[d] - curves[0][d]));
  }
  const caption = await page.textContent('#view-positions .rope-caption');
  assert(caption.includes(`changes q·k by at most ${formatNumber(maxDiff)}`), `caption "${caption}" lacks the measured ${formatNumber(maxDiff)}`);
  assert(caption.includes(`values reach ${formatNumber(maxAbs)}`), `caption lacks the scale ${formatNumber(maxAbs)}`);
  assert(/depends only on the distance m − n/.test(caption), caption);
  assert(maxDiff < 1e-4 * maxAbs, `offsets differ by ${maxDiff} (scale ${maxAbs})`);
  // the curve is not flat: q·k does change with the distance
  const spread = Math.max(...curves[0]) - Math.min(...curves[0]);
  assert(spread > 0.1 * maxAbs, `q·k barely changes with distance (${spread})`);
  const card = await page.$('#view-positions .rope-demo');
  await card.screenshot({ path: shot('positions-rope-1280.png') });
  await page.screenshot({ path: shot('positions-1280.png'), fullPage: true });
});

await test('the positions view at 375 px: bias heads two per row, charts fit the width', async () => {
  await page.setViewportSize({ width: 375, height: 800 });
  await frames(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert(overflow <= 1, `the page scrolls sideways by ${overflow} px`);
  const widths = await page.$$eval('#view-positions .rope-demo .line-chart canvas, #view-positions .bias-panel .line-chart canvas', (els) => els.map((c) => c.getBoundingClientRect().right));
  assert(widths.every((r) => r <= 375), `a chart ends at ${Math.max(...widths)} px`);
  const heads = await stats(page, `#view-positions .bias-panel .bias-grid .heatmap-canvas`);
  assert(heads.every((s) => s.variance > 20), 'a head heatmap is blank at 375 px');
  const cols = await page.$$eval('#view-positions .bias-panel:first-of-type .bias-head', (els) => new Set(els.map((e) => Math.round(e.getBoundingClientRect().left))).size);
  assert(cols === 2, `${cols} columns of head heatmaps at 375 px`);
  await page.screenshot({ path: shot('positions-375.png'), fullPage: true });
  await (await page.$('#view-positions .rope-demo')).screenshot({ path: shot('positions-rope-375.png') });
  const panel = await page.$(`.bias-panel[data-kind="${biasKinds[0].name}"]`);
  await panel.screenshot({ path: shot('positions-bias-375.png') });
  await page.setViewportSize({ width: 1280, height: 900 });
});

await test('T = 8192: the job shows progress and a Cancel button; Cancel stops it and keeps the last good plot; T = 64 is answered right after the cancelled reply', async () => {
  // the previous test resized the page: wait until the plots have been redrawn at this width
  const sizes = () => page.$$eval('#view-positions .cards3 .heatmap-canvas', (els) => els.map((e) => `${e.width}x${e.height}`).join());
  for (let last = '', now = await sizes(); now !== last; ) {
    await frames(page);
    [last, now] = [now, await sizes()];
  }
  const before = await stats(page, '#view-positions .cards3 .heatmap-canvas');
  const n = await renders(page, 'positions');
  const sent = await recordWorkerReplies(page);
  await typeInto(page, 'f-T', '8192');
  const box = '#view-positions .job-progress';
  await page.waitForSelector(`${box}[data-state="running"]`, { state: 'visible', timeout: 8000 });
  const note = await page.textContent(`${box} .job-note`);
  assert(/^distance check, \S+ \(\d of 3\): row \d+ of 8192$/.test(note), `progress note "${note}"`);
  await page.waitForFunction((sel) => document.querySelector(`${sel} progress`).value > 0.005, box, { timeout: 8000 });
  const frac = await page.$eval(`${box} progress`, (p) => p.value);
  await page.screenshot({ path: shot('positions-progress-1280.png'), fullPage: false });
  // (the main thread's long tasks and the cancel latency are measured by scripts/bench page)
  assert(await page.isVisible(`${box}[data-state="running"]`), 'the job ended before Cancel');
  await page.click(`${box} .job-cancel`);
  await page.waitForSelector(`${box}[data-state="cancelled"]`, { timeout: 30000 });
  const said = await page.textContent(`${box} .job-note`);
  assert(/^Cancelled at \d+ % after [\d.]+ s\. The plots show the last settings that finished/.test(said), `note after cancel: "${said}"`);
  assert((await renders(page, 'positions')) === n, 'the view rendered although the job was cancelled');
  const after = await stats(page, '#view-positions .cards3 .heatmap-canvas');
  assert(after.every((s, i) => s.hash === before[i].hash), `the last good plot changed: ${JSON.stringify(before.map((b, i) => [b.w, b.h, after[i].w, after[i].h]))}`);
  assert(/cancelled/.test(await page.textContent('#positions-stale')) && (await page.isVisible('#positions-stale')), 'no "cancelled: showing the last plot" badge');
  assert((await page.textContent('.field[data-key="T"] .field-error')) === '', 'a cancel is not an error of T');
  assert(await page.isHidden('#view-positions .plot-error'), 'a cancel shows an error box');
  await page.screenshot({ path: shot('positions-cancelled-1280.png'), fullPage: false });
  await page.setViewportSize({ width: 375, height: 800 });
  await (await page.$('#view-positions .plot-area')).screenshot({ path: shot('positions-cancelled-375.png'), clip: undefined });
  await page.setViewportSize({ width: 1280, height: 900 });
  // the worker really stopped: the 8192 job's last message is its cancelled reply, which comes
  // before the reply for T = 64 (the worker runs one request at a time)
  await typeInto(page, 'f-T', '64');
  await waitRenders(page, 'positions', n, 30000);
  const msgs = await sent();
  const jobId = msgs.find((m) => m.type === 'progress')?.id;
  const ofJob = msgs.map((m, i) => [m, i]).filter(([m]) => m.id === jobId);
  const [last, lastAt] = ofJob[ofJob.length - 1];
  const nextReply = msgs.findIndex((m, i) => i > lastAt && m.type === 'reply' && !m.cancelled);
  assert(last.type === 'reply' && last.cancelled, `the 8192 job's last message: ${JSON.stringify(last)}`);
  assert(nextReply > lastAt, `no reply after the cancelled job's: ${JSON.stringify(msgs.slice(-5))}`);
  console.log(`     progress ${(frac * 100).toFixed(1)} % when looked at; ${ofJob.length - 1} progress messages, then the cancelled reply, then T = 64`);
  assert(await page.isHidden(box), 'the progress box stays after a successful draw');
  assert(await page.isHidden('#positions-stale'), 'the stale badge stays after a successful draw');
  const checks = await page.$$eval('#view-positions .check-line', (els) => els.map((e) => e.textContent));
  assert(/^Depends only on m − n: yes/.test(checks[0]) && /^Depends only on m − n: no/.test(checks[1]), checks.join(' | '));
});

await test('a newer T cancels the running job: T = 8192 then T = 48 draws T = 48 without waiting for 8192', async () => {
  const n = await renders(page, 'positions');
  const sent = await recordWorkerReplies(page);
  await typeInto(page, 'f-T', '8192');
  await page.waitForSelector('#view-positions .job-progress[data-state="running"]', { state: 'visible', timeout: 8000 });
  await typeInto(page, 'f-T', '48');
  await waitRenders(page, 'positions', n, 30000);
  // the 8192 job was stopped, not waited for: its last message is a cancelled reply
  const msgs = await sent();
  const jobId = msgs.find((m) => m.type === 'progress')?.id;
  const last = msgs.filter((m) => m.id === jobId).pop();
  assert(jobId !== undefined && last.type === 'reply' && last.cancelled, `the 8192 job's messages: ${JSON.stringify(msgs.filter((m) => m.id === jobId).slice(-3))}`);
  const rows = await page.$eval('#view-positions', (el) => el.dataset.renders);
  assert(Number(rows) === n + 1, `rendered ${Number(rows) - n} times (the superseded 8192 job must not draw)`);
  assert(/T=48/.test(await page.evaluate(() => location.hash)), 'the link does not say T=48');
  await page.close();
});

await test('the BPE tokenizer build on a 5.6 MB text shows progress and can be cancelled; the last tokens stay', async () => {
  page = await openPage('#view=text&enc=bpe&bpeV=20000');
  await waitRenders(page, 'text', 0);
  const chipsBefore = await page.$$eval('#view-text .chip', (els) => els.slice(0, 20).map((e) => e.textContent));
  const statsBefore = await page.textContent('#text-stats');
  const n = await renders(page, 'text');
  const big = fs.readFileSync(path.join(repo, 'web/corpora/tinyshakespeare.txt')).toString('utf8').repeat(5);
  await page.setInputFiles('#custom-file', { name: 'shakespeare-x5.txt', mimeType: 'text/plain', buffer: Buffer.from(big) });
  const box = '#view-text .job-progress';
  await page.waitForSelector(`${box}[data-state="running"]`, { state: 'visible', timeout: 15000 });
  const note = await page.textContent(`${box} .job-note`);
  assert(/^training BPE: [\d,]+ of 20,000 ids$/.test(note), `progress note "${note}"`);
  await page.screenshot({ path: shot('bpe-progress-1280.png'), fullPage: false });
  await page.click(`${box} .job-cancel`);
  await page.waitForSelector(`${box}[data-state="cancelled"]`, { timeout: 5000 }).catch(async () => {
    const st = await page.$eval(box, (el) => `state "${el.dataset.state}", hidden ${el.hidden}, note "${el.textContent}"`);
    throw new Error(`no cancelled note 5 s after Cancel: ${st}; renders ${await renders(page, 'text')} (was ${n})`);
  });
  assert((await renders(page, 'text')) === n, 'the text view rendered although the build was cancelled');
  const chipsAfter = await page.$$eval('#view-text .chip', (els) => els.slice(0, 20).map((e) => e.textContent));
  assert(chipsAfter.join('|') === chipsBefore.join('|'), 'the last good token chips changed');
  assert((await page.textContent('#text-stats')) === statsBefore, 'the counts changed');
  assert((await page.textContent('.field[data-key="bpeV"] .field-error')) === '', 'a cancel is not an error of bpeV');
  await page.screenshot({ path: shot('bpe-cancel-1280.png'), fullPage: false });
  await page.setViewportSize({ width: 375, height: 800 });
  await frames(page);
  await (await page.$('#view-text')).screenshot({ path: shot('bpe-cancel-375.png') });
  await page.close();
});

await test('no console errors and nothing loaded from other origins', async () => {
  assert(consoleErrors.length === 0, `console errors: ${consoleErrors.slice(0, 3).join(' | ')}`);
  assert(foreignRequests.length === 0, `requests to other origins: ${foreignRequests.slice(0, 3).join(' ')}`);
});

await h.finish();
