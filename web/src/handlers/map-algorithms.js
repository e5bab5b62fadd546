// The registry of the page's map algorithms (issue 23): the one place in web/src that names
// them. The worker's layout handler (layout-handler.js), the page's map choice (views/map-choice.js)
// and the URL keys (state.js setMapAlgorithms) iterate over this list and name no algorithm.
//
// Each entry, the shape of the engine's registry (M.mapAlgorithms(), maps-cpp), plus what only
// the page needs:
//   {name ('umap': URL value and worker payload `method`), label ('UMAP'), stepName ('epoch'),
//    components (2), description (the note under a finished map: what the map keeps and loses),
//    params: [{name ('n_neighbors'), option ('nNeighbors': the engine's option key), type ('int' |
//              'real' | 'choice'), default, min, max, step (the page field's), choices, help,
//              page (true: a field of the map choice and a URL key), key (only where the URL key
//              breaks the rule of state.js mapParamKey: an older key kept for links)}],
//    binding ({class: 'Umap', done: 'epoch', total: 'totalEpochs'}: the engine's run class and
//             the names of its counters, until M.MapRun serves every algorithm),
//    readout (null | {name: 'KL', method: 'kl'}: a figure of the frame the progress line shows),
//    noteInfo (keys of run.info() the note names),
//    rowsLimit ({param, max(n) | below(n), least, why(limit)}: the largest value a table of n rows
//               takes; a training map lowers the value to it: layout-handler.js clampToTable),
//    live ({first, next}: the engine options of a training map's first run and of each run that
//          continues from the last frame: layout-handler.js trainMap)}
// The functions (rowsLimit) stay in the worker: pageMetadata() is what the ready message sends.
//
// Adding an algorithm on the page: one entry here (its binding, its parameters); nothing else in
// web/src names it.
//
// Not here: running a map (layout-handler.js), the PCA map (the page's base map: import-handler.js
// importMap, train-handler.js pcaMap, with frozen axes and explained variance).

// UMAP epochs of one training-map update that starts from the last frame, at a tenth of the
// learning rate. Every init, a given one too, is mapped to [0, 10] per axis by the engine, so
// updates compare in that frame: on 1,400 rows x 32 dims (3 clusters, a change of 0.01 per value)
// learning rate 1 moved the median point ~8-9% of the map's width per update, 0.25 ~5%; 0.1 keeps
// the trails of the labelled rows readable (the jitter of negative sampling scales with it)
// (tests/js/layout-handler.test.mjs checks < 10% between two updates).
const UMAP_CONTINUE = { nEpochs: 20, learningRate: 0.1 };
const METRIC = { name: 'metric', option: 'metric', type: 'choice', default: 'euclidean', choices: ['euclidean', 'cosine'], page: true, help: 'distance between rows' };
const SEED = { name: 'seed', option: 'seed', type: 'int', default: 0, min: 0, max: 4294967295, help: 'random seed' };

export const MAP_ALGORITHMS = [
  {
    name: 'umap', label: 'UMAP', stepName: 'epoch', components: 2,
    description: 'UMAP keeps each row near its nearest neighbours; the distances between clusters, their sizes and the axes mean little, and another seed or n_neighbors gives another picture.',
    params: [
      { name: 'n_neighbors', option: 'nNeighbors', type: 'int', default: 15, min: 2, max: 200, step: 1, page: true, help: 'neighbours per row in the graph' },
      { name: 'min_dist', option: 'minDist', type: 'real', default: 0.1, min: 0, max: 1, step: 0.05, page: true, help: 'how tightly points pack' },
      METRIC,
      { name: 'n_epochs', option: 'nEpochs', type: 'int', help: 'epochs (the engine picks by size when not given)' },
      { name: 'learning_rate', option: 'learningRate', type: 'real', help: 'step size of the layout' },
      SEED,
    ],
    binding: { class: 'Umap', done: 'epoch', total: 'totalEpochs' },
    readout: null,
    noteInfo: ['knn', 'init'],
    rowsLimit: { param: 'n_neighbors', max: (n) => n - 1, least: 2, why: () => 'it can be at most n − 1' },
    live: { first: { nEpochs: 3 * UMAP_CONTINUE.nEpochs }, next: UMAP_CONTINUE },
  },
  {
    name: 'tsne', label: 't-SNE', stepName: 'iteration', components: 2,
    description: 't-SNE keeps each row near its nearest neighbours; the distances between clusters, their sizes and the axes mean little, and another seed or perplexity gives another picture.',
    params: [
      { name: 'perplexity', option: 'perplexity', type: 'real', default: 30, min: 1, max: 1000, step: 1, page: true, key: 'perp', help: 'effective number of neighbours' },
      METRIC,
      { name: 'iterations', option: 'iterations', type: 'int', help: 'gradient steps' },
      SEED,
    ],
    binding: { class: 'Tsne', done: 'iteration', total: 'totalIterations' },
    readout: { name: 'KL', method: 'kl' },
    noteInfo: [],
    rowsLimit: { param: 'perplexity', below: (n) => (n - 1) / 3, least: 1, why: (limit) => `it must be below (n − 1) / 3 = ${limit.toFixed(2)}` },
    // the first training map: 300 iterations (early exaggeration for 250 of them); each next one
    // 40 plain gradient steps (the clusters formed already)
    live: { first: { iterations: 300 }, next: { iterations: 40, earlyExaggeration: 1 } },
  },
];

// name -> its entry; throws naming the value and the choices
export function mapAlgorithm(name, where = 'map', list = MAP_ALGORITHMS) {
  const a = list.find((x) => x.name === name);
  if (!a) throw new Error(`${where}: method ${JSON.stringify(name)} is not one of ${list.map((x) => x.name).join(', ')}`);
  return a;
}

// list -> what the page is sent (structured-clone safe: the functions are left out)
export function pageMetadata(list = MAP_ALGORITHMS) {
  return list.map(({ name, label, stepName, components, description, params, readout, noteInfo }) => ({
    name, label, stepName, components, description, readout: readout && { name: readout.name }, noteInfo: [...noteInfo],
    params: params.map((p) => ({ ...p, choices: p.choices && [...p.choices] })),
  }));
}

// (M, entry, table ({table: M.Table} | {data, rows, cols}), opts) -> a run checked and planned
// now, constructed in prepare() slices: {prepare(ms) -> bool, phase(), progress(), step(n) ->
// done, done(), total(), coordinates() (rows * 2), info(), readout() (number | null), delete()}.
// Over the algorithm's own binding class (binding), the run interface the engine's M.MapRun
// (maps-cpp) is to serve for every algorithm.
export function startRun(M, algo, t, opts) {
  const Cls = M[algo.binding.class];
  const obj = t.table ? Cls.start(t.table, opts) : Cls.start(t.data, t.rows, t.cols, opts);
  const b = algo.binding;
  return {
    prepare: (ms) => obj.prepare(ms),
    phase: () => obj.phase(),
    progress: () => obj.progress(),
    step: (n) => obj.step(n),
    done: () => obj[b.done](),
    total: () => obj[b.total](),
    coordinates: () => obj.coordinates(),
    info: () => obj.info(),
    readout: () => (algo.readout ? obj[algo.readout.method]() : null),
    delete: () => obj.delete(),
  };
}
