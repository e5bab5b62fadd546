// Browser test of learn.html, the interactive article (issue 21), in headless Chromium:
//   - the eight sections (ids table, one-hot, scale, text, why-positions, encodings, training,
//     real-table), each with a widget that draws (every <embedlab-view> renders, no note of an
//     ignored attribute; the iframe sizes itself);
//   - each section's "same in PyTorch" block: the numbers it prints are torch's (tests/reference/
//     *.json, at the printed precision) and equal what the section's widget shows (its values
//     table, its heatmap's Table toggle, its card's text), read once the widget has rendered;
//   - layout shift while scrolling through the article from top to bottom (a layout-shift
//     PerformanceObserver, waiting for each widget's render, never for time) is below 0.1 (CLS),
//     at 1280 and 375 px;
//   - axe-core: no serious or critical violation at 1280 and 375 px, light and dark (#theme=dark);
//     every widget has an accessible name; the sections are reachable from the keyboard (the
//     table of contents' links move the focus target);
//   - the real table: a GPT-2-shaped model.safetensors (GPT-2's tensor names and shapes; wte
//     50257 x 32, wpe 1024 x 768 smooth in position) chosen in the embedded import card gives
//     labelled neighbours, and its wpe.weight tensor the position curve on the map.
// Screenshots: learn-<section id>-<1280|375>.png in the shots folder (look at them).
//   node tests/browser/learn.test.mjs [--site build/web] [--shots build/screenshots]
import fs from 'node:fs';
import path from 'node:path';
import { assert, canvasStats, repo, startHarness } from './harness.mjs';
import { random, safetensors } from '../js/table-files.mjs';

const h = await startHarness('learn tests');
const { test, consoleErrors, foreignRequests, shot } = h;
const ref = (f) => JSON.parse(fs.readFileSync(path.join(repo, 'tests/reference', f), 'utf8'));
const init = ref('torch_embedding_init.json');
const options = ref('embedding_options_torch.json');
const verdict = ref('gpt2_the_verdict.json');
const sinus = ref('sinusoidal_pe.json');
const AXE = fs.readFileSync(path.join(repo, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

const SECTIONS = ['table', 'one-hot', 'scale', 'text', 'why-positions', 'encodings', 'training', 'real-table'];
const WIDGETS = ['w-table', 'w-maxnorm', 'w-one-hot', 'w-scale', 'w-lengths', 'w-tokens', 'w-windows', 'w-why', 'w-sinusoidal', 'w-alibi', 'w-word2vec', 'w-train', 'w-compare'];
const t4 = (v) => Math.fround(v).toFixed(4);
const embRef = (seed, V, D) => init.embedding.find((e) => e.seed === seed && e.shape[0] === V && e.shape[1] === D);

// torch's printout -> its numbers, in order ("tensor([[ 0.3374, -0.1778]])" -> ['0.3374', '-0.1778'])
const numbers = (text) => text.replace(/torch\.Size|grad_fn=<\w+>|tensor|Parameter containing:|requires_grad=True/g, ' ').match(/-?\d+(?:\.\d+)?/g) || [];

async function openArticle(width, hash = '', height = 900) {
  const page = await h.contextPage({ width, height });
  // layout shifts from the first paint on, without the ones right after an input (CLS's rule)
  await page.addInitScript(() => {
    window.layoutShift = { total: 0, shifts: [] };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.hadRecentInput) continue;
        window.layoutShift.total += e.value;
        window.layoutShift.shifts.push({ value: e.value, sources: (e.sources || []).map((s) => s.node && (s.node.id || s.node.nodeName)) });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(`${h.url}learn.html${hash}`);
  return page;
}

const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
const renders = (page, id) => page.$eval(`#${id}`, (el) => Number(el.dataset.renders || 0));
async function waitRenders(page, id, above = 0, timeout = 60000) {
  await page.waitForFunction(([i, n]) => Number(document.getElementById(i).dataset.renders || 0) > n, [id, above], { timeout });
  await frames(page);
}
// set attributes of a widget and wait for its next render
async function setAttrs(page, id, attrs) {
  const n = await renders(page, id);
  await page.$eval(`#${id}`, (el, a) => {
    for (const [k, v] of Object.entries(a)) {
      if (v === null) el.removeAttribute(k);
      else el.setAttribute(k, v);
    }
  }, attrs);
  await waitRenders(page, id, n);
}
const torchOut = (page, id) => page.$eval(`.torch-out[data-check="${id}"]`, (el) => el.textContent);
const inWidget = (page, id, fn, arg) => page.$eval(`#${id}`, (el, [src, a]) => new Function(`return (${src})`)()(el.shadowRoot, a), [fn.toString(), arg]);
// the lookup card's rows: [dim, lookup, one-hot, same bits]
const lookupRows = (page, id) => inWidget(page, id, (root) => [...root.querySelectorAll('#row-values tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent)));
// a heatmap's Table toggle in a widget -> its rows (label, values...)
const heatmapTable = (page, id, n = 0) => inWidget(page, id, (root, k) => {
  const b = [...root.querySelectorAll('.plot-export-table')].filter((x) => x.offsetParent !== null)[k];
  if (b.getAttribute('aria-pressed') === 'true') b.click(); // close: it reopens with the numbers drawn now
  b.click();
  const t = root.getElementById(b.getAttribute('aria-controls')).querySelector('table');
  return [...t.tBodies[0].rows].map((tr) => [...tr.cells].map((c) => c.textContent));
}, n);

async function axeViolations(page) {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
}

// Scrolls top to bottom like a reader, section by section, waiting for each widget to draw;
// screenshots every section; returns {cls, shifts}.
async function readThrough(page, width) {
  for (const id of SECTIONS) {
    const widgets = await page.$$eval(`#${id} embedlab-view`, (els) => els.map((e) => e.id));
    for (const w of widgets) {
      await page.$eval(`#${w}`, (el) => el.scrollIntoView({ block: 'start' }));
      await waitRenders(page, w);
    }
    if (id === 'real-table') {
      await page.$eval('#w-real', (el) => el.scrollIntoView({ block: 'start' }));
      await page.waitForFunction(() => document.getElementById('w-real').style.height !== '', null, { timeout: 30000 });
      await frames(page);
    }
    await page.$eval(`#${id}`, (el) => el.scrollIntoView({ block: 'start' }));
    await frames(page);
    await page.locator(`#${id}`).screenshot({ path: shot(`learn-${id}-${width}.png`) });
  }
  return page.evaluate(() => ({ cls: window.layoutShift.total, shifts: window.layoutShift.shifts.slice(0, 5) }));
}

let page;

await test('1280 px: the eight sections draw their widgets as they are scrolled near; layout shift while scrolling below 0.1', async () => {
  page = await openArticle(1280);
  const ids = await page.$$eval('main > section', (els) => els.map((e) => e.id));
  assert(ids.join() === SECTIONS.join(), `sections: ${ids.join()}`);
  const started = await page.$$eval('embedlab-view', (els) => els.filter((e) => e.dataset.started).map((e) => e.id));
  assert(!started.includes('w-train') && !started.includes('w-alibi'), `widgets far below started at load: ${started.join()}`);
  const { cls, shifts } = await readThrough(page, 1280);
  for (const id of WIDGETS) {
    const notes = await inWidget(page, id, (root) => root.querySelector('.embedlab-notes').textContent + root.querySelector('.embedlab-status').textContent);
    assert(notes === '', `${id}: ${notes}`);
  }
  const sizes = await page.$$eval('embedlab-view', (els) => els.map((e) => `${e.id} ${Math.round(e.getBoundingClientRect().height)}`));
  assert(cls < 0.1, `CLS ${cls.toFixed(4)} while scrolling: ${JSON.stringify(shifts)} (drawn heights: ${sizes.join(', ')})`);
  console.log(`     (CLS ${cls.toFixed(4)}; drawn heights ${sizes.join(', ')})`);
});

await test('1. a table of vectors: torch\'s nn.Embedding(6, 3), padding_idx and max_norm numbers, and the widget\'s table', async () => {
  const out = await torchOut(page, 'table');
  const nums = numbers(out);
  const want = embRef(123, 6, 3).values.flat().map(t4);
  assert(nums.slice(0, 18).join() === want.join(), `weight: ${nums.slice(0, 18)} vs torch ${want}`);
  const cells = (await heatmapTable(page, 'w-table')).map((r) => r.slice(1).map((v) => t4(Number(v))));
  assert(cells.flat().join() === want.join(), `widget table: ${cells.flat()} vs ${want}`);
  assert(nums.slice(18, 21).join() === '2,2,3' && /torch\.Size\(\[2, 2, 3\]\)/.test(out), `shape: ${nums.slice(18, 21)}`);
  // padding_idx=0: row 0 zeros, row 1 as drawn; the widget with pad=0 shows the same
  const padded = nums.slice(21, 27);
  assert(padded.join() === ['0.0000', '0.0000', '0.0000', ...want.slice(3, 6)].join(), `padded: ${padded}`);
  await setAttrs(page, 'w-table', { pad: '0' });
  const padCells = (await heatmapTable(page, 'w-table')).slice(0, 2).map((r) => r.slice(1).map((v) => t4(Number(v))));
  assert(padCells.flat().join() === padded.join(), `widget with pad=0: ${padCells.flat()} vs ${padded}`);
  await setAttrs(page, 'w-table', { pad: null });
  // max_norm=1.0: the rows torch returned (reference case seed 3, 4 x 8, ids [1, 1, 3]) have length 1
  const c = options.cases.find((k) => k.seed === 3 && k.max_norm === 1);
  const norms = c.ids.map((_, i) => t4(Math.hypot(...c.output.slice(i * 8, i * 8 + 8))));
  assert(nums.slice(27).join() === norms.join(), `max_norm: ${nums.slice(27)} vs ${norms}`);
  // the max_norm widget looks up row 1 of that table: torch's rescaled row (1e-5, tests/test_embedding.cpp) of length 1
  const mrows = await lookupRows(page, 'w-maxnorm');
  const diff = Math.max(...c.output.slice(0, 8).map((v, d) => Math.abs(Number(mrows[d][1]) - v)));
  assert(mrows.length === 8 && diff < 1e-5, `max_norm widget row vs torch: ${mrows.map((r) => r[1])} (${diff})`);
  const mcap = await inWidget(page, 'w-maxnorm', (root) => root.querySelector('#row-caption').textContent);
  assert(/max_norm = 1: the stored row had length \d\.\d{4}, so the lookup rescaled it .* to length 1\.0000/.test(mcap) && norms[0] === '1.0000', `max_norm widget: ${mcap}`);
});

await test('2. lookup = one-hot × W: both printouts are torch\'s rows 2, 3, 1 of nn.Embedding(4, 5), and the widget shows each, same bits', async () => {
  const nums = numbers(await torchOut(page, 'one-hot'));
  const w = embRef(123, 4, 5).values;
  const want = [2, 3, 1].flatMap((k) => w[k].map(t4));
  assert(nums.slice(0, 15).join() === want.join() && nums.slice(15, 30).join() === want.join(), `printouts: ${nums}`);
  assert((await torchOut(page, 'one-hot')).trim().endsWith('True'), 'the gradients line');
  for (const [i, tok] of [2, 3, 1].entries()) {
    if (tok !== 2) await setAttrs(page, 'w-one-hot', { tok: String(tok) });
    const rows = await lookupRows(page, 'w-one-hot');
    assert(rows.map((r) => t4(Number(r[1]))).join() === nums.slice(i * 5, i * 5 + 5).join(), `token ${tok}: ${rows.map((r) => r[1])}`);
    assert(rows.every((r) => r[3] === 'yes') && rows.every((r) => r[1] === r[2]), `token ${tok}: not the same bits`);
  }
  await setAttrs(page, 'w-one-hot', { tok: '2' });
});

await test('3. scaling by √d_model: the row and the scaled row are torch\'s, and the widget\'s lookup × √512', async () => {
  const nums = numbers(await torchOut(page, 'scale'));
  const row = embRef(123, 12, 512).first_rows[0].slice(0, 4);
  const s = Math.fround(Math.sqrt(512));
  assert(nums.slice(0, 4).join() === row.map(t4).join(), `row: ${nums.slice(0, 4)}`);
  assert(nums.slice(4, 8).join() === row.map((v) => t4(v * s)).join(), `scaled: ${nums.slice(4, 8)}`);
  const rows = await lookupRows(page, 'w-scale');
  assert(rows.slice(0, 4).map((r) => t4(Number(r[1]))).join() === nums.slice(4, 8).join(), `widget: ${rows.slice(0, 4).map((r) => r[1])}`);
  const caption = await inWidget(page, 'w-lengths', (root) => root.querySelector('#scale-note').textContent);
  assert(/D = 512: a sinusoidal row has length 16\b/.test(caption), `lengths: ${caption}`);
});

await test('4. text → ids → windows: 5,145 tiktoken ids, 321 batches, 5,136 ids, as the widgets count them', async () => {
  const out = await torchOut(page, 'text');
  const nums = numbers(out);
  assert(nums[0] === String(verdict.ids.length) && nums.slice(1, 9).join() === verdict.ids.slice(0, 8).join(), `ids: ${nums.slice(0, 9)}`);
  const sw = verdict.sliding_window;
  assert(nums[9] === String(sw.n_full_batches) && nums[10] === String(sw.total_input_tokens_in_full_batches), `batches: ${nums.slice(9, 11)}`);
  assert(nums.slice(11).join() === '5136,256', `embeddings: ${nums.slice(11)}`);
  const stats = await inWidget(page, 'w-tokens', (root) => root.querySelector('#text-stats').textContent);
  assert(/5,145/.test(stats), `token widget: ${stats}`);
  const summary = await inWidget(page, 'w-windows', (root) => root.querySelector('#win-summary').textContent);
  assert(summary.startsWith('5,145 tokens → 1,286 windows of 4') && /321 batches of 4 \(drop_last\), 5,136 input tokens/.test(summary), `windows widget: ${summary}`);
  console.log(`     (${summary.slice(0, 110)}…)`);
});

await test('5. why positions: token 40 x29 at 0, 379, 736, 882, 895, the first batch, (4, 4, 256), tok and pos rows: torch\'s and the widget\'s', async () => {
  const out = await torchOut(page, 'why-positions');
  const nums = numbers(out);
  const sw = verdict.sliding_window;
  assert(nums[0] === String(sw.token40_count_in_inputs) && nums.slice(1, 6).join() === sw.token40_first5_flat_positions.join(), `token 40: ${nums.slice(0, 6)}`);
  assert(nums.slice(6, 22).join() === sw.first_batch_inputs.flat().join(), `inputs: ${nums.slice(6, 22)}`);
  assert(nums.slice(22, 25).join() === '4,4,256', `shape: ${nums.slice(22, 25)}`);
  const seq = init.sequential_tok_pos;
  assert(nums.slice(25, 28).join() === seq.tok.first_rows[0].slice(0, 3).map(t4).join(), `tok: ${nums.slice(25, 28)}`);
  assert(nums.slice(28, 31).join() === seq.pos.first_rows[0].slice(0, 3).map(t4).join(), `pos: ${nums.slice(28, 31)}`);
  const card = await inWidget(page, 'w-why', (root) => {
    const c = root.querySelector('.why-card');
    return { ...c.dataset, sums: [...c.querySelectorAll('#why-sum tbody tr')].map((tr) => [...tr.cells].map((x) => x.textContent)), note: c.querySelector('#why-note').textContent };
  });
  assert(card.count === nums[0] && card.positions.startsWith(`${nums.slice(1, 6).join()},`), `widget token 40: ${card.count} ${card.positions.slice(0, 40)}`);
  assert(card.shape === '4,4,256', `widget shape ${card.shape}`);
  assert(card.sums.map((r) => r[1].split(' ')[0]).join() === nums.slice(6, 10).join(), `widget first window: ${card.sums.map((r) => r[1])}`);
  assert(card.sums[0][3] === nums.slice(28, 31).join(', '), `widget pos row 0: ${card.sums[0][3]}`);
  assert(card.note.includes(`tok.weight[0, :3] = ${nums.slice(25, 28).join(', ')}`), `widget note: ${card.note}`);
});

await test('6. the encodings: pe[1, :4] and pe[63, :4] are the reference\'s, and the sinusoidal widget\'s table rows', async () => {
  const nums = numbers(await torchOut(page, 'encodings'));
  assert(nums.slice(0, 4).join() === sinus.rows['1'].slice(0, 4).map((v) => v.toFixed(4)).join(), `pe[1]: ${nums.slice(0, 4)}`);
  assert(nums.slice(4, 8).join() === sinus.rows['63'].slice(0, 4).map((v) => v.toFixed(4)).join(), `pe[63]: ${nums.slice(4, 8)}`);
  const rows = await heatmapTable(page, 'w-sinusoidal', 0);
  for (const [k, p] of [[0, '1'], [4, '63']]) {
    const r = rows.find((x) => x[0] === p);
    assert(r && r.slice(1, 5).map((v) => Number(v).toFixed(4)).join() === nums.slice(k, k + 4).join(), `widget row ${p}: ${r && r.slice(1, 5)}`);
  }
  const heads = await inWidget(page, 'w-alibi', (root) => [...root.querySelectorAll('.bias-head canvas')].filter((c) => c.offsetParent !== null).length);
  assert(heads === 8, `ALiBi widget: ${heads} head heatmaps`);
});

await test('7. tables learn: chance ln 69 as printed (65 characters + 4 special rows) is the training widget\'s chance line; it trains with a held-out line, samples text, and word2vec finds neighbours', async () => {
  const nums = numbers(await torchOut(page, 'training'));
  const text = fs.readFileSync(path.join(repo, 'web/corpora/tinyshakespeare.txt'), 'utf8');
  const chars = new Set(text).size;
  const V = chars + 4; // <pad> <unk> <sos> <eos>, then the characters (the engine's vocabulary, as embedlab train)
  assert(nums[0] === String(chars) && nums[1] === String(V) && Number(nums[2]) === Math.log(V), `chance: ${nums} vs ${chars} ${V} ${Math.log(V)}`);
  const model = await inWidget(page, 'w-train', (root) => root.querySelector('#train-estimate').textContent);
  assert(new RegExp(`\\b${V} table rows\\b`).test(model), `the training widget does not have V = ${V} rows: ${model}`);
  // train: Play until the held-out line has three points (steps 0, 50, 100), then pause
  await page.$eval('#w-train', (el) => el.scrollIntoView({ block: 'start' }));
  await page.locator('#w-train #train-play').click();
  await page.waitForFunction(() => Number(document.getElementById('w-train').shadowRoot.querySelector('#train-loss').dataset.heldPoints || 0) >= 3, null, { timeout: 120000 });
  await page.locator('#w-train #train-play').click();
  const loss = await inWidget(page, 'w-train', (root) => ({ ...root.querySelector('#train-loss').dataset }));
  assert(Number(loss.chance) === Number(nums[2]) && Number(loss.vocab) === V, `chance line: ${loss.chance} over ${loss.vocab} rows, printed ${nums[2]}`);
  assert(/held-out/.test(loss.series) && /chance/.test(loss.series), `series drawn: ${loss.series}`);
  assert(Number(loss.heldOut) < Number(loss.chance), `held-out ${loss.heldOut} not below chance ${loss.chance} after ${loss.heldPoints} evaluations`);
  // sample text from the trained widget's own run
  await page.locator('#w-train #sample-button').click();
  await page.waitForFunction(() => ['done', 'failed'].includes(document.getElementById('w-train').shadowRoot.querySelector('#sample-card').dataset.sampleState), null, { timeout: 60000 });
  const sample = await inWidget(page, 'w-train', (root) => ({ ...root.querySelector('#sample-card').dataset, shown: root.querySelector('#sample-output').textContent, note: root.querySelector('#sample-note').textContent }));
  assert(sample.sampleState === 'done', `sampling failed: ${sample.note}`);
  const ids = sample.sampleIds.split(',');
  assert(ids.length === 100 && sample.sampleText.length > 0 && sample.shown === `The${sample.sampleText}`, `sample: ${ids.length} ids, shown "${sample.shown.slice(0, 60)}"`);
  await page.locator('#training').screenshot({ path: shot('learn-training-trained-1280.png') });
  // word2vec: one Step (one gensim job), then the neighbours of "the" are words of the play
  await page.$eval('#w-word2vec', (el) => el.scrollIntoView({ block: 'start' }));
  await page.locator('#w-word2vec #train-step').click();
  await page.waitForFunction(() => Number(document.getElementById('w-word2vec').shadowRoot.getElementById('view-train').dataset.steps || 0) >= 1, null, { timeout: 120000 });
  await page.locator('#w-word2vec #nn-query').fill('king');
  await page.locator('#w-word2vec #nn-form button[type=submit]').click();
  await page.waitForFunction(() => document.getElementById('w-word2vec').shadowRoot.querySelectorAll('#nn-table tbody tr').length >= 3, null, { timeout: 60000 });
  const nn = await inWidget(page, 'w-word2vec', (root) => [...root.querySelectorAll('#nn-table tbody tr')].slice(0, 5).map((tr) => tr.cells[1].textContent));
  assert(nn.length >= 3 && nn.every((w) => /^"[a-z']+"$/.test(w) && w !== '"king"'), `word2vec neighbours of king: ${nn}`);
  console.log(`     (${V} rows, chance ${Number(loss.chance).toFixed(4)}, held-out ${Number(loss.heldOut).toFixed(3)} after ${loss.heldPoints} evaluations; sample "${sample.shown.slice(0, 50).replace(/\n/g, ' ')}…"; neighbours of king: ${nn.join(', ')})`);
});

await test('8. a real table: before a file, the import card says what to choose; a GPT-2-shaped model.safetensors gives labelled neighbours and, as wpe.weight, the position curve', async () => {
  const out = await torchOut(page, 'real-table');
  assert(numbers(out).join() === '50257,768,1024,768', `shapes: ${out}`);
  const frame = page.frameLocator('#w-real');
  const note = await frame.locator('#import-note').textContent();
  assert(note === 'No table loaded.', `before a file: ${note}`);
  const D = 32;
  const wpe = new Float32Array(1024 * 768);
  const noise = random(1024 * 768, 2);
  for (let c = 0; c < 768; c++) for (let p = 0; p < 1024; p++) wpe[p * 768 + c] = (0.12 / (1 + (c % 4))) * Math.sin((2 * Math.PI * (1 + (c % 4)) * p) / 1024 + c * 0.7) + 0.01 * noise[p * 768 + c];
  const file = safetensors([['wte.weight', [50257, D], random(50257 * D, 1)], ['wpe.weight', [1024, 768], wpe]]);
  const before = await page.$eval('#w-real', (el) => el.getBoundingClientRect().height);
  await frame.locator('#import-file').setInputFiles({ name: 'model.safetensors', mimeType: 'application/octet-stream', buffer: file });
  await frame.locator('#import-card[data-loaded="1"]').waitFor({ timeout: 90000 });
  const loaded = await frame.locator('#import-note').textContent();
  assert(/50,257/.test(loaded) && /wpe\.weight, 1,024 × 768/.test(loaded), `after the file: ${loaded}`);
  await frame.locator('#import-query').fill('the');
  await frame.locator('#import-nn-form button[type=submit]').click();
  await frame.locator('#import-nn tbody tr').first().waitFor({ timeout: 30000 });
  const nn = await frame.locator('#import-nn tbody tr').evaluateAll((trs) => trs.slice(0, 3).map((tr) => tr.cells[1].textContent));
  assert(nn.length === 3 && nn.every((t) => t.length > 0 && !/^\d+$/.test(t)), `neighbours are not labelled: ${nn}`);
  // the iframe grew to its content (the embedded page posts its height)
  await page.waitForFunction((b) => document.getElementById('w-real').getBoundingClientRect().height > b + 100, before, { timeout: 30000 });
  // wpe.weight as the table: its map is the position curve
  await frame.locator('#import-tensor').selectOption('wpe.weight');
  await frame.locator('#import-card[data-loaded="2"]').waitFor({ timeout: 90000 });
  const note2 = await frame.locator('#import-note').textContent();
  assert(/1,024/.test(note2), `wpe as the table: ${note2}`);
  await page.$eval('#w-real', (el) => el.scrollIntoView());
  await frames(page);
  await page.locator('#real-table').screenshot({ path: shot('learn-real-table-loaded-1280.png') });
  console.log(`     (neighbours of "the": ${nn.join(', ')}; ${note2.slice(0, 100)})`);
});

await test('keyboard and names: every widget and the iframe have an accessible name; the contents links lead to their sections', async () => {
  const unnamed = await page.$$eval('embedlab-view, iframe', (els) => els.filter((e) => !(e.getAttribute('aria-label') || e.title)).map((e) => e.id));
  assert(unnamed.length === 0, `unnamed: ${unnamed}`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.focus('.skip-link');
  let found = false;
  for (let i = 0; i < 12 && !found; i++) {
    await page.keyboard.press('Tab');
    found = await page.evaluate(() => document.activeElement && document.activeElement.getAttribute('href') === '#encodings');
  }
  assert(found, 'the contents link to #encodings is not reached with Tab');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => location.hash === '#encodings');
  const top = await page.$eval('#encodings', (el) => Math.round(el.getBoundingClientRect().top));
  assert(Math.abs(top) < 40, `#encodings is at ${top} px after Enter`);
  // a widget's field from the keyboard: T of the sinusoidal widget
  const n = await renders(page, 'w-sinusoidal');
  const field = page.locator('#w-sinusoidal').locator('.embedlab-controls input[name="T"]');
  await field.focus();
  await field.fill('96');
  await page.keyboard.press('Enter');
  await waitRenders(page, 'w-sinusoidal', n);
  assert((await page.$eval('#w-sinusoidal', (el) => el.getAttribute('t'))) === '96', 'the T field did not set the attribute');
});

await test('axe-core: no serious or critical violation at 1280 px (light)', async () => {
  const found = await axeViolations(page);
  assert(found.length === 0, found.join('\n'));
  await page.close();
});

await test('375 px, dark theme (#theme=dark): every widget draws, nothing wider than the screen, CLS below 0.1, no serious or critical axe violation', async () => {
  const p = await openArticle(375, '#theme=dark', 740);
  assert((await p.$eval('html', (el) => el.dataset.theme)) === 'dark', 'theme not set');
  const themes = await p.$$eval('embedlab-view', (els) => els.map((e) => e.getAttribute('theme')));
  assert(themes.every((t) => t === 'dark'), `widget themes: ${themes}`);
  const { cls, shifts } = await readThrough(p, 375);
  assert(cls < 0.1, `CLS ${cls.toFixed(4)} at 375 px: ${JSON.stringify(shifts)}`);
  const wide = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert(wide <= 1, `the article is ${wide} px wider than the screen`);
  const found = await axeViolations(p);
  assert(found.length === 0, found.join('\n'));
  const sizes375 = await p.$$eval('embedlab-view', (els) => els.map((e) => `${e.id} ${Math.round(e.getBoundingClientRect().height)}`));
  console.log(`     (CLS ${cls.toFixed(4)} at 375 px, dark; drawn heights ${sizes375.join(', ')})`);
  await p.close();
});

await test('375 px light and 1280 px dark: no serious or critical axe violation once drawn', async () => {
  for (const [w, hash] of [[375, ''], [1280, '#theme=dark']]) {
    const p = await openArticle(w, hash);
    for (const id of WIDGETS) {
      await p.$eval(`#${id}`, (el) => el.scrollIntoView());
      await waitRenders(p, id);
    }
    const found = await axeViolations(p);
    assert(found.length === 0, `${w} ${hash}: ${found.join('\n')}`);
    await p.close();
  }
});

await test('no console errors, no requests to other origins', async () => {
  assert(consoleErrors.length === 0, consoleErrors.join('\n'));
  assert(foreignRequests.length === 0, foreignRequests.join('\n'));
});

await h.finish();
