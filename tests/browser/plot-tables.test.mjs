// Every plot's "Table" toggle (plots/plot-export.js): in the table, positions and train views
// each toggle opens an HTML table of the plot's current numbers under the plot (caption, header
// cells, at least one data row, cells as text), closes again, and works from the keyboard.
//   node tests/browser/plot-tables.test.mjs [--site build/web] [--shots build/screenshots]
import { assert, startHarness, waitRenders, animationFrames } from './harness.mjs';

const h = await startHarness('plot table tests');
const { test, openPage, consoleErrors, foreignRequests, shot } = h;

// In the page: open every visible Table toggle under root (a hidden card's plots have no data
// yet) -> [{label, caption, columns, rows, firstRow}]
async function openAll(page, root) {
  return page.$$eval(`${root} .plot-export-table`, (buttons) => buttons.filter((b) => b.offsetParent !== null).map((b) => {
    b.click();
    const box = document.getElementById(b.getAttribute('aria-controls'));
    const t = box.querySelector('table');
    return {
      label: b.getAttribute('aria-label'), pressed: b.getAttribute('aria-pressed'), hidden: box.hidden, after: b.parentElement.nextElementSibling === box,
      caption: t ? t.caption.textContent : box.textContent, columns: t ? t.tHead.rows[0].cells.length : 0,
      rows: t ? t.tBodies[0].rows.length : 0, firstRow: t && t.tBodies[0].rows[0] ? [...t.tBodies[0].rows[0].cells].map((c) => c.textContent).join(' | ') : '',
    };
  }));
}

function check(tables, view, min) {
  assert(tables.length >= min, `${view}: ${tables.length} Table toggles, expected at least ${min}`);
  for (const t of tables) {
    assert(t.pressed === 'true' && !t.hidden && t.after, `${view}: ${t.label} did not open under its control`);
    assert(t.columns >= 2 && t.rows >= 1 && t.firstRow.length > 0, `${view}: ${t.label}: ${t.caption} (${t.columns} columns, ${t.rows} rows)`);
  }
  console.log(`     (${view}: ${tables.length} tables; e.g. "${tables[0].caption}": ${tables[0].firstRow.slice(0, 80)})`);
}

await test('table view: the heatmap\'s numbers as a table', async () => {
  const page = await openPage('#view=table&V=6&D=3&seed=123');
  await waitRenders(page, 'table', 0);
  const tables = await openAll(page, '#view-table');
  check(tables, 'table', 1);
  const cells = await page.$$eval('.plot-data-table table', (ts) => ts[0].tBodies[0].rows[0].cells.length);
  assert(cells === 4, `V=6 D=3: a row has ${cells} cells, expected the token id and 3 values`);
  await page.locator('#table-plot').screenshot({ path: shot('plot-table-heatmap.png') });
  // closes again, and opens from the keyboard
  await page.click('#view-table .plot-export-table');
  assert(await page.$eval('#view-table .plot-data-table', (el) => el.hidden), 'did not close');
  await page.focus('#view-table .plot-export-table');
  await page.keyboard.press('Enter');
  assert(!(await page.$eval('#view-table .plot-data-table', (el) => el.hidden)), 'Enter did not open it');
  await page.close();
});

await test('positions view: every heatmap, the RoPE chart and the length strips as tables', async () => {
  const page = await openPage('#view=positions&T=16&pd=8&seed=42');
  await waitRenders(page, 'positions', 0, 30000);
  await animationFrames(page);
  const tables = await openAll(page, '#view-positions');
  check(tables, 'positions', 6);
  await page.locator('#positions-rope').screenshot({ path: shot('plot-table-rope.png') });
  await page.close();
});

// In the page: every shown heatmap under root -> {card title, whether its card has a drawn colour bar}
async function heatmapLegends(page, root) {
  return page.$$eval(`${root} canvas.heatmap-canvas`, (canvases) => canvases.filter((c) => c.offsetParent !== null).map((c) => {
    const card = c.closest('article.card');
    const bars = [...card.querySelectorAll('canvas.legend-canvas')].filter((l) => l.offsetParent !== null && l.width > 0);
    const drawn = bars.some((l) => {
      const d = l.getContext('2d').getImageData(0, 0, l.width, l.height).data;
      let ink = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i] > 0) ink++;
      return ink > 100;
    });
    return { card: card.querySelector('h3').textContent.trim(), drawn };
  }));
}

await test('a colour bar on every heatmap: table, BPE, positions (tables, similarities, attention biases), learned vs sinusoidal', async () => {
  for (const [hash, view, min] of [['#view=table&D=8', 'table', 1], ['#view=bpe', 'bpe', 1], ['#view=positions&T=16&pd=8&seed=42', 'positions', 6 + 16], ['#view=train', 'train', 3]]) {
    const page = await openPage(hash);
    await waitRenders(page, view, 0, 30000);
    if (view === 'train') await page.waitForFunction(() => !document.querySelector('#train-pos-card').hidden && /^colour: cosine from/.test(document.querySelector('#train-pos-sin-range').textContent), null, { timeout: 30000 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const maps = await heatmapLegends(page, `#view-${view}`);
    assert(maps.length >= min, `${view}: ${maps.length} heatmaps shown, expected at least ${min}`);
    const bare = maps.filter((m) => !m.drawn).map((m) => m.card);
    assert(bare.length === 0, `${view}: heatmaps without a drawn colour bar in: ${[...new Set(bare)].join(', ')}`);
    if (view === 'positions') {
      // sinusoidal cosines span about 0.4 to 1: a scale fitted to them, the range said over the plot and drawn by the bar
      const r = await page.$eval('.card[data-kind="sinusoidal"]', (c) => ({ title: c.querySelectorAll('.subplot-title')[1].textContent, domain: c.querySelector('[data-plot="similarity"] .heatmap').dataset.domain }));
      const m = /colour: cosine from (0\.\d+) \(dark\) to 1 \(light\), this matrix's range$/.exec(r.title);
      assert(m, r.title);
      const [lo, hi] = r.domain.split(' ').map(Number);
      assert(Math.abs(lo - Number(m[1])) < 1e-3 * Math.abs(lo) && Math.abs(hi - 1) < 1e-6 && lo > 0.2, `drawn domain ${r.domain}, stated ${m[1]} to 1`);
    }
    if (view === 'train') {
      // learned vs sinusoidal: each panel states its range; sinusoidal cosines (all > 0) get a fitted scale
      assert(/^colour: cosine from 0\.\d+ \(dark\) to 1 \(light\), this matrix's range$/.test(await page.textContent('#train-pos-sin-range')), await page.textContent('#train-pos-sin-range'));
      await page.locator('#train-pos-card').screenshot({ path: shot('train-learned-vs-sinusoidal.png') });
    }
    await page.close();
  }
});

await test('no console errors and no requests to other origins', async () => {
  assert(consoleErrors.length === 0, consoleErrors.join('\n'));
  assert(foreignRequests.length === 0, foreignRequests.join('\n'));
});

await h.finish();
