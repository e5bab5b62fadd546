// Shared setup of the browser tests (page.test.mjs, limits.test.mjs): serves the built site
// with scripts/static-server.mjs on 127.0.0.1, launches Debian's headless Chromium through
// playwright-core, collects console errors and requests to other origins, and runs named
// tests that print one line each and a summary.
//
// Intended usage:
//   const h = await startHarness('page tests');         // parses --site DIR --shots DIR
//   await h.test('the page loads', async () => { const page = await h.openPage('#view=table'); ... });
//   await h.finish();                                     // closes everything, prints the summary, exits 1 on failure
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/static-server.mjs';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function assert(cond, message) {
  if (!cond) throw new Error(message);
}

// In the page: pixel statistics of a canvas -> {w, h, variance, colors, hash}
export function canvasStats(el) {
  const ctx = el.getContext('2d');
  const { data } = ctx.getImageData(0, 0, el.width, el.height);
  let sum = 0;
  let sq = 0;
  const colors = new Set();
  let h = 0x811c9dc5;
  const n = data.length / 4;
  for (let i = 0; i < data.length; i += 4) {
    const y = 0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2];
    sum += y;
    sq += y * y;
    if (colors.size < 5000) colors.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    h = Math.imul(h ^ data[i] ^ (data[i + 1] << 8) ^ (data[i + 2] << 16), 0x01000193) >>> 0;
  }
  return { w: el.width, h: el.height, variance: sq / n - (sum / n) ** 2, colors: colors.size, hash: h };
}

// Pixel statistics of an element as the screen shows it (a WebGL canvas cannot be read back
// without preserveDrawingBuffer): the element's screenshot decoded in the page ->
// {w, h, variance, colors, hues: pixels per 30-degree hue bucket among saturated pixels, saturated}
export async function screenshotStats(page, selector) {
  const png = await page.locator(selector).screenshot();
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    [c.width, c.height] = [img.width, img.height];
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const { data } = ctx.getImageData(0, 0, c.width, c.height);
    let sum = 0;
    let sq = 0;
    let saturated = 0;
    const colors = new Set();
    const hues = new Array(12).fill(0);
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
      const y = 0.299 * r + 0.587 * g + 0.114 * b;
      sum += y;
      sq += y * y;
      if (colors.size < 5000) colors.add((r << 16) | (g << 8) | b);
      const max = Math.max(r, g, b);
      const min = Math.min(r, g, b);
      if (max - min < 60) continue; // greys, and colours too faint to name
      saturated++;
      let h = max === r ? (g - b) / (max - min) : max === g ? 2 + (b - r) / (max - min) : 4 + (r - g) / (max - min);
      h = ((h * 60) + 360) % 360;
      hues[Math.floor(h / 30) % 12]++;
    }
    const n = data.length / 4;
    return { w: c.width, h: c.height, variance: sq / n - (sum / n) ** 2, colors: colors.size, hues, saturated };
  }, png.toString('base64'));
}

export const renders = (page, view) => page.$eval(`#view-${view}`, (el) => Number(el.dataset.renders || 0));

// Waits n animation frames of `page` (a page, or a frame of one). A change of size is seen by a
// ResizeObserver in one frame and drawn in the next (web/src/plots/frame.js), so after a resize,
// scroll or theme change, three frames leave the plots drawn: a wait on the page's rendering,
// not on a clock.
export const animationFrames = (page, n = 3) => page.evaluate((k) => new Promise((r) => {
  const f = () => (--k > 0 ? requestAnimationFrame(f) : r());
  requestAnimationFrame(f);
}), n);

export async function waitRenders(page, view, above, timeout = 15000) {
  await page.waitForFunction(([v, n]) => Number(document.querySelector(`#view-${v}`).dataset.renders || 0) > n, [view, above], { timeout });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

// The training worker's step count, read from a neighbours query (#nn-form, a query the table
// knows): the worker answers requests in the order they were sent, so the reply comes after any
// training slice already sent, and its "at step N" is the worker's own count (a query that is not
// a token of the table is answered too, in order: the next candidate is tried). Two calls with no
// step between them prove a paused run did not step, without waiting a fixed time.
export async function workerStep(page, query = 'the') {
  for (const q of [query, 'the', 'e', 'a']) {
    await page.$eval('#nn-note', (el) => (el.textContent = ''));
    await page.fill('#nn-query', q);
    await page.click('#nn-form button');
    await page.waitForFunction(() => document.querySelector('#nn-note').textContent.length > 0, null, { timeout: 30000 });
    const note = await page.textContent('#nn-note');
    const m = /at step (\d+)/.exec(note);
    if (m) return Number(m[1]);
    if (!/is not a token of this table/.test(note)) throw new Error(`workerStep: neighbours of ${JSON.stringify(q)} gave "${note}"`);
  }
  throw new Error(`workerStep: none of the queries is a token of the table`);
}

export async function typeInto(page, id, text) {
  await page.fill(`#${id}`, text);
  await page.press(`#${id}`, 'Enter');
}

// The text under a field of the settings panel ('' when none).
export const fieldError = (page, key) => page.textContent(`.field[data-key="${key}"] .field-error`);

// Waits until a field shows a message and returns it.
export async function waitFieldError(page, key, timeout = 10000) {
  await page.waitForFunction((k) => document.querySelector(`.field[data-key="${k}"] .field-error`).textContent.length > 0, key, { timeout });
  return fieldError(page, key);
}

// name: printed in the summary line ("page tests: 3 passed, 0 failed").
export async function startHarness(name) {
  const argv = process.argv.slice(2);
  const arg = (flag, def) => (argv.includes(flag) ? path.resolve(argv[argv.indexOf(flag) + 1]) : path.join(repo, def));
  const site = arg('--site', 'build/web');
  const shots = arg('--shots', 'build/screenshots');
  if (!fs.existsSync(path.join(site, 'index.html'))) {
    console.error(`${name}: ${site}/index.html not found\n---> HINT: node scripts/build-web.mjs --out ${site}`);
    process.exit(2);
  }
  fs.mkdirSync(shots, { recursive: true });
  const t0 = Date.now();
  const httpServer = await serve(site, 0);
  const url = `http://127.0.0.1:${httpServer.address().port}/`;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const results = [];
  const consoleErrors = [];
  const foreignRequests = [];

  // Console errors, page errors and requests to other origins of `page` go to consoleErrors
  // and foreignRequests (every test file ends by checking both are empty).
  function watch(page) {
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
    page.on('request', (r) => {
      if (!r.url().startsWith(url) && !r.url().startsWith('data:')) foreignRequests.push(r.url());
    });
    return page;
  }

  // A watched page in its own browser context (no cache, nothing stored) at `viewport`; closing
  // the page closes its context. Not navigated yet.
  async function contextPage(viewport) {
    const context = await browser.newContext({ viewport });
    const page = watch(await context.newPage());
    page.on('close', () => context.close().catch(() => {}));
    return page;
  }

  // A page in a fresh browser context (nothing stored), or in `context` (a test's own
  // browser.newContext(), to share IndexedDB between tabs). webgl2: false fakes a browser
  // without WebGL2 (getContext('webgl2') returns null), for the canvas fallbacks; offscreen: false
  // one that cannot hand a canvas to a worker (no transferControlToOffscreen: the point map's
  // main-thread fallback). query: the page URL's query string ('?scatter=webgl2').
  async function openPage(hash = '', { context = null, webgl2 = true, offscreen = true, query = '' } = {}) {
    const viewport = { width: 1360, height: 900 };
    const page = context ? await context.newPage() : await browser.newPage({ viewport });
    if (context) await page.setViewportSize(viewport);
    if (!webgl2) {
      await page.addInitScript(() => {
        const get = HTMLCanvasElement.prototype.getContext;
        HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
          return type === 'webgl2' ? null : get.call(this, type, ...rest);
        };
      });
    }
    if (!offscreen) await page.addInitScript(() => delete HTMLCanvasElement.prototype.transferControlToOffscreen);
    watch(page);
    await page.goto(`${url}index.html${query}${hash}`);
    await page.waitForSelector('body[data-engine="ready"]', { timeout: 15000 });
    return page;
  }

  async function test(title, fn) {
    const t = Date.now();
    try {
      await fn();
      results.push({ title, ok: true });
      console.log(`ok   ${title} (${Date.now() - t} ms)`);
    } catch (err) {
      results.push({ title, ok: false });
      console.log(`FAIL ${title}: ${err.message.split('\n')[0]}`);
    }
  }

  async function finish() {
    await browser.close();
    await new Promise((r) => httpServer.close(r));
    const failed = results.filter((r) => !r.ok).length;
    console.log(`${name}: ${results.length - failed} passed, ${failed} failed (${((Date.now() - t0) / 1000).toFixed(1)} s, screenshots in ${path.relative(repo, shots)})`);
    process.exit(failed ? 1 : 0);
  }

  return { site, shots, url, browser, openPage, contextPage, test, finish, consoleErrors, foreignRequests, shot: (file) => path.join(shots, file) };
}
