// Browser tests of the page link (issue 11): a link reproduces everything, the user's own text
// (compressed in txt=), the training step (step=N, replayed) and the picked token included.
//   node tests/browser/links.test.mjs [--site build/web] [--shots build/screenshots]
// A person types a text and settings, trains, copies the link; a fresh page opened from it
// shows the same text and the same table fingerprints (the table view's and the trained
// table's). A text too long for the link is offered as a file; a corrupted txt= is listed as
// ignored with its key and limit. Shared setup: harness.mjs.
import fs from 'node:fs';
import { assert, renders, startHarness, typeInto, waitRenders, workerStep } from './harness.mjs';

const h = await startHarness('link tests');
const { test, openPage, consoleErrors, foreignRequests, shot } = h;

const hashOf = (link) => link.slice(link.indexOf('#'));
const trainAt = (page) => page.$eval('#view-train', (el) => ({ steps: Number(el.dataset.steps || 0), checksum: el.dataset.checksum }));

// Typed as a person would: accents, CJK, an emoji with a joiner, line breaks.
const TEXT = 'Naïve café — 東京 🙂 and 👩‍👩‍👧!\nThe cat sat on the mat.\nThe dog sat on the log.\n'.repeat(3);

let link = null;
let before = null; // what the page that made the link showed

await test('type a text and settings, train, copy the link: it holds the text, the step and the picked token', async () => {
  const page = await openPage('#view=text&enc=char');
  await waitRenders(page, 'text', 0);
  await page.locator('#custom-text').pressSequentially(TEXT);
  await page.click('#use-text');
  await page.waitForFunction(() => /txt=[A-Za-z0-9_-]+/.test(location.hash), null, { timeout: 10000 });
  await page.waitForSelector('#chips-holder .chip[data-i="5"]');
  await page.click('#chips-holder .chip[data-i="5"]'); // the picked token: position 5 of the text
  await page.waitForFunction(() => /(?:^#|&)pick=5(&|$)/.test(location.hash), null, { timeout: 5000 });
  await page.waitForFunction(() => !document.querySelector('#token-card').hidden);
  const pickedTitle = await page.textContent('#token-title');
  await page.click('#tab-table');
  await waitRenders(page, 'table', 0);
  await typeInto(page, 'f-seed', '42');
  await typeInto(page, 'f-tok', '4');
  await page.click('#tab-train');
  await waitRenders(page, 'train', 0, 30000);
  const r0 = await renders(page, 'train');
  await page.selectOption('#f-tCorpus', 'custom'); // training has its own text (issue 21): the typed one
  await waitRenders(page, 'train', r0, 30000);
  const r = await renders(page, 'train');
  await typeInto(page, 'f-tD', '8');
  await waitRenders(page, 'train', r, 30000);
  const start = await trainAt(page);
  await page.click('#train-play');
  await page.waitForFunction(() => Number(document.querySelector('#view-train').dataset.steps) >= 40, null, { timeout: 30000 });
  await page.click('#train-play'); // pause
  // the slice in flight when Pause was pressed still lands (a neighbours reply comes after it):
  // wait for the link to settle on it
  const paused = await workerStep(page);
  await page.waitForFunction((s) => {
    const m = /(?:^#|&)step=(\d+)/.exec(location.hash);
    return m && Number(m[1]) === s && Number(document.querySelector('#view-train').dataset.steps) === s;
  }, paused, { timeout: 10000 });
  await page.click('#copy-link');
  await page.waitForFunction(() => document.querySelector('#copy-link-note').textContent.length > 0);
  link = await page.$eval('#copy-link', (b) => b.dataset.link);
  const note = await page.textContent('#copy-link-note');
  assert(/^(Link copied|Could not copy)/.test(note), `copy note: ${note}`);
  const trained = await trainAt(page);
  assert(trained.checksum !== start.checksum, `training did not change the table fingerprint (${start.checksum})`);
  for (const part of ['view=train', 'seed=42', 'tD=8', 'tok=4', 'corpus=custom', 'enc=char', 'tCorpus=custom', 'pick=5', `step=${trained.steps}`]) {
    assert(hashOf(link).includes(part), `the link lacks ${part}: ${link}`);
  }
  assert(/txt=[A-Za-z0-9_-]+/.test(link), `no txt in ${link}`);
  await page.click('#tab-table');
  before = { ...trained, pickedTitle, table: await page.$eval('#view-table', (el) => el.dataset.checksum), text: await page.inputValue('#custom-text') };
  assert(before.text === TEXT, 'the text box does not hold the typed text');
  await page.screenshot({ path: shot('links-made.png'), fullPage: false });
  await page.close();
});

await test('a fresh page opened from the link replays to the same step: same fingerprints, same text', async () => {
  assert(link, 'no link from the previous test');
  const page = await openPage(hashOf(link));
  await page.waitForFunction((n) => Number(document.querySelector('#view-train').dataset.replayed || -1) === n, before.steps, { timeout: 60000 });
  const after = await trainAt(page);
  assert(after.steps === before.steps, `replayed to step ${after.steps}, the link says ${before.steps}`);
  assert(after.checksum === before.checksum, `trained table fingerprint ${after.checksum}, the page that made the link showed ${before.checksum}`);
  const message = await page.textContent('#train-message');
  assert(message.includes(`Replayed to step ${before.steps}`), `message: ${message}`);
  const readout = await page.textContent('#train-readout');
  assert(readout.includes(before.checksum), `the readout does not show the fingerprint: ${readout}`);
  await page.screenshot({ path: shot('links-replayed.png'), fullPage: false });
  assert((await page.inputValue('#custom-text')) === before.text, 'the text box does not hold the same text');
  assert((await page.inputValue('#f-tok')) === '4', 'the picked token is not 4');
  await page.click('#tab-text');
  await page.waitForSelector('#chips-holder .chip.picked', { timeout: 10000 });
  const picked = await page.$$eval('#chips-holder .chip.picked', (cs) => cs.map((c) => c.dataset.i));
  assert(picked.join() === '5', `picked chips ${picked.join()}`);
  await page.waitForFunction(() => !document.querySelector('#token-card').hidden);
  assert((await page.textContent('#token-title')) === before.pickedTitle, `token card ${await page.textContent('#token-title')}, expected ${before.pickedTitle}`);
  await page.screenshot({ path: shot('links-picked.png'), fullPage: false });
  await page.click('#tab-table');
  await waitRenders(page, 'table', 0);
  const table = await page.$eval('#view-table', (el) => el.dataset.checksum);
  assert(table === before.table, `table view fingerprint ${table}, expected ${before.table}`);
  assert((await page.isHidden('#url-messages')), `the page lists ignored values: ${await page.textContent('#url-messages')}`);
  await page.close();
});

await test('a text too long for the link: the page says so with the limit and offers it as a file', async () => {
  const page = await openPage('#view=text&enc=char');
  await waitRenders(page, 'text', 0);
  let x = 5;
  const noise = Array.from({ length: 20000 }, () => String.fromCharCode(33 + ((x = (x * 48271) % 2147483647) % 90))).join('');
  await page.fill('#custom-text', noise);
  const n = await renders(page, 'text');
  await page.click('#use-text');
  await waitRenders(page, 'text', n, 20000);
  await page.waitForFunction(() => /too long for the page link/.test(document.querySelector('#custom-caption').textContent), null, { timeout: 15000 });
  const caption = await page.textContent('#custom-caption');
  assert(/too long for the page link \(compressed, this text takes [\d,]+ characters; a link holds at most 8,000\): download it/.test(caption), `caption: ${caption}`);
  assert(!(await page.isHidden('#custom-download')), 'no download button');
  assert(!/txt=/.test(await page.evaluate(() => location.hash)), 'the link carries txt= for a text that does not fit');
  await page.screenshot({ path: shot('links-too-long.png'), fullPage: false });
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#custom-download')]);
  const saved = fs.readFileSync(await download.path(), 'utf8');
  assert(saved === noise, `the downloaded file holds ${saved.length} characters, not the text`);
  assert(/\.txt$/.test(download.suggestedFilename()), `file name ${download.suggestedFilename()}`);
  await page.click('#copy-link');
  await page.waitForFunction(() => document.querySelector('#copy-link-note').textContent.length > 0);
  const note = await page.textContent('#copy-link-note');
  assert(/Your text is too long for it: download it/.test(note), `copy note: ${note}`);
  await page.close();
});

await test('a corrupted txt= and a bad step= are listed as ignored; the page uses the built-in corpus', async () => {
  const good = 'c0ssKEnMS1HISM3JyVcEAA'; // not the point: cut short below
  const page = await openPage(`#view=text&corpus=custom&txt=${good.slice(0, 9)}&step=-3`);
  await page.waitForFunction(() => /txt=/.test(document.querySelector('#url-messages').textContent), null, { timeout: 10000 });
  const notice = await page.textContent('#url-messages');
  assert(notice.includes(`ignored txt=${good.slice(0, 9)} (txt: could not be read (`), `notice: ${notice}`);
  assert(notice.includes('it must be deflated UTF-8 text in base64url, at most 8,000 characters); using the built-in corpus'), `notice: ${notice}`);
  assert(/ignored step=-3 \(step must be an integer in \[0, 100000\], a link replays at most 100,000 steps\); using the default 0/.test(notice), `notice: ${notice}`);
  assert((await page.inputValue('#f-corpus')) === 'the-verdict', 'the corpus did not fall back');
  await waitRenders(page, 'text', 0);
  await page.screenshot({ path: shot('links-bad-text.png'), fullPage: false });
  await page.close();
});

await test('no console errors and no requests to other origins', async () => {
  assert(consoleErrors.length === 0, `console errors: ${consoleErrors.slice(0, 3).join(' | ')}`);
  assert(foreignRequests.length === 0, `requests to other origins: ${foreignRequests.slice(0, 3).join(' ')}`);
});

await h.finish();
