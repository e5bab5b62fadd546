// Browser tests of the autosave (issue 11, "Saved work"; web/src/session.js, trainSave in
// train-handler.js): a reload in the middle of training comes back at the last autosaved step
// with the table bit-identical to the save (by fingerprint, and equal to a fresh replay of that
// step); a closed tab's settings, typed text and run come back in a new tab; Start over clears
// them; a damaged save is reported and skipped; an embedded card never overwrites the session.
//   node tests/browser/autosave.test.mjs [--site build/web] [--shots build/screenshots]
// Reloads keep the browser context (its IndexedDB); each openPage() is a fresh context.
import { assert, startHarness, waitRenders } from './harness.mjs';

const h = await startHarness('autosave tests');
const { test, openPage, browser, consoleErrors, foreignRequests, shot } = h;

const SETTINGS = '#view=train&enc=char&tD=8&ctx=16&tB=8&seed=5';
const trainAt = (page) => page.$eval('#view-train', (el) => ({
  steps: Number(el.dataset.steps || 0), checksum: el.dataset.checksum, restored: el.dataset.restored,
  savedStep: el.dataset.savedStep === undefined ? -1 : Number(el.dataset.savedStep), savedChecksum: el.dataset.savedChecksum,
}));
// The session record `name` of the page's tab as the page stored it (IndexedDB 'embedlab' /
// 'session', key 'NAME@TAB', session.js; a key with '@' is read as given).
const record = (page, name, raw = false) => page.evaluate(([n, r]) => new Promise((resolve, reject) => {
  const k = r || n.includes('@') ? n : `${n}@${document.body.dataset.sessionTab}`;
  const req = indexedDB.open('embedlab');
  req.onerror = () => reject(new Error('cannot open IndexedDB'));
  req.onsuccess = () => {
    const db = req.result;
    if (!db.objectStoreNames.contains('session')) {
      db.close();
      resolve(null);
      return;
    }
    const get = db.transaction('session').objectStore('session').get(k);
    get.onsuccess = () => {
      const v = get.result;
      db.close();
      resolve(v ? { ...v, state: v.state ? v.state.length : undefined } : null);
    };
    get.onerror = () => reject(new Error('cannot read the record'));
  };
}), [name, raw]);
// Waits until the run's last autosave is step n; a timeout says where the view is.
async function savedAt(page, n) {
  try {
    await page.waitForFunction((k) => Number(document.querySelector('#view-train').dataset.savedStep ?? -1) === k, n, { timeout: 10000 });
  } catch {
    throw new Error(`no autosave at step ${n}: view ${JSON.stringify(await trainAt(page))}, saved line "${await page.textContent('#train-saved')}", message "${await page.textContent('#train-message')}"`);
  }
}

// Waits until record `name` ('settings', 'draft') has been written more than `above` times and no
// write of it is waiting (session.js: body data-NAME-pending, data-NAME-written).
const writes = (page, name) => page.evaluate((n) => Number(document.body.dataset[`${n}Written`] || 0), name);
const written = (page, name, above = 0) => page.waitForFunction(([n, k]) => {
  const d = document.body.dataset;
  return Number(d[`${n}Written`] || 0) > k && d[`${n}Pending`] === undefined;
}, [name, above], { timeout: 10000 });

// A fresh page (new context: nothing saved) replaying the run of `settings` to `step`.
async function replayed(settings, step) {
  const page = await openPage(`${settings}&step=${step}`);
  await page.waitForFunction((n) => Number(document.querySelector('#view-train').dataset.replayed || -1) === n, step, { timeout: 60000 });
  const r = await trainAt(page);
  await page.close();
  return r;
}

let reloaded = null;

await test('a reload in the middle of training comes back at the last save, bit for bit (fingerprint)', async () => {
  const page = await openPage(SETTINGS);
  await waitRenders(page, 'train', 0, 30000);
  await page.click('#train-play');
  // at least two autosaves (every 2 s while playing), and still playing past the last one
  await page.waitForFunction(() => Number(document.querySelector('#view-train').dataset.savedStep || 0) > 0, null, { timeout: 30000 });
  const first = await trainAt(page);
  await page.waitForFunction((s) => Number(document.querySelector('#view-train').dataset.savedStep || 0) > s, first.savedStep, { timeout: 30000 });
  const before = await trainAt(page);
  assert(before.steps >= before.savedStep, `at step ${before.steps}, saved ${before.savedStep}`);
  assert((await page.textContent('#train-saved')).startsWith(`Autosaved in this browser at step `), `saved line: ${await page.textContent('#train-saved')}`);
  await page.reload(); // mid-run: Play is still on
  await page.waitForFunction(() => document.querySelector('#view-train').dataset.restored !== undefined, null, { timeout: 60000 });
  const after = await trainAt(page);
  const rec = await record(page, 'train');
  assert(rec && rec.state > 0, 'no training record in IndexedDB');
  assert(after.steps === rec.step && Number(after.restored) === rec.step, `restored at step ${after.steps}, the last save is step ${rec.step}`);
  assert(after.steps >= before.savedStep && after.steps > 0, `restored step ${after.steps} is before the save seen (${before.savedStep})`);
  assert(after.checksum === rec.checksum, `restored fingerprint ${after.checksum}, saved ${rec.checksum}`);
  const message = await page.textContent('#train-message');
  assert(message.includes(`Restored from this browser's autosave`) && message.includes(`at step ${after.steps}`), `message: ${message}`);
  assert((await page.textContent('#train-play')).includes('Play'), 'the restored run is playing; it should wait for Play');
  const curve = await page.evaluate(() => document.querySelector('#train-readout').textContent);
  assert(curve.includes(after.checksum), `the readout does not show the fingerprint: ${curve}`);
  const lr = await page.inputValue('#f-lr');
  assert(curve.includes(`learning rate${lr}`), `the readout does not show the run's learning rate ${lr}: ${curve}`);
  assert(new RegExp(`(?:^#|&)step=${after.steps}(&|$)`).test(await page.evaluate(() => location.hash)), 'the link does not name the restored step');
  await page.screenshot({ path: shot('autosave-restored.png'), fullPage: false });
  // one more step from the restored state
  await page.click('#train-step');
  await page.waitForFunction((n) => Number(document.querySelector('#view-train').dataset.steps) === n, after.steps + 1, { timeout: 10000 });
  reloaded = { at: after, next: await trainAt(page) };
  await page.close();
});

await test('the restored run is the uninterrupted one: a fresh replay gives the same fingerprints', async () => {
  assert(reloaded, 'no restored run from the previous test');
  const at = await replayed(SETTINGS, reloaded.at.steps);
  assert(at.checksum === reloaded.at.checksum, `replay to step ${reloaded.at.steps}: ${at.checksum}, restored ${reloaded.at.checksum}`);
  const next = await replayed(SETTINGS, reloaded.at.steps + 1);
  assert(next.checksum === reloaded.next.checksum, `step ${reloaded.at.steps + 1}: replay ${next.checksum}, after the restored run's Step ${reloaded.next.checksum}`);
});

await test('a closed tab: a new tab without a link gets the settings, the typed text and the run back', async () => {
  const context = await browser.newContext();
  const page = await openPage(SETTINGS, { context });
  await waitRenders(page, 'train', 0, 30000);
  await page.click('#train-step');
  await page.click('#train-step');
  await savedAt(page, 2);
  const trained = await trainAt(page);
  await page.click('#tab-text');
  await page.locator('#custom-text').pressSequentially('A draft I have not used yet: naïve 東京 🙂');
  await page.waitForFunction(() => document.querySelector('#train-saved') !== null);
  await written(page, 'draft'); // 600 ms after the last key
  const settingsWrites = await writes(page, 'settings');
  await page.click('#tab-train');
  await written(page, 'settings', settingsWrites); // 400 ms after the hash
  await page.close(); // the tab is gone
  const tab = await openPage('', { context }); // no hash
  await tab.waitForFunction(() => document.querySelector('#view-train').dataset.restored !== undefined, null, { timeout: 60000 });
  const hash = await tab.evaluate(() => location.hash);
  for (const part of ['view=train', 'enc=char', 'tD=8', 'ctx=16', 'tB=8', 'seed=5']) assert(hash.includes(part), `restored hash ${hash} lacks ${part}`);
  const note = await tab.textContent('#session-note');
  assert(/^Restored your last session \(autosaved \d\d:\d\d:\d\d\)\.$/.test(note), `session note: ${note}`);
  const back = await trainAt(tab);
  assert(back.steps === 2 && back.checksum === trained.checksum, `run back at step ${back.steps} ${back.checksum}, saved step 2 ${trained.checksum}`);
  await tab.click('#tab-text');
  await tab.waitForFunction(() => document.querySelector('#custom-text').dataset.restored === '1', null, { timeout: 10000 });
  assert((await tab.inputValue('#custom-text')) === 'A draft I have not used yet: naïve 東京 🙂', `text box: ${await tab.inputValue('#custom-text')}`);
  assert((await tab.textContent('#custom-caption')).startsWith('Restored the text you were typing'), 'no caption for the restored draft');
  await tab.screenshot({ path: shot('autosave-new-tab.png'), fullPage: false });

  // Start over: Escape cancels and keeps everything; the button clears it and reloads with the defaults
  await tab.click('#start-over');
  await tab.waitForSelector('#start-over-dialog[open]');
  await tab.screenshot({ path: shot('autosave-start-over.png'), fullPage: false });
  await tab.keyboard.press('Escape');
  await tab.waitForSelector('#start-over-dialog:not([open])', { state: 'attached' });
  assert(await record(tab, 'train'), 'Escape cleared the saved run');
  await tab.click('#start-over');
  await tab.waitForSelector('#start-over-dialog[open]');
  await Promise.all([tab.waitForEvent('load'), tab.click('#start-over-dialog button[value="confirm"]')]);
  await tab.waitForFunction(() => document.body.dataset.engine === 'ready', null, { timeout: 30000 });
  await waitRenders(tab, 'table', 0);
  assert((await tab.evaluate(() => location.hash)) === '#' || !(await tab.evaluate(() => /enc=char/.test(location.hash))), 'the settings survived Start over');
  assert((await tab.textContent('#session-note')) === '', `session note after Start over: ${await tab.textContent('#session-note')}`);
  for (const key of ['train', 'draft']) assert((await record(tab, key)) === null, `the ${key} record survived Start over`);
  const settings = await record(tab, 'settings');
  assert(!settings || !settings.hash.includes('enc=char'), `the settings record survived: ${settings && settings.hash}`);
  assert((await tab.inputValue('#custom-text')) === '', 'the draft survived Start over');
  await context.close();
});

await test('a damaged save is reported and skipped: the link replays the run instead', async () => {
  const page = await openPage(SETTINGS);
  await waitRenders(page, 'train', 0, 30000);
  await page.click('#train-step');
  await savedAt(page, 1);
  const good = await trainAt(page);
  // flip one byte of the saved checkpoint
  await page.evaluate(() => new Promise((resolve, reject) => {
    const req = indexedDB.open('embedlab');
    const key = `train@${document.body.dataset.sessionTab}`;
    req.onsuccess = () => {
      const tx = req.result.transaction('session', 'readwrite');
      const store = tx.objectStore('session');
      const get = store.get(key);
      get.onsuccess = () => {
        const rec = get.result;
        rec.state[rec.state.length >> 1] ^= 0x40;
        store.put(rec, key);
      };
      tx.oncomplete = () => { req.result.close(); resolve(); };
      tx.onerror = () => reject(new Error('write failed'));
    };
  }));
  await page.reload();
  await page.waitForFunction(() => /^Not restored/.test(document.querySelector('#train-saved').textContent), null, { timeout: 30000 });
  const line = await page.textContent('#train-saved');
  assert(line.includes('checkpoint: checksum mismatch') && line.includes('this run starts afresh'), `saved line: ${line}`);
  // the link's step=1 is replayed from step 0 instead: the same table
  await page.waitForFunction(() => document.querySelector('#view-train').dataset.replayed === '1', null, { timeout: 30000 });
  const r = await trainAt(page);
  assert(r.restored === undefined && r.checksum === good.checksum, `after the replay: ${JSON.stringify(r)}, before: ${good.checksum}`);
  await page.click('#train-step'); // the engine is fine after the refusal
  await page.waitForFunction(() => Number(document.querySelector('#view-train').dataset.steps) === 2, null, { timeout: 10000 });
  await page.close();
});

await test('an embedded card in the same browser does not overwrite the session', async () => {
  const context = await browser.newContext();
  const page = await openPage(SETTINGS, { context });
  await waitRenders(page, 'train', 0, 30000);
  await written(page, 'settings');
  const before = await record(page, 'settings');
  assert(before && before.hash.includes('seed=5'), `no settings record: ${JSON.stringify(before)}`);
  const embed = await openPage('#view=table&seed=77&embed=1&card=table-card', { context });
  await embed.waitForFunction(() => Number(document.querySelector('#view-table').dataset.renders || 0) > 0, null, { timeout: 30000 });
  // the embedded card scheduled no settings write (one would be marked pending when its hash is set)
  const marks = await embed.evaluate(() => ({ ...document.body.dataset }));
  assert(marks.settingsPending === undefined && marks.settingsWritten === undefined, `the embedded card saves its settings: ${JSON.stringify(marks)}`);
  const pageTab = await page.evaluate(() => document.body.dataset.sessionTab);
  const after = await record(embed, `settings@${pageTab}`);
  assert(after.hash === before.hash, `the embedded card wrote its settings: ${after.hash}`);
  assert((await record(embed, 'settings')) === null, 'the embedded card saved settings of its own');
  await context.close();
});

// Writes records into this origin's IndexedDB 'embedlab' (schema of storage.js, DB version 2)
// from a page of the site that does not open it itself (article.html): store -> [[key, value]].
async function seedDb(context, writes) {
  const art = await context.newPage();
  await art.goto(`${h.url}article.html`);
  await art.evaluate((w) => new Promise((resolve, reject) => {
    const req = indexedDB.open('embedlab', 2);
    req.onupgradeneeded = () => {
      for (const n of ['texts', 'session']) if (!req.result.objectStoreNames.contains(n)) req.result.createObjectStore(n);
    };
    req.onsuccess = () => {
      const tx = req.result.transaction(['texts', 'session'], 'readwrite');
      for (const [store, key, value] of w) {
        const v = value.bytesOf ? { ...value, bytes: new Uint8Array(value.bytesOf).fill(7) } : value;
        delete v.bytesOf;
        tx.objectStore(store).put(v, key);
      }
      tx.oncomplete = () => { req.result.close(); resolve(); };
      tx.onerror = () => reject(new Error('seed write failed'));
    };
    req.onerror = () => reject(new Error('cannot open IndexedDB'));
  }), writes);
  await art.close();
}
const keysOf = (page, store) => page.evaluate((st) => new Promise((resolve, reject) => {
  const req = indexedDB.open('embedlab');
  req.onsuccess = () => {
    const all = req.result.transaction(st).objectStore(st).getAllKeys();
    all.onsuccess = () => { req.result.close(); resolve(all.result.map(String).sort()); };
    all.onerror = () => reject(new Error('cannot list keys'));
  };
}), store);
const OTHER = '#view=train&enc=char&tD=8&ctx=16&tB=8&seed=6';

await test('two tabs in one browser keep their own runs (a record per tab, version 2); the dialog lists both and restores either', async () => {
  const context = await browser.newContext();
  const a = await openPage(SETTINGS, { context });
  await waitRenders(a, 'train', 0, 30000);
  await a.click('#train-step');
  await a.click('#train-step');
  await savedAt(a, 2);
  const runA = await trainAt(a);
  const b = await openPage(OTHER, { context }); // a second tab, another run
  await waitRenders(b, 'train', 0, 30000);
  await b.click('#train-step');
  await savedAt(b, 1);
  const runB = await trainAt(b);
  // tab A reloads: its own run, not the one tab B saved last
  await a.reload();
  await a.waitForFunction(() => document.querySelector('#view-train').dataset.restored !== undefined, null, { timeout: 60000 })
    .catch(async () => { throw new Error(`tab A's run was not restored after tab B saved its own: ${await a.textContent('#train-saved')}`); });
  const back = await trainAt(a);
  assert(back.steps === 2 && back.checksum === runA.checksum, `tab A back at step ${back.steps} ${back.checksum}, saved ${runA.checksum}`);
  const tabs = [await a.evaluate(() => document.body.dataset.sessionTab), await b.evaluate(() => document.body.dataset.sessionTab)];
  assert(tabs[0] && tabs[1] && tabs[0] !== tabs[1], `tab ids: ${tabs.join(', ')}`);
  const [ra, rb] = [await record(a, 'train'), await record(b, 'train')];
  assert(ra && rb && ra.v === 2 && rb.v === 2 && ra.tab === tabs[0] && rb.tab === tabs[1], `records: ${JSON.stringify([ra && { v: ra.v, tab: ra.tab }, rb && { v: rb.v, tab: rb.tab }])}`);
  assert(ra.step === 2 && ra.checksum === runA.checksum && rb.step === 1 && rb.checksum === runB.checksum, `A saved step ${ra.step}, B step ${rb.step}`);
  // the Start over dialog: both sessions, what autosave keeps of its budget, Restore for the other tab's
  await a.click('#start-over');
  await a.waitForFunction(() => document.querySelectorAll('#start-over-dialog[open] .session-list li').length === 2, null, { timeout: 10000 });
  const usage = await a.textContent('#start-over-dialog .session-usage');
  assert(/^Autosave keeps [\d.]+ MiB of its [\d.]+ MiB budget in this browser: 2 saved sessions, 0 stored texts\./.test(usage), `usage: ${usage}`);
  const items = await a.$$eval('#start-over-dialog .session-list li', (lis) => lis.map((li) => ({ tab: li.dataset.tab, text: li.textContent, restore: !!li.querySelector('button') })));
  const mine = items.find((i) => i.tab === tabs[0]);
  const theirs = items.find((i) => i.tab === tabs[1]);
  assert(mine && !mine.restore && /^This tab .*training at step 2/.test(mine.text), `this tab's line: ${JSON.stringify(mine)}`);
  assert(theirs && theirs.restore && /^Saved .*training at step 1/.test(theirs.text), `the other tab's line: ${JSON.stringify(theirs)}`);
  await a.locator('#start-over-dialog').screenshot({ path: shot('autosave-sessions.png') });
  await Promise.all([a.waitForEvent('load'), a.click(`#start-over-dialog li[data-tab="${tabs[1]}"] button`)]);
  await a.waitForFunction(() => document.querySelector('#view-train').dataset.restored !== undefined, null, { timeout: 60000 });
  const copy = await trainAt(a);
  assert(copy.steps === 1 && copy.checksum === runB.checksum, `tab A after Restore: step ${copy.steps} ${copy.checksum}, B's run ${runB.checksum}`);
  assert((await a.evaluate(() => document.body.dataset.sessionTab)) === tabs[0], 'Restore changed the tab id');
  const still = await record(b, 'train');
  assert(still.step === 1 && still.tab === tabs[1], 'Restore in tab A touched tab B\'s record');
  await context.close();
});

await test('a version-1 save (one unversioned set shared by all tabs) is migrated: the next tab takes it as its own, with a version', async () => {
  const context = await browser.newContext();
  const t = Date.now() - 60000;
  await seedDb(context, [
    ['session', 'settings', { hash: 'view=table&V=17&D=5&seed=21', savedAt: t }],
    ['session', 'draft', { text: 'an old draft', savedAt: t }],
  ]);
  const page = await openPage('', { context });
  await waitRenders(page, 'table', 0, 30000);
  const hash = await page.evaluate(() => location.hash);
  assert(hash.includes('V=17') && hash.includes('seed=21'), `hash after the migration: ${hash}`);
  const tab = await page.evaluate(() => document.body.dataset.sessionTab);
  const own = await record(page, 'settings');
  assert(own && own.v === 2 && own.tab === tab && own.hash === 'view=table&V=17&D=5&seed=21', `migrated settings: ${JSON.stringify(own)}`);
  assert((await record(page, 'settings', true)) === null && (await record(page, 'draft', true)) === null, 'the version-1 records are still there');
  await page.click('#tab-text');
  await page.waitForFunction(() => document.querySelector('#custom-text').dataset.restored === '1', null, { timeout: 10000 });
  assert((await page.inputValue('#custom-text')) === 'an old draft', 'the migrated draft did not come back');
  await context.close();
});

await test('autosave keeps to its budget: the least recently used stored text is evicted, and the dialog shows the use', async () => {
  const context = await browser.newContext();
  const probe = await context.newPage();
  await probe.goto(`${h.url}article.html`);
  const budget = await probe.evaluate(async () => Math.min(64 * 1048576, Math.floor((await navigator.storage.estimate()).quota / 2)));
  await probe.close();
  // three texts used an hour ago (old-0 the longest ago), together over the budget
  const size = Math.floor(budget / 3) + 1048576;
  const t = Date.now() - 3600000;
  await seedDb(context, [0, 1, 2].map((i) => ['texts', `old-${i}`, { bytesOf: size, saved: t, usedAt: t + i }]));
  const page = await openPage(SETTINGS, { context });
  await waitRenders(page, 'train', 0, 30000);
  await page.click('#train-step');
  await savedAt(page, 1); // the worker's save checks the budget
  const texts = await keysOf(page, 'texts');
  assert(texts.join() === 'old-1,old-2', `texts kept: ${texts.join()} (each ${size} bytes, budget ${budget})`);
  assert(await record(page, 'train'), 'the run just saved was evicted');
  await page.click('#start-over');
  await page.waitForSelector('#start-over-dialog[open] .session-usage');
  const box = await page.$eval('#start-over-dialog .session-saved', (el) => ({ total: Number(el.dataset.total), budget: Number(el.dataset.budget), text: el.querySelector('.session-usage').textContent }));
  assert(box.budget === budget && box.total <= budget && box.total > 2 * size, `dialog: ${JSON.stringify(box)}`);
  assert(/^Autosave keeps [\d.]+ MiB of its 64\.0 MiB budget in this browser: 1 saved session, 2 stored texts\. Past the budget, the least recently used are removed first\.$/.test(box.text), `usage: ${box.text}`);
  await page.locator('#start-over-dialog').screenshot({ path: shot('autosave-budget.png') });
  await page.keyboard.press('Escape');
  await context.close();
});

await test('no console errors and no requests to other origins', async () => {
  assert(consoleErrors.length === 0, `console errors: ${consoleErrors.slice(0, 3).join(' | ')}`);
  assert(foreignRequests.length === 0, `requests to other origins: ${foreignRequests.slice(0, 3).join(' ')}`);
});

await h.finish();
