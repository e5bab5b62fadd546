// Part of the public JS API (see embed.post.js for the conventions); uses the helpers in M._api.
// ---- t-SNE: a 2-D map of a table's rows, in steps (maps/tsne/tsne.hpp) -------------------------
//   const y = M.tsne(table, rows, dim, { perplexity: 30, iterations: 1000, seed: 1 });  // Float32Array (rows*2)
//   const run = new M.Tsne(table, rows, dim, { perplexity: 30, theta: 0.5, init: 'pca' });
//   while (run.iteration() < run.totalIterations()) { run.step(50); draw(run.coordinates()); }
//   run.kl(); run.info();   // {rows, exact, learningRate, seconds: {neighbours, affinities, layout}}
//   run.delete();
//   new M.Tsne(residentTable, opts);   // an M.Table in place of (table, rows, dim): read in place
//   const r = M.Tsne.start(table, rows, dim, opts);   // checks now; neighbours + P + init in slices:
//   while (!r.prepare(35)) show(r.phase(), r.progress());   // ~35 ms each; 'neighbours' 0.4, 'affinities'
// opts: perplexity 30, iterations 1000, theta 0.5 (0: exact), learningRate 200 | 'auto',
//   earlyExaggeration 12, seed 0, metric 'euclidean' | 'cosine', init 'random' | 'pca' |
//   Float32Array (rows*2, e.g. the last frame). The same bits as `embedlab tsne` for the same
//   table, options and seed.
(function (M) {
  'use strict';
  const { check, takeError, toFloats, integer, whole, number, describe, fromUtf8 } = M._api;
  const KEYS = ['perplexity', 'iterations', 'theta', 'learningRate', 'earlyExaggeration', 'seed', 'metric', 'init'];

  function tsneOptions(opts) {
    opts = opts ?? {};
    if (typeof opts !== 'object') throw new Error(`Tsne: options must be an object, got ${describe(opts)}`);
    const out = {};
    for (const k of Object.keys(opts)) {
      if (!KEYS.includes(k)) throw new Error(`Tsne: unknown option '${k}', expected ${KEYS.join(', ')}`);
      if (opts[k] != null) out[k] = opts[k];
    }
    if (out.init != null && typeof out.init !== 'string') out.init = toFloats(out.init, 'Tsne');
    return out;
  }

  class Tsne {
    // (table, rows, dim, opts) or (M.Table, opts): neighbours, P and the initial layout now
    constructor(table, rows, dim, opts) {
      this._open(table, rows, dim, opts, 'Tsne', true);
    }
    // Tsne.start(table, rows, dim, opts) or Tsne.start(M.Table, opts): checks the options and
    // the table and plans the memory now (failing as the constructor does); the neighbours, P
    // and the initial layout run in prepare() (or in the first step()). The run keeps its own
    // copy of the table: a resident table may be deleted meanwhile.
    static start(table, rows, dim, opts) {
      const r = Object.create(Tsne.prototype);
      r._open(table, rows, dim, opts, 'Tsne.start', false);
      return r;
    }
    _open(table, rows, dim, opts, where, prepareNow) {
      const resident = M.Table && table instanceof M.Table;
      let init;
      if (resident) {
        const o = tsneOptions(rows);  // the options first (the caller's getters may run), then the handle
        const handle = table._live(where);
        init = (h) => h.initTable(handle, o, prepareNow);
      } else {
        integer(rows, where, 'rows', 0, 2147483647);
        integer(dim, where, 'dim', 0, 2147483647);
        const t = toFloats(table, where);
        const o = tsneOptions(opts);
        init = (h) => h.initArray(t, rows, dim, o, prepareNow);
      }
      this._h = M._api.made(new M._Tsne(), init, `${where}: construction failed`);
    }
    _live(where) {
      if (!this._h) throw new Error(`${where}: this Tsne was deleted`);
      return this._h;
    }
    // Runs slices of the construction (neighbours, affinities, init; each a few ms) until maxMs
    // (default 35) have passed, at least one; -> prepared(). The same bits whatever the budgets.
    prepare(maxMs) {
      const ms = maxMs ?? 35;
      if (typeof ms !== 'number' || !(ms >= 0)) throw new Error(`Tsne.prepare: maxMs must be a number >= 0, got ${describe(ms)}`);
      return check(this._live('Tsne.prepare').prepare(ms));
    }
    prepared() { return this.phase() === 'iteration'; }
    // 'neighbours' | 'affinities' | 'init' while preparing, then 'iteration'
    phase() { return check(this._live('Tsne.phase').phase()); }
    // the share of the phase done, in [0, 1] (in 'iteration': iteration() / totalIterations())
    progress() { return check(this._live('Tsne.progress').progress()); }
    // n more iterations (at most what is left; after the rest of the construction if it was not
    // prepared); -> iteration()
    step(n = 1) {
      const k = integer(n, 'Tsne.step', 'n', 0, 2147483647);
      return check(this._live('Tsne.step').step(k));
    }
    coordinates() { return check(this._live('Tsne.coordinates').coordinates()); }
    iteration() { return this._live('Tsne.iteration').iteration(); }
    totalIterations() { return this._live('Tsne.totalIterations').totalIterations(); }
    kl() { return check(this._live('Tsne.kl').kl()); }  // fails before prepared
    info() { return check(this._live('Tsne.info').info()); }
    delete() {
      if (this._h) this._h.delete();
      this._h = null;
    }
  }
  M.Tsne = Tsne;

  // The whole run at once: -> Float32Array (rows*2). Also M.tsne(residentTable, opts).
  M.tsne = function tsne(table, rows, dim, opts) {
    const run = new Tsne(table, rows, dim, opts);
    try {
      run.step(run.totalIterations());
      return run.coordinates();
    } finally {
      run.delete();
    }
  };

  // `embedlab bench tsne` in wasm: {seconds: {neighbours, affinities, layout, total}, kl, ...}
  M.benchTsne = ({ rows = 10000, dim = 100, clusters = 10, iterations = 1000, perplexity = 30, theta = 0.5 } = {}) =>
    JSON.parse(fromUtf8(check(M._benchTsne(whole(rows, 'benchTsne', 'rows'), whole(dim, 'benchTsne', 'dim'),
      whole(clusters, 'benchTsne', 'clusters'), whole(iterations, 'benchTsne', 'iterations'),
      number(perplexity, 'benchTsne', 'perplexity'), number(theta, 'benchTsne', 'theta')))));
})(Module);
