// Worker-side handlers for the UMAP and t-SNE maps of the page (issue 12): a map of the imported
// table (import-handler.js) or of the training table (train-handler.js), run in time slices so
// the page draws every frame and stays live, as training does (trainStep).
//
//   layoutStart {source: 'import' | 'train', method: 'umap' | 'tsne', slot, normalise (import),
//                nNeighbors, minDist, metric, perplexity, seed, from: 'previous' | null}
//     -> {rows, total, preparing: true, phase, progress, ms}: returns at once after the engine's
//        checks (options, table, memory plan: Umap.start / Tsne.start); bad options and tables
//        too big fail here with the engine's message
//   layoutStep  {source, slot, budgetMs = 35}
//     while the run is constructed (kNN + graph + init, neighbours + affinities + init):
//     -> {points: null, preparing: true, phase ('knn' | 'graph' | 'init' | 'neighbours' |
//         'affinities'), progress (of the phase, 0..1), done: 0, total, finished: false, ms}
//     then (the construction may end within a step, which then runs epochs with the rest of it)
//     -> {points (rows * 2, centred: the mean is subtracted), preparing: false, done, total,
//         phase ('epoch' | 'iteration'), kl (t-SNE), finished, info, prepareMs (the
//         construction's engine time), ms (engine time of the whole run so far)}
//   So a layoutStop between two steps (Cancel) ends a run within one budget, construction or not.
//   layoutStop  {source, slot} -> {stopped}: deletes the run (its last frame stays the source's
//                previous layout, for from: 'previous' and the neighbours' map distance)
//
// One run per source ('import', 'train:<slot>'): a new start deletes the old run first, and so
// does a change of the table under it (dropSource, called by the import and train handlers).
// Every engine object is deleted on stop, on a new start, on errors and when its table goes.
// trainMap() is the training view's map while it plays: one live run per slot, stepped a
// slice (budgetMs) per map update inside trainStep, never a whole UMAP or t-SNE at once. When a
// run has done its epochs the next update starts another one on the table as it is then, warm-
// started from the last frame (a short run at a lower learning rate), so the points move rather
// than jump; its construction (kNN, graph) is sliced too. A layoutStart, layoutStop or a new
// table stops it like any run of the slot.
// Clamping (the training maps, and layoutStart {clamp: true}): a perplexity or n_neighbors the
// table cannot take is lowered to the largest it can (t-SNE: below (n - 1) / 3; UMAP: n - 1),
// and the reply says so (clamp: {key, asked, used, rows, text}); the training table's size is
// the run's, not the user's choice, so its map must not fail on it.
//
// Not here: what the page shows (views/map-choice.js, import-map.js, train-view.js) and the
// PCA maps (import-handler.js importMap, train-handler.js pcaMap).
import { checkPageBudget } from './limits.js';

export const METHODS = ['umap', 'tsne'];
// UMAP epochs of one training-map update that starts from the last frame, at a tenth of the
// learning rate. Every init, a given one too, is mapped to [0, 10] per axis by the engine, so
// updates compare in that frame: on 1,400 rows x 32 dims (3 clusters, a change of 0.01 per value)
// learning rate 1 moved the median point ~8-9% of the map's width per update, 0.25 ~5%; 0.1 keeps
// the trails of the labelled rows readable (the jitter of negative sampling scales with it)
// (tests/js/layout-handler.test.mjs checks < 10% between two updates).
const CONTINUE_EPOCHS = 20;
const CONTINUE_LEARNING_RATE = 0.1;
const CONTINUE_ITERATIONS = 40; // t-SNE iterations of the same
const FIRST_ITERATIONS = 300; // t-SNE's first training map (early exaggeration for 250 of them)

// payload -> the engine's options (only those given; the engine's defaults otherwise)
export function layoutOptions(method, p) {
  const o = {};
  if (p.metric != null) o.metric = p.metric;
  if (p.seed != null) o.seed = Number(p.seed);
  if (method === 'umap') {
    if (p.nNeighbors != null) o.nNeighbors = Number(p.nNeighbors);
    if (p.minDist != null) o.minDist = Number(p.minDist);
    if (p.nEpochs != null) o.nEpochs = Number(p.nEpochs);
    if (p.learningRate != null) o.learningRate = Number(p.learningRate);
  } else {
    if (p.perplexity != null) o.perplexity = Number(p.perplexity);
    if (p.iterations != null) o.iterations = Number(p.iterations);
  }
  return o;
}

// xy (rows * 2) -> a copy with the mean subtracted (the page's views fit a view centred on 0)
export function centred(xy) {
  const n = xy.length >> 1;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += xy[2 * i];
    my += xy[2 * i + 1];
  }
  mx /= Math.max(1, n);
  my /= Math.max(1, n);
  const out = new Float32Array(xy.length);
  for (let i = 0; i < n; i++) {
    out[2 * i] = xy[2 * i] - mx;
    out[2 * i + 1] = xy[2 * i + 1] - my;
  }
  return out;
}

// (method, opts (layoutOptions), rows) -> {opts, clamp: null | {key, asked, used, rows, text}}:
// perplexity lowered to the largest integer below (n - 1) / 3 (t-SNE), n_neighbors to n - 1
// (UMAP), the engine's limits (src/maps/tsne/tsne.cpp, umap.cpp check_options). A table too small
// for any value (t-SNE under 5 rows, UMAP under 3) is left to the engine's message.
// e.g. ('tsne', {perplexity: 30}, 69) -> perplexity 22, text "perplexity 30 → 22 for 69 rows".
export function clampToTable(method, opts, rows) {
  const o = { ...opts };
  if (method === 'tsne') {
    const asked = o.perplexity ?? 30; // the engine's default
    const limit = (rows - 1) / 3;
    const used = Math.ceil(limit) - 1;
    if (asked < limit || used < 1) return { opts: o, clamp: null };
    o.perplexity = used;
    return { opts: o, clamp: { key: 'perplexity', asked, used, rows, text: `perplexity ${asked} → ${used} for ${rows} rows`, why: `it must be below (n − 1) / 3 = ${limit.toFixed(2)}` } };
  }
  const asked = o.nNeighbors ?? 15;
  if (asked <= rows - 1 || rows - 1 < 2) return { opts: o, clamp: null };
  o.nNeighbors = rows - 1;
  return { opts: o, clamp: { key: 'n_neighbors', asked, used: rows - 1, rows, text: `n_neighbors ${asked} → ${rows - 1} for ${rows} rows`, why: 'it can be at most n − 1' } };
}

function checkMethod(method, where) {
  if (!METHODS.includes(method)) throw new Error(`${where}: method ${JSON.stringify(method)} is not one of ${METHODS.join(', ')}`);
}

export function makeLayoutHandlers(M) {
  const sources = new Map(); // name ('import' | 'train') -> (payload) -> {table: M.Table} | {data, rows, cols}
  const runs = new Map(); // key -> {obj, method, rows, normalise, ms}
  const last = new Map(); // key -> {coords (raw, rows * 2), method, rows, normalise}

  const keyOf = (p) => (p.source === 'train' ? `train:${String(p.slot ?? '')}` : 'import');

  function source(p, where) {
    const get = sources.get(p.source);
    if (!get) throw new Error(`${where}: source ${JSON.stringify(p.source)} is not one of ${[...sources.keys()].join(', ')}`);
    return get(p);
  }

  // -> a new M.Umap / M.Tsne on table ({table} resident or {data, rows, cols}) with opts,
  // constructed now, or only checked and planned when sliced (Umap.start / Tsne.start; the
  // construction then runs in prepare())
  function make(method, t, opts, sliced = false) {
    const Cls = method === 'umap' ? M.Umap : M.Tsne;
    if (sliced) return t.table ? Cls.start(t.table, opts) : Cls.start(t.data, t.rows, t.cols, opts);
    return t.table ? new Cls(t.table, opts) : new Cls(t.data, t.rows, t.cols, opts);
  }

  function stop(key) {
    const r = runs.get(key);
    if (!r) return false;
    runs.delete(key);
    r.obj.delete();
    return true;
  }

  // The table under key changed or went away: its run and its last layout are dropped.
  function dropSource(key) {
    stop(key);
    last.delete(key);
  }

  function previous(key, method, rows) {
    const l = last.get(key);
    return l && l.rows === rows && l.method === method ? l.coords : null; // a t-SNE frame is no UMAP init
  }

  function layoutStart(p) {
    checkMethod(p.method, 'map');
    const key = keyOf(p);
    stop(key);
    const t = source(p, 'map');
    const rows = t.table ? t.table.rows : t.rows;
    checkPageBudget('map', 'coordinates', [rows, 2]);
    const { opts, clamp } = p.clamp ? clampToTable(p.method, layoutOptions(p.method, p), rows) : { opts: layoutOptions(p.method, p), clamp: null };
    if (p.from === 'previous') {
      const prev = previous(key, p.method, rows);
      if (prev) opts.init = prev;
    }
    const t0 = performance.now();
    const obj = make(p.method, t, opts, true);
    const ms = performance.now() - t0;
    runs.set(key, { obj, method: p.method, rows, normalise: !!p.normalise, ms, prepared: false, prepareMs: 0 });
    const umap = p.method === 'umap';
    return { rows, total: umap ? obj.totalEpochs() : obj.totalIterations(), preparing: true, phase: obj.phase(), progress: obj.progress(), ms, clamp };
  }

  function layoutStep(p) {
    const key = keyOf(p);
    const r = runs.get(key);
    if (!r) throw new Error('map: no UMAP or t-SNE run is open here (it was stopped, or its table changed); press Run');
    const budget = Math.max(0, Number(p.budgetMs ?? 35));
    const umap = r.method === 'umap';
    const total = umap ? r.obj.totalEpochs() : r.obj.totalIterations();
    const t0 = performance.now();
    if (!r.prepared) {
      try {
        r.prepared = r.obj.prepare(budget);
      } catch (err) {
        stop(key);
        throw err;
      }
      r.ms += performance.now() - t0;
      if (!r.prepared) {
        return { points: null, preparing: true, phase: r.obj.phase(), progress: r.obj.progress(), done: 0, total, finished: false, kl: null, ms: r.ms };
      }
      r.prepareMs = r.ms;
    }
    const t1 = performance.now();
    let done = umap ? r.obj.epoch() : r.obj.iteration();
    try {
      while (done < total) {
        done = r.obj.step(1);
        if (performance.now() - t0 >= budget) break;
      }
    } catch (err) {
      stop(key);
      throw err;
    }
    const coords = r.obj.coordinates();
    r.ms += performance.now() - t1;
    last.set(key, { coords, method: r.method, rows: r.rows, normalise: r.normalise });
    return {
      points: centred(coords), preparing: false, done, total, phase: umap ? 'epoch' : 'iteration', finished: done >= total,
      kl: umap ? null : r.obj.kl(), info: r.obj.info(), prepareMs: r.prepareMs, ms: r.ms,
    };
  }

  function layoutStop(p) {
    return { stopped: stop(keyOf(p)) };
  }

  // The training map while it plays (see the header): one slice of at most budgetMs of the
  // slot's live run; getTable() -> {data, rows, cols}, the table now (read only when a run
  // starts). -> {points (centred) | null (still constructing), method, continued, phase,
  // progress, done, total, finished, kl, clamp}. Throws the engine's message (bad options);
  // the run is then gone, and the next update tries again.
  function trainMap(key, getTable, method, p, budgetMs = 30) {
    checkMethod(method, 'map');
    const wanted = JSON.stringify([method, layoutOptions(method, p)]);
    let r = runs.get(key);
    if (r && (!r.live || r.wanted !== wanted)) {
      stop(key); // an animated run of the slot, or other options: the live run starts afresh
      r = null;
    }
    if (!r) {
      const t = getTable();
      checkPageBudget('map', 'coordinates', [t.rows, 2]);
      const prev = previous(key, method, t.rows);
      const { opts, clamp } = clampToTable(method, layoutOptions(method, p), t.rows);
      if (method === 'umap') {
        opts.nEpochs = prev ? CONTINUE_EPOCHS : 3 * CONTINUE_EPOCHS;
        if (prev) opts.learningRate = CONTINUE_LEARNING_RATE;
      } else {
        opts.iterations = prev ? CONTINUE_ITERATIONS : FIRST_ITERATIONS;
        if (prev) opts.earlyExaggeration = 1; // the clusters formed already: plain gradient steps
      }
      if (prev) opts.init = prev;
      r = { obj: make(method, t, opts, true), method, rows: t.rows, normalise: false, ms: 0, prepared: false, prepareMs: 0, live: true, wanted, continued: !!prev, clamp };
      runs.set(key, r);
    }
    const umap = method === 'umap';
    const total = umap ? r.obj.totalEpochs() : r.obj.totalIterations();
    const t0 = performance.now();
    let done = 0;
    try {
      if (!r.prepared) r.prepared = r.obj.prepare(budgetMs);
      if (!r.prepared) {
        r.ms += performance.now() - t0;
        return { points: null, method, continued: r.continued, preparing: true, phase: r.obj.phase(), progress: r.obj.progress(), done: 0, total, finished: false, kl: null, clamp: r.clamp };
      }
      done = umap ? r.obj.epoch() : r.obj.iteration();
      while (done < total) {
        done = r.obj.step(1);
        if (performance.now() - t0 >= budgetMs) break;
      }
    } catch (err) {
      stop(key);
      throw err;
    }
    const coords = r.obj.coordinates();
    const kl = umap ? null : r.obj.kl();
    r.ms += performance.now() - t0;
    last.set(key, { coords, method, rows: r.rows, normalise: false });
    const finished = done >= total;
    if (finished) stop(key); // the next update starts from this frame, on the table as it is then
    return { points: centred(coords), method, continued: r.continued, preparing: false, phase: umap ? 'epoch' : 'iteration', done, total, finished, kl, clamp: r.clamp, ms: r.ms };
  }

  // The last drawn layout of key when it is of `method` (and of the rows as normalised or not)
  // -> Float32Array (rows * 2, raw) | null: the neighbours' map distance on that map.
  function coordinatesOf(key, method, normalise = false) {
    const l = last.get(key);
    return l && l.method === method && l.normalise === !!normalise ? l.coords : null;
  }

  return {
    handlers: { layoutStart, layoutStep, layoutStop },
    addSource: (name, get) => sources.set(name, get),
    dropSource, trainMap, coordinatesOf,
    stopLive: (key) => runs.get(key)?.live && stop(key), // the training map went back to PCA: its live run is freed
    openRuns: () => runs.size, // for the Node tests: runs not deleted
  };
}
