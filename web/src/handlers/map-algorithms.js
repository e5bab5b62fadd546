// The page's map algorithms (issue 23): the engine's registry (M.mapAlgorithms(), src/maps/
// registry.cpp) with what only the page adds to it. The worker's layout handler (layout-handler.js),
// the page's map choice (views/map-choice.js) and the URL keys (state.js setMapAlgorithms) iterate
// over this list and name no algorithm; this file's PAGE_MAPS is the one place in web/src that
// names them.
//
// mapAlgorithms(M) -> one entry per algorithm of the engine but the page's base map (PCA: its own
// path, with frozen axes and explained variance: import-handler.js importMap, train-handler.js pcaMap):
//   {name ('umap': URL value and worker payload `method`), label ('UMAP'), stepName ('epoch'),
//    components (2), description (the note under a finished map: what the map keeps and loses),
//    params: the engine's [{name ('n_neighbors'), option ('nNeighbors': the MapRun option key),
//              type ('int' | 'real' | 'choice'), default, min, max, choices, word, help}], those
//              the page shows with page: true, step (the field's) and key (only where the URL key
//              breaks the rule of state.js mapParamKey: an older key kept for links), and the page's
//              own range where a link's value was bounded before (URL bounds, not engine limits),
//    readout (null | {name: 'KL', info: 'kl'}: a key of run.info() the progress line shows),
//    noteInfo (keys of run.info() the note names),
//    rowsLimit (null | {param, max(n) | below(n), least, why(limit)}: the largest value a table of
//               n rows takes; a training map lowers the value to it: layout-handler.js clampToTable),
//    live ({first, next}: the MapRun options of a training map's first run and of each run that
//          continues from the last frame: layout-handler.js trainMap)}
// The functions (rowsLimit) stay in the worker: pageMetadata() is what the ready message sends.
//
// Adding an algorithm: the engine's registry line; the page then offers it with the engine's
// defaults. Its page fields, note, rows limit and training-map options: one PAGE_MAPS entry.
//
// Not here: running a map (layout-handler.js over M.MapRun).

export const BASE_MAP = 'pca'; // the page's own first map, not run through the layout handler

// UMAP epochs of one training-map update that starts from the last frame, at a tenth of the
// learning rate. Every init, a given one too, is mapped to [0, 10] per axis by the engine, so
// updates compare in that frame: on 1,400 rows x 32 dims (3 clusters, a change of 0.01 per value)
// learning rate 1 moved the median point ~8-9% of the map's width per update, 0.25 ~5%; 0.1 keeps
// the trails of the labelled rows readable (the jitter of negative sampling scales with it)
// (tests/js/layout-handler.test.mjs checks < 10% between two updates).
const UMAP_CONTINUE = { nEpochs: 20, learningRate: 0.1 };

// What the page adds to the engine's registry, by algorithm name (see the header). fields: the
// parameters shown on the page (the metric is shared: one URL key), with a link's older bounds.
export const PAGE_MAPS = {
  umap: {
    fields: { n_neighbors: { max: 200, step: 1 }, min_dist: { max: 1, step: 0.05 }, metric: {} },
    note: 'UMAP keeps each row near its nearest neighbours; the distances between clusters, their sizes and the axes mean little, and another seed or n_neighbors gives another picture.',
    noteInfo: ['knn', 'init'],
    rowsLimit: { param: 'n_neighbors', max: (n) => n - 1, least: 2, why: () => 'it can be at most n − 1' },
    live: { first: { nEpochs: 3 * UMAP_CONTINUE.nEpochs }, next: UMAP_CONTINUE },
  },
  tsne: {
    fields: { perplexity: { key: 'perp', max: 1000, step: 1 }, metric: {} },
    note: 't-SNE keeps each row near its nearest neighbours; the distances between clusters, their sizes and the axes mean little, and another seed or perplexity gives another picture.',
    readout: { name: 'KL', info: 'kl' },
    rowsLimit: { param: 'perplexity', below: (n) => (n - 1) / 3, least: 1, why: (limit) => `it must be below (n − 1) / 3 = ${limit.toFixed(2)}` },
    // the first training map: 300 iterations (early exaggeration for 250 of them); each next one
    // 40 plain gradient steps (the clusters formed already)
    live: { first: { iterations: 300 }, next: { iterations: 40, earlyExaggeration: 1 } },
  },
};
const NO_PAGE = { fields: {}, note: null, noteInfo: [], readout: null, rowsLimit: null, live: { first: {}, next: {} } };
const TYPES = { integer: 'int', number: 'real', choice: 'choice' };

// M -> the page's list (see the header), in the engine's order
export function mapAlgorithms(M) {
  return M.mapAlgorithms().filter((a) => a.name !== BASE_MAP).map((a) => {
    const page = { ...NO_PAGE, ...PAGE_MAPS[a.name] };
    return {
      name: a.name, label: a.label, stepName: a.stepName, components: a.components,
      description: page.note ?? a.description, readout: page.readout, noteInfo: page.noteInfo,
      rowsLimit: page.rowsLimit, live: page.live,
      params: a.params.map((q) => ({ ...q, type: TYPES[q.type], ...(page.fields[q.name] && { page: true, ...page.fields[q.name] }) })),
    };
  });
}

// name -> its entry; throws naming the value and the choices
export function mapAlgorithm(name, list, where = 'map') {
  const a = list.find((x) => x.name === name);
  if (!a) throw new Error(`${where}: method ${JSON.stringify(name)} is not one of ${list.map((x) => x.name).join(', ')}`);
  return a;
}

// list -> what the page is sent (structured-clone safe: the functions are left out)
export function pageMetadata(list) {
  return list.map(({ name, label, stepName, components, description, params, readout, noteInfo }) => ({
    name, label, stepName, components, description, readout: readout && { name: readout.name }, noteInfo: [...noteInfo],
    params: params.map((p) => ({ ...p, choices: p.choices && [...p.choices] })),
  }));
}

// (M, entry, table ({table: M.Table} | {data, rows, cols}), opts) -> an M.MapRun checked and
// planned now, constructed in prepare() slices
export function startRun(M, algo, t, opts) {
  return t.table ? M.MapRun.start(algo.name, t.table, opts) : M.MapRun.start(algo.name, t.data, t.rows, t.cols, opts);
}
