// Worker side of the table downloads (issue 10): the bytes of every file the page offers for a
// table, all made by the engine's writers (no number is formatted here):
//
//   format          file                          engine writer
//   'npy'           table.npy (float32)           Table.export('npy')           io/npy npy_bytes
//   'tsv'           Projector vectors.tsv         Table.export('tsv')           projector_vectors_tsv
//   'metadata'      Projector metadata.tsv        Table.export('metadata')      io/projector_tsv metadata_tsv
//   'word2vec-text' gensim text                   Table.export('word2vec-text') word2vec_text (float32 repr)
//   'word2vec-binary' gensim binary               Table.export('word2vec-binary')
//   'csv2' | 'csv3' row,label,x,y[,z] of the PCA  M.coordinatesCsv              io/coordinates_csv
//
// exportTableFile(M, table, format, {points2}) -> {bytes: Uint8Array, rows, dim}
//   table: a resident M.Table (labels, if any, already set). points2: the 2-D map the page shows
//   (rows * 2, Float32Array), so 'csv2' holds the coordinates of the drawn map; without it (or
//   for 'csv3') the engine's PCA runs on the table (t.pca({k})).
// drawnMap({points, map}, rows, names) -> {points, method} | null: the 2-D map the page says it
//   draws (a request's points, Float32Array rows * 2, and map: one of names, the layout handler's
//   mapNames: 'pca' and the map registry's), checked against the table; null when the request
//   has none (then 'csv2' is the PCA of the table).
// withTable(M, data, rows, dim, labels, fn): a temporary M.Table of a trained table for fn,
//   deleted afterwards (the trained tables are not resident tables).
// It does not choose file names (file-names.js, on the page) or write projector_config.json
// (the page writes it, with the names the files get).
// tableExportFormats(M) -> the formats exportTableFile makes: the engine's writable table formats
//   (M.tableFormats(), src/io/formats.hpp's registry), 'metadata' after the vectors.tsv it labels,
//   and the map's 'csv2' | 'csv3'.
export const tableExportFormats = (M) => [
  ...M.tableFormats().filter((f) => f.canWrite).flatMap((f) => (f.name === 'tsv' ? ['tsv', 'metadata'] : [f.name])),
  'csv2', 'csv3'];

export function exportTableFile(M, table, format, { points2 = null } = {}) {
  const formats = tableExportFormats(M);
  if (!formats.includes(format)) {
    throw new Error(`export: unknown format '${format}', expected ${formats.join(', ')}`);
  }
  const rows = table.rows;
  const dim = table.dim;
  if (format === 'csv2' || format === 'csv3') {
    const k = format === 'csv2' ? 2 : 3;
    if (dim < k || rows < 1) throw new Error(`export: a ${k}-D map needs a table at least ${k} wide, this one is ${rows} × ${dim}`);
    const points = k === 2 && points2 ? points2 : table.pca({ k }).points;
    return { bytes: M.coordinatesCsv(points, rows, k, table.labels), rows, dim };
  }
  return { bytes: table.export(format), rows, dim };
}

export function drawnMap({ points = null, map = 'pca' } = {}, rows, names = ['pca']) {
  if (points == null) return null;
  if (!names.includes(map)) throw new Error(`export: map ${JSON.stringify(String(map))} is not one of ${names.join(', ')}`);
  if (!(points instanceof Float32Array) || points.length !== rows * 2) {
    throw new Error(`export: the drawn ${map} map has ${points && points.length} values, expected rows × 2 = ${rows * 2}`);
  }
  return { points, method: map };
}

export function withTable(M, data, rows, dim, labels, fn) {
  const t = M.Table.fromArray(data, rows, dim, labels ? { labels } : {});
  try {
    return fn(t);
  } finally {
    t.delete();
  }
}
