// Browser test of the positions view's first card, "Why positions?" (views/why-positions-card.js,
// handlers/why-positions-handler.js), on the page and as an <embedlab-view> widget: token 40 at
// the notebook's 29 positions [0, 379, 736, 882, 895, ...] of the 5,136 batched GPT-2 ids with
// identical rows; " dog bites man" / " man bites dog" the same ids in another order; the first
// batch's ids, shapes (4, 4, 256), and the first values of pos.weight rows 0, 1, 3 and of
// tok.weight[0] as torch prints them (tests/reference/torch_embedding_init.json
// sequential_tok_pos, gpt2_the_verdict.json), each sum = tok + pos in float32.
//   node tests/browser/why-positions.test.mjs [--site build/web] [--shots build/screenshots]
// Screenshots: why-positions-1280.png, why-positions-375.png (the card on the page).
import fs from 'node:fs';
import path from 'node:path';
import { assert, repo, startHarness, waitRenders } from './harness.mjs';

const ref = (f) => JSON.parse(fs.readFileSync(path.join(repo, 'tests/reference', f), 'utf8'));
const seq = ref('torch_embedding_init.json').sequential_tok_pos;
const sw = ref('gpt2_the_verdict.json').sliding_window;
const t4 = (v) => v.toFixed(4);
const rowOf = (a) => a.slice(0, 3).map(t4).join(', ');

const h = await startHarness('why-positions tests');
const { test, openPage, consoleErrors, foreignRequests, shot } = h;

// what the card shows -> {data, token, phrases [[cells]], shapes, sums [[cells]], note}
const readCard = (root) => {
  const c = root.querySelector('.why-card');
  const rows = (sel) => [...c.querySelectorAll(`${sel} tbody tr`)].map((tr) => [...tr.cells].map((td) => td.textContent));
  return {
    data: { ...c.dataset }, token: c.querySelector('#why-token').textContent, phrases: rows('#why-phrases'),
    order: c.querySelector('#why-order').textContent, shapes: c.querySelector('#why-shapes').textContent,
    sums: rows('#why-sum'), note: c.querySelector('#why-note').textContent,
    ticks: c.querySelectorAll('#why-strip .why-tick').length, first: c.closest('section').querySelector('article.card') === c,
    link: (c.querySelector('.read-link a, a.read-link') || { getAttribute: () => null }).getAttribute('href'),
  };
};

// link: the page's "Read:" link to the article's section; a widget has none (read-links.js)
function checkCard(c, where, link = 'learn.html#why-positions') {
  assert(c.first, `${where}: the card is not the view's first card`);
  assert(c.link === link, `${where}: link ${c.link}`);
  assert(c.data.count === String(sw.token40_count_in_inputs) && c.ticks === Number(sw.token40_count_in_inputs), `${where}: count ${c.data.count}, ticks ${c.ticks}`);
  assert(c.data.positions.startsWith(sw.token40_first5_flat_positions.join(',') + ','), `${where}: positions ${c.data.positions}`);
  assert(c.data.same === 'true', `${where}: the rows of token 40 are not identical`);
  assert(/Token 40 \("I"\) occurs 29 times in the 5,136 ids .*5,145 GPT-2 tokens.* at positions 0, 379, 736, 882, 895, …/.test(c.token), `${where}: ${c.token}`);
  assert(c.data.sameSet === 'true' && /the same set of rows, bit for bit/.test(c.order) && /the two sets of rows differ/.test(c.order), `${where}: ${c.order}`);
  const [a, b] = c.phrases;
  assert(a[2] === b[2] && a[1] !== b[1], `${where}: phrases ${JSON.stringify(c.phrases)}`);
  assert(c.data.shape === '4,4,256' && /\(4, 4\) ids → tok\(inputs\) \(4, 4, 256\) \+ pos\(arange\(4\)\) \(4, 256\) → input embeddings \(4, 4, 256\)/.test(c.shapes), `${where}: ${c.shapes}`);
  const first = sw.first_batch_inputs[0];
  assert(c.sums.map((r) => Number(r[1].split(' ')[0])).join() === first.join(), `${where}: first window ${c.sums.map((r) => r[1])}`);
  // pos rows 0, 1 and 3 against torch (printed precision); each sum is the float32 tok + pos
  const wantPos = { 0: seq.pos.first_rows[0], 1: seq.pos.first_rows[1], 3: seq.pos.last_row };
  for (const [p, row] of Object.entries(wantPos)) assert(c.sums[p][3] === rowOf(row), `${where}: pos row ${p} ${c.sums[p][3]} vs torch ${rowOf(row)}`);
  for (const r of c.sums) {
    const [tk, ps, sum] = [r[2], r[3], r[4]].map((s) => s.split(', ').map(Number));
    sum.forEach((v, i) => assert(Math.abs(v - (tk[i] + ps[i])) <= 1.5e-4, `${where}: sum ${r[4]} is not ${r[2]} + ${r[3]}`));
  }
  assert(c.note.includes(`tok.weight[0, :3] = ${rowOf(seq.tok.first_rows[0])}`), `${where}: ${c.note}`);
  assert(/1,286 windows, 321 full batches, 5,136 input ids/.test(c.note), `${where}: ${c.note}`);
}

await test('the positions view opens with the "Why positions?" card: token 40 at the notebook\'s positions, the same row, shapes and torch\'s numbers', async () => {
  const page = await openPage('#view=positions');
  await waitRenders(page, 'positions', 0);
  const c = await page.$eval('#view-positions', readCard);
  checkCard(c, 'page');
  await page.locator('.why-card').screenshot({ path: shot('why-positions-1280.png') });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.locator('.why-card').screenshot({ path: shot('why-positions-375.png') });
  const overflow = await page.$eval('.why-card', (el) => el.scrollWidth - el.clientWidth);
  assert(overflow <= 1, `the card overflows at 375 px by ${overflow} px`);
  console.log(`     (${c.data.count} occurrences; pos[0, :3] ${c.sums[0][3]}; input[0, 0, :3] ${c.sums[0][4]})`);
  await page.close();
});

await test('as a widget: <embedlab-view view="positions" card="why-positions"> shows that card only, with the same numbers', async () => {
  const page = await h.browser.newPage({ viewport: { width: 900, height: 900 } });
  page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
  await page.goto(`${h.url}article.html`);
  await page.evaluate(() => {
    const el = document.createElement('embedlab-view');
    el.id = 'why';
    el.setAttribute('view', 'positions');
    el.setAttribute('card', 'why-positions');
    document.querySelector('main').prepend(el);
  });
  await page.waitForFunction(() => Number(document.getElementById('why').dataset.renders || 0) > 0, null, { timeout: 30000 });
  const shown = await page.$eval('#why', (el) => [...el.shadowRoot.querySelectorAll('article.card')].filter((x) => x.offsetParent !== null).map((x) => x.querySelector('h3').textContent));
  assert(shown.join('|') === 'Why positions?', `cards shown: ${shown.join(' | ')}`);
  const notes = await page.$eval('#why', (el) => el.shadowRoot.querySelector('.embedlab-notes').textContent);
  assert(notes === '', `notes: ${notes}`);
  checkCard(await page.$eval('#why', (el, src) => new Function(`return (${src})`)()(el.shadowRoot.querySelector('section.view')), readCard.toString()), 'widget', null);
  await page.close();
});

await test('no console errors, no requests to other origins', async () => {
  assert(consoleErrors.length === 0, consoleErrors.join('\n'));
  assert(foreignRequests.length === 0, foreignRequests.join('\n'));
});

await h.finish();
