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

await test('no console errors and no requests to other origins', async () => {
  assert(consoleErrors.length === 0, consoleErrors.join('\n'));
  assert(foreignRequests.length === 0, foreignRequests.join('\n'));
});

await h.finish();
