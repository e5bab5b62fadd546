// Browser test of the positions view's card "RoPE past its training length"
// (views/rope-scalings-card.js, handlers/rope-scalings-handler.js), in headless Chromium:
//   - the card lists every rotation kind of the engine's registry, with its one-line help, and
//     draws its three charts (wavelengths, frequency ratio to RoPE, q·k against m − n);
//   - the ratio data show YaRN's ramp (pairs strictly between 1/factor and 1) and PI's pairs all
//     at 1/factor, as the engine computes them (M.positionTable in Node);
//   - the q·k chart's mark at T, also in its SVG download;
//   - a URL parameter of a kind (rope-pi.factor=4) changes that kind's data;
//   - D = 2 (below rope-ntk's D >= 4): the message on the width field, the other kinds drawn;
//     an odd D: the message on the width field, the last good plots kept;
//   - embed mode (card=rope-scalings) shows the card alone;
//   - no console errors, nothing from other origins.
//   node tests/browser/rope-scalings.test.mjs [--site build/web] [--shots build/screenshots]
// Screenshots: rope-scalings-1280.png, rope-scalings-375.png (the card), rope-scalings-d2.png (D = 2).
import fs from 'node:fs';
import path from 'node:path';
import { assert, canvasStats, startHarness, waitFieldError, waitRenders } from './harness.mjs';
import { loadEngine } from '../js/load-engine.mjs';

const siteArg = process.argv.includes('--site') ? process.argv[process.argv.indexOf('--site') + 1] : 'build/web';
const M = await loadEngine(path.resolve(siteArg));
const rotation = M.positionalKinds().filter((k) => k.provides === 'rotation');

const h = await startHarness('rope-scalings tests');
const { test, openPage, consoleErrors, foreignRequests, shot } = h;
const CARD = '#view-positions .rope-scalings';

// waits until the card has rendered more than `above` times -> its dataset, help lines and canvases' stats
async function readCard(page, above = 0) {
  await page.waitForFunction(([sel, n]) => Number((document.querySelector(sel) || { dataset: {} }).dataset.renders || 0) > n, [CARD, above], { timeout: 20000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.$eval(CARD, (c, fn) => ({
    data: { ...c.dataset },
    help: [...c.querySelectorAll('.rope-scalings-help li')].map((li) => [li.dataset.kind, li.textContent]),
    canvases: [...c.querySelectorAll('canvas')].map((el) => new Function(`return (${fn})`)()(el)),
    captions: [...c.querySelectorAll('.caption')].map((p) => p.textContent),
    error: c.querySelector('.rope-scalings-error').hidden ? '' : c.querySelector('.rope-scalings-error').textContent,
  }), canvasStats.toString());
}

let first;

await test('the card shows every rotation kind of the registry with its help line and three drawn charts', async () => {
  const page = await openPage('#view=positions');
  await waitRenders(page, 'positions', 0);
  const c = (first = await readCard(page));
  assert(c.data.kinds === rotation.map((k) => k.name).join(','), `kinds ${c.data.kinds}`);
  assert(JSON.stringify(c.help.map(([k]) => k)) === JSON.stringify(rotation.map((k) => k.name)), `help ${c.help}`);
  for (const k of rotation) assert(c.help.some(([n, text]) => n === k.name && text.endsWith(k.description)), `no help line for ${k.name}`);
  assert(c.canvases.length >= 3 && c.canvases.every((s) => s.variance > 10 && s.colors > 8), `charts ${JSON.stringify(c.canvases)}`);
  // the order of the parts: after the RoPE demo
  const after = await page.$eval(CARD, (el) => el.previousElementSibling && el.previousElementSibling.classList.contains('rope-demo'));
  assert(after, 'the card is not right after the RoPE demo');
  assert(/have a wavelength longer than T = 32/.test(c.captions[0]), c.captions[0]);
  await page.locator(CARD).screenshot({ path: shot('rope-scalings-1280.png') });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r)))));
  await page.locator(CARD).screenshot({ path: shot('rope-scalings-375.png') });
  const overflow = await page.$eval(CARD, (el) => el.scrollWidth - el.clientWidth);
  assert(overflow <= 1, `the card overflows at 375 px by ${overflow} px`);
  await page.setViewportSize({ width: 1360, height: 900 });
  // the q·k chart's mark at T is in its SVG download too (line-figure.js), and drawn on the page
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`${CARD} [data-part="qk"] .plot-export-svg`)]);
  const svg = fs.readFileSync(await download.path(), 'utf8');
  assert(svg.includes('>T = 32<'), 'the SVG of q·k has no "T = 32" mark');
  assert(/stroke-dasharray="5(,| )4"/.test(svg), 'the SVG of q·k has no dashed mark');
  await page.close();
});

await test("the ratio data show YaRN's ramp and PI's pairs all at 1/factor, the engine's frequencies", async () => {
  const ratios = JSON.parse(first.data.ratios);
  const params = JSON.parse(first.data.params);
  const D = Number(first.data.D);
  const plain = M.positionTable('rope', { positions: 1, dim: D }).invFreq;
  for (const k of rotation) {
    const want = Array.from(M.positionTable(k.name, { positions: 1, dim: D, params: params[k.name] }).invFreq, (w, i) => w / plain[i]);
    assert(ratios[k.name].every((r, i) => Math.abs(r - want[i]) < 1e-12), `${k.name}: ${ratios[k.name]} vs ${want}`);
  }
  const yarn = ratios['rope-yarn'];
  const f = params['rope-yarn'].factor;
  assert(yarn.some((r) => r > 1 / f + 1e-9 && r < 1 - 1e-9), `no YaRN pair on the ramp: ${yarn}`);
  assert(JSON.parse(first.data.ramp)['rope-yarn'] > 0, first.data.ramp);
  const pi = ratios['rope-pi'];
  assert(pi.every((r) => Math.abs(r - 1 / params['rope-pi'].factor) < 1e-12), `PI: ${pi}`);
  assert(JSON.parse(first.data.interpolated)['rope-pi'] === D / 2, first.data.interpolated);
  assert(JSON.parse(first.data.unrotated)['rope-partial'] > 0, first.data.unrotated);
  assert(JSON.parse(first.data.attentionScales)['rope-yarn'] === (0.1 * Math.log(f) + 1) ** 2, first.data.attentionScales);
});

await test("rope-pi.factor=4 in the URL changes PI's data (and only PI's)", async () => {
  const page = await openPage('#view=positions&rope-pi.factor=4');
  await waitRenders(page, 'positions', 0);
  const c = await readCard(page);
  const [a, b] = [JSON.parse(first.data.ratios), JSON.parse(c.data.ratios)];
  assert(JSON.parse(c.data.params)['rope-pi'].factor === 4, c.data.params);
  assert(b['rope-pi'].every((r) => Math.abs(r - 0.25) < 1e-12), `PI at factor 4: ${b['rope-pi']}`);
  assert(JSON.stringify(b['rope-yarn']) === JSON.stringify(a['rope-yarn']), 'YaRN changed with PI\'s factor');
  assert(/factor 4/.test(c.captions[1]), c.captions[1]);
  await page.close();
});

await test('D = 2: rope-ntk refused on the width field, the other kinds drawn; an odd D: the message on the field, the last plots kept', async () => {
  const page = await openPage('#view=positions');
  await waitRenders(page, 'positions', 0);
  const before = await readCard(page);
  const renders = Number(await page.$eval('#view-positions', (el) => el.dataset.renders));
  await page.fill('#f-pd', '2');
  await page.press('#f-pd', 'Enter');
  const c = await readCard(page, Number(before.data.renders));
  const msg = await waitFieldError(page, 'pd');
  assert(/rope-ntk: dim must be at least 4/.test(msg), `pd field: ${msg}`);
  assert(c.data.failed === 'rope-ntk' && c.data.kinds === rotation.filter((k) => k.name !== 'rope-ntk').map((k) => k.name).join(','), `kinds ${c.data.kinds}, failed ${c.data.failed}`);
  assert(/rope-ntk: dim must be at least 4/.test(c.error), `card: ${c.error}`);
  assert(c.canvases.every((s) => s.variance > 10), 'a chart is blank at D = 2');
  assert(Number(await page.$eval('#view-positions', (el) => el.dataset.renders)) > renders, 'the view did not draw at D = 2');
  await page.locator(CARD).screenshot({ path: shot('rope-scalings-d2.png') });

  await page.fill('#f-pd', '7');
  await page.press('#f-pd', 'Enter');
  await page.waitForFunction(() => /even/.test(document.querySelector('.field[data-key="pd"] .field-error').textContent), null, { timeout: 20000 });
  const odd = await page.textContent('.field[data-key="pd"] .field-error');
  assert(/7/.test(odd), `pd field: ${odd}`);
  const kept = await page.$eval(CARD, (el, fn) => ({ renders: el.dataset.renders, D: el.dataset.D, canvases: [...el.querySelectorAll('canvas')].map((x) => new Function(`return (${fn})`)()(x)) }), canvasStats.toString());
  assert(kept.renders === c.data.renders && kept.D === '2', `the card changed at an odd D: ${JSON.stringify(kept.renders)}`);
  assert(kept.canvases.every((s) => s.variance > 10), 'the kept charts are blank');
  assert(await page.isVisible('#view-positions .rope-demo canvas'), 'the RoPE demo is gone');
  await page.close();
});

await test('embedded alone (#view=positions&embed=1&card=rope-scalings): the card draws, the RoPE demo is not shown', async () => {
  const page = await openPage('#view=positions&embed=1&card=rope-scalings');
  const c = await readCard(page);
  assert(c.data.kinds === rotation.map((k) => k.name).join(','), `kinds ${c.data.kinds}`);
  assert(await page.isVisible(CARD), 'the card is hidden');
  assert(!(await page.isVisible('#view-positions .rope-demo')), 'the RoPE demo shows in embed mode');
  await page.close();
});

await test('no console errors and nothing loaded from other origins', async () => {
  assert(consoleErrors.length === 0, `console errors: ${consoleErrors.slice(0, 3).join(' | ')}`);
  assert(foreignRequests.length === 0, `foreign requests: ${foreignRequests.slice(0, 3).join(' | ')}`);
});

await h.finish();
