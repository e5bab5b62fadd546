// Browser test of the page's ignored-settings notice (#url-messages, main.js showIgnored with
// state.js ignoredLines/echo): an unknown key holding U+202E (RIGHT-TO-LEFT OVERRIDE) is shown
// escaped (\u202E) and does not reverse the line; a long key is cut; a hash of about 1 MB with
// 100,000 unknown keys is read only up to MAX_HASH_CHARS (one "refused" line) and lists at most
// MAX_IGNORED items; a setting before the cut still applies; a file name with U+202E is echoed
// escaped in the import note. Screenshot: ignored-settings.png.
//   node tests/browser/ignored-settings.test.mjs [--site build/web] [--shots build/screenshots]
import { assert, startHarness, waitRenders } from './harness.mjs';

const h = await startHarness('ignored-settings tests');
const { test, openPage, consoleErrors, shot } = h;

const notice = (page) => page.$$eval('#url-messages p', (ps) => ps.map((p) => p.textContent));

await test('an unknown key with U+202E is echoed as \\u202E (the line is not reversed) and a long key is cut', async () => {
  const page = await openPage(`#view=table&V=12&D=4&evil%E2%80%AEgnp.exe=1&${'q'.repeat(3000)}=2`);
  await waitRenders(page, 'table', 0, 30000);
  const lines = await notice(page);
  assert(lines.length === 2, `notice: ${JSON.stringify(lines)}`);
  assert(lines[0] === "Link setting ignored evil\\u202Egnp.exe=1 (unknown setting 'evil\\u202Egnp.exe').", `line: ${JSON.stringify(lines[0])}`);
  assert(!lines.join('').includes('\u202E'), 'the notice holds a raw U+202E');
  assert(lines[1].length < 200, `a 3,000-character key is echoed in ${lines[1].length} characters`);
  await page.locator('#url-messages').screenshot({ path: shot('ignored-settings.png') });
  await page.close();
});

await test('a 1 MB hash: read up to the bound, the rest refused in one line, at most 20 items listed; settings before the cut apply', async () => {
  const many = Array.from({ length: 100000 }, (_, i) => `unknown${i}=1`).join('&');
  const page = await openPage(`#view=table&V=9&D=4&${many}`);
  await waitRenders(page, 'table', 0, 60000);
  const lines = await notice(page);
  assert(lines.length === 22, `${lines.length} lines in the notice`);
  assert(/^…and [0-9,]+ more ignored settings \(only the first 20 are listed\)\.$/.test(lines[20]), `line 21: ${lines[20]}`);
  assert(/^Link setting refused: the link's settings are [0-9,]+ characters; only the first 16,384 are read; the rest is ignored\.$/.test(lines[21]), `line 22: ${lines[21]}`);
  const v = await page.$eval('#f-V', (el) => el.value);
  assert(v === '9', `V field: ${v}`);
  await page.close();
});

await test('a file name with U+202E is echoed as \\u202E in the import note (the same escape)', async () => {
  const page = await openPage('#view=table&V=12&D=4');
  await waitRenders(page, 'table', 0, 30000);
  const name = 'my\u202Etxt.exe.txt'; // shows as "myexe.txt.txt"-like when not escaped
  await page.setInputFiles('#import-file', { name, mimeType: 'text/plain', buffer: Buffer.from('a 1 2 3\nb 4 5 6\nc 7 8 9\n') });
  await page.waitForFunction(() => Number(document.querySelector('#import-card').dataset.loaded || 0) > 0, null, { timeout: 30000 });
  const note = await page.textContent('#import-note');
  assert(note.startsWith('my\\u202Etxt.exe.txt: 3 rows') && !note.includes('\u202E'), `import note: ${note}`);
  await page.close();
});

await test('no console errors', async () => {
  assert(consoleErrors.length === 0, `console errors: ${consoleErrors.join(' | ')}`);
});

await h.finish();
