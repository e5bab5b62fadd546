// Part of the public JS API (see embed.post.js for the conventions); uses the helpers in M._api.
// ---- maps: every 2-D map algorithm behind one interface (src/maps/registry.hpp) ---------------
//   M.mapAlgorithms()   // [{name, label, description, components: 2, stepName ('epoch', 'step', ...),
//                       //   needs: {minRows, cosine, givenInit, stepName},
//                       //   params: [{name: 'n_neighbors', option: 'nNeighbors', flag: '--n-neighbors',
//                       //             type: 'integer', default: 15, min: 2, max: 2147483647,
//                       //             minExclusive: false, choices: null, word: null, help}, ...]}, ...]
//   const run = M.MapRun.start(name, table, rows, dim, { nNeighbors: 10, seed: 1 });  // checks + plan now
//   const run = M.MapRun.start(name, residentTable, opts);                             // or an M.Table
//   while (!run.prepare(35)) show(run.phase(), run.progress());   // slices of ~35 ms
//   while (!run.done()) { run.step(10); draw(run.coordinates()); }  // step(n) -> the step reached
//   run.info();   // the algorithm's figures (its own class's info() keys; PCA: {rows, dim, solver, explained})
//   run.delete();
//   new M.MapRun(name, ...)   // the same, with the whole construction done in the constructor
// Options are the params' `option` names (the same as the algorithm's own class takes); null or undefined
// take the default; a param with a `word` (learningRate 'auto', nEpochs 'auto') takes that word
// too; init may be a Float32Array (rows * components) when needs.givenInit. The same options and
// seed give the same bits as the algorithm's own class (src/maps/NAME/NAME.post.js) and M.pca.
(function (M) {
  'use strict';
  const { check, takeError, toFloats, integer, describe, fromUtf8 } = M._api;
  const NO_FLOATS = new Float32Array(0);
  let known = null;  // the registry, read once (it does not change)

  M.mapAlgorithms = () => check(M._mapAlgorithms());

  function algorithm(name, where) {
    if (!known) known = M.mapAlgorithms();
    if (typeof name !== 'string') throw new Error(`${where}: algorithm name must be a string, got ${describe(name)}`);
    const a = known.find((x) => x.name === name);
    if (!a) throw new Error(`${where}: unknown algorithm '${name}', expected ${known.map((x) => x.name).join(', ')}`);
    return a;
  }

  // opts (option names) -> [values by param name for C++, init coordinates or an empty array]
  function values(a, opts, where) {
    if (opts == null) opts = {};
    if (typeof opts !== 'object') throw new Error(`${where}: options must be an object, got ${describe(opts)}`);
    const out = {};
    let coords = NO_FLOATS;
    for (const k of Object.keys(opts)) {
      const p = a.params.find((x) => x.option === k);
      if (!p) {
        const names = a.params.map((x) => x.option).join(', ');
        throw new Error(`${where}: unknown option '${k}' for ${a.name}, expected ${names || 'none (it takes no options)'}`);
      }
      const v = opts[k];
      if (v == null) continue;
      if (k === 'init' && typeof v !== 'string') {
        if (!a.needs.givenInit) throw new Error(`${where}: ${a.name} cannot start from given coordinates`);
        coords = toFloats(v, `${where}: init`);
        continue;
      }
      if (p.type === 'choice' || (typeof v === 'string' && p.word != null)) {
        if (typeof v !== 'string') throw new Error(`${where}: ${k} must be a string, got ${describe(v)}`);
      } else if (typeof v !== 'number') {
        throw new Error(`${where}: ${k} must be a number${p.word ? ` or '${p.word}'` : ''}, got ${describe(v)}`);
      }
      out[p.name] = v;
    }
    return [out, coords];
  }

  class MapRun {
    // new MapRun(name, table, rows, dim, opts) or new MapRun(name, M.Table, opts): the whole
    // construction now; the steps run in step().
    constructor(name, ...args) {
      this._open(name, args, 'MapRun', true);
    }
    // MapRun.start(name, ...): checks the options and the table and plans the memory now
    // (failing as the constructor does); the construction runs in prepare() (or the first
    // step()). The run keeps its own copy of the rows: the table may be deleted meanwhile.
    static start(name, ...args) {
      const r = Object.create(MapRun.prototype);
      r._open(name, args, 'MapRun.start', false);
      return r;
    }
    _open(name, args, where, prepareNow) {
      const a = algorithm(name, where);
      let vc;
      let ok;
      const h = new M._MapRun();
      try {
        if (M.Table && args[0] instanceof M.Table) {
          vc = values(a, args[1], where);  // the options first (the caller's getters may run), then the handle
          ok = h.initTable(name, args[0]._live(where), vc[0], vc[1], prepareNow);
        } else {
          integer(args[1], where, 'rows', 0, 2147483647);
          integer(args[2], where, 'dim', 0, 2147483647);
          const t = toFloats(args[0], where);
          vc = values(a, args[3], where);
          ok = h.init(name, t, args[1], args[2], vc[0], vc[1], prepareNow);
        }
      } catch (err) { // the wrapper's own checks
        h.delete();
        throw err;
      }
      const message = takeError();
      if (!ok || message) {
        h.delete();
        throw new Error(message || `${where}: construction failed`);
      }
      this._h = h;
      this._algorithm = a.name;
      this._stepName = a.stepName;
    }
    // the registry name of the run's algorithm and of its step ('epoch'); read-only
    get algorithm() { return this._algorithm; }
    get stepName() { return this._stepName; }
    _live(where) {
      if (!this._h) throw new Error(`${where}: this MapRun was deleted`);
      return this._h;
    }
    // Runs slices of the construction until maxMs (default 35) have passed, at least one;
    // -> prepared. The same bits whatever the budgets.
    prepare(maxMs) {
      const ms = maxMs ?? 35;
      if (typeof ms !== 'number' || !(ms >= 0)) throw new Error(`MapRun.prepare: maxMs must be a number >= 0, got ${describe(ms)}`);
      return check(this._live('MapRun.prepare').prepare(ms));
    }
    // the algorithm's phase names (its own; 'pca', 'done' for PCA; docs/maps.md lists them)
    phase() { return check(this._live('MapRun.phase').phase()); }
    progress() { return check(this._live('MapRun.progress').progress()); }
    // Runs up to n more steps (default 1; fewer at the end) and returns the step reached.
    step(n) {
      integer(n ?? 1, 'MapRun.step', 'n', 0, 2147483647);
      return check(this._live('MapRun.step').step(n ?? 1));
    }
    steps() { return check(this._live('MapRun.steps').steps()); }
    total() { return check(this._live('MapRun.total').total()); }
    done() { return check(this._live('MapRun.done').done()); }
    rows() { return check(this._live('MapRun.rows').rows()); }
    components() { return check(this._live('MapRun.components').components()); }
    // Float32Array (rows * components; empty before the initial layout), a copy
    coordinates() { return check(this._live('MapRun.coordinates').coordinates()); }
    info() { return JSON.parse(fromUtf8(check(this._live('MapRun.info').info()))); }
    delete() {
      if (this._h) this._h.delete();
      this._h = null;
    }
  }
  M.MapRun = MapRun;
})(Module);
