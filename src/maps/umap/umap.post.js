// Part of the public JS API (see embed.post.js for the conventions); uses the helpers in M._api.
// ---- UMAP: a 2-D map of a table's rows (src/maps/umap/umap.hpp) ------------------------------
//   const xy = M.umap(table, rows, dim, { nNeighbors: 15, minDist: 0.1, seed: 42 });  // Float32Array (rows * 2)
//   const xy2 = M.umap(residentTable, { metric: 'cosine' });                             // an M.Table in place of (table, rows, dim)
//   const u = new M.Umap(table, rows, dim, opts);     // knn + graph + init now; no epoch run yet
//   const v = M.Umap.start(table, rows, dim, opts);   // or: checks now, knn + graph + init in slices
//   while (!v.prepare(35)) show(v.phase(), v.progress());   // ~35 ms each; 'knn' 0.4, 'graph', 'init'
//   while (u.epoch() < u.totalEpochs()) { u.step(10); draw(u.coordinates()); }   // step(n) returns the epoch reached
//   u.info();                                         // {a, b, nEpochs, knn, init, initNote, components, edges, seconds: {...}}
//   u.transform(newRows);                             // Float32Array (m * 2): new rows placed in the fitted map
//   u.delete();
// Options (umap-learn's names in camelCase, its defaults): nNeighbors 15, minDist 0.1, spread 1,
// nEpochs (null: 500 for rows <= 10000, else 200), metric 'euclidean' | 'cosine', seed 0
// (random_state: the same seed gives the same bits, here and in the native CLI), init
// 'spectral' | 'pca' | Float32Array (rows * 2, a layout to start from: a previous frame or PCA
// points), learningRate 1, negativeSampleRate 5, repulsionStrength 1, localConnectivity 1,
// setOpMixRatio 1, knn 'auto' | 'exact' | 'nn-descent' (auto: exact below 4096 rows).
(function (M) {
  'use strict';
  const { check, takeError, toFloats, toIds, integer, whole, describe, fromUtf8 } = M._api;

  const KEYS = ['nNeighbors', 'minDist', 'spread', 'nEpochs', 'metric', 'seed', 'init', 'learningRate',
    'negativeSampleRate', 'repulsionStrength', 'localConnectivity', 'setOpMixRatio', 'knn'];
  const NUMBERS = ['nNeighbors', 'minDist', 'spread', 'nEpochs', 'seed', 'learningRate', 'negativeSampleRate',
    'repulsionStrength', 'localConnectivity', 'setOpMixRatio'];
  const NO_FLOATS = new Float32Array(0);

  // opts -> [plain options for C++, initial coordinates (Float32Array, empty unless init is an array)]
  function options(opts, where) {
    if (opts == null) opts = {};
    if (typeof opts !== 'object') throw new Error(`${where}: options must be an object, got ${describe(opts)}`);
    const o = {};
    for (const k of Object.keys(opts)) {
      if (!KEYS.includes(k)) throw new Error(`${where}: unknown option '${k}', expected ${KEYS.join(', ')}`);
      const v = opts[k];
      if (v == null) continue;
      if (NUMBERS.includes(k) && typeof v !== 'number') throw new Error(`${where}: ${k} must be a number, got ${describe(v)}`);
      o[k] = v;
    }
    let coords = NO_FLOATS;
    if (o.init != null && typeof o.init !== 'string') {
      coords = toFloats(o.init, `${where}: init`);
      o.init = 'given';
    } else if (o.init === 'given') {
      throw new Error(`${where}: init 'given' needs the coordinates: pass init as a Float32Array (rows * 2)`);
    }
    return [o, coords];
  }

  // (table, rows, dim, opts) or (M.Table, opts) -> initialises the raw handle h (prepareNow:
  // the whole construction, else only its checks and plan)
  // subtle: no array destructuring here: emscripten 3.1.6's JS optimizer drops `const [a] = b;`
  // from --post-js code (the name is then undefined at run time).
  function start(h, args, where, prepareNow) {
    if (M.Table && args[0] instanceof M.Table) {
      const oc = options(args[1], where);  // the options first (the caller's getters may run), then the handle
      return h.initTable(args[0]._live(where), oc[0], oc[1], prepareNow);
    }
    const rows = args[1], dim = args[2];
    integer(rows, where, 'rows', 0, 2147483647);
    integer(dim, where, 'dim', 0, 2147483647);
    const t = toFloats(args[0], where);
    const oc = options(args[3], where);
    return h.init(t, rows, dim, oc[0], oc[1], prepareNow);
  }

  class Umap {
    // new Umap(table, rows, dim, opts) or new Umap(M.Table, opts): runs the neighbour search,
    // the fuzzy graph and the initial layout; the epochs run in step().
    constructor(...args) {
      this._open(args, 'Umap', true);
    }
    // Umap.start(table, rows, dim, opts) or Umap.start(M.Table, opts): checks the options and
    // the table and plans the memory now (failing as the constructor does); the neighbour
    // search, graph and initial layout run in prepare() (or in the first step()). The run
    // keeps its own copy of the rows: the table may be deleted meanwhile.
    static start(...args) {
      const u = Object.create(Umap.prototype);
      u._open(args, 'Umap.start', false);
      return u;
    }
    _open(args, where, prepareNow) {
      const h = new M._Umap();
      let ok;
      try {
        ok = start(h, args, where, prepareNow);
      } catch (err) { // the wrapper's own checks (options, sizes)
        h.delete();
        throw err;
      }
      const message = takeError();
      if (!ok || message) {
        h.delete();
        throw new Error(message || `${where}: construction failed`);
      }
      this._h = h;
      this._dim = h.info().dim;
    }
    _live(where) {
      if (!this._h) throw new Error(`${where}: this Umap was deleted`);
      return this._h;
    }
    // Runs slices of the construction (knn, graph, init; each a few ms) until maxMs (default
    // 35) have passed, at least one; -> prepared(). The same bits as the constructor's,
    // whatever the budgets.
    prepare(maxMs) {
      const ms = maxMs ?? 35;
      if (typeof ms !== 'number' || !(ms >= 0)) throw new Error(`Umap.prepare: maxMs must be a number >= 0, got ${describe(ms)}`);
      return check(this._live('Umap.prepare').prepare(ms));
    }
    prepared() { return this.phase() === 'layout'; }
    // 'knn' | 'graph' | 'init' while preparing, then 'layout'
    phase() { return check(this._live('Umap.phase').phase()); }
    // the share of the phase done, in [0, 1] (in 'layout': epoch() / totalEpochs())
    progress() { return check(this._live('Umap.progress').progress()); }
    // Runs up to n more epochs (default 1; fewer at the end; after the rest of the construction
    // if it was not prepared) and returns the epoch reached.
    step(n) {
      integer(n ?? 1, 'Umap.step', 'n', 0, 2147483647);
      return check(this._live('Umap.step').step(n ?? 1));
    }
    // The current map: Float32Array (rows * 2; empty before the initial layout), a copy.
    coordinates() { return check(this._live('Umap.coordinates').coordinates()); }
    epoch() { return check(this._live('Umap.epoch').epoch()); }
    totalEpochs() { return check(this._live('Umap.totalEpochs').totalEpochs()); }
    // {rows, dim, a, b, nEpochs, knn: 'exact' | 'nn-descent', knnRounds, knnDistances, init:
    //  'spectral' | 'pca' | 'given', initNote, components, edges, seconds: {knn, graph, init, layout, total}}
    info() { return check(this._live('Umap.info').info()); }
    // newRows (m * dim) -> Float32Array (m * 2): umap-learn's transform (the fitted map stays).
    transform(newRows) {
      this._live('Umap.transform');
      const x = toFloats(newRows, 'Umap.transform');  // a plain Float32Array: its length is its own
      if (x.length % this._dim !== 0) {
        throw new Error(`Umap.transform: new rows have ${x.length} values, not a multiple of dim ${this._dim}`);
      }
      return check(this._live('Umap.transform').transform(x, x.length / this._dim));
    }
    delete() {
      if (this._h) this._h.delete();
      this._h = null;
    }
  }
  M.Umap = Umap;

  // The whole map in one call: M.umap(table, rows, dim, opts) or M.umap(M.Table, opts)
  // -> Float32Array (rows * 2), the same bits as new Umap(...) stepped to the end.
  M.umap = function umap(...args) {
    const u = new Umap(...args);
    try {
      u.step(u.totalEpochs());
      return u.coordinates();
    } finally {
      u.delete();
    }
  };

  // The benchmark of `embedlab bench umap` (maps/umap/umap_bench.hpp), in wasm:
  // M.benchUmap({rows, dim, clusters, sample, ...umap options}) -> its JSON object.
  M.benchUmap = (o = {}) => {
    const { rows = 10000, dim = 768, clusters = 50, sample = 1000 } = o;
    const rest = Object.assign({}, o);
    for (const k of ['rows', 'dim', 'clusters', 'sample']) delete rest[k];
    if (rest.metric == null) rest.metric = 'cosine';
    const opts = options(rest, 'benchUmap')[0];
    return JSON.parse(fromUtf8(check(M._benchUmap(whole(rows, 'benchUmap', 'rows'), whole(dim, 'benchUmap', 'dim'),
      whole(clusters, 'benchUmap', 'clusters'), opts, whole(sample, 'benchUmap', 'sample')))));
  };
  // The benchmark's table of Gaussian clusters: -> {table: Float32Array (rows * dim), labels: Int32Array}
  M.umapBenchData = ({ rows = 10000, dim = 768, clusters = 50, seed = 0 } = {}) =>
    check(M._umapBenchData(whole(rows, 'umapBenchData', 'rows'), whole(dim, 'umapBenchData', 'dim'),
      whole(clusters, 'umapBenchData', 'clusters'), whole(seed, 'umapBenchData', 'seed')));
  // Scores a map (any implementation's) the way the benchmark does:
  // -> {sample, k, neighbours_kept, label_share}
  const metricName = (m) => {
    if (typeof m !== 'string') throw new Error(`umapQuality: metric must be a string, got ${describe(m)}`);
    return m;
  };
  M.umapQuality = (table, rows, dim, labels, coords, { sample = 1000, metric = 'cosine' } = {}) =>
    JSON.parse(fromUtf8(check(M._umapQuality(toFloats(table, 'umapQuality'), whole(rows, 'umapQuality', 'rows'),
      whole(dim, 'umapQuality', 'dim'), toIds(labels ?? [], 'umapQuality', 2147483647), toFloats(coords, 'umapQuality'),
      whole(sample, 'umapQuality', 'sample'), metricName(metric)))));
})(Module);
