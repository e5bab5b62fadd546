// Browser test of docs.html: the page loads the engine on the main thread under the site's CSP,
// shows every example's source, and clicking every Run prints non-empty output with no error;
// the output of a seed-notebook example carries the torch numbers; no console errors, no
// request to another origin. Screenshot: docs.png (look at it).
//   node tests/browser/docs.test.mjs [--site build/web] [--shots build/screenshots]
import { assert, startHarness } from './harness.mjs';

const h = await startHarness('docs tests');
const { test, consoleErrors, foreignRequests, shot } = h;

const page = await h.browser.newPage({ viewport: { width: 1200, height: 900 } });
page.on('console', (m) => {
  if (m.type() === 'error') consoleErrors.push(m.text());
});
page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
page.on('request', (r) => {
  if (!r.url().startsWith(h.url) && !r.url().startsWith('data:')) foreignRequests.push(r.url());
});

await test('docs.html loads the engine and lists every example with its source', async () => {
  await page.goto(`${h.url}docs.html`);
  await page.waitForSelector('#engine-status.ok', { timeout: 15000 });
  const names = await page.$$eval('[data-example]', (els) => els.map((e) => e.getAttribute('data-example')));
  assert(names.length === 8, `expected 8 examples, found ${names.join(' ')}`);
  const sources = await page.$$eval('[data-example] pre.code', (els) => els.map((e) => e.textContent || ''));
  assert(sources.every((s) => /^function \w+\(M, io\)/.test(s)), `a source is not its function: ${sources.map((s) => s.slice(0, 30)).join(' | ')}`);
});

await test('every Run button prints output and no error', async () => {
  for (const b of await page.$$('[data-example] button.run')) await b.click();
  const outs = await page.$$eval('[data-example] pre.output', (els) => els.map((e) => ({ text: e.textContent || '', failed: e.classList.contains('failed') })));
  outs.forEach((o, i) => {
    assert(o.text.trim().length > 0, `example ${i} printed nothing`);
    assert(!o.failed, `example ${i} failed: ${o.text}`);
  });
  const lookup = await page.textContent('#lookup pre.output');
  assert(lookup.includes('0.3223 -1.2633 0.3500 0.3081'), `lookup output: ${lookup}`);
  assert(lookup.includes('lookup: token id 10 out of range [0, 10)'), `lookup output: ${lookup}`);
  const windows = await page.textContent('#bpe-windows pre.output');
  assert(windows.includes('1286 samples, 321 batches of 4, ids in them: 5136'), `windows output: ${windows}`);
  await page.screenshot({ path: shot('docs.png'), fullPage: false });
  await page.locator('#tables').screenshot({ path: shot('docs-tables.png') });
});

await test('no console errors, no request to another origin', async () => {
  assert(consoleErrors.length === 0, `console errors: ${consoleErrors.join(' | ')}`);
  assert(foreignRequests.length === 0, `foreign requests: ${foreignRequests.join(' ')}`);
});

await h.finish();
