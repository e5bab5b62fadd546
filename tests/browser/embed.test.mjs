// Embedding a card (views/embed.js): every card has an Embed button whose snippets name the card
// (iframe with embed=1&card=…, and the <embedlab-view> element for the positions view's encoding
// cards); in embed mode the page shows only that card; in an iframe it posts its height and the
// host page's one-line listener sizes the iframe to the content.
//   node tests/browser/embed.test.mjs [--site build/web] [--shots build/screenshots]
import { assert, startHarness, waitRenders } from './harness.mjs';

const h = await startHarness('embed tests');
const { test, openPage, consoleErrors, foreignRequests, shot } = h;

await test('every card of the positions view has an Embed button; its snippets name the card', async () => {
  const page = await openPage('#view=positions&T=64&pd=32&seed=7');
  await waitRenders(page, 'positions', 0, 30000);
  const counts = await page.$$eval('#view-positions article.card', (cards) => cards.filter((c) => c.offsetParent !== null)
    .map((c) => c.querySelectorAll('.embed-button').length));
  assert(counts.length >= 4 && counts.every((n) => n === 1), `Embed buttons per visible card: ${counts.join(' ')}`);
  await page.click('#view-positions article.card[data-kind="sinusoidal"] .embed-button');
  const snippets = await page.$$eval('#view-positions article.card[data-kind="sinusoidal"] .embed-snippets textarea', (as) => as.map((a) => a.value));
  assert(snippets.length === 2, `${snippets.length} snippets`);
  assert(/<iframe src="http:\/\/127\.0\.0\.1:\d+\/index\.html#[^"]*view=positions[^"]*&amp;embed=1&amp;card=sinusoidal"/.test(snippets[0]) && snippets[0].includes("embedlab==='height'"), `iframe snippet: ${snippets[0]}`);
  assert(snippets[1].includes('embedlab-element.js') && snippets[1].includes('card="sinusoidal"') && snippets[1].includes('seed="7"'), `element snippet: ${snippets[1]}`);
  await page.locator('#view-positions article.card[data-kind="sinusoidal"]').screenshot({ path: shot('embed-snippets.png') });
  console.log(`     (${counts.length} cards; ${snippets[0].split('\n')[0].slice(0, 120)}…)`);
  await page.close();
});

await test('an iframe of one card: only that card, and the host listener sizes the iframe to it', async () => {
  const page = await h.browser.newPage({ viewport: { width: 1000, height: 800 } });
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  await page.goto(`${h.url}article-iframe.html#view=positions&T=64&pd=32&embed=1&card=sinusoidal`);
  const frame = page.frameLocator('#embedded');
  await frame.locator('body[data-engine="ready"]').waitFor({ timeout: 20000 });
  const inner = page.frames().find((f) => f.url().includes('index.html'));
  await inner.waitForFunction(() => Number(document.querySelector('#view-positions').dataset.renders || 0) > 0, null, { timeout: 30000 });
  const shown = await inner.$$eval('main article.card', (cards) => cards.filter((c) => getComputedStyle(c).display !== 'none').map((c) => c.dataset.kind || c.id || c.querySelector('h3')?.textContent));
  assert(shown.length === 1 && shown[0] === 'sinusoidal', `cards shown: ${shown.join(', ')}`);
  // the iframe's height follows the content (the page posts it; the host's listener sets it)
  await page.waitForFunction(() => document.getElementById('embedded').style.height !== '', null, { timeout: 10000 });
  await page.waitForTimeout(500);
  const frameH = await page.$eval('#embedded', (f) => f.getBoundingClientRect().height);
  const contentH = await inner.evaluate(() => Math.ceil(document.querySelector('main').getBoundingClientRect().bottom + window.scrollY));
  const scrolls = await inner.evaluate(() => document.documentElement.scrollHeight > window.innerHeight + 1);
  assert(Math.abs(frameH - contentH) <= 24 && !scrolls, `iframe ${frameH} px, content ${contentH} px, scrolls inside: ${scrolls}`);
  await page.screenshot({ path: shot('embed-iframe.png'), fullPage: true });
  console.log(`     (iframe ${frameH} px for ${contentH} px of content; cards shown: ${shown.join(', ')})`);
  await page.close();
});

await test('no console errors and no requests to other origins', async () => {
  assert(consoleErrors.length === 0, consoleErrors.join('\n'));
  assert(foreignRequests.length === 0, foreignRequests.join('\n'));
});

await h.finish();
