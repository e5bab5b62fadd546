// Embedding a card (views/embed.js): every card has an Embed button whose snippets name the card
// (iframe with embed=1&card=…, and the <embedlab-view> element); its controls checkboxes update
// both snippets; in embed mode the page shows only that card (with controls=…, fields for exactly
// those settings above it, which redraw it); in an iframe it posts its height and the host page's
// one-line listener sizes the iframe to the content.
//   node tests/browser/embed.test.mjs [--site build/web] [--shots build/screenshots]
import { assert, startHarness, waitRenders, animationFrames } from './harness.mjs';

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
  // later posts follow the content as it settles: wait for the height the content has now
  const settledH = async () => Math.abs(await page.$eval('#embedded', (f) => f.getBoundingClientRect().height) -
    await inner.evaluate(() => Math.ceil(document.querySelector('main').getBoundingClientRect().bottom + window.scrollY))) <= 24;
  for (let k = 0; k < 200 && !(await settledH()); k++) await animationFrames(inner, 1);
  const frameH = await page.$eval('#embedded', (f) => f.getBoundingClientRect().height);
  const contentH = await inner.evaluate(() => Math.ceil(document.querySelector('main').getBoundingClientRect().bottom + window.scrollY));
  const scrolls = await inner.evaluate(() => document.documentElement.scrollHeight > window.innerHeight + 1);
  assert(Math.abs(frameH - contentH) <= 24 && !scrolls, `iframe ${frameH} px, content ${contentH} px, scrolls inside: ${scrolls}`);
  await page.screenshot({ path: shot('embed-iframe.png'), fullPage: true });
  console.log(`     (iframe ${frameH} px for ${contentH} px of content; cards shown: ${shown.join(', ')})`);
  await page.close();
});

await test('the Embed box of a table card: the element for any card, and controls checkboxes that update both snippets', async () => {
  const page = await openPage('#view=table&V=40&D=12&seed=9');
  await waitRenders(page, 'table', 0, 30000);
  const card = page.locator('#view-table article.card').first();
  await card.locator('.embed-button').click();
  const box = card.locator('.embed-snippets');
  const values = () => box.locator('textarea').evaluateAll((as) => as.map((a) => a.value));
  const keys = await box.locator('.embed-controls-picks input').evaluateAll((cs) => cs.map((c) => `${c.value}${c.checked ? '*' : ''}`));
  assert(keys.join(' ') === 'seed V D pad maxn scale tok cmap', `checkboxes: ${keys.join(' ')}`);
  const [iframe0, element0] = await values();
  assert(/&amp;embed=1&amp;card=embedding-table-w"/.test(iframe0) && !iframe0.includes('controls='), `iframe snippet before: ${iframe0}`);
  assert(/<embedlab-view view="table" seed="9" V="40" D="12" pad="" maxn="0" scale="0" tok="2" card="embedding-table-w"><\/embedlab-view>/.test(element0), `element snippet before: ${element0.replace(/\n/g, ' | ')}`);
  await box.locator('.embed-controls-picks input[value="V"]').check();
  await box.locator('.embed-controls-picks input[value="D"]').check();
  const [iframe1, element1] = await values();
  assert(/&amp;embed=1&amp;card=embedding-table-w&amp;controls=V,D"/.test(iframe1), `iframe snippet after: ${iframe1}`);
  assert(element1.includes('card="embedding-table-w" controls="V,D"></embedlab-view>'), `element snippet after: ${element1}`);
  await box.locator('.embed-controls-picks input[value="V"]').uncheck();
  const [iframe2, element2] = await values();
  assert(iframe2.includes('controls=D"') && element2.includes('controls="D"'), `after unticking V: ${iframe2} / ${element2}`);
  await card.screenshot({ path: shot('embed-controls-box.png') });
  await page.close();
});

await test('an iframe with controls=V,D,T: the card, fields for exactly V and D, T listed as ignored; a field redraws the card', async () => {
  const page = await h.browser.newPage({ viewport: { width: 900, height: 800 } });
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  await page.goto(`${h.url}article-iframe.html#view=table&V=40&D=12&seed=9&embed=1&card=embedding-table-w&controls=V,D,T`);
  const frame = page.frameLocator('#embedded');
  await frame.locator('body[data-engine="ready"]').waitFor({ timeout: 20000 });
  const inner = page.frames().find((f) => f.url().includes('index.html'));
  await inner.waitForFunction(() => Number(document.querySelector('#view-table').dataset.renders || 0) > 0, null, { timeout: 30000 });
  const shown = await inner.$$eval('main article.card', (cards) => cards.filter((c) => c.offsetParent !== null).map((c) => c.querySelector('h3').textContent.trim()));
  assert(shown.length === 1 && shown[0].startsWith('Embedding table W (40 × 12)'), `cards shown: ${shown.join(' | ')}`);
  const fields = await inner.$$eval('form.embed-controls .field', (fs) => fs.filter((f) => f.offsetParent !== null).map((f) => `${f.dataset.key}=${f.querySelector('input').value}`));
  assert(fields.join(' ') === 'V=40 D=12', `fields: ${fields.join(' ')}`);
  const visibleInputs = await inner.$$eval('input, select', (is) => is.filter((i) => i.offsetParent !== null).map((i) => i.name || i.id));
  assert(visibleInputs.join(' ') === 'V D', `other visible inputs: ${visibleInputs.join(' ')}`);
  const note = await inner.textContent('#url-messages');
  assert(/ignored controls=T \(the table view does not read T/.test(note), `messages: ${note}`);
  const before = await inner.$eval('#view-table', (v) => ({ sum: v.dataset.checksum, n: Number(v.dataset.renders) }));
  await inner.fill('form.embed-controls #f-D', '20');
  await inner.press('form.embed-controls #f-D', 'Enter');
  await inner.waitForFunction((n) => Number(document.querySelector('#view-table').dataset.renders) > n, before.n, { timeout: 10000 });
  const after = await inner.$eval('#view-table', (v) => v.dataset.checksum);
  const title = await inner.$eval('#view-table article.card h3', (h) => h.textContent);
  assert(after !== before.sum && title.includes('40 × 20'), `the card did not redraw: ${before.sum} -> ${after}, ${title}`);
  assert(inner.url().includes('D=20') && inner.url().includes('controls=V,D,T'), `the iframe's hash: ${inner.url()}`);
  await animationFrames(inner);
  await page.screenshot({ path: shot('embed-iframe-controls.png'), fullPage: true });
  console.log(`     (fields ${fields.join(', ')}; fingerprint ${before.sum} -> ${after} after D=20)`);
  await page.close();
});

await test('no console errors and no requests to other origins', async () => {
  assert(consoleErrors.length === 0, consoleErrors.join('\n'));
  assert(foreignRequests.length === 0, foreignRequests.join('\n'));
});

await h.finish();
