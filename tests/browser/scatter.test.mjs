// Browser test of the WebGL map of "Bring your own table" (issue 10, "Seeing a big table"): a
// table of 262,144 rows x 8 (Gemma's vocabulary size; six clusters of random vectors) with a
// metadata.tsv (label, group, score) is imported; every row is drawn, hover shows a label in the
// pointermove's own task (no worker round trip, no frame wait), search highlights the right count, a lasso selects the rows whose map position lies in it
// (checked against a plain point-in-polygon loop here), the selection exports as TSV, colouring
// by `group` changes the picture. The map is drawn in its own worker (issue 24): the page cannot
// get a context of the map's canvas, the worker's pixels are where the points are (with its CPU
// rasteriser and, forced, with WebGL2), and a drag redraws in the worker while the pointer moves.
// Hover latency, redraws per second and the main thread's long tasks while panning are measured
// by scripts/bench page.
//   node tests/browser/scatter.test.mjs [--site build/web] [--shots build/screenshots]
import fs from 'node:fs';
import path from 'node:path';
import { assert, repo, screenshotStats, startHarness } from './harness.mjs';
import { rng } from '../js/table-files.mjs';

const h = await startHarness('scatter tests');
const { test, openPage, consoleErrors, foreignRequests, shot } = h;

const N = 262144;
const D = 8;
const GROUPS = 6;
const WORDS = ['alpha', 'Beta', 'gamma', 'DELTA'];

// a 32-bit LCG (table-files.mjs) -> uniform [0, 1); Box-Muller for normals
const rand = rng(7);
const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
const centres = Array.from({ length: GROUPS }, () => Array.from({ length: D }, () => 6 * rand() - 3));
const table = new Float32Array(N * D);
const group = new Uint8Array(N);
for (let i = 0; i < N; i++) {
  const g = Math.floor(rand() * GROUPS);
  group[i] = g;
  for (let c = 0; c < D; c++) table[i * D + c] = centres[g][c] + 0.55 * normal();
}
const labels = Array.from({ length: N }, (_, i) => `${WORDS[i % 4]}_${i}`);

// .npy v1.0: magic, header length (uint16 LE), a Python dict literal padded to 64 bytes, data
function npy(data, shape) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}), }`;
  header += ' '.repeat(64 - ((10 + header.length + 1) % 64)) + '\n';
  const head = Buffer.alloc(10);
  Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]).copy(head);
  head.writeUInt16LE(header.length, 8);
  return Buffer.concat([head, Buffer.from(header, 'latin1'), Buffer.from(data.buffer, data.byteOffset, data.byteLength)]);
}
const vectors = npy(table, [N, D]);
const metadata = Buffer.from(`label\tgroup\tscore\n${labels.map((l, i) => `${l}\tg${group[i]}\t${(i % 1000) / 10}`).join('\n')}\n`);

const median = (a) => [...a].sort((x, y) => x - y)[Math.floor((a.length - 1) / 2)];
const MAP = '#import-map .gl-scatter';
// the worker has drawn the map as it is now, and the page has composited two more frames
const settle = (page) => page.evaluate(async (sel) => {
  await document.querySelector(sel)?.glScatter?.nextFrame();
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
}, MAP);

let page;
let frameBox;
// the map's frame in viewport pixels, measured when used (element screenshots scroll the page)
const frameNow = async () => {
  await page.$eval('#import-map', (el) => el.scrollIntoView({ block: 'center' }));
  return page.locator(`${MAP} .gl-scatter-frame`).boundingBox();
};
await test('262,144 rows with metadata are imported and every row is drawn', async () => {
  page = await openPage('#view=table');
  await page.setInputFiles('#import-meta', { name: 'metadata.tsv', mimeType: 'text/tab-separated-values', buffer: metadata });
  await page.setInputFiles('#import-file', { name: 'vectors.npy', mimeType: 'application/octet-stream', buffer: vectors });
  await page.waitForSelector(`${MAP}[data-drawn]`, { timeout: 60000 });
  const d = await page.$eval(MAP, (el) => ({ ...el.dataset }));
  assert(d.points === String(N) && d.drawn === String(N), `points ${d.points}, drawn ${d.drawn}`);
  const note = await page.textContent('#import-map-note');
  assert(/PCA keeps \d+\.\d% of the variance/.test(note), `map note: ${note}`);
  await page.$eval('#import-card', (el) => el.scrollIntoView());
  await settle(page);
  frameBox = await page.locator(`${MAP} .gl-scatter-frame`).boundingBox();
  const s = await screenshotStats(page, '#import-map');
  assert(s.saturated > 5000 && s.variance > 50, `map looks blank: ${JSON.stringify(s)}`);
  await page.locator('#import-results').screenshot({ path: shot('scatter-map.png') });
  console.log(`     (${N.toLocaleString('en')} points drawn; ${s.saturated} coloured pixels)`);
});

// The pixels of the worker's frame at the projections of some rows (each is under a disc of the
// base colour, blended over the others) and at the frame's corners beyond every point.
async function probeMap(p) {
  return p.evaluate(async (sel) => {
    const sc = document.querySelector(sel).glScatter;
    const { points, n } = sc.data;
    const [w, h] = sc.size();
    const at = [];
    for (let row = 7; at.length < 40 && row < n; row += 6007) {
      const [x, y] = sc.project(points[2 * row], points[2 * row + 1]);
      if (x > 2 && y > 2 && x < w - 2 && y < h - 2) at.push([x, y]);
    }
    // the emptiest corner: no point within 6 px of it
    const corners = [[1, 1], [w - 2, 1], [1, h - 2], [w - 2, h - 2]].filter(([cx, cy]) => {
      for (let i = 0; i < n; i++) {
        const [x, y] = sc.project(points[2 * i], points[2 * i + 1]);
        if (Math.abs(x - cx) < 6 && Math.abs(y - cy) < 6) return false;
      }
      return true;
    });
    const r = await sc.probe([...at, ...corners]);
    return { ...r, points: at.length, corners: corners.length, w, h, dpr: devicePixelRatio, renderer: sc.root.dataset.renderer, reason: sc.root.dataset.rendererReason };
  }, MAP);
}

await test('the map is drawn in a worker: the page cannot get its canvas\'s context, and the worker\'s pixels are where the points are', async () => {
  // structural: the canvas was handed to the worker (transferControlToOffscreen), so the main
  // thread owns no WebGL (or 2-D) context of it; asking for one throws InvalidStateError
  const owner = await page.$eval(`${MAP} canvas.gl-scatter-points`, (c) => ['webgl2', 'webgl', '2d'].map((type) => {
    try {
      return `${type}: ${c.getContext(type) ? 'got a context' : 'null'}`;
    } catch (err) {
      return `${type}: ${err.name}`;
    }
  }));
  assert(owner.every((o) => /InvalidStateError$/.test(o)), `the page could get a context of the map canvas: ${owner.join(', ')}`);
  const r = await probeMap(page);
  // headless Chromium with --disable-gpu has only SwiftShader: the worker's CPU rasteriser draws
  assert(r.renderer === 'canvas' && /software WebGL/.test(r.reason), `renderer ${r.renderer} (${r.reason})`);
  const bg = [255, 255, 255];
  const onPoints = r.pixels.slice(0, r.points);
  assert(r.points >= 30 && onPoints.every((px) => px.join() !== bg.join()), `background under a point: ${JSON.stringify(onPoints)}`);
  assert(r.corners >= 1 && r.pixels.slice(r.points).every((px) => px.join() === bg.join()), `corners: ${JSON.stringify(r.pixels.slice(r.points))}`);
  const area = r.w * r.h * r.dpr * r.dpr;
  assert(r.covered > 0.05 * area && r.covered < 0.9 * area, `${r.covered} of ${area} pixels covered`);
  console.log(`     (${owner.join(', ')}; renderer ${r.renderer}: ${r.reason}; ${r.covered} of ${area} pixels covered)`);
});

await test('?scatter=webgl2 draws the same map with WebGL2 in the worker (SwiftShader here), pixel for pixel within blending rounding', async () => {
  const p = await openPage('#view=table', { query: '?scatter=webgl2' });
  await p.setInputFiles('#import-file', { name: 'vectors.npy', mimeType: 'application/octet-stream', buffer: vectors });
  await p.waitForSelector(`${MAP}[data-drawn]`, { timeout: 60000 });
  await p.setViewportSize({ width: 1360, height: 900 });
  const gl = await probeMap(p);
  await p.close();
  const cpu = await (async () => {
    const q = await openPage('#view=table', { query: '?scatter=canvas' });
    await q.setInputFiles('#import-file', { name: 'vectors.npy', mimeType: 'application/octet-stream', buffer: vectors });
    await q.waitForSelector(`${MAP}[data-drawn]`, { timeout: 60000 });
    const r = await probeMap(q);
    await q.close();
    return r;
  })();
  assert(gl.renderer === 'webgl2' && cpu.renderer === 'canvas', `renderers ${gl.renderer}, ${cpu.renderer}`);
  assert(gl.points === cpu.points && gl.pixels.length === cpu.pixels.length, `probes differ: ${gl.points} vs ${cpu.points} points`);
  const worst = Math.max(...gl.pixels.flatMap((px, i) => px.map((v, c) => Math.abs(v - cpu.pixels[i][c]))));
  assert(worst <= 3, `WebGL2 and the rasteriser differ by up to ${worst} at the probes: ${JSON.stringify(gl.pixels.slice(0, 4))} vs ${JSON.stringify(cpu.pixels.slice(0, 4))}`);
  assert(Math.abs(gl.covered - cpu.covered) <= 0.02 * cpu.covered, `covered pixels: WebGL2 ${gl.covered}, rasteriser ${cpu.covered}`);
  console.log(`     (WebGL2: ${gl.covered} pixels covered, rasteriser: ${cpu.covered}; largest channel difference at ${gl.pixels.length} probes: ${worst})`);
});

await test('an unknown ?scatter= value is named in the map note, as text, and the automatic renderer draws', async () => {
  const p = await openPage('#view=table', { query: '?scatter=%3Cb%3Evulkan%3C%2Fb%3E' });
  await p.setInputFiles('#import-file', { name: 'small.npy', mimeType: 'application/octet-stream', buffer: npy(table.subarray(0, 500 * D), [500, D]) });
  await p.waitForSelector(`${MAP}[data-drawn="500"]`, { timeout: 60000 });
  const r = await p.evaluate((sel) => ({ note: document.querySelector('#import-map-note').textContent, bold: document.querySelectorAll('#import-map-note b').length, renderer: document.querySelector(sel).dataset.renderer }), MAP);
  await p.close();
  assert(r.note.includes("Note: unknown map renderer '<b>vulkan</b>' in ?scatter= (expected auto, webgl2, canvas); using auto."), `note: ${r.note}`);
  assert(r.bold === 0 && r.renderer === 'canvas', `markup in the note: ${r.bold}; renderer ${r.renderer}`);
});

await test('hover shows the label and row of the point under the mouse, in the pointermove\'s own task', async () => {
  // a point, its screen position, and (brute force, here) the row nearest to that pixel
  await page.evaluate(() => {
    const tip = document.querySelector('#import-map .gl-scatter .tooltip');
    window.__hover = [];
    // a listener on the map's frame added after the map's own runs after it, within the same event
    document.querySelector('#import-map .gl-scatter-frame').addEventListener('pointermove', () => window.__hover.push(tip.textContent));
  });
  const sync = [];
  for (let k = 0; k < 9; k++) {
    const probe = await page.evaluate(([k, N]) => {
      const sc = document.querySelector('#import-map .gl-scatter').glScatter;
      const p = sc.data.points;
      const [w, hh] = sc.size();
      let row = (k * 40009 + 123) % N;
      for (;; row = (row + 1) % N) {
        const [x, y] = sc.project(p[2 * row], p[2 * row + 1]);
        if (x > 20 && x < w - 20 && y > 20 && y < hh - 20) break;
      }
      const [x, y] = sc.project(p[2 * row], p[2 * row + 1]).map(Math.round);
      let best = -1;
      let bd = 64;
      for (let i = 0; i < N; i++) {
        const [px, py] = sc.project(p[2 * i], p[2 * i + 1]);
        const d = (px - x) ** 2 + (py - y) ** 2;
        if (d < bd || (d === bd && i < best)) [bd, best] = [d, i];
      }
      return { x, y, best, label: sc.data.labels[best] };
    }, [k, N]);
    const before = await page.evaluate(() => window.__hover.length);
    frameBox = await frameNow(); // where the frame is now (an element screenshot may have scrolled the page)
    await page.mouse.move(frameBox.x + probe.x, frameBox.y + probe.y);
    const want = `${probe.label} · row ${probe.best} ·`;
    await page.waitForFunction((w) => document.querySelector('#import-map .gl-scatter .tooltip').textContent.startsWith(w), want, { timeout: 5000 })
      .catch(async () => { throw new Error(`tooltip "${await page.textContent(`${MAP} .tooltip`)}", expected ${probe.label} (row ${probe.best})`); });
    // the text was already there when the pointermove that brought the mouse here ended
    const during = await page.evaluate((n) => window.__hover.slice(n), before);
    assert(during.some((t) => t.startsWith(want)), `the tooltip was ${JSON.stringify(during)} at the end of each pointermove, "${want}…" only later`);
    sync.push(during.length);
  }
  await page.locator('#import-results').screenshot({ path: shot('scatter-hover.png') });
  console.log(`     (the tooltip named the point at the end of the pointermove that reached it, for all ${sync.length} points; ${sync.reduce((a, b) => a + b, 0)} pointermoves)`);
});

await test('search highlights the matching labels and counts them', async () => {
  for (const q of ['beta_77', '12345', 'DELTA_1000']) {
    const lower = q.toLowerCase();
    const expected = labels.filter((l, i) => l.toLowerCase().includes(lower) || (/^\d+$/.test(q) && i === Number(q))).length;
    await page.fill('#import-search', q);
    await page.press('#import-search', 'Enter');
    // generous: under --disable-gpu each redraw holds the main thread for seconds (docs/development.md, toolchain notes)
    await page.waitForFunction((n) => document.querySelector('#import-map').dataset.matches === String(n), expected, { timeout: 20000 });
    const note = await page.textContent('#import-search-note');
    assert(note.startsWith(`${expected.toLocaleString('en')} of 262,144 rows match`), `note: ${note}`);
    console.log(`     (${JSON.stringify(q)}: ${expected} matches)`);
  }
  await page.fill('#import-search', 'beta_7');
  await page.press('#import-search', 'Enter');
  const beta7 = labels.filter((l) => l.toLowerCase().includes('beta_7')).length;
  await page.waitForFunction((n) => document.querySelector('#import-map').dataset.matches === String(n), beta7, { timeout: 20000 });
  await settle(page);
  await page.locator('#import-results').screenshot({ path: shot('scatter-search.png') });
  await page.fill('#import-search', '');
  await page.press('#import-search', 'Enter');
});

let selected;
await test('shift+drag draws a lasso; the rows inside are selected, listed and exported as TSV', async () => {
  frameBox = await frameNow();
  const [w, hh] = [frameBox.width, frameBox.height];
  const poly = [[0.35, 0.2], [0.62, 0.3], [0.7, 0.65], [0.5, 0.8], [0.3, 0.6]].map(([a, b]) => [Math.round(a * w), Math.round(b * hh)]);
  await page.keyboard.down('Shift');
  await page.mouse.move(frameBox.x + poly[0][0], frameBox.y + poly[0][1]);
  await page.mouse.down();
  for (const [x, y] of [...poly.slice(1), poly[0]]) await page.mouse.move(frameBox.x + x, frameBox.y + y, { steps: 8 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await page.waitForFunction(() => Number(document.querySelector('#import-map').dataset.selected) > 0, null, { timeout: 5000 });
  // the same polygon in screen pixels, tested here by ray casting against every projected point
  const cmp = await page.evaluate((poly) => {
    const sc = document.querySelector('#import-map .gl-scatter').glScatter;
    const p = sc.data.points;
    const inside = (x, y) => {
      let c = false;
      for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
        const [xi, yi] = poly[i];
        const [xj, yj] = poly[j];
        if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
      }
      return c;
    };
    const expected = [];
    for (let i = 0; i < p.length / 2; i++) {
      const [x, y] = sc.project(p[2 * i], p[2 * i + 1]);
      if (inside(x, y)) expected.push(i);
    }
    const got = new Set(sc.selection);
    const exp = new Set(expected);
    return { expected: expected.length, got: got.size, missing: expected.filter((r) => !got.has(r)).length, extra: [...got].filter((r) => !exp.has(r)).length };
  }, poly);
  assert(cmp.got > 1000, `only ${cmp.got} rows selected`);
  assert(cmp.missing + cmp.extra <= Math.max(2, cmp.expected * 1e-4), `lasso: ${JSON.stringify(cmp)}`);
  selected = cmp.got;
  const note = await page.textContent('#import-selection-note');
  assert(note.startsWith(`${selected.toLocaleString('en')} rows in the lasso`), `note: ${note}`);
  const items = await page.$$eval('#import-selection-list li', (li) => li.map((x) => x.textContent));
  assert(items.length === Math.min(50, selected), `${items.length} rows listed`);
  const [first] = items[0].split(/\s+/);
  assert(items[0].endsWith(labels[Number(first)]), `listed ${items[0]}`);
  await settle(page);
  await page.locator('#import-results').screenshot({ path: shot('scatter-lasso.png') });
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#import-export-selection')]);
  const text = fs.readFileSync(await dl.path(), 'utf8');
  const lines = text.trimEnd().split('\n');
  assert(dl.suggestedFilename() === 'embedlab-vectors-selection.tsv', `file name ${dl.suggestedFilename()}`);
  assert(lines[0] === 'row\tlabel\tx\ty' && lines.length === selected + 1, `export: ${lines.length - 1} rows, header ${lines[0]}`);
  const [row, label, x, y] = lines[1].split('\t');
  assert(label === labels[Number(row)] && Number.isFinite(Number(x)) && Number.isFinite(Number(y)), `export line ${lines[1]}`);
  console.log(`     (lasso: ${selected.toLocaleString('en')} rows, ${cmp.missing} missing and ${cmp.extra} extra against the ray-casting check; export ${dl.suggestedFilename()}, ${lines.length - 1} rows)`);
});

await test('colour by group: six categories with a legend change the picture; numeric and free-text columns', async () => {
  const none = await screenshotStats(page, '#import-map');
  await page.selectOption('#import-colour', { label: 'group' });
  await page.waitForSelector('#import-legend .map-legend-item');
  await settle(page);
  const byGroup = await screenshotStats(page, '#import-map');
  const buckets = (s) => s.hues.filter((v) => v > 0.01 * s.saturated).length;
  const legend = await page.$$eval('#import-legend .map-legend-item', (el) => el.map((x) => x.textContent));
  assert(legend.length === GROUPS, `legend: ${legend.join(', ')}`);
  assert(buckets(byGroup) >= buckets(none) + 3, `hue buckets none ${buckets(none)}, by group ${buckets(byGroup)}`);
  // the lassoed rows (drawn on top) are recoloured too: blue is no longer the commonest hue
  const top = (st) => st.hues.indexOf(Math.max(...st.hues));
  assert(top(byGroup) !== top(none), `the commonest hue stayed in bucket ${top(none)} (the selection kept its old colour?)`);
  await page.locator('#import-results').screenshot({ path: shot('scatter-group.png') });
  await page.selectOption('#import-colour', { label: 'score' });
  await page.waitForSelector('#import-legend canvas');
  await page.selectOption('#import-colour', { label: 'label' });
  await page.waitForFunction(() => /cannot colour the map/.test(document.querySelector('#import-legend').textContent));
  await page.selectOption('#import-colour', { label: 'group' });
  console.log(`     (hue buckets with >1% of the coloured pixels: ${buckets(none)} uncoloured, ${buckets(byGroup)} by group; legend ${legend.join(', ')})`);
});

// A ~2 s mouse drag (60 moves, one per animation frame) and the redraw after it. The worker's
// frames are counted by the map's data-draws attribute, which gl-scatter.js sets when the worker
// reports one drawn. The drag must be drawn while it happens (the worker draws the newest view at
// its own pace, so how many frames depends on the machine: at least one), the CSS transform that
// bridges the frames must be gone once the last view is drawn, and the view must have moved.
async function panDraws(p, box, k) {
  await p.evaluate(() => {
    const root = document.querySelector('#import-map .gl-scatter');
    window.__draws = { before: 0, during: 0, after: 0, phase: 'before' };
    window.__drawObs?.disconnect();
    window.__drawObs = new MutationObserver((l) => (window.__draws[window.__draws.phase] += l.length));
    window.__drawObs.observe(root, { attributes: true, attributeFilter: ['data-draws'] });
    window.addEventListener('pointerdown', () => (window.__draws.phase = 'during'), { once: true, capture: true });
    window.addEventListener('pointerup', () => (window.__draws.phase = 'after'), { once: true, capture: true });
  });
  const before = await p.evaluate(() => [...document.querySelector('#import-map .gl-scatter').glScatter.viewState.target]);
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  await p.mouse.move(cx, cy);
  await p.mouse.down();
  for (let i = 1; i <= 60; i++) {
    await p.mouse.move(cx + (k % 2 ? -1 : 1) * 3 * i, cy + 60 * Math.sin((i / 60) * 2 * Math.PI)); // 180 px sideways, a wave up and down
    await p.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
  }
  // the last view of the drag is drawn while the pointer is still down
  await p.waitForFunction(() => { const sc = document.querySelector('#import-map .gl-scatter').glScatter; return sc.drawnView === sc.viewState; }, null, { timeout: 60000 });
  await p.mouse.up();
  await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const r = await p.evaluate(() => ({ draws: { ...window.__draws }, transform: document.querySelector('#import-map .gl-scatter canvas.gl-scatter-points').style.transform,
    target: document.querySelector('#import-map .gl-scatter').glScatter.viewState.target }));
  assert(r.target[0] !== before[0] || r.target[1] !== before[1], 'the drag did not pan');
  assert(r.draws.during >= 1, `the worker drew ${r.draws.during} frames while the pointer was down`);
  assert(r.transform === '', `the frame of the last view is drawn, yet the canvas is still moved: "${r.transform}"`);
  return r.draws;
}

await test('panning with the mouse: the worker redraws the map while the pointer moves', async () => {
  const runs = [];
  for (let k = 0; k < 3; k++) runs.push(await panDraws(page, await frameNow(), k));
  console.log(`     (frames drawn while dragging: ${runs.map((r) => r.during).join(', ')})`);
});

await test('with GPU compositing on SwiftShader too, the worker redraws the map while the pointer moves', async () => {
  // the same software GL (SwiftShader through ANGLE), but Chromium composites on it too
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
    args: ['--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  try {
    const p = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    p.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
    p.on('request', (r) => !r.url().startsWith(h.url) && !r.url().startsWith('data:') && foreignRequests.push(r.url()));
    await p.goto(`${h.url}index.html#view=table`);
    await p.waitForSelector('body[data-engine="ready"]', { timeout: 15000 });
    const renderer = await p.evaluate(() => {
      const gl = document.createElement('canvas').getContext('webgl2');
      return gl.getParameter(gl.getExtension('WEBGL_debug_renderer_info').UNMASKED_RENDERER_WEBGL);
    });
    assert(/SwiftShader/.test(renderer), `renderer ${renderer}`);
    await p.setInputFiles('#import-meta', { name: 'metadata.tsv', mimeType: 'text/tab-separated-values', buffer: metadata });
    await p.setInputFiles('#import-file', { name: 'vectors.npy', mimeType: 'application/octet-stream', buffer: vectors });
    await p.waitForSelector(`${MAP}[data-drawn]`, { timeout: 60000 });
    await p.$eval('#import-card', (el) => el.scrollIntoView());
    await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const box = await p.locator(`${MAP} .gl-scatter-frame`).boundingBox();
    const runs = [];
    for (let k = 0; k < 3; k++) runs.push(await panDraws(p, box, k));
    const used = await p.$eval(MAP, (el) => el.dataset.renderer);
    console.log(`     (${renderer.slice(0, 60)}…, map drawn by the worker's ${used} renderer: frames drawn while dragging ${runs.map((r) => r.during).join(', ')})`);
  } finally {
    await browser.close();
  }
});

await test('keyboard zoom and pan on the focused map; reset view', async () => {
  const vs = () => page.evaluate(() => JSON.parse(JSON.stringify(document.querySelector('#import-map .gl-scatter').glScatter.viewState)));
  await page.focus(`${MAP} .gl-scatter-frame`);
  const a = await vs();
  await page.keyboard.press('+');
  await page.keyboard.press('Shift+ArrowRight');
  const b = await vs();
  assert(b.zoom === a.zoom + 0.5 && b.target[0] > a.target[0], `keys: ${JSON.stringify([a, b])}`);
  await page.click('#import-reset');
  const c = await vs();
  assert(c.target[0] === 0 && c.target[1] === 0, `reset: ${JSON.stringify(c)}`);
});

await test('arrow keys walk from point to point in their direction; the live region names the point and its nearest rows', async () => {
  await page.focus(`${MAP} .gl-scatter-frame`);
  const focused = () => page.$eval(MAP, (el) => Number(el.dataset.focusRow ?? -1));
  const screen = (row) => page.evaluate((r) => {
    const sc = document.querySelector('#import-map .gl-scatter').glScatter;
    return sc.project(sc.data.points[2 * r], sc.data.points[2 * r + 1]);
  }, row);
  await page.keyboard.press('ArrowRight'); // the first press picks the point nearest the centre
  const start = await focused();
  assert(start >= 0, 'no point focused');
  const steps = [];
  for (const [key, axis, sign] of [['ArrowRight', 0, 1], ['ArrowDown', 1, 1], ['ArrowLeft', 0, -1], ['ArrowUp', 1, -1]]) {
    const from = await focused();
    const a = await screen(from);
    await page.keyboard.press(key);
    const to = await focused();
    const b = await screen(to);
    const along = (b[axis] - a[axis]) * sign;
    const across = Math.abs(b[1 - axis] - a[1 - axis]);
    assert(to !== from && along > 0 && across <= along + 1e-6, `${key}: ${from} -> ${to} (${JSON.stringify([a, b])})`);
    steps.push(`${key} ${from}->${to}`);
  }
  const row = await focused();
  // the line for the last point reached (an earlier point's line may still be showing)
  await page.waitForFunction((r) => new RegExp(`, row ${r}; nearest by cosine: .+\\(`).test(document.querySelector('#import-map-focus').textContent), row, { timeout: 10000 });
  const said = await page.textContent('#import-map-focus');
  assert(said.includes(`row ${row}`) && (await page.$eval('#import-map-focus', (el) => el.getAttribute('aria-live'))) === 'polite', `live region: ${said}`);
  await page.keyboard.press('Escape');
  assert((await page.$eval(`${MAP} .tooltip`, (el) => el.hidden)), 'Escape did not leave the point');
  console.log(`     (${steps.join(', ')}; "${said.slice(0, 110)}…")`);
});

await test('axe-core: no serious or critical violation in the loaded import card (map, tools, legend, selection)', async () => {
  await page.evaluate(fs.readFileSync(path.join(repo, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8'));
  const found = await page.evaluate(async () => {
    const r = await window.axe.run('#import-card', { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
  assert(found.length === 0, found.join('; '));
});

await test('no console errors and no requests to other origins', async () => {
  assert(consoleErrors.length === 0, `console errors: ${consoleErrors.join(' | ')}`);
  assert(foreignRequests.length === 0, `foreign requests: ${foreignRequests.join(' ')}`);
});

await h.finish();
