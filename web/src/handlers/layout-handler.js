// Worker-side handlers for the iterative maps of the page (issue 12; the algorithms: the registry
// map-algorithms.js, over which this file runs one code path and names none): a map of the imported
// table (import-handler.js) or of the training table (train-handler.js), run in time slices so
// the page draws every frame and stays live, as training does (trainStep).
//
//   layoutStart {source: 'import' | 'train', method (a registry name), slot, normalise (import),
//                the algorithm's options by their `option` keys (e.g. nNeighbors, metric, seed),
//                from: 'previous' | null}
//     -> {rows, total, preparing: true, phase, progress, ms}: returns at once after the engine's
//        checks (options, table, memory plan: the run's start); bad options and tables too big
//        fail here with the engine's message
//   layoutStep  {source, slot, budgetMs = 35}
//     while the run is constructed (e.g. kNN + graph + init):
//     -> {points: null, preparing: true, phase (the engine's: 'knn', 'graph', 'init', ...),
//         progress (of the phase, 0..1), done: 0, total, finished: false, readout: null, ms}
//     then (the construction may end within a step, which then runs epochs with the rest of it)
//     -> {points (rows * 2, centred: the mean is subtracted), preparing: false, done, total,
//         phase (the algorithm's stepName), readout (null | {name, value}: the registry's figure
//         of the frame, e.g. a divergence), finished, info, prepareMs (the
//         construction's engine time), ms (engine time of the whole run so far)}
//   So a layoutStop between two steps (Cancel) ends a run within one budget, construction or not.
//   layoutStop  {source, slot} -> {stopped}: deletes the run (its last frame stays the source's
//                previous layout, for from: 'previous' and the neighbours' map distance)
//
// One run per source ('import', 'train:<slot>'): a new start deletes the old run first, and so
// does a change of the table under it (dropSource, called by the import and train handlers).
// Every engine object is deleted on stop, on a new start, on errors and when its table goes.
// trainMap() is the training view's map while it plays: one live run per slot, stepped a
// slice (budgetMs) per map update inside trainStep, never a whole run at once. When a run has
// done its steps the next update starts another one on the table as it is then, warm-started
// from the last frame with the registry's `live.next` options (a short run), so the points move
// rather than jump; its construction is sliced too. A layoutStart, layoutStop or a new table
// stops it like any run of the slot.
// Clamping (the training maps, and layoutStart {clamp: true}): the parameter the registry bounds
// by the table's rows (rowsLimit) is lowered to the largest value the table takes, and the reply
// says so (clamp: {key, asked, used, rows, text, why}); the training table's size is the run's,
// not the user's choice, so its map must not fail on it.
//
// Every helper takes the run it works on (an entry of `runs`) as an argument.
//
// Not here: the algorithms (map-algorithms.js), what the page shows (views/map-choice.js,
// import-map.js, train-view.js) and the PCA maps (import-handler.js importMap, train-handler.js
// pcaMap).
import { checkPageBudget } from './limits.js';
import { BASE_MAP, mapAlgorithm, mapAlgorithms, startRun } from './map-algorithms.js';

// (algo (a registry entry), payload) -> the MapRun options: each parameter the payload gives by
// its option key, numbers as numbers (a number parameter's word, e.g. 'auto', as given; the
// engine's defaults for the rest)
export function layoutOptions(algo, p) {
  const o = {};
  for (const q of algo.params) {
    const v = p[q.option];
    if (v != null) o[q.option] = q.type === 'choice' || (q.word != null && v === q.word) ? v : Number(v);
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

// (method, opts (layoutOptions), rows) -> {opts, clamp: null | {key, asked, used, rows, text, why}}:
// the parameter of the registry's rowsLimit lowered to the largest value n rows take: below(n)
// strictly (the largest integer under it), max(n) inclusively; a table too small for the least
// value is left to the engine's message. The limits are the engine's (check_options).
// e.g. a limit below(n) = (n - 1) / 3 on perplexity: ({perplexity: 30}, 69 rows) -> perplexity 22,
// text "perplexity 30 → 22 for 69 rows" (tests/js/layout-handler.test.mjs).
export function clampToTable(method, opts, rows, list) {
  const o = { ...opts };
  const algo = mapAlgorithm(method, list);
  const lim = algo.rowsLimit;
  if (!lim) return { opts: o, clamp: null };
  const q = algo.params.find((x) => x.name === lim.param);
  const asked = o[q.option] ?? q.default;
  const limit = lim.below ? lim.below(rows) : lim.max(rows);
  const used = lim.below ? Math.ceil(limit) - 1 : Math.floor(limit);
  if ((lim.below ? asked < limit : asked <= limit) || used < lim.least) return { opts: o, clamp: null };
  o[q.option] = used;
  return { opts: o, clamp: { key: q.name, asked, used, rows, text: `${q.name} ${asked} → ${used} for ${rows} rows`, why: lim.why(limit) } };
}

// (run, its info()) -> its readout as the reply carries it (null | {name, value})
function readout(r, info) {
  return r.algo.readout ? { name: r.algo.readout.name, value: info[r.algo.readout.info] ?? null } : null;
}

export function makeLayoutHandlers(M, list = mapAlgorithms(M)) {
  const sources = new Map(); // name ('import' | 'train') -> (payload) -> {table: M.Table} | {data, rows, cols}
  const runs = new Map(); // key -> run {obj, algo, method, rows, normalise, ms, prepared, prepareMs, live?}
  const last = new Map(); // key -> {coords (raw, rows * 2), method, rows, normalise}

  const keyOf = (p) => (p.source === 'train' ? `train:${String(p.slot ?? '')}` : 'import');

  function source(p, where) {
    const get = sources.get(p.source);
    if (!get) throw new Error(`${where}: source ${JSON.stringify(p.source)} is not one of ${[...sources.keys()].join(', ')}`);
    return get(p);
  }

  // -> a new run on table t ({table} resident or {data, rows, cols}) with opts, checked and
  // planned now; its construction runs in prepare() slices
  function open(key, algo, t, opts, extra) {
    const rows = t.table ? t.table.rows : t.rows;
    const r = { obj: startRun(M, algo, t, opts), algo, method: algo.name, rows, normalise: false, ms: 0, prepared: false, prepareMs: 0, ...extra };
    runs.set(key, r);
    return r;
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
    return l && l.rows === rows && l.method === method ? l.coords : null; // one algorithm's frame is no other's init
  }

  // One slice of run r (of key) of at most budget ms from t0: its construction, then steps.
  // -> {prepared: false} while constructing, else {done}. An engine error deletes the run.
  function advance(key, r, budget, t0) {
    try {
      if (!r.prepared) {
        r.prepared = r.obj.prepare(budget);
        if (!r.prepared) return { prepared: false };
        r.prepareMs = r.ms + (performance.now() - t0); // the construction's engine time
      }
      const total = r.obj.total();
      let done = r.obj.steps();
      while (done < total) {
        done = r.obj.step(1);
        if (performance.now() - t0 >= budget) break;
      }
      return { prepared: true, done };
    } catch (err) {
      stop(key);
      throw err;
    }
  }

  // run r's frame after a slice: kept as key's last layout; -> the points (centred)
  function frame(key, r) {
    const coords = r.obj.coordinates();
    last.set(key, { coords, method: r.method, rows: r.rows, normalise: r.normalise });
    return centred(coords);
  }

  const preparing = (r) => ({ points: null, preparing: true, phase: r.obj.phase(), progress: r.obj.progress(), done: 0, total: r.obj.total(), finished: false, readout: null });

  function layoutStart(p) {
    const algo = mapAlgorithm(p.method, list);
    const key = keyOf(p);
    stop(key);
    const t = source(p, 'map');
    const rows = t.table ? t.table.rows : t.rows;
    checkPageBudget('map', 'coordinates', [rows, 2]);
    const { opts, clamp } = p.clamp ? clampToTable(algo.name, layoutOptions(algo, p), rows, list) : { opts: layoutOptions(algo, p), clamp: null };
    if (p.from === 'previous') {
      const prev = previous(key, algo.name, rows);
      if (prev) opts.init = prev;
    }
    const t0 = performance.now();
    const r = open(key, algo, t, opts, { normalise: !!p.normalise });
    r.ms = performance.now() - t0;
    return { rows, total: r.obj.total(), preparing: true, phase: r.obj.phase(), progress: r.obj.progress(), ms: r.ms, clamp };
  }

  function layoutStep(p) {
    const key = keyOf(p);
    const r = runs.get(key);
    if (!r) throw new Error('map: no map run is open here (it was stopped, or its table changed); press Run');
    const budget = Math.max(0, Number(p.budgetMs ?? 35));
    const t0 = performance.now();
    const s = advance(key, r, budget, t0);
    if (!s.prepared) {
      r.ms += performance.now() - t0;
      return { ...preparing(r), ms: r.ms };
    }
    const points = frame(key, r);
    r.ms += performance.now() - t0;
    const total = r.obj.total();
    const info = r.obj.info();
    return {
      points, preparing: false, done: s.done, total, phase: r.algo.stepName, finished: s.done >= total,
      readout: readout(r, info), info, prepareMs: r.prepareMs, ms: r.ms,
    };
  }

  function layoutStop(p) {
    return { stopped: stop(keyOf(p)) };
  }

  // The training map while it plays (see the header): one slice of at most budgetMs of the
  // slot's live run; getTable() -> {data, rows, cols}, the table now (read only when a run
  // starts). -> {points (centred) | null (still constructing), method, continued, phase,
  // progress, done, total, finished, readout, clamp}. Throws the engine's message (bad options);
  // the run is then gone, and the next update tries again.
  function trainMap(key, getTable, method, p, budgetMs = 30) {
    const algo = mapAlgorithm(method, list);
    const wanted = JSON.stringify([method, layoutOptions(algo, p)]);
    let r = runs.get(key);
    if (r && (!r.live || r.wanted !== wanted)) {
      stop(key); // an animated run of the slot, or other options: the live run starts afresh
      r = null;
    }
    if (!r) {
      const t = getTable();
      checkPageBudget('map', 'coordinates', [t.rows, 2]);
      const prev = previous(key, method, t.rows);
      const { opts, clamp } = clampToTable(method, layoutOptions(algo, p), t.rows, list);
      Object.assign(opts, prev ? algo.live.next : algo.live.first);
      if (prev) opts.init = prev;
      r = open(key, algo, t, opts, { live: true, wanted, continued: !!prev, clamp });
    }
    const t0 = performance.now();
    const s = advance(key, r, budgetMs, t0);
    if (!s.prepared) {
      r.ms += performance.now() - t0;
      return { ...preparing(r), method, continued: r.continued, clamp: r.clamp };
    }
    const points = frame(key, r);
    const read = readout(r, r.obj.info());
    const total = r.obj.total();
    r.ms += performance.now() - t0;
    const finished = s.done >= total;
    const reply = { points, method, continued: r.continued, preparing: false, phase: algo.stepName, done: s.done, total, finished, readout: read, clamp: r.clamp, ms: r.ms };
    if (finished) stop(key); // the next update starts from this frame, on the table as it is then
    return reply;
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
    list, // the algorithms (map-algorithms.js mapAlgorithms(M)): the worker sends pageMetadata(list)
    mapNames: [BASE_MAP, ...list.map((a) => a.name)], // the maps the page may draw (and export)
    stopLive: (key) => runs.get(key)?.live && stop(key), // the training map went back to PCA: its live run is freed
    openRuns: () => runs.size, // for the Node tests: runs not deleted
  };
}
