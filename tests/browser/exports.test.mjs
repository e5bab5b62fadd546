// Browser test of the downloads (issue 10): a small labelled word2vec table is imported, every
// table format and both CSVs are downloaded from the page and compared byte for byte with what
// the engine (the same wasm, loaded in Node) writes for the same file; PNG and SVG downloads of
// a heatmap, a scatter, uPlot line charts and the bar chart decode at the figure's size, parse,
// and carry their title, axis labels and legend; file names carry the model, step and seed; a
// page in the dark theme at large labels downloads light figures (white, light palette) with
// large labels.
// Every exported image is saved and rendered into the screenshots folder (look at them).
//   node tests/browser/exports.test.mjs [--site build/web] [--shots build/screenshots]
import fs from 'node:fs';
import path from 'node:path';
import { assert, startHarness, animationFrames } from './harness.mjs';
import { loadEngine } from '../js/load-engine.mjs';

const h = await startHarness('export tests');
const { test, openPage, consoleErrors, foreignRequests, shot } = h;
const M = await loadEngine(h.site); // the engine the site serves

// 12 rows x 5, labels that need quoting in CSV and escaping in SVG
const ROWS = 12;
const DIM = 5;
const LABELS = ['the', '"quoted"', 'a,b', '<b>bold</b>', 'AT&T', 'x\'y', 'naïve', '日本', '=1+1', 'cat', 'dog', 'z'];
const values = new Float32Array(ROWS * DIM);
let s = 7;
for (let i = 0; i < values.length; i++) {
  s = (Math.imul(s, 1103515245) + 12345) >>> 0;
  values[i] = (s / 4294967296 - 0.5) * (i % 7 === 0 ? 1e-5 : 3);
}
const source = M.Table.fromArray(values, ROWS, DIM, { labels: LABELS });
const inputFile = Buffer.from(source.export('word2vec-text'));
const engineTable = M.Table.fromBytes(inputFile); // what the page's worker holds after the import
const expected = {
  'vectors.tsv': engineTable.export('tsv'),
  'metadata.tsv': engineTable.export('metadata'),
  npy: engineTable.export('npy'),
  'word2vec.txt': engineTable.export('word2vec-text'),
  'word2vec.bin': engineTable.export('word2vec-binary'),
  pca2: M.coordinatesCsv(engineTable.pca({ k: 2 }).points, ROWS, 2, engineTable.labels),
  pca3: M.coordinatesCsv(engineTable.pca({ k: 3 }).points, ROWS, 3, engineTable.labels),
};

const saved = path.join(h.shots, 'exports');
fs.mkdirSync(saved, { recursive: true });

// clicks selector and collects the n downloads it starts -> [{name, bytes}]
async function downloads(page, selector, n = 1) {
  const got = [];
  const done = new Promise((resolve) => {
    const on = async (d) => {
      const file = path.join(saved, d.suggestedFilename());
      await d.saveAs(file);
      got.push({ name: d.suggestedFilename(), bytes: fs.readFileSync(file) });
      if (got.length === n) {
        page.off('download', on);
        resolve(got);
      }
    };
    page.on('download', on);
  });
  await page.click(selector);
  const why = () => page.$eval(selector, (b) => b.closest('.plot-export')?.dataset.error || b.title || '').catch(() => '');
  return Promise.race([done, new Promise((_, reject) => setTimeout(async () => reject(new Error(`${selector}: ${got.length} of ${n} downloads ${await why()}`)), 20000))]);
}

const same = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

// subtle: Chromium's download request limiter drops a download that follows about ten others
// from the same tab (even with a user gesture; a person never clicks that fast). Its state is
// per tab, so each test that downloads many files opens its own page instead of waiting.
async function importedPage() {
  const p = await openPage('#view=table');
  await p.setInputFiles('#import-file', { name: 'words.txt', mimeType: 'text/plain', buffer: inputFile });
  await p.waitForFunction(() => Number(document.querySelector('#import-card').dataset.loaded || 0) > 0, null, { timeout: 20000 });
  return p;
}

let page;
await test('an imported table downloads as .npy, Projector files, word2vec text and binary and CSV, byte for byte the engine\'s', async () => {
  page = await importedPage();
  const ex = '#import-card .table-exports';
  // the table formats' buttons come from the engine's registry (at ready), between the page's own
  const buttons = await page.$$eval(`${ex} button`, (bs) => bs.map((b) => `${b.dataset.format}:${b.textContent}`));
  const known = new Set(['projector', 'npy', 'word2vec-text', 'word2vec-binary', 'csv2', 'csv3']);
  assert(buttons.filter((b) => known.has(b.split(':')[0])).join(' ') === 'projector:Projector files npy:.npy word2vec-text:word2vec .txt word2vec-binary:word2vec .bin csv2:CSV 2-D csv3:CSV 3-D' &&
    buttons[0].startsWith('projector:') && buttons.slice(-2).join(' ') === 'csv2:CSV 2-D csv3:CSV 3-D', `buttons ${buttons.join(' ')}`);
  const [npy] = await downloads(page, `${ex} button[data-format="npy"]`);
  assert(npy.name === 'embedlab-words-table.npy', `name ${npy.name}`);
  assert(same(npy.bytes, expected.npy), '.npy differs from the engine\'s');
  const proj = await downloads(page, `${ex} button[data-format="projector"]`, 3);
  const byName = Object.fromEntries(proj.map((d) => [d.name, d.bytes]));
  assert(same(byName['embedlab-words-vectors.tsv'], expected['vectors.tsv']), `vectors.tsv (${Object.keys(byName).join(' ')})`);
  assert(same(byName['embedlab-words-metadata.tsv'], expected['metadata.tsv']), 'metadata.tsv differs');
  const config = JSON.parse(byName['embedlab-words-projector_config.json'].toString('utf8'));
  assert(JSON.stringify(config) === JSON.stringify({ embeddings: [{ tensorName: 'embedlab-words', tensorShape: [ROWS, DIM], tensorPath: 'embedlab-words-vectors.tsv', metadataPath: 'embedlab-words-metadata.tsv' }] }),
    `projector_config.json ${JSON.stringify(config)}`);
  const [w2t] = await downloads(page, `${ex} button[data-format="word2vec-text"]`);
  assert(w2t.name === 'embedlab-words-word2vec.txt' && same(w2t.bytes, expected['word2vec.txt']), `word2vec text ${w2t.name}`);
  assert(same(w2t.bytes, inputFile), 'word2vec text is not the imported file byte for byte');
  const [w2b] = await downloads(page, `${ex} button[data-format="word2vec-binary"]`);
  assert(w2b.name === 'embedlab-words-word2vec.bin' && same(w2b.bytes, expected['word2vec.bin']), `word2vec binary ${w2b.name}`);
  const [c2] = await downloads(page, `${ex} button[data-format="csv2"]`);
  assert(c2.name === 'embedlab-words-pca2.csv' && same(c2.bytes, expected.pca2), `csv2 ${c2.name}`);
  const [c3] = await downloads(page, `${ex} button[data-format="csv3"]`);
  assert(c3.name === 'embedlab-words-pca3.csv' && same(c3.bytes, expected.pca3), `csv3 ${c3.name}`);
  const csv = c3.bytes.toString('utf8').split('\r\n');
  assert(csv[0] === 'row,label,x,y,z' && csv[2].startsWith('1,"""quoted""",') && csv[3].startsWith('2,"a,b",'), `csv head ${csv.slice(0, 4).join(' | ')}`);
  // every downloaded table reads back to the same bits
  for (const [fmt, bytes] of [['npy', npy.bytes], ['tsv', byName['embedlab-words-vectors.tsv']], ['word2vec-text', w2t.bytes], ['word2vec-binary', w2b.bytes]]) {
    const back = M.Table.fromBytes(new Uint8Array(bytes), { format: fmt });
    assert(same(new Uint8Array(back.export('npy')), expected.npy), `${fmt} does not read back bit-exactly`);
    back.delete();
  }
  console.log(`     (${proj.map((d) => d.name).join(', ')}; csv line 2: ${csv[2]})`);
  await page.$eval('#import-card', (el) => el.scrollIntoView());
  await page.screenshot({ path: shot('exports-import.png') });
});

// In the page: the SVG parses; -> {ok, texts, width, height}
const parseSvg = (text) => {
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  const root = doc.documentElement;
  return {
    ok: !doc.querySelector('parsererror') && root.nodeName === 'svg',
    texts: [...doc.querySelectorAll('text')].map((t) => t.textContent),
    width: Number(root.getAttribute('width')),
    height: Number(root.getAttribute('height')),
    scripts: doc.querySelectorAll('script, foreignObject').length,
  };
};
// In the page: the PNG's bytes -> its decoded size
const pngSize = async (b64) => {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
  return { width: bmp.width, height: bmp.height };
};

const rendered = [];
// plot: a selector inside the plot's container; -> {png, svg} checked against the texts wanted
async function exportPlot(p, container, kind, { texts, name }) {
  await p.$eval(container, (el) => el.scrollIntoView());
  const [png] = await downloads(p, `${container} .plot-export-png`);
  const [svg] = await downloads(p, `${container} .plot-export-svg`);
  assert(name.test(png.name) && name.test(svg.name) && png.name.endsWith('.png') && svg.name.endsWith('.svg'), `names ${png.name} ${svg.name}`);
  const parsed = await p.evaluate(parseSvg, svg.bytes.toString('utf8'));
  assert(parsed.ok, `${kind}: the SVG does not parse`);
  assert(parsed.scripts === 0, `${kind}: script or foreignObject in the SVG`);
  const all = parsed.texts.join('\n');
  for (const t of texts) assert(all.includes(t), `${kind}: the SVG has no text "${t}" (texts: ${parsed.texts.slice(0, 12).join(' | ')})`);
  const size = await p.evaluate(pngSize, png.bytes.toString('base64'));
  const dpr = await p.evaluate(() => window.devicePixelRatio || 1);
  assert(size.width === Math.round(parsed.width * dpr) && size.height === Math.round(parsed.height * dpr),
    `${kind}: PNG ${size.width} x ${size.height}, SVG ${parsed.width} x ${parsed.height} (dpr ${dpr})`);
  rendered.push({ kind, svg: path.join(saved, svg.name), png: path.join(saved, png.name), width: parsed.width, height: parsed.height });
  console.log(`     (${kind}: ${png.name} ${size.width} x ${size.height}, ${svg.name} ${(svg.bytes.length / 1024).toFixed(0)} KiB, ${parsed.texts.length} texts)`);
  return { png, svg, parsed };
}

await test('PNG and SVG of a heatmap (with its colour legend) and of the import map (scatter), labels escaped', async () => {
  page = await importedPage(); // a fresh tab: the first test's eight downloads count against the limiter
  await exportPlot(page, '#table-plot', 'heatmap', {
    texts: ['Embedding table', 'dimension (0 … D-1)', 'token id', 'weight value'],
    name: /^embedlab-table-V6-D3-seed123-table\.(png|svg)$/,
  });
  // the WebGL map exports the view as shown; search matches (at most 40) are labelled
  let raw = '';
  for (const [query, texts] of [['b', ['<b>bold</b>', 'a,b']], ['&', ['AT&T']], ['quoted', ['"quoted"']]]) {
    await page.fill('#import-search', query);
    await page.press('#import-search', 'Enter');
    const { svg } = await exportPlot(page, '#import-map', 'scatter', {
      texts: ['Bring your own table', 'PC1 (', 'PC2 (', ...texts],
      name: /^embedlab-words-pca2\.(png|svg)$/,
    });
    raw += svg.bytes.toString('utf8');
  }
  assert(raw.includes('&lt;b&gt;bold&lt;/b&gt;') && raw.includes('AT&amp;T') && !raw.includes('<b>'), 'labels not escaped in the SVG');
});

await test('PNG and SVG of uPlot line charts (positions: RoPE q·k) and of the length strips, with axes and series legend', async () => {
  const p = await openPage('#view=positions&T=16&pd=8&seed=42');
  await p.waitForFunction(() => Number(document.querySelector('#view-positions').dataset.renders || 0) > 0, null, { timeout: 30000 });
  await animationFrames(p);
  await exportPlot(p, '#positions-rope', 'line chart', {
    texts: ['RoPE on real vectors', 'distance m − n', 'q·k after rotation', 'key at n = 0'],
    name: /^embedlab-positions-T16-D8-seed42-rope-qk\.(png|svg)$/,
  });
  await exportPlot(p, '.card[data-kind="sinusoidal"] [data-plot="similarity"]', 'similarity heatmap', {
    texts: ['Sinusoidal', 'position n', 'position m', 'similarity'],
    name: /^embedlab-positions-sinusoidal-T16-D8-seed42-similarity\.(png|svg)$/,
  });
  await p.close();
  // the √D card sits in the table view (issue 21): its file is named after the table
  const t = await openPage('#view=table&D=8&seed=42');
  await t.waitForFunction(() => /^D = 8:/.test(document.querySelector('#scale-note').textContent), null, { timeout: 30000 });
  await exportPlot(t, '#scale-plot', 'length strips', {
    texts: ['Why multiply token vectors by √D?', 'vector length ‖x‖ (log scale)'],
    name: /^embedlab-table-V6-D8-seed42-lengths\.(png|svg)$/,
  });
  await t.close();
});

// In the page: the PNG's bytes -> the RGB of its top-left pixel
const pngCorner = async (b64) => {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
  const c = new OffscreenCanvas(bmp.width, bmp.height);
  const ctx = c.getContext('2d');
  ctx.drawImage(bmp, 0, 0);
  return [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
};

await test('in the dark theme at large labels the downloads are light (white, the light palette) at the label size shown', async () => {
  const p = await openPage('#view=positions&T=16&pd=8&seed=42&theme=dark&fs=large');
  await p.waitForFunction(() => Number(document.querySelector('#view-positions').dataset.renders || 0) > 0, null, { timeout: 30000 });
  await animationFrames(p);
  assert(await p.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--plot-theme').trim()) === 'dark', 'the page is not dark');
  for (const [container, kind, view] of [['.card[data-kind="sinusoidal"] [data-plot="similarity"]', 'dark-page heatmap'], ['#positions-rope', 'dark-page line chart'], ['#scale-plot', 'dark-page length strips', 'table']]) {
    if (view) { // the √D card is in the table view
      await p.click(`#tab-${view}`);
      await p.waitForFunction(() => /^D = /.test(document.querySelector('#scale-note').textContent), null, { timeout: 30000 });
    }
    const { png, svg } = await exportPlot(p, container, kind, { texts: kind.includes('heatmap') ? ['position n'] : [], name: /\.(png|svg)$/ });
    const text = svg.bytes.toString('utf8');
    const corner = await p.evaluate(pngCorner, png.bytes.toString('base64'));
    assert(corner.every((v) => v === 255), `${kind}: the PNG's corner is rgb(${corner}), not white`);
    assert(/fill="#ffffff"|fill="white"|fill="rgb\(255, 255, 255\)"/.test(text), `${kind}: no white background in the SVG`);
    for (const darkInk of ['#e6e9ef', '#cdd3dc', '#c9d0da', '#a2acb9']) assert(!text.includes(darkInk), `${kind}: the SVG uses the dark theme's text colour ${darkInk}`);
    assert(text.includes('#3b4450') || text.includes('rgb(59, 68, 80)'), `${kind}: no light-theme axis text colour in the SVG`);
    assert(/font-size="17px"/.test(text), `${kind}: no 17 px text (12 px at the large label size) in the SVG`);
  }
  await p.close();
});

await test('training: loss chart and table downloads named with model, step and seed; the compare bar chart as PNG and SVG', async () => {
  const p = await openPage('#view=train&corpus=the-verdict&enc=char&tD=8&ctx=8&tB=4&seed=42&cmp=20&cmpFt=0&cmpCorpus=the-verdict');
  await p.waitForFunction(() => Number(document.querySelector('#view-train').dataset.renders || 0) > 0, null, { timeout: 30000 });
  for (let i = 0; i < 3; i++) await p.click('#train-step');
  await p.waitForFunction(() => document.querySelector('#view-train').dataset.steps === '3', null, { timeout: 10000 });
  await exportPlot(p, '#train-loss', 'loss chart', {
    texts: ['Train an embedding table', 'training step', 'loss (cross-entropy, nats)'],
    name: /^embedlab-next-token-learned-step3-seed42-loss\.(png|svg)$/,
  });
  const [v] = await downloads(p, '#export-vectors');
  assert(v.name === 'embedlab-next-token-learned-step3-seed42-vectors.tsv', `vectors name ${v.name}`);
  const [n] = await downloads(p, '#view-train .table-exports button[data-format="npy"]');
  assert(n.name === 'embedlab-next-token-learned-step3-seed42-table.npy', `npy name ${n.name}`);
  const vt = M.Table.fromBytes(new Uint8Array(v.bytes), { format: 'tsv' });
  const nt = M.Table.fromBytes(new Uint8Array(n.bytes), { format: 'npy' });
  assert(same(vt.export('npy'), nt.export('npy')), 'vectors.tsv and .npy of the trained table differ');
  const n0 = await p.$eval('#view-train', (el) => Number(el.dataset.compared || 0));
  await p.click('#train-compare');
  await p.waitForFunction((k) => Number(document.querySelector('#view-train').dataset.compared || 0) > k, n0, { timeout: 120000 });
  await animationFrames(p);
  await exportPlot(p, '#compare-bars', 'bar chart', {
    texts: ['Compare positional encodings', 'held-out loss after training', 'held-out loss at T (nats per token)', 'learned absolute', 'sinusoidal'],
    name: /^embedlab-compare-the-verdict-char-steps20-seed42-final-loss\.(png|svg)$/,
  });
  await exportPlot(p, '#compare-loss', 'compare loss chart', {
    texts: ['Compare positional encodings', 'training step', 'chance ln V', 'held out'],
    name: /^embedlab-compare-the-verdict-char-steps20-seed42-loss\.(png|svg)$/,
  });
  await p.screenshot({ path: shot('exports-train.png'), fullPage: true });
  await p.close();
});

await test('every exported SVG and PNG renders (screenshots in exports/)', async () => {
  const v = await h.browser.newPage({ viewport: { width: 1000, height: 800 } });
  for (const r of rendered) {
    for (const file of [r.svg, r.png]) {
      await v.goto(`file://${file}`);
      await v.setViewportSize({ width: Math.max(200, Math.ceil(r.width) + 20), height: Math.max(100, Math.ceil(r.height) + 20) });
      await v.screenshot({ path: `${file}.view.png` });
    }
  }
  await v.close();
});

await test('no console errors and no requests to other origins', async () => {
  assert(consoleErrors.length === 0, `${consoleErrors.length} console errors: ${consoleErrors.slice(0, 3).join(' | ').slice(0, 600)}`);
  assert(foreignRequests.length === 0, `foreign requests: ${foreignRequests.join(' ')}`);
});

await h.finish();
