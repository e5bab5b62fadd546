// node:test for the worker's UMAP / t-SNE map handlers (web/src/handlers/layout-handler.js) over the
// wasm module in Node, wired as worker.js wires them: a run of the imported table stepped in
// time slices to its end, runs deleted on stop / a new start / a new table, the engine's
// message for a perplexity too large, the neighbours' map distance on the last frame, and the
// training map that continues from the previous update.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './load-engine.mjs';
import { npyBytes, sameBits } from './table-files.mjs';
import { makeDispatcher } from '../../web/src/protocol.js';
import { makeLayoutHandlers, centred, clampToTable } from '../../web/src/handlers/layout-handler.js';
import { makeImportHandlers } from '../../web/src/handlers/import-handler.js';

// (rows, dim) float32 .npy bytes: 3 clusters (row i in cluster i % 3, centre 6 on column i % 3) plus LCG noise
function clusters(rows, dim, seed = 5) {
  const t = new Float32Array(rows * dim);
  let s = seed >>> 0;
  for (let i = 0; i < t.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    t[i] = ((s >>> 8) - (1 << 23)) / (1 << 23);
  }
  for (let r = 0; r < rows; r++) t[r * dim + (r % 3)] += 6;
  return t;
}
const npy = (data, rows, cols) => new Blob([npyBytes(data, rows, cols)]);
const file = (data, rows, cols, name = 't.npy') => Object.assign(npy(data, rows, cols), { name });

describe('layout handlers', () => {
  let M;
  let layout;
  let call;
  before(async () => {
    M = await loadEngine();
    layout = makeLayoutHandlers(M);
    const dispatch = makeDispatcher({ ...makeImportHandlers(M, undefined, layout), ...layout.handlers });
    let id = 0;
    call = async (type, payload) => {
      const r = await dispatch({ id: ++id, type, payload });
      if (!r.ok) throw new Error(r.message);
      return r.result;
    };
  });

  it('a UMAP run of the imported table steps in slices to its end; its frames are centred and differ', async () => {
    await call('importTable', { file: file(clusters(300, 8), 300, 8) });
    const s = await call('layoutStart', { source: 'import', method: 'umap', nEpochs: 60 });
    assert.equal(s.rows, 300);
    assert.equal(s.total, 60);
    assert.equal(s.phase, 'knn'); // the start only checks: the construction runs in the steps
    assert.equal(s.preparing, true);
    let p;
    const frames = [];
    do {
      p = await call('layoutStep', { source: 'import', budgetMs: 0 }); // one slice or epoch per step
      if (p.preparing) assert.equal(p.points, null);
      else frames.push(p.points);
    } while (!p.finished);
    assert.equal(frames.length, 60);
    assert.equal(p.info.knn, 'exact');
    assert.ok(p.prepareMs > 0 && p.prepareMs <= p.ms);
    assert.equal(p.done, 60);
    const mean = [0, 1].map((k) => frames[59].filter((_, i) => i % 2 === k).reduce((a, b) => a + b, 0) / 300);
    assert.ok(Math.abs(mean[0]) < 1e-3 && Math.abs(mean[1]) < 1e-3, `mean ${mean}`);
    assert.ok(frames[0].some((v, i) => v !== frames[59][i]), 'the first and the last frame are the same');
    assert.equal(layout.openRuns(), 1);
    assert.deepEqual(await call('layoutStop', { source: 'import' }), { stopped: true });
    assert.equal(layout.openRuns(), 0);
    await assert.rejects(call('layoutStep', { source: 'import' }), /no map run is open here/);
  });

  it('the construction runs in the steps with phase and progress, gives the one-call bits, and a stop ends it', async () => {
    const rows = 3000, cols = 40; // exact kNN, 180 M multiply-adds: many slices of 2^21
    const data = clusters(rows, cols, 7);
    await call('importTable', { file: file(data, rows, cols) });
    for (const method of ['umap', 'tsne']) {
      const opts = method === 'umap' ? { nEpochs: 5 } : { perplexity: 10, iterations: 5 };
      const s = await call('layoutStart', { source: 'import', method, ...opts });
      assert.equal(s.preparing, true);
      assert.equal(s.phase, method === 'umap' ? 'knn' : 'neighbours');
      const seen = [];
      let p;
      do {
        p = await call('layoutStep', { source: 'import', budgetMs: 0 });
        if (p.preparing) {
          assert.ok(p.progress >= 0 && p.progress <= 1, `progress ${p.progress}`);
          assert.equal(p.finished, false);
          if (seen.at(-1) !== p.phase) seen.push(p.phase);
        }
      } while (!p.finished);
      assert.deepEqual(seen, method === 'umap' ? ['knn', 'graph', 'init'] : ['neighbours', 'affinities', 'init']);
      const want = method === 'umap' ? M.umap(data, rows, cols, opts) : M.tsne(data, rows, cols, opts);
      assert.ok(sameBits(layout.coordinatesOf('import', method), want), `${method}: the sliced run differs from the one-call run`);
    }
    // a stop during the construction ends the run: nothing open, the next step refuses
    await call('layoutStart', { source: 'import', method: 'umap' });
    const p = await call('layoutStep', { source: 'import', budgetMs: 0 });
    assert.equal(p.preparing, true);
    assert.equal(p.phase, 'knn');
    assert.ok(p.progress > 0 && p.progress < 1, `progress ${p.progress}`);
    assert.deepEqual(await call('layoutStop', { source: 'import' }), { stopped: true });
    assert.equal(layout.openRuns(), 0);
    await assert.rejects(call('layoutStep', { source: 'import' }), /no map run is open here/);
    await call('importTable', { file: file(clusters(300, 8), 300, 8) }); // the table the next cases use
  });

  it('the neighbours report the distance on the last UMAP frame', async () => {
    await call('layoutStart', { source: 'import', method: 'umap', nEpochs: 20 });
    let p;
    do p = await call('layoutStep', { source: 'import', budgetMs: 1000 }); while (!p.finished);
    const r = await call('importNeighbours', { query: '4', k: 3, map: 'umap' });
    assert.equal(r.map, 'umap');
    const n = r.neighbours[0];
    const want = Math.hypot(p.points[2 * n.row] - p.points[8], p.points[2 * n.row + 1] - p.points[9]);
    assert.ok(Math.abs(n.map - want) < 1e-4, `${n.map} vs ${want}`);
    const none = await call('importNeighbours', { query: '4', k: 3, map: 'tsne' }); // no t-SNE frame yet
    assert.equal(none.map, null);
    assert.equal(none.neighbours[0].map, null);
  });

  it('a new start replaces the run, a new table drops it; many runs leave none open', async () => {
    for (let i = 0; i < 5; i++) await call('layoutStart', { source: 'import', method: i % 2 ? 'tsne' : 'umap', perplexity: 20 });
    assert.equal(layout.openRuns(), 1);
    await call('importTable', { file: file(clusters(90, 8, 9), 90, 8) });
    assert.equal(layout.openRuns(), 0);
    await assert.rejects(call('layoutStep', { source: 'import' }), /no map run/);
  });

  it('t-SNE with a perplexity too large gives the engine message and opens no run', async () => {
    await assert.rejects(call('layoutStart', { source: 'import', method: 'tsne', perplexity: 30 }),
      /perplexity 30 must be below \(n - 1\) \/ 3 = 29\.67/);
    assert.equal(layout.openRuns(), 0);
    await assert.rejects(call('layoutStart', { source: 'import', method: 'pca' }), /method "pca" is not one of umap, tsne/);
  });

  it('the training map is one live run per slot, stepped in slices; a finished run continues from its last frame on the newer table', () => {
    const data = clusters(200, 8, 3);
    let reads = 0;
    const get = () => {
      reads++;
      return { data: data.slice(), rows: 200, cols: 8 }; // the table as it is now (train-handler reads the trainer's)
    };
    // budget 0: one construction slice or one epoch per call, never a whole run
    const frames = [];
    let m;
    let calls = 0;
    do {
      m = layout.trainMap('train:', get, 'umap', {}, 0);
      calls++;
      assert.equal(m.continued, false);
      if (m.preparing) assert.equal(m.points, null);
      else frames.push(m);
      assert.equal(layout.openRuns(), m.finished ? 0 : 1, `call ${calls}`);
    } while (!m.finished);
    assert.equal(reads, 1, 'the table is read when a run starts, not on every slice');
    assert.equal(frames.length, m.total, 'one epoch per slice at budget 0');
    assert.ok(frames[0].done < frames.at(-1).done);
    const step = (k) => {
      for (let i = 0; i < data.length; i++) data[i] += 0.01 * Math.sin(i * k); // a training step's worth of change
    };
    const run = () => {
      let r;
      do r = layout.trainMap('train:', get, 'umap', {}, 1000); while (!r.finished);
      return r;
    };
    step(1);
    const b = run();
    assert.equal(b.continued, true);
    assert.equal(reads, 2);
    step(2);
    const b2 = run();
    // two updates that both started from a layout (the engine maps an init to [0, 10] per axis)
    const ext = Math.max(...b2.points.filter((_, i) => i % 2 === 0)) - Math.min(...b2.points.filter((_, i) => i % 2 === 0));
    const d = [];
    for (let i = 0; i < 200; i++) d.push(Math.hypot(b.points[2 * i] - b2.points[2 * i], b.points[2 * i + 1] - b2.points[2 * i + 1]));
    d.sort((x, y) => x - y);
    assert.ok(d[100] / ext < 0.1, `median move ${d[100]} of an extent ${ext}`);
    // a stop (Pause's whole run starts, Cancel, a new table) deletes the live run mid-way
    const c = layout.trainMap('train:', get, 'tsne', { perplexity: 20 }, 0); // another method: its own start
    assert.equal(c.continued, false);
    assert.equal(layout.openRuns(), 1);
    layout.dropSource('train:');
    assert.equal(layout.openRuns(), 0);
  });

  it('a perplexity or n_neighbors too large for the table is clamped to it, and the clamp is stated', () => {
    assert.deepEqual(clampToTable('tsne', { perplexity: 30 }, 69, layout.list).clamp,
      { key: 'perplexity', asked: 30, used: 22, rows: 69, text: 'perplexity 30 → 22 for 69 rows', why: 'it must be below (n − 1) / 3 = 22.67' });
    assert.equal(clampToTable('tsne', {}, 62, layout.list).opts.perplexity, 20); // the engine's default 30; (62 - 1) / 3 = 20.33
    assert.equal(clampToTable('tsne', { perplexity: 30 }, 61, layout.list).opts.perplexity, 19); // strictly below (61 - 1) / 3 = 20
    assert.equal(clampToTable('tsne', { perplexity: 5 }, 69, layout.list).clamp, null);
    assert.equal(clampToTable('tsne', { perplexity: 30 }, 4, layout.list).clamp, null); // no perplexity fits: the engine's message
    const u = clampToTable('umap', { nNeighbors: 15, minDist: 0.1 }, 10, layout.list);
    assert.deepEqual([u.opts.nNeighbors, u.opts.minDist, u.clamp.text], [9, 0.1, 'n_neighbors 15 → 9 for 10 rows']);
    assert.equal(clampToTable('umap', { nNeighbors: 9 }, 10, layout.list).clamp, null);
    // a run of the training map and layoutStart {clamp: true} run with the clamped value
    const t = { data: clusters(40, 8, 4), rows: 40, cols: 8 };
    let m;
    do m = layout.trainMap('train:c', () => t, 'tsne', { perplexity: 30 }, 1000); while (!m.finished);
    assert.equal(m.clamp.text, 'perplexity 30 → 12 for 40 rows');
    assert.equal(layout.openRuns(), 0);
  });

  it('centred subtracts the mean', () => {
    assert.deepEqual(Array.from(centred(new Float32Array([1, 2, 3, 6]))), [-1, -2, 1, 2]);
  });
});

// trainStep with a UMAP / t-SNE map, wired as worker.js wires it (text, training, layout): the
// char table of Tiny Shakespeare has 69 rows, too few for t-SNE's perplexity 30. Neither a map
// nor a step that fails mid-slice may lose the steps the trainer made.
describe('the training map inside trainStep', () => {
  let call;
  let layout;
  before(async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const { repoRoot } = await import('./load-engine.mjs');
    const { makeTextPipeline } = await import('../../web/src/handlers/text-handler.js');
    const { makeTrainHandlers } = await import('../../web/src/handlers/train-handler.js');
    const M = await loadEngine();
    const read = async (name) => fs.readFileSync(path.join(repoRoot, 'web', 'corpora', `${name}.txt`), 'utf8');
    const text = makeTextPipeline(M, read);
    layout = makeLayoutHandlers(M);
    const store = { getRecord: async () => null, putRecord: async () => {} };
    const dispatch = makeDispatcher({ ...text.handlers, ...makeTrainHandlers(M, text.ensureTokens, store, layout), ...layout.handlers });
    let id = 0;
    call = async (type, payload) => {
      const r = await dispatch({ id: ++id, type, payload });
      if (!r.ok) throw new Error(r.message);
      return r.result;
    };
  });
  const start = { corpus: 'tinyshakespeare', enc: 'char', lower: false, bpeV: 300, model: 'next', pos: 'learned', tD: 16, ctx: 16, tB: 8, opt: 'adam', lr: 0.01, alpha: 0.025, win: 5, minc: 2, ep: 5, seed: 1 };

  // steps slices of `maxSteps` until `n` steps and a map update (or its error) -> {points, maps, errors, last}
  async function play(map, n, maxSteps = 5) {
    const out = { points: [], maps: [], errors: [], last: null };
    while (out.points.length < n || out.maps.length + out.errors.length === 0) {
      // a slice of maxSteps; the first one with another map is a map update, then one every 250 ms
      const r = await call('trainStep', { budgetMs: 1000, maxSteps, map });
      out.points.push(...r.points);
      if (r.map) out.maps.push(r.map);
      if (r.mapError) out.errors.push(r.mapError);
      out.last = r;
    }
    return out;
  }

  it('t-SNE with perplexity 30 on 69 rows: every step is reported, the map runs at the clamped perplexity and says so', async () => {
    const s = await call('trainStart', start);
    assert.equal(s.rows, 69);
    const r = await play({ method: 'tsne', perplexity: 30, metric: 'euclidean' }, 40);
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.points.map((p) => p[0]), Array.from({ length: r.points.length }, (_, i) => i + 1), 'the steps of the slices, each once');
    assert.equal(r.last.stats.totalSteps, r.points.length);
    assert.ok(r.maps.length >= 1, 'no map update');
    assert.equal(r.maps[0].clamp.text, 'perplexity 30 → 22 for 69 rows');
    assert.ok(r.maps.every((m) => m.live && m.method === 'tsne'));
    assert.equal(layout.openRuns(), r.maps.at(-1).finished ? 0 : 1);
    // back to PCA while playing: the PCA map, and the live run is freed
    const p = await play(null, 5);
    assert.ok(p.maps.every((m) => !m.method && m.points.length === 2 * 69));
    assert.equal(layout.openRuns(), 0);
  });

  it('a step that fails after others of its slice (SGD at lr 50: nan at step 5) reports the 4 steps before it and the error, blamed on lr', async () => {
    await call('trainStart', { ...start, opt: 'sgd', lr: 50 });
    const r = await call('trainStep', { budgetMs: 5000, maxSteps: 200 });
    assert.deepEqual(r.points.map((p) => p[0]), [1, 2, 3, 4]);
    assert.equal(r.stats.totalSteps, 4);
    assert.equal(r.stepError.message, 'train: loss became nan at step 5 with learning rate 50; lower the learning rate');
    assert.equal(r.stepError.fields[0], 'lr');
    // the next slice's first step fails as a whole request, as before (nothing to report)
    await assert.rejects(call('trainStep', { budgetMs: 5000, maxSteps: 200 }), /loss became nan/);
  });

  it('a map that fails (min_dist 5 > spread 1) does not fail the step: the reply has the steps and mapError', async () => {
    await call('trainStart', start);
    const r = await play({ method: 'umap', nNeighbors: 15, minDist: 5, metric: 'euclidean' }, 20);
    assert.equal(r.last.stats.totalSteps, r.points.length);
    assert.ok(r.points.length >= 20);
    assert.ok(r.errors.length >= 1);
    assert.equal(r.errors[0], 'umap: min_dist 5 out of range [0, 1] (at most spread)');
    assert.equal(r.maps.length, 0);
    // the next update with good options draws again
    const ok = await play({ method: 'umap', nNeighbors: 200, minDist: 0.1, metric: 'euclidean' }, 5);
    assert.deepEqual(ok.errors, []);
    assert.equal(ok.maps[0].clamp.text, 'n_neighbors 200 → 68 for 69 rows');
  });
});
