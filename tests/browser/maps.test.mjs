// Browser test of the UMAP and t-SNE maps of the page (issue 12): a 5,000-row table (5 Gaussian
// clusters x 1,000 rows, 32 dims) with a metadata.tsv of its cluster labels is imported; UMAP is
// chosen and run: the map animates (distinct frames), the progress line advances, and the final
// map separates the clusters (share of
// each point's 10 nearest map neighbours with its label, from the drawn coordinates). Cancel
// stops a t-SNE run mid-way (its iteration stops increasing, the last frame stays, the line says
// so). Cancel during a t-SNE construction on 20,000 rows (its progress line "finding
// neighbours… N%") stops it within a slice and the worker answers the next request (the main thread's long tasks
// during these runs are measured by scripts/bench page). In the training view, UMAP of the table after some steps, then while playing each map
// continues from the previous one (points move, they do not jump).
// Issue 22, on a 1,000-row table: a new map fits itself to the view after the user zoomed the old
// one; "CSV 2-D" (and the map's Table and PNG) are of the map as drawn; a lasso drawn on PCA keeps
// its rows on UMAP without its old outline. (The training map's issue-22 cases: train-map.test.mjs.)
//   node tests/browser/maps.test.mjs [--site build/web] [--shots build/screenshots]
import fs from 'node:fs';
import path from 'node:path';
import { assert, repo, screenshotStats, startHarness } from './harness.mjs';
import { rng } from '../js/table-files.mjs';

const h = await startHarness('maps tests');
const { test, openPage, consoleErrors, foreignRequests, shot } = h;

const N = 5000;
const D = 32;
const K = 5;
// a 32-bit LCG (table-files.mjs) -> uniform [0, 1); Box-Muller for normals
const rand = rng(11);
const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
const centres = Array.from({ length: K }, () => Array.from({ length: D }, () => 8 * rand() - 4));
const table = new Float32Array(N * D);
const label = new Uint8Array(N);
for (let i = 0; i < N; i++) {
  const g = i % K;
  label[i] = g;
  for (let c = 0; c < D; c++) table[i * D + c] = centres[g][c] + normal();
}
function npy(data, shape) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}), }`;
  header += ' '.repeat(64 - ((10 + header.length + 1) % 64)) + '\n';
  const head = Buffer.alloc(10);
  Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]).copy(head);
  head.writeUInt16LE(header.length, 8);
  return Buffer.concat([head, Buffer.from(header, 'latin1'), Buffer.from(data.buffer, data.byteOffset, data.byteLength)]);
}
const vectors = npy(table, [N, D]);
const NAMES = ['apple', 'birch', 'cedar', 'dahlia', 'elm'];
const metadata = Buffer.from(`name\tcluster\n${Array.from(label, (g, i) => `${NAMES[g]}_${i}\t${NAMES[g]}`).join('\n')}\n`);

const MAP = '#import-map .gl-scatter';
const points = (page) => page.$eval(MAP, (el) => Array.from(el.glScatter.data.points));
const card = (page) => page.$eval('#import-card', (el) => ({ ...el.dataset }));

// share of the 10 nearest map neighbours (brute force) with the point's label, over a sample
function labelShare(p, every = 10) {
  let same = 0;
  let total = 0;
  for (let i = 0; i < N; i += every) {
    const d = [];
    for (let j = 0; j < N; j++) if (j !== i) d.push([(p[2 * i] - p[2 * j]) ** 2 + (p[2 * i + 1] - p[2 * j + 1]) ** 2, j]);
    d.sort((a, b) => a[0] - b[0]);
    for (let k = 0; k < 10; k++) same += label[d[k][1]] === label[i] ? 1 : 0;
    total += 10;
  }
  return same / total;
}

// Waits until the map frame counter of `sel`'s card passes `n`, or its run ends (a frame is a
// reply of the worker, so this waits on the page's state, not on a clock).
const nextFrame = (page, sel, n, timeout = 120000) => page.waitForFunction(([s, k]) => {
  const d = document.querySelector(s).dataset;
  return Number(d.mapFrames || 0) > k || /^(finished|failed|cancelled)$/.test(d.mapState || '');
}, [sel, n], { timeout });

let page;
await test('a 5,000-row table: UMAP animates frame by frame from the worker and separates the five clusters', async () => {
  page = await openPage('#view=table');
  await page.setInputFiles('#import-meta', { name: 'metadata.tsv', mimeType: 'text/tab-separated-values', buffer: metadata });
  await page.setInputFiles('#import-file', { name: 'clusters.npy', mimeType: 'application/octet-stream', buffer: vectors });
  await page.waitForSelector(`${MAP}[data-drawn]`, { timeout: 60000 });
  await page.selectOption('#import-colour', { label: 'cluster' });
  await page.$eval('#import-map-choice', (el) => el.scrollIntoView({ block: 'start' }));
  const pca = await points(page);
  await page.check('#import-map-umap');
  assert(/#.*imap=umap/.test(page.url()), `the link does not name the map: ${page.url()}`);
  const framesBefore = Number((await card(page)).mapFrames || 0);
  await page.click('#import-map-run');
  // frames: sample the drawn coordinates and the progress line as new frames arrive
  const frames = [];
  const lines = [];
  for (let seen = framesBefore; ;) {
    await nextFrame(page, '#import-card', seen);
    const c = await card(page);
    seen = Number(c.mapFrames || 0);
    if (c.mapState === 'running' || c.mapState === 'finished') {
      const p = await points(page);
      frames.push(p);
      lines.push(await page.textContent('#import-map-progress'));
      if (frames.length === 3) await page.locator('#import-results').screenshot({ path: shot('maps-umap-running.png') });
    }
    if (c.mapState === 'finished' || c.mapState === 'failed') break;
  }
  const c = await card(page);
  assert(c.mapState === 'finished', `UMAP did not finish: ${JSON.stringify(c)} ${await page.textContent('#import-map-progress')}`);
  const distinct = new Set(frames.map((p) => p.slice(0, 40).map((v) => v.toFixed(3)).join())).size;
  assert(distinct >= 4, `only ${distinct} distinct frames of ${frames.length} sampled`);
  assert(Number(c.mapFrames) >= 5, `frames drawn: ${c.mapFrames}`);
  const epochs = lines.map((l) => Number((/epoch (\d+) \//.exec(l) || [])[1])).filter(Number.isFinite);
  assert(epochs.length >= 3 && epochs[epochs.length - 1] > epochs[0], `progress lines: ${lines.slice(0, 4).join(' | ')}`);
  const final = await points(page);
  assert(final.some((v, i) => Math.abs(v - pca[i]) > 1e-3), 'the map still shows the PCA points');
  const share = labelShare(final);
  assert(share >= 0.9, `share of the 10 nearest map neighbours with the same cluster: ${share.toFixed(3)}`);
  const note = await page.textContent('#import-map-note');
  assert(/UMAP by the engine/.test(note) && /distances between clusters/.test(note), `note: ${note}`);
  const legend = await page.textContent('#import-legend');
  assert(/cluster:/.test(legend), `colour legend lost: ${legend}`);
  const s = await screenshotStats(page, '#import-map');
  // five clusters in five colours: tight UMAP blobs cover few pixels, so count colours, not area
  const hues = s.hues.filter((c) => c >= 50).length;
  assert(s.saturated > 500 && hues >= 4, `map looks blank or single-coloured (${hues} hues of >= 50 px): ${JSON.stringify(s)}`);
  await page.locator('#import-results').screenshot({ path: shot('maps-umap-final.png') });
  console.log(`     (${c.mapFrames} frames, ${distinct} distinct of ${frames.length} sampled; epochs seen ${epochs.slice(0, 3).join(', ')}…${epochs[epochs.length - 1]}; label share ${share.toFixed(3)}; "${lines[lines.length - 1]}")`);
});

await test('neighbours of a row report the UMAP map distance; search still highlights', async () => {
  await page.fill('#import-query', '7');
  await page.click('#import-nn-form button');
  await page.waitForFunction(() => document.querySelectorAll('#import-nn tbody tr').length === 10, null, { timeout: 10000 });
  const note = await page.textContent('#import-nn-note');
  assert(/UMAP map shown/.test(note), `neighbours note: ${note}`);
  const p = await points(page);
  const rows = await page.$$eval('#import-nn tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  const r = Number(rows[0][2]);
  const expect = Math.hypot(p[2 * r] - p[14], p[2 * r + 1] - p[15]);
  assert(Math.abs(Number(rows[0][5]) - expect) <= 0.01 * Math.max(1, expect), `map distance ${rows[0][5]}, drawn coordinates give ${expect}`);
  await page.fill('#import-search', 'cedar_1');
  await page.press('#import-search', 'Enter');
  await page.waitForFunction(() => Number(document.querySelector('#import-map').dataset.matches) > 0, null, { timeout: 5000 });
});

await test('axe-core: the map controls of the import card have no serious or critical violation', async () => {
  await page.evaluate(fs.readFileSync(path.join(repo, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8'));
  const found = await page.evaluate(async () => {
    const r = await window.axe.run('#import-card', { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
  assert(found.length === 0, found.join('; '));
  // the radio group is reachable and operable from the keyboard
  await page.focus('#import-map-umap');
  await page.keyboard.press('ArrowRight');
  assert(await page.isChecked('#import-map-tsne'), 'ArrowRight did not move to t-SNE');
  assert(await page.isVisible('#import-map-perp') && !(await page.isVisible('#import-map-nn')), 't-SNE options not shown');
  await page.keyboard.press('ArrowLeft');
  assert(await page.isChecked('#import-map-umap'), 'ArrowLeft did not move back to UMAP');
});

await test('t-SNE (perplexity 30) animates with its KL, and Cancel stops it mid-way keeping the last frame', async () => {
  await page.fill('#import-search', '');
  await page.press('#import-search', 'Enter');
  await page.check('#import-map-tsne');
  await page.click('#import-map-run');
  await page.waitForFunction(() => Number(document.querySelector('#import-card').dataset.mapDone || 0) >= 300 && document.querySelector('#import-card').dataset.mapMethod === 'tsne', null, { timeout: 120000 });
  const line = await page.textContent('#import-map-progress');
  assert(/^t-SNE iteration \d+ \/ 1000, KL \d+\.\d\d/.test(line), `progress line: ${line}`);
  await page.locator('#import-results').screenshot({ path: shot('maps-tsne-running.png') });
  await page.click('#import-map-cancel');
  await page.waitForFunction(() => document.querySelector('#import-card').dataset.mapState === 'cancelled', null, { timeout: 10000 });
  const c1 = await card(page);
  const p1 = await points(page);
  // a neighbours query is answered after anything the worker had in flight: once its table is
  // shown, a frame of the cancelled run would have arrived too
  await page.fill('#import-query', '3');
  await page.click('#import-nn-form button');
  await page.waitForFunction(() => document.querySelector('#import-nn-note').textContent.includes('(row 3)') &&
    document.querySelectorAll('#import-nn tbody tr').length === 10, null, { timeout: 10000 });
  const c2 = await card(page);
  const p2 = await points(page);
  assert(c2.mapState === 'cancelled' && c1.mapDone === c2.mapDone && c1.mapFrames === c2.mapFrames, `still running: ${c1.mapDone} -> ${c2.mapDone}, frames ${c1.mapFrames} -> ${c2.mapFrames} (${c2.mapState})`);
  assert(Number(c2.mapDone) < 1000, `ran to the end: ${c2.mapDone}`);
  assert(p1.every((v, i) => v === p2[i]), 'the map moved after Cancel');
  const msg = await page.textContent('#import-map-progress');
  assert(/cancelled at iteration \d+ \/ 1000/.test(msg), `message: ${msg}`);
  const share = labelShare(p2, 25);
  await page.locator('#import-results').screenshot({ path: shot('maps-tsne-cancelled.png') });
  console.log(`     (cancelled at ${c2.mapDone} / 1000; "${msg}"; label share then ${share.toFixed(3)})`);
});

await test('Cancel during the construction (t-SNE neighbours of 20,000 rows) stops it at the next slice; the page stays usable', async () => {
  // neighbours: 20,000^2 / 2 x 48 = 9.6 G multiply-adds, ~3-9 s of slices in wasm: the phase lasts
  // long enough that Cancel, clicked right after the progress line was read, lands inside it
  const N2 = 20000, D2 = 48;
  const big = new Float32Array(N2 * D2);
  for (let i = 0; i < N2; i++) for (let d = 0; d < D2; d++) big[i * D2 + d] = centres[i % K][d % D] + normal();
  await page.setInputFiles('#import-meta', []);
  await page.setInputFiles('#import-file', { name: 'big.npy', mimeType: 'application/octet-stream', buffer: npy(big, [N2, D2]) });
  await page.waitForFunction(() => document.querySelector('#import-card').dataset.rows === '20000', null, { timeout: 30000 });
  await page.check('#import-map-tsne');
  // the import's own PCA map of the 20,000 rows drawn first (its frame can arrive after the
  // row count; drawing it is the import's work, not the construction's), then two frames
  await page.waitForFunction(([sel, n]) => document.querySelector(sel)?.glScatter?.data?.points?.length === n,
    [MAP, 2 * N2], { timeout: 30000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.click('#import-map-run');
  // the construction reports its phase and share as it goes
  await page.waitForFunction(() => document.querySelector('#import-card').dataset.mapState === 'preparing' &&
    /finding neighbours… [1-9]\d*%/.test(document.querySelector('#import-map-progress').textContent), null, { timeout: 15000 });
  const line = await page.textContent('#import-map-progress');
  assert(/^t-SNE: finding neighbours… \d+%$/.test(line), `progress line: ${line}`);
  const bar = await page.$eval('#import-map-choice progress', (el) => ({ value: el.value, hidden: el.hidden }));
  assert(!bar.hidden && bar.value > 0 && bar.value < 1, `progress bar: ${JSON.stringify(bar)}`);
  const pca = await points(page);
  await page.click('#import-map-cancel');
  const c = await card(page);
  assert(c.mapState === 'cancelled', `state after Cancel: ${c.mapState}`);
  const msg = await page.textContent('#import-map-progress');
  await page.locator('#import-map-choice').screenshot({ path: shot('maps-tsne-cancelled.png') });
  // the phase the Cancel landed in: neighbours, or the next one on a machine that finished them first
  // (the threaded build on several cores); either way the message names it with its share
  assert(/^t-SNE cancelled before its first frame \((finding neighbours|calibrating affinities)… \d+%\); the map shows the previous one\.$/.test(msg), `message: ${msg}`);
  // the worker is free within a slice: a neighbours query is answered, and no frame of the run comes
  await page.fill('#import-query', '11');
  await page.click('#import-nn-form button');
  await page.waitForFunction(() => document.querySelector('#import-nn-note').textContent.includes('(row 11)') &&
    document.querySelectorAll('#import-nn tbody tr').length === 10, null, { timeout: 5000 });
  assert((await page.textContent('#import-map-progress')) === msg, 'the progress line changed after Cancel');
  const after = await points(page);
  assert(after.length === pca.length && after.every((v, i) => v === pca[i]), 'the map changed after Cancel');
  assert(await page.isEnabled('#import-map-run') && !(await page.isEnabled('#import-map-cancel')), 'Run / Cancel not reset');
  console.log(`     ("${line}" then "${msg}"; a neighbours query answered after Cancel)`);
});

await test('a perplexity too large for the table gives the engine message', async () => {
  const small = npy(table.slice(0, 60 * D), [60, D]);
  await page.setInputFiles('#import-meta', []);
  await page.setInputFiles('#import-file', { name: 'small.npy', mimeType: 'application/octet-stream', buffer: small });
  await page.waitForFunction(() => document.querySelector('#import-card').dataset.rows === '60', null, { timeout: 30000 });
  await page.click('#import-map-run');
  await page.waitForFunction(() => document.querySelector('#import-card').dataset.mapState === 'failed', null, { timeout: 30000 });
  const msg = await page.textContent('#import-map-progress');
  assert(/perplexity 30 must be below \(n - 1\) \/ 3 = 19\.67/.test(msg), `message: ${msg}`);
});

await test('without OffscreenCanvas the canvas map shows the UMAP run too, with named axes', async () => {
  const p = await h.openPage('#view=table&imap=umap&inn=10', { offscreen: false });
  assert(await p.isChecked('#import-map-umap') && (await p.inputValue('#import-map-nn')) === '10', 'the link did not set the map choice');
  await p.setInputFiles('#import-file', { name: 'clusters.npy', mimeType: 'application/octet-stream', buffer: vectors });
  await p.waitForFunction(() => Number(document.querySelector('#import-card').dataset.loaded || 0) > 0, null, { timeout: 60000 });
  await p.click('#import-map-run');
  await p.waitForFunction(() => document.querySelector('#import-card').dataset.mapState === 'finished', null, { timeout: 120000 });
  const xy = await p.$eval('#import-map .heatmap', (el) => Array.from(el.scatter.data.points));
  const share = labelShare(xy, 25);
  assert(share >= 0.9, `label share on the canvas map: ${share}`);
  await p.$eval('#import-map-choice', (el) => el.scrollIntoView());
  await p.locator('#import-results').screenshot({ path: shot('maps-umap-canvas.png') });
  const note = await p.textContent('#import-map-progress');
  assert(/^UMAP finished: epoch 500 \/ 500/.test(note), `progress: ${note}`);
  await p.close();
});

await test('training view: UMAP of the table after training, then maps that continue while playing', async () => {
  const tp = await openPage('#view=train&tmap=umap');
  await tp.waitForFunction(() => Number(document.querySelector('#view-train').dataset.renders || 0) > 0, null, { timeout: 60000 });
  const title = await tp.textContent('#train-map-title');
  assert(title === 'Map of the table (UMAP)', `title: ${title}`);
  assert(await tp.isChecked('#train-map-umap'), 'the link did not choose UMAP');
  // step 0: the UMAP of the untrained table runs by itself
  await tp.waitForFunction(() => document.querySelector('#view-train').dataset.mapState === 'finished', null, { timeout: 60000 });
  await tp.click('#train-play');
  // the map on screen (after the click, which scrolls to the button): slices update only the plots on screen (issue 24)
  await tp.$eval('#train-map', (el) => el.scrollIntoView({ block: 'center' }));
  await tp.waitForFunction(() => Number(document.querySelector('#view-train').dataset.steps || 0) >= 200, null, { timeout: 120000 });
  // while playing: updates continue from the previous layout
  const frames = [];
  while (frames.length < 6) {
    const last = frames.length ? frames[frames.length - 1].n : Number(await tp.$eval('#view-train', (el) => el.dataset.mapFrames || 0)) - 1;
    await tp.waitForFunction((k) => Number(document.querySelector('#view-train').dataset.mapFrames || 0) > k, last, { timeout: 60000 });
    const f = await tp.evaluate(() => ({
      n: Number(document.querySelector('#view-train').dataset.mapFrames), note: document.querySelector('#map-note').textContent,
      points: Array.from(document.querySelector('#train-map .heatmap').scatter.data.points),
    }));
    if (!frames.length || f.n !== frames[frames.length - 1].n) frames.push(f);
    if (frames.length === 4) await tp.locator('#train-map').screenshot({ path: shot('maps-train-playing.png') });
  }
  await tp.click('#train-play');
  assert(frames.length >= 4, `map updates while playing: ${frames.length}`);
  const continued = frames.filter((f) => /from the previous run's layout .*so points move/.test(f.note) && !/this first one/.test(f.note));
  assert(continued.length >= 2, `notes: ${frames.map((f) => f.note.slice(0, 80)).join(' | ')}`);
  // move, not jump: between two continued updates the median point moves less than a fifth of
  // the map's extent (the table itself changes between updates; a fresh layout would put points anywhere)
  const moves = [];
  for (let k = 1; k < continued.length; k++) {
    const [a, b] = [continued[k - 1].points, continued[k].points];
    if (a.length !== b.length) continue;
    const d = [];
    for (let i = 0; i < a.length; i += 2) d.push(Math.hypot(a[i] - b[i], a[i + 1] - b[i + 1]));
    d.sort((x, y) => x - y);
    const xs = b.filter((_, i) => i % 2 === 0);
    const extent = Math.max(...xs) - Math.min(...xs);
    moves.push(d[d.length >> 1] / extent);
  }
  assert(moves.length && moves.every((m) => m < 0.2), `median move / extent between updates: ${moves.map((m) => m.toFixed(3)).join(', ')}`);
  // paused: the whole UMAP run from where training left it, drawn with progress
  await tp.waitForFunction(() => document.querySelector('#view-train').dataset.mapState === 'finished', null, { timeout: 60000 });
  const line = await tp.textContent('#train-map-progress');
  assert(/^UMAP of the table at step \d+ finished: epoch 500 \/ 500/.test(line), `progress: ${line}`);
  await tp.locator('#train-map').evaluate((el) => el.closest('article').scrollIntoView());
  await tp.locator('article:has(#train-map)').screenshot({ path: shot('maps-train-paused.png') });
  // back to PCA: the freeze checkbox returns
  await tp.check('#train-map-pca');
  await tp.waitForFunction(() => !document.querySelector('#map-freeze-row').hidden, null, { timeout: 5000 });
  console.log(`     (${frames.length} map updates while playing, median move / extent ${moves.map((m) => m.toFixed(3)).join(', ')}; "${line}")`);
  await tp.close();
});

// A 1,000-row table (the first rows of the clusters above) to zoom, lasso and export as a user does.
const N3 = 1000;
const smallTable = npy(table.slice(0, N3 * D), [N3, D]);
const smallMeta = Buffer.from(`name\tcluster\n${Array.from(label.slice(0, N3), (g, i) => `${NAMES[g]}_${i}\t${NAMES[g]}`).join('\n')}\n`);
// the share of the rows whose drawn position is inside the map's frame
const shareInView = (p) => p.$eval(MAP, (el) => {
  const g = el.glScatter;
  const [w, h] = g.size();
  const xy = g.data.points;
  let k = 0;
  for (let i = 0; i < g.data.n; i++) {
    const [x, y] = g.project(xy[2 * i], xy[2 * i + 1]);
    if (x >= 0 && y >= 0 && x <= w && y <= h) k++;
  }
  return k / g.data.n;
});
const runMap = async (p, method) => {
  await p.check(`#import-map-${method}`);
  await p.click('#import-map-run');
  await p.waitForFunction((m) => {
    const d = document.querySelector('#import-card').dataset;
    return d.mapMethod === m && /^(finished|failed)$/.test(d.mapState || '');
  }, method, { timeout: 120000 });
  const st = await card(p);
  assert(st.mapState === 'finished', `${method}: ${st.mapState}: ${await p.textContent('#import-map-progress')}`);
};
// clicks the "CSV 2-D" button and reads the file -> {name, rows: [[x, y]...]}
async function csv2(p) {
  const [download] = await Promise.all([p.waitForEvent('download', { timeout: 20000 }), p.click('#import-card .table-exports button[data-format="csv2"]')]);
  const file = await download.path();
  const lines = fs.readFileSync(file, 'utf8').split('\r\n').filter(Boolean);
  assert(lines[0] === 'row,label,x,y', `csv head ${lines[0]}`);
  return { name: download.suggestedFilename(), rows: lines.slice(1).map((l) => l.split(',').slice(-2).map(Number)) };
}
const sameAsDrawn = (rows, drawn) => rows.length * 2 === drawn.length &&
  rows.every(([x, y], i) => Math.abs(x - drawn[2 * i]) <= 1e-6 * Math.max(1, Math.abs(x)) && Math.abs(y - drawn[2 * i + 1]) <= 1e-6 * Math.max(1, Math.abs(y)));

let mp;
await test('a new map fits itself to the view: UMAP after zooming into the PCA map shows every row; PCA again is fitted and keeps its colours', async () => {
  mp = await openPage('#view=table');
  await mp.setInputFiles('#import-meta', { name: 'metadata.tsv', mimeType: 'text/tab-separated-values', buffer: smallMeta });
  await mp.setInputFiles('#import-file', { name: 'small.npy', mimeType: 'application/octet-stream', buffer: smallTable });
  await mp.waitForFunction(() => Number(document.querySelector('#import-card').dataset.loaded || 0) > 0, null, { timeout: 60000 });
  await mp.waitForSelector(`${MAP}[data-drawn]`, { timeout: 60000 });
  await mp.selectOption('#import-colour', { label: 'cluster' });
  await mp.$eval('#import-map', (el) => el.scrollIntoView({ block: 'center' }));
  // zoom in as a user does (the frame's + key, 16 x)
  await mp.focus(`${MAP} .gl-scatter-frame`);
  for (let i = 0; i < 8; i++) await mp.keyboard.press('+');
  const zoomed = await shareInView(mp);
  assert(zoomed < 0.5, `zoomed in, ${zoomed} of the rows still in view`);
  const problems = [];
  await runMap(mp, 'umap');
  const fitted = await shareInView(mp);
  await mp.$eval('#import-map', (el) => el.scrollIntoView({ block: 'center' }));
  await mp.locator('#import-map').screenshot({ path: shot('maps-umap-after-zoom.png') });
  if (fitted < 0.95) problems.push(`UMAP after a zoomed PCA map: ${(100 * fitted).toFixed(1)}% of the rows in view`);
  // zoomed into the UMAP map, then PCA again: fitted, and the same rows keep their colours
  await mp.focus(`${MAP} .gl-scatter-frame`);
  for (let i = 0; i < 6; i++) await mp.keyboard.press('+');
  await mp.check('#import-map-pca');
  await mp.waitForFunction(() => !document.querySelector('#import-card').dataset.mapMethod, null, { timeout: 30000 });
  await mp.waitForFunction((sel) => document.querySelector(sel).glScatter.data.axes === null, MAP, { timeout: 30000 });
  const again = await shareInView(mp);
  if (again < 0.95) problems.push(`PCA again after a zoomed UMAP map: ${(100 * again).toFixed(1)}% of the rows in view`);
  const colour = await mp.$eval('#import-map', (el) => el.dataset.colour);
  const legend = await mp.textContent('#import-legend');
  const chosen = await mp.$eval('#import-colour', (el) => el.selectedOptions[0].textContent);
  if (!(colour === 'cluster' && chosen === 'cluster' && /cluster:/.test(legend))) problems.push(`PCA again lost the colours: colour "${colour}", select "${chosen}", legend "${legend}"`);
  assert(!problems.length, problems.join('; '));
  console.log(`     (zoomed PCA: ${(100 * zoomed).toFixed(1)}% of the rows in view; the UMAP map then: ${(100 * fitted).toFixed(1)}%; PCA again ${(100 * again).toFixed(1)}%, coloured by cluster)`);
});

await test('"CSV 2-D" saves the map as drawn: PCA as pca2.csv, then UMAP coordinates as umap2.csv; the map\'s Table and PNG say UMAP', async () => {
  const p = await csv2(mp);
  const drawnP = await points(mp);
  assert(/-pca2\.csv$/.test(p.name) && sameAsDrawn(p.rows, drawnP), `PCA: ${p.name}, row 0 ${p.rows[0]} vs drawn ${drawnP.slice(0, 2)}`);
  await runMap(mp, 'umap');
  const u = await csv2(mp);
  const drawnU = await points(mp);
  assert(/-umap2\.csv$/.test(u.name), `file name ${u.name} while the UMAP map is drawn`);
  assert(sameAsDrawn(u.rows, drawnU), `the CSV is not the drawn UMAP map: row 0 ${u.rows[0]} vs drawn ${drawnU.slice(0, 2)}`);
  assert(!sameAsDrawn(p.rows, drawnU), 'the PCA and the UMAP files are the same');
  // the map's own Table and PNG say UMAP too, not PC1 / pca2
  await mp.click('#import-map .plot-export-table');
  const heads = await mp.$$eval('#import-map .plot-data-table th', (ths) => ths.map((th) => th.textContent));
  const caption = await mp.textContent('#import-map .plot-data-table caption');
  assert(heads.join() === 'row,label,UMAP 1,UMAP 2' && /UMAP 1, UMAP 2/.test(caption), `the map's table: ${heads.join()} "${caption}"`);
  await mp.click('#import-map .plot-export-table');
  const [png] = await Promise.all([mp.waitForEvent('download', { timeout: 20000 }), mp.click('#import-map .plot-export-png')]);
  assert(/-umap2\.png$/.test(png.suggestedFilename()), `PNG of the UMAP map named ${png.suggestedFilename()}`);
  console.log(`     (${p.name}, ${u.name}; each equal to the drawn coordinates; ${png.suggestedFilename()})`);
});

await test('a lasso drawn on the PCA map keeps its rows on the UMAP map, highlighted there, without its old outline; the note says so', async () => {
  if (!(await mp.isChecked('#import-map-pca'))) await mp.check('#import-map-pca'); // (when the test above failed early)
  await mp.waitForFunction((sel) => document.querySelector(sel).glScatter.data.axes === null, MAP, { timeout: 30000 });
  await mp.click('#import-reset');
  await mp.$eval('#import-map', (el) => el.scrollIntoView({ block: 'center' }));
  const box = await mp.locator(`${MAP} .gl-scatter-frame`).boundingBox();
  const [cx, cy, rx, ry] = [box.x + box.width / 2, box.y + box.height / 2, box.width / 5, box.height / 5];
  await mp.keyboard.down('Shift'); // shift+drag draws a lasso
  await mp.mouse.move(cx - rx, cy - ry);
  await mp.mouse.down();
  for (const [x, y] of [[cx + rx, cy - ry], [cx + rx, cy + ry], [cx - rx, cy + ry], [cx - rx, cy - ry + 2]]) await mp.mouse.move(x, y, { steps: 8 });
  await mp.mouse.up();
  await mp.keyboard.up('Shift');
  const lassoed = await mp.$eval(MAP, (el) => ({ rows: Array.from(el.glScatter.selection || []), polygon: !!el.glScatter.polygon }));
  assert(lassoed.rows.length > 0 && lassoed.polygon, `lasso: ${lassoed.rows.length} rows, outline ${lassoed.polygon}`);
  const listed = await mp.$$eval('#import-selection-list li', (lis) => lis.map((li) => li.textContent));
  await mp.locator('#import-results').screenshot({ path: shot('maps-lasso-pca.png') });
  await runMap(mp, 'umap');
  const after = await mp.$eval(MAP, (el) => ({ rows: Array.from(el.glScatter.selection || []), polygon: !!el.glScatter.polygon }));
  const note = await mp.textContent('#import-selection-note');
  const listedAfter = await mp.$$eval('#import-selection-list li', (lis) => lis.map((li) => li.textContent));
  await mp.$eval('#import-map', (el) => el.scrollIntoView({ block: 'center' }));
  await mp.locator('#import-results').screenshot({ path: shot('maps-lasso-umap.png') });
  assert(after.rows.join() === lassoed.rows.join() && listedAfter.join() === listed.join(), `the lasso's rows changed: ${lassoed.rows.length} -> ${after.rows.length}`);
  assert(!after.polygon, 'the PCA lasso\'s outline is still drawn on the UMAP map, around where the rows no longer are');
  assert(note.startsWith(`${lassoed.rows.length} rows in the lasso drawn on the PCA map`) && note.endsWith('highlighted where UMAP places them (the outline belonged to the PCA map). Draw a new lasso to select on this one.'), `selection note: ${note}`);
  console.log(`     (${after.rows.length} lassoed rows carried; "${note.slice(0, 90)}…")`);
  await mp.close();
});

await test('no console errors and no requests to other origins', async () => {
  assert(consoleErrors.length === 0, `console errors: ${consoleErrors.slice(0, 3).join(' | ')}`);
  assert(foreignRequests.length === 0, `foreign requests: ${foreignRequests.slice(0, 3).join(', ')}`);
});

await h.finish();
