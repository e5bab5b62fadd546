// Part of the public JS API (see embed.post.js for the conventions); uses the helpers in M._api.
// ---- projection: PCA of a table and its nearest neighbours ---------------------------------
//   const p = M.pca(table, rows, dim, { k: 2 });   // {points: Float32Array (n*k), components:
//                                                  //  Float32Array (k*D), explained: Float64Array (k), variance}
//   const q = M.pca(next, rows, dim, { k: 2, previous: p.components });  // signs follow the last frame
//   M.nearest(table, rows, dim, { id: 3, k: 10 });                 // {ids: Int32Array, scores: Float32Array}
//   M.nearest(table, rows, dim, { vector, metric: 'euclidean' });  // scores are distances there
//   M.analogy(table, rows, dim, { positive: [king, woman], negative: [man], k: 5 });
(function (M) {
  'use strict';
  const { check, toIds, toFloats, integer, describe } = M._api;

  function knownKeys(opts, keys, where) {
    if (typeof opts !== 'object') throw new Error(`${where}: options must be an object, got ${describe(opts)}`);
    for (const k of Object.keys(opts)) {
      if (!keys.includes(k)) throw new Error(`${where}: unknown option '${k}', expected ${keys.join(', ')}`);
    }
  }
  // rows and dim as integers (C++ checks that they are >= 1 and match the table's length).
  function shape(table, rows, dim, where) {
    integer(rows, where, 'rows', 0, 2147483647);
    integer(dim, where, 'dim', 0, 2147483647);
    return toFloats(table, where);
  }
  const NO_IDS = new Int32Array(0), NO_FLOATS = new Float32Array(0);

  // table (rows*dim) -> top-k principal components of the rows (or of opts.ids) and the
  // points (n*k) to plot. opts: k = 2, ids (rows to project), previous (k*dim components of the
  // last frame: signs are aligned to them so an animation does not flip).
  // -> {n, k, dim, points, components, explained, variance, solver: 'exact' | 'krylov'}
  M.pca = function pca(table, rows, dim, opts) {
    opts = opts || {};
    knownKeys(opts, ['k', 'ids', 'previous'], 'pca');
    const t = shape(table, rows, dim, 'pca');
    const k = integer(opts.k ?? 2, 'pca', 'k', -2147483648, 2147483647);
    const ids = opts.ids == null ? NO_IDS : toIds(opts.ids, 'pca', rows);
    const previous = opts.previous == null ? NO_FLOATS : toFloats(opts.previous, 'pca');
    return check(M._pca(t, rows, dim, k, ids, previous));
  };

  // The k rows nearest row opts.id (left out of the answer) or opts.vector (dim values).
  // metric 'cosine' (scores: similarity, best first) | 'euclidean' (scores: distance, nearest
  // first); ties go to the lower id; the same ids and score bits as the native build.
  M.nearest = function nearest(table, rows, dim, opts) {
    opts = opts || {};
    knownKeys(opts, ['id', 'vector', 'k', 'metric'], 'nearest');
    const t = shape(table, rows, dim, 'nearest');
    const k = integer(opts.k ?? 10, 'nearest', 'k', -2147483648, 2147483647);
    const metric = opts.metric ?? 'cosine';
    if (typeof metric !== 'string') throw new Error(`nearest: metric must be a string, got ${describe(metric)}`);
    if ((opts.id == null) === (opts.vector == null)) {
      throw new Error('nearest: give exactly one of the options id (a row) and vector (dim values)');
    }
    if (opts.id != null) {
      const id = integer(opts.id, 'nearest', 'id', -2147483648, 2147483647);
      if (id < 0) throw new Error(`nearest: id ${id} out of range [0, ${rows})`);
      return check(M._nearest(t, rows, dim, id, NO_FLOATS, k, metric));
    }
    return check(M._nearest(t, rows, dim, -1, toFloats(opts.vector, 'nearest'), k, metric));
  };

  // gensim's most_similar(positive, negative, topn=k): rows by cosine with the mean of the
  // unit-normalised inputs (negatives subtracted), inputs left out. king - man + woman:
  // {positive: [king, woman], negative: [man]}.
  M.analogy = function analogy(table, rows, dim, opts) {
    opts = opts || {};
    knownKeys(opts, ['positive', 'negative', 'k'], 'analogy');
    const t = shape(table, rows, dim, 'analogy');
    const k = integer(opts.k ?? 10, 'analogy', 'k', -2147483648, 2147483647);
    const positive = toIds(opts.positive ?? [], 'analogy', rows);
    const negative = toIds(opts.negative ?? [], 'analogy', rows);
    return check(M._analogy(t, rows, dim, positive, negative, k));
  };
})(Module);
