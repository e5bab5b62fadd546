// Keyboard-only use of the page (issue 11, "Keyboard"), in headless Chromium. Every step below is
// a key press through page.keyboard (Tab, Shift+Tab, arrows, Home/End, Enter, Space, Escape,
// typing); the test never clicks, focuses or calls an element's methods. The one exception is
// setInputFiles for the imported table, which stands in for the operating system's file dialog.
// - On every view, Tab walks through the page until it comes back to where it started; every
//   visible, enabled control of the view (links, buttons, fields, selects, file inputs, sliders,
//   focusable plots and scroll regions, the plots' PNG / SVG / Table buttons, Embed buttons) must
//   have had the focus, each with a visible focus indicator (an outline or a box-shadow). Any
//   control never reached is named in the failure.
// - Shift+Tab walks the same order backwards.
// - The views are switched with the arrow keys on the tablist (the ARIA tabs pattern).
// - Settings change from the keyboard and the plot follows: T typed into its field, the colour
//   map and the theme changed with the arrow keys on their selects.
// - The plots' Table toggle opens with Space, an Embed button shows its snippets with Enter.
// - A chip of the text view is picked with the arrow keys and Enter; a row of the table heatmap
//   with the arrow keys.
// - Training starts with Enter on Play and pauses with Space; BPE merges with Enter.
// - An imported table (a small .npy and its metadata.tsv): Tab reaches the map's new controls
//   and the map; the arrow keys walk from point to point and the live region names the point
//   and its nearest rows; Escape leaves the point.
//   node tests/browser/keyboard.test.mjs [--site build/web] [--shots build/screenshots]
// Prints one line per test and `keyboard tests: N passed, M failed`; exits 1 on any failure.
import { assert, canvasStats, startHarness, waitRenders, workerStep } from './harness.mjs';

const h = await startHarness('keyboard tests');
const { consoleErrors, foreignRequests, shot } = h;
const only = process.env.KEYBOARD_ONLY ? new RegExp(process.env.KEYBOARD_ONLY) : null;
const test = (title, fn) => (only && !only.test(title) ? Promise.resolve() : h.test(title, fn));

const VIEWS = ['table', 'text', 'bpe', 'windows', 'positions', 'train']; // the tabs' order (the notebooks')
const settle = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

// Marks every control the keyboard must reach in the page as it is now: visible (rendered, not in
// a hidden subtree), enabled, and a native control (whatever its tabindex: a button taken out of
// the tab order counts as unreachable) or an element made focusable with tabindex >= 0. The tabs
// other than the selected one are left out (the arrow keys reach them: roving tabindex), and so are
// the radios of a group other than its checked one (one tab stop per group; arrows move in it).
// -> [name] (data-kb).
function markControls(page) {
  return page.evaluate(() => {
    const native = 'a[href], button, input:not([type=hidden]), select, textarea, summary';
    const sel = `${native}, [tabindex], [contenteditable=true]`;
    const names = [];
    let k = 0;
    for (const el of document.querySelectorAll('[data-kb]')) delete el.dataset.kb;
    for (const el of document.querySelectorAll(sel)) {
      if (el.disabled || el.closest('[hidden], [inert]') || !el.getClientRects().length) continue;
      const cs = getComputedStyle(el);
      if (cs.visibility === 'hidden' || cs.display === 'none') continue;
      if (el.getAttribute('role') === 'tab' && el.getAttribute('aria-selected') !== 'true') continue;
      // a radio group is one tab stop (its checked radio), the arrow keys move within it
      if (el.matches('input[type=radio]') && el.name) {
        const group = [...document.querySelectorAll(`input[type=radio][name="${CSS.escape(el.name)}"]`)];
        if (el !== (group.find((r) => r.checked) || group[0])) continue;
      }
      if (el.tabIndex < 0 && !el.matches(native)) continue; // focus targets only (main, tabpanels)
      const label = el.id ? `#${el.id}` : '';
      const text = (el.getAttribute('aria-label') || el.textContent || el.getAttribute('placeholder') || el.className || '').trim().replace(/\s+/g, ' ').slice(0, 60);
      const name = `${el.tagName.toLowerCase()}${label} "${text}" [${k++}]`;
      el.dataset.kb = name;
      names.push(name);
    }
    return names;
  });
}

// Things the mouse can operate (pointer cursor) that the keyboard cannot: not a control, not in
// one (a label of a field counts as its field), not a tab stop with a widget role (button, ...),
// and not an item of a composite widget that moves a current item with the arrow keys
// (aria-activedescendant) -> [descriptions]
function mouseOnly(page) {
  return page.evaluate(() => {
    const out = [];
    for (const el of document.querySelectorAll('main *, .panel *, .topbar *')) {
      if (el.closest('[hidden]') || !el.getClientRects().length) continue;
      if (getComputedStyle(el).cursor !== 'pointer') continue;
      if (el.parentElement && getComputedStyle(el.parentElement).cursor === 'pointer') continue; // reported with its parent
      if (el.closest('a[href], button, input, select, textarea, summary, label, [tabindex]:not([tabindex="-1"])')) {
        const host = el.closest('[tabindex]:not([tabindex="-1"])');
        if (!host || host.matches('a[href], button, input, select, textarea, summary') || el.closest('a[href], button, input, select, textarea, summary, label')) continue;
        if (host.hasAttribute('aria-activedescendant') || ['listbox', 'grid', 'tree', 'application', 'button', 'link', 'checkbox', 'switch', 'option', 'menuitem'].includes(host.getAttribute('role'))) continue;
      }
      out.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className} "${el.textContent.trim().slice(0, 30)}"`);
      if (out.length >= 8) break;
    }
    return out;
  });
}

// What has the focus: its data-kb name, a description, and whether a focus indicator is drawn.
const focused = (page) =>
  page.evaluate(() => {
    const a = document.activeElement;
    if (!a || a === document.body) return { kb: null, desc: 'body', ring: true };
    const cs = getComputedStyle(a);
    const ring = (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0) || (cs.boxShadow && cs.boxShadow !== 'none');
    return { kb: a.dataset.kb || null, desc: `${a.tagName.toLowerCase()}${a.id ? `#${a.id}` : ''}.${a.className}`, ring, view: a.dataset.view || '', role: a.getAttribute('role') || '' };
  });

// Tab from where the focus is until the walk comes back to its first stop (or `limit` presses):
// -> {order: [kb names in tab order], noRing: [names focused without an indicator], unmarked}
async function tabWalk(page, limit) {
  const order = [];
  const noRing = [];
  const unmarked = new Set();
  let first = null;
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    if (f.kb === null) {
      if (f.desc !== 'body') unmarked.add(f.desc); // a tab stop the marking did not expect
      continue;
    }
    if (f.kb === first) break;
    if (first === null) first = f.kb;
    order.push(f.kb);
    if (!f.ring) noRing.push(f.kb);
  }
  return { order, noRing, unmarked: [...unmarked] };
}

// Tab (forwards) until the focused element satisfies pred (a function run in the page on
// document.activeElement), at most limit presses -> the number of presses.
async function tabTo(page, pred, what, limit = 400) {
  for (let i = 1; i <= limit; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(pred)) return i;
  }
  throw new Error(`Tab never reached ${what} in ${limit} presses`);
}

// Every control of the page reached by Tab, each with a focus indicator; Shift+Tab walks back.
async function checkCoverage(page, label) {
  const controls = await markControls(page);
  assert(controls.length > 5, `${label}: only ${controls.length} controls found`);
  const mouse = await mouseOnly(page);
  assert(mouse.length === 0, `${label}: the mouse operates these, the keyboard cannot: ${mouse.join(', ')}`);
  const walk = await tabWalk(page, controls.length * 2 + 40);
  const reached = new Set(walk.order);
  const missing = controls.filter((c) => !reached.has(c));
  assert(missing.length === 0, `${label}: ${missing.length} of ${controls.length} controls never got the focus from Tab: ${missing.join(', ')}`);
  assert(walk.noRing.length === 0, `${label}: no visible focus indicator on ${walk.noRing.join(', ')}`);
  assert(walk.unmarked.length === 0, `${label}: Tab stopped on elements that are not visible controls: ${walk.unmarked.join(', ')}`);
  // Shift+Tab: three steps back from the focus retrace the forward order
  const at = walk.order.indexOf((await focused(page)).kb);
  if (at >= 3) {
    for (let k = 1; k <= 3; k++) {
      await page.keyboard.press('Shift+Tab');
      const f = await focused(page);
      assert(f.kb === walk.order[at - k], `${label}: Shift+Tab ${k} went to ${f.kb || f.desc}, expected ${walk.order[at - k]}`);
    }
  }
  return { controls: controls.length, stops: walk.order.length };
}

// From anywhere: Tab to the selected tab, then ArrowRight (wrapping) until `view` is shown.
async function switchView(page, view) {
  await tabTo(page, () => document.activeElement.getAttribute('role') === 'tab', 'the selected tab');
  for (let i = 0; i < VIEWS.length; i++) {
    const f = await focused(page);
    if (f.view === view) break;
    await page.keyboard.press('ArrowRight');
  }
  const f = await focused(page);
  assert(f.role === 'tab' && f.view === view, `ArrowRight on the tablist did not reach the ${view} tab (focus on ${f.desc})`);
  assert(!(await page.$eval(`#view-${view}`, (el) => el.hidden)), `the ${view} view is not shown after its tab got the focus`);
  await waitRenders(page, view, 0, 30000);
}

// Tab until the focus is on an element matching selector (what: its name in a failure)
async function tabToSelector(page, selector, what = selector) {
  await page.evaluate((s) => (window.__kbSel = s), selector);
  return tabTo(page, () => document.activeElement.matches(window.__kbSel), what);
}
const tabToId = (page, id) => tabToSelector(page, `#${id}`);

// ---------------------------------------------------------------------------------------------

const page = await h.openPage('#view=table');
await waitRenders(page, 'table', 0, 30000);
const counts = {};


for (const view of VIEWS) {
  await test(`${view} view: the tablist's arrow keys show it; Tab reaches every control, each with a focus indicator; Shift+Tab walks back`, async () => {
    if (view !== 'table') await switchView(page, view);
    await settle(page);
    counts[view] = await checkCoverage(page, view);
    console.log(`     (${counts[view].controls} controls, ${counts[view].stops} tab stops)`);
  });
}

await test('table view: the colour map and the theme change with the arrow keys on their selects, and the plot is redrawn', async () => {
  await switchView(page, 'table');
  const before = await page.$eval('#table-plot canvas', canvasStats);
  await tabToId(page, 'f-cmap');
  await page.keyboard.press('ArrowDown'); // puor -> rdbu
  await page.waitForFunction(() => location.hash.includes('cmap=rdbu'), null, { timeout: 5000 });
  await settle(page);
  const recoloured = await page.$eval('#table-plot canvas', canvasStats);
  assert(recoloured.hash !== before.hash, 'the heatmap did not change with the colour map');
  await page.keyboard.press('ArrowUp'); // back to puor
  await page.keyboard.press('Tab'); // -> theme
  assert((await focused(page)).desc.startsWith('select#f-theme'), `Tab after the colour map is on ${(await focused(page)).desc}`);
  await page.keyboard.press('End'); // -> dark
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark' && location.hash.includes('theme=dark'), null, { timeout: 5000 });
  await settle(page);
  const dark = await page.$eval('#table-plot canvas', canvasStats);
  assert(dark.hash !== before.hash, 'the heatmap was not redrawn for the dark theme');
  const bg = await page.evaluate(() => getComputedStyle(document.querySelector('.card')).backgroundColor);
  assert(bg === 'rgb(26, 31, 41)', `the card background in the dark theme is ${bg}`);
  await page.keyboard.press('Home'); // -> auto (the system here is light)
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'auto', null, { timeout: 5000 });
});

await test('table view: ArrowDown on the focused heatmap picks the next row; Space opens a plot\'s data table; Enter on Embed shows the snippets', async () => {
  await tabToSelector(page, '#table-plot canvas', 'the table heatmap');
  const tok0 = await page.inputValue('#f-tok');
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction((t) => document.getElementById("f-tok").value !== t, tok0, { timeout: 5000 }).catch(async () => { throw new Error(`ArrowDown on the heatmap (focus on ${(await focused(page)).desc}) did not change the picked token ${tok0}`); });
  const tok1 = await page.inputValue('#f-tok');
  assert(Number(tok1) === Number(tok0) + 1, `picked ${tok0} -> ${tok1}`);
  // two quick presses (before the view's redraw): each steps from the last picked row
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const tok3 = String(Number(tok0) + 3);
  await page.waitForFunction((t) => document.getElementById('f-tok').value === t, tok3, { timeout: 5000 })
    .catch(async () => { throw new Error(`two quick ArrowDowns from ${tok1} gave ${await page.inputValue('#f-tok')}, expected ${tok3}`); });
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction((t) => document.getElementById('f-tok').value === t, tok0, { timeout: 5000 })
    .catch(async () => { throw new Error(`three quick ArrowUps gave ${await page.inputValue('#f-tok')}, expected ${tok0}`); });
  await tabToSelector(page, '#view-table .plot-export-table', 'a Table button');
  await page.keyboard.press('Space');
  const opened = await page.evaluate(() => {
    const b = document.activeElement;
    const box = document.getElementById(b.getAttribute('aria-controls'));
    return { pressed: b.getAttribute('aria-pressed'), rows: box && !box.hidden ? box.querySelectorAll('tbody tr').length : 0 };
  });
  assert(opened.pressed === 'true' && opened.rows > 0, `Space on Table: ${JSON.stringify(opened)}`);
  await page.keyboard.press('Space'); // closes it again
  await tabToSelector(page, '#view-table .embed-button', 'an Embed button');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => [...document.querySelectorAll('#view-table .embed-snippets')].some((s) => !s.hidden && s.getClientRects().length), null, { timeout: 5000 })
    .catch(async () => {
      throw new Error(`Enter on the Embed button (focus on ${(await focused(page)).desc}) showed no snippets`);
    });
  await page.keyboard.press('Enter'); // and hides them
});

await test('positions view: T typed into its field (select all, type, Enter) redraws the cards', async () => {
  await switchView(page, 'positions');
  const renders = await page.$eval('#view-positions', (el) => Number(el.dataset.renders || 0));
  await tabToId(page, 'f-T');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('24');
  await page.keyboard.press('Enter');
  await waitRenders(page, 'positions', renders, 30000);
  const label = await page.$eval('#positions-cards canvas.heatmap-canvas', (c) => c.getAttribute('aria-label') || '');
  assert(await page.evaluate(() => location.hash.includes('T=24')), 'T=24 is not in the link');
  assert(label.length > 0, 'the redrawn heatmap has no name');
});

await test('text view: the arrow keys move along the token chips and Enter picks one (its row is shown)', async () => {
  await switchView(page, 'text');
  await tabToSelector(page, '#chips-holder .chips', 'the token chips');
  await page.keyboard.press('ArrowRight'); // the first press lands on the first chip
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const active = await page.evaluate(() => {
    const box = document.activeElement;
    const id = box.getAttribute('aria-activedescendant');
    const chip = id && document.getElementById(id);
    return chip ? { i: chip.dataset.i, current: chip.classList.contains('current') } : null;
  });
  assert(active && active.i === '2' && active.current, `after ArrowRight ×3 the current chip is ${JSON.stringify(active)}`);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => !document.getElementById('token-card').hidden, null, { timeout: 10000 });
  await page.waitForFunction(() => location.hash.includes('pick=2'), null, { timeout: 5000 });
  await page.keyboard.press('End');
  const last = await page.evaluate(() => document.getElementById(document.activeElement.getAttribute('aria-activedescendant'))?.dataset.i);
  assert(Number(last) > 2, `End went to chip ${last}`);
});

await test('BPE view: Enter on "Merge 1" merges one pair', async () => {
  await switchView(page, 'bpe');
  await tabToId(page, 'bpe-step1');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('#bpe-merges tbody tr').length === 1, null, { timeout: 20000 });
});

await test('train view: Enter on Play starts training, Space pauses it', async () => {
  await switchView(page, 'train');
  await tabToId(page, 'train-play');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => Number(document.getElementById('view-train').dataset.steps || 0) >= 3, null, { timeout: 30000 });
  await page.keyboard.press('Space');
  // a step in flight may still land; a neighbours reply comes after it (workerStep)
  const paused = await workerStep(page);
  await page.waitForFunction((s) => Number(document.getElementById('view-train').dataset.steps) === s, paused, { timeout: 10000 });
  const later = await workerStep(page);
  assert(later === paused && (await page.$eval('#view-train', (el) => Number(el.dataset.steps))) === paused, `steps went on after Space: ${paused} -> ${later}`);
  const label = await page.textContent('#train-play');
  assert(/play/i.test(label), `the button says "${label}" after the pause`);
});

await test('train view: Enter on a line chart\'s legend entry hides its line and shows it again (aria-pressed)', async () => {
  await tabToSelector(page, '#train-loss .u-legend th[role=button]', 'the loss legend entry');
  const pressed = () => page.evaluate(() => document.activeElement.getAttribute('aria-pressed'));
  const shown = () => page.evaluate(() => !document.querySelector('#train-loss .u-legend tr.u-series:nth-child(2)').classList.contains('u-off'));
  assert((await pressed()) === 'true' && (await shown()), 'the loss line is not shown at first');
  await page.keyboard.press('Enter');
  assert((await pressed()) === 'false' && !(await shown()), `Enter: aria-pressed ${await pressed()}, shown ${await shown()}`);
  await page.keyboard.press('Space');
  assert((await pressed()) === 'true' && (await shown()), `Space: aria-pressed ${await pressed()}, shown ${await shown()}`);
});

await page.close();

// ---------------------------------------------------------------------------------------------
// an imported table: the map's tools and the map by keyboard

const N = 600;
const D = 8;
function npy(data, shape) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}), }`;
  header += ' '.repeat(64 - ((10 + header.length + 1) % 64)) + '\n';
  const head = Buffer.alloc(10);
  Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]).copy(head);
  head.writeUInt16LE(header.length, 8);
  return Buffer.concat([head, Buffer.from(header, 'latin1'), Buffer.from(data.buffer, data.byteOffset, data.byteLength)]);
}
let seed = 11;
const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
const table = Float32Array.from({ length: N * D }, () => rand() * 2 - 1);
const labels = Array.from({ length: N }, (_, i) => `word${i}`);
const metadata = Buffer.from(`label\tgroup\n${labels.map((l, i) => `${l}\tg${i % 3}`).join('\n')}\n`);

await test('an imported table: Tab reaches the map\'s tools and the map; arrows walk between points; the live region names the point and its neighbours; Escape leaves it', async () => {
  const p = await h.openPage('#view=table');
  await waitRenders(p, 'table', 0, 30000);
  // the one step that is not a key press: the operating system's file dialog
  await p.setInputFiles('#import-meta', { name: 'metadata.tsv', mimeType: 'text/tab-separated-values', buffer: metadata });
  await p.setInputFiles('#import-file', { name: 'vectors.npy', mimeType: 'application/octet-stream', buffer: npy(table, [N, D]) });
  await p.waitForSelector('#import-map .gl-scatter[data-drawn]', { timeout: 60000 });
  await settle(p);
  const cov = await checkCoverage(p, 'table view with an imported table');
  console.log(`     (${cov.controls} controls, ${cov.stops} tab stops with the table's tools)`);
  await tabToSelector(p, '#import-map .gl-scatter-frame', 'the map');
  const row = () => p.$eval('#import-map .gl-scatter', (el) => Number(el.dataset.focusRow ?? -1));
  await p.keyboard.press('ArrowRight'); // the first press picks the point nearest the centre
  const start = await row();
  assert(start >= 0, 'no point has the focus after ArrowRight');
  const visited = [start];
  for (const key of ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp', 'ArrowRight']) {
    await p.keyboard.press(key);
    visited.push(await row());
  }
  assert(new Set(visited).size >= 3, `the arrow keys visited ${visited.join(', ')}`);
  const at = visited[visited.length - 1];
  // the live region: '"word12", row 12; nearest by cosine: "word301" (0.731), ...' (labels quoted)
  await p.waitForFunction((r) => new RegExp(`^"word${r}", row ${r}; nearest by cosine: "word\\d+" \\(`).test(document.getElementById('import-map-focus').textContent), at, { timeout: 10000 })
    .catch(async () => {
      throw new Error(`the live region says "${await p.textContent('#import-map-focus')}" for row ${at}`);
    });
  const said = await p.textContent('#import-map-focus');
  assert((await p.getAttribute('#import-map-focus', 'aria-live')) === 'polite', 'the focus note is not a polite live region');
  const tip = await p.$eval('#import-map .gl-scatter .tooltip', (t) => ({ hidden: t.hidden, text: t.textContent }));
  assert(!tip.hidden && tip.text.startsWith(`word${at} · row ${at}`), `tooltip: ${JSON.stringify(tip)}`);
  await p.locator('#import-results').screenshot({ path: shot('keyboard-map.png') });
  await p.keyboard.press('Escape');
  assert(await p.$eval('#import-map .gl-scatter .tooltip', (t) => t.hidden), 'Escape did not leave the point');
  console.log(`     (visited rows ${visited.join(' -> ')}; live region: "${said.slice(0, 100)}…")`);
  await p.close();
});

await test('no console errors and nothing requested from another origin', async () => {
  assert(consoleErrors.length === 0, consoleErrors.slice(0, 3).join(' | '));
  assert(foreignRequests.length === 0, foreignRequests.slice(0, 3).join(' | '));
});

await h.finish();
