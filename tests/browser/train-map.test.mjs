// Browser test of the training view's map while training (issue 22): a map must never fail or
// desynchronise a training step. On the 69 char rows of Tiny Shakespeare, Play with t-SNE
// (perplexity 30, which needs more than 91 rows) and with UMAP (n_neighbors 200) runs on, the map
// card states the clamp ("perplexity 30 → 22 for 69 rows"), and after Pause the page's step, its
// loss points, the autosaved step and the worker's own step agree; the card's "CSV 2-D" is the map
// as drawn. A map that fails (min_dist 5) says so on the map card while training goes on, and a
// good value draws again. Of the same kind: a step that fails mid-slice (SGD at lr 50 diverges
// after a few steps) keeps the steps made before it.
//   node tests/browser/train-map.test.mjs [--site build/web] [--shots build/screenshots]
import fs from 'node:fs';
import { assert, startHarness, workerStep } from './harness.mjs';

const h = await startHarness('training map tests');
const { test, openPage, consoleErrors, foreignRequests, shot } = h;

// CSV rows [[x, y]...] against drawn coordinates (rows * 2), to a float's precision
const sameAsDrawn = (rows, drawn) => rows.length * 2 === drawn.length &&
  rows.every(([x, y], i) => Math.abs(x - drawn[2 * i]) <= 1e-6 * Math.max(1, Math.abs(x)) && Math.abs(y - drawn[2 * i + 1]) <= 1e-6 * Math.max(1, Math.abs(y)));

// The training view's state: its step, loss points, autosaved step, message, field errors, map card.
const trainState = (tp) => tp.evaluate(() => {
  const d = document.querySelector('#view-train').dataset;
  return {
    steps: Number(d.steps || 0), lossPoints: Number(d.lossPoints || 0), savedStep: Number(d.savedStep ?? -1),
    playing: /Pause/.test(document.querySelector('#train-play').textContent), message: document.querySelector('#train-message').textContent,
    fieldErrors: [...document.querySelectorAll('#view-train .field-error, .field-error')].map((e) => e.textContent).filter(Boolean),
    mapError: d.mapError || '', mapClamp: d.mapClamp || '', mapState: d.mapState || '',
    progress: document.querySelector('#train-map-progress').textContent, note: document.querySelector('#map-note').textContent,
  };
});

// Pauses (if still playing) and waits until the page's step, its loss points, the autosaved step
// and the worker's own step agree; fails naming the four when they never do.
async function pausedAgree(tp) {
  if ((await trainState(tp)).playing) await tp.click('#train-play');
  // the worker's step, asked after Pause: its reply comes after the slice that was in flight, so
  // this is the run's last step; the page must then reach the same step in its steps, loss
  // points and autosave
  const worker = await workerStep(tp);
  try {
    await tp.waitForFunction((w) => {
      const d = document.querySelector('#view-train').dataset;
      return d.steps === String(w) && d.savedStep === d.steps && d.lossPoints === d.steps && !/Pause/.test(document.querySelector('#train-play').textContent);
    }, worker, { timeout: 30000 });
  } catch {
    const st = await trainState(tp);
    throw new Error(`the run does not agree: page step ${st.steps}, loss points ${st.lossPoints}, autosaved step ${st.savedStep}, worker step ${worker}; message "${st.message}" ${JSON.stringify(st.fieldErrors)}`);
  }
  return trainState(tp);
}

// The char table of Tiny Shakespeare has 69 rows: t-SNE's perplexity 30 needs more than 91, and
// n_neighbors 200 (the link's most) more than 200. Neither may stop or desynchronise training.
for (const [method, hash, clamp] of [['t-SNE', 'tmap=tsne', 'perplexity 30 → 22 for 69 rows'], ['UMAP', 'tmap=umap&tnn=200', 'n_neighbors 200 → 68 for 69 rows']]) {
  await test(`training view, ${method} on the 69 char rows: Play runs on; loss points, step, autosave and worker agree; the card states the clamp`, async () => {
    const tp = await openPage(`#view=train&tEnc=char&${hash}`);
    await tp.waitForFunction(() => Number(document.querySelector('#view-train').dataset.renders || 0) > 0, null, { timeout: 60000 });
    await tp.click('#train-play');
    // the map on screen: slices update only the plots on screen (issue 24)
    await tp.$eval('#train-map', (el) => el.scrollIntoView({ block: 'center' }));
    // 150 steps, or the run stopping by itself (the defect: a map error ended Play)
    await tp.waitForFunction(() => Number(document.querySelector('#view-train').dataset.steps || 0) >= 150 ||
      !/Pause/.test(document.querySelector('#train-play').textContent), null, { timeout: 120000 });
    const playing = await trainState(tp);
    assert(playing.playing && playing.message === '' && playing.fieldErrors.length === 0,
      `training stopped at step ${playing.steps}: "${playing.message}" ${JSON.stringify(playing.fieldErrors)}`);
    assert(playing.mapClamp === clamp && playing.progress.includes(clamp), `map card while playing: clamp "${playing.mapClamp}", line "${playing.progress}"`);
    await tp.locator('article:has(#train-map)').screenshot({ path: shot(`maps-train-clamp-${method}.png`) });
    const st = await pausedAgree(tp);
    assert(st.steps >= 150, `steps ${st.steps}`);
    // paused: the whole run at the clamped value, said on the card
    await tp.waitForFunction(() => /finished|failed/.test(document.querySelector('#view-train').dataset.mapState || ''), null, { timeout: 60000 });
    const done = await trainState(tp);
    assert(done.mapState === 'finished' && done.progress.includes(clamp) && done.note.includes(clamp), `after Pause: ${done.mapState}, "${done.progress}", note "${done.note.slice(0, 160)}"`);
    // the card's "CSV 2-D" is this map as drawn, not a PCA of the table
    const [download] = await Promise.all([tp.waitForEvent('download', { timeout: 20000 }),
      tp.click('article:has(#export-vectors) .table-exports button[data-format="csv2"]')]);
    const rows = fs.readFileSync(await download.path(), 'utf8').split('\r\n').filter(Boolean).slice(1).map((l) => l.split(',').slice(-2).map(Number));
    const drawn = await tp.$eval('#train-map .heatmap', (el) => Array.from(el.scatter.data.points));
    const key = method === 't-SNE' ? 'tsne' : 'umap';
    assert(download.suggestedFilename().includes(`${key}2`) && sameAsDrawn(rows, drawn), `training CSV 2-D: ${download.suggestedFilename()}, row 0 ${rows[0]} vs drawn ${drawn.slice(0, 2)}`);
    console.log(`     (step ${st.steps} = loss points = autosaved = worker; "${done.progress}")`);
    await tp.close();
  });
}

await test('training view: a map that fails (min_dist 5) leaves training going, says so on the map card, and a good value draws again', async () => {
  const tp = await openPage('#view=train&tEnc=char&tmap=umap');
  await tp.waitForFunction(() => Number(document.querySelector('#view-train').dataset.renders || 0) > 0, null, { timeout: 60000 });
  await tp.click('#train-play');
  await tp.waitForFunction(() => Number(document.querySelector('#view-train').dataset.steps || 0) >= 50, null, { timeout: 60000 });
  await tp.fill('#train-map-md', '5');
  await tp.locator('#train-map-md').blur(); // the field's change event
  await tp.waitForFunction(() => document.querySelector('#view-train').dataset.mapError || !/Pause/.test(document.querySelector('#train-play').textContent), null, { timeout: 30000 });
  const failed = await trainState(tp);
  assert(failed.playing && failed.message === '' && failed.fieldErrors.length === 0, `training stopped at step ${failed.steps}: "${failed.message}" ${JSON.stringify(failed.fieldErrors)}`);
  assert(/^umap: min_dist 5 out of range \[0, 1\]/.test(failed.mapError) && /^The map could not be updated: umap: min_dist 5 .*Training goes on/.test(failed.progress), `map card: ${failed.mapError} | ${failed.progress}`);
  await tp.waitForFunction((n) => Number(document.querySelector('#view-train').dataset.steps || 0) >= n + 100, failed.steps, { timeout: 60000 });
  await tp.$eval('#train-map-choice', (el) => el.closest('article').scrollIntoView());
  await tp.locator('article:has(#train-map)').screenshot({ path: shot('maps-train-map-error.png') });
  const frames = Number(await tp.$eval('#view-train', (el) => el.dataset.mapFrames || 0));
  await tp.fill('#train-map-md', '0.1');
  await tp.locator('#train-map-md').blur();
  await tp.waitForFunction((n) => Number(document.querySelector('#view-train').dataset.mapFrames || 0) > n && !document.querySelector('#view-train').dataset.mapError, frames, { timeout: 30000 });
  const st = await pausedAgree(tp);
  console.log(`     (map error at step ${failed.steps}: "${failed.mapError}"; training went on to ${st.steps}, all four agree)`);
  await tp.close();
});

// Of the same kind: a step that fails mid-slice (SGD at lr 50 gives nan after a few steps) took the
// slice's earlier steps with it; the page showed step 0 while the worker was a few steps on.
await test('training view: a run that diverges mid-slice shows every step made before it, with the message on the learning rate', async () => {
  const tp = await openPage('#view=train&tEnc=char&opt=sgd&lr=50');
  await tp.waitForFunction(() => Number(document.querySelector('#view-train').dataset.renders || 0) > 0, null, { timeout: 60000 });
  await tp.click('#train-play');
  await tp.waitForFunction(() => document.querySelector('#train-message').textContent.includes('nan'), null, { timeout: 60000 });
  const st = await pausedAgree(tp);
  const m = /^train: loss became nan at step (\d+) with learning rate 50; lower the learning rate$/.exec(st.message);
  assert(m, `message: ${st.message}`);
  assert(st.steps === Number(m[1]) - 1 && st.lossPoints === st.steps, `nan at step ${m[1]}: page step ${st.steps}, loss points ${st.lossPoints}`);
  const lr = await tp.textContent('.field[data-key="lr"] .field-error');
  assert(lr.includes(`loss became nan at step ${m[1]}`), `lr field: "${lr}"`);
  console.log(`     (${st.message}; the page, its curve, the autosave and the worker are at step ${st.steps})`);
  await tp.close();
});

await test('no console errors and no requests to other origins', async () => {
  assert(consoleErrors.length === 0, `console errors: ${consoleErrors.slice(0, 3).join(' | ')}`);
  assert(foreignRequests.length === 0, `foreign requests: ${foreignRequests.slice(0, 3).join(', ')}`);
});

await h.finish();
