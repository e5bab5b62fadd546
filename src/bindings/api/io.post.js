// Part of the public JS API (see embed.post.js for the conventions); uses the helpers in M._api.
// ---- table writers: the files the CLI writes, as text and bytes ----------------------------
//   const { vectors, metadata } = M.projectorTsv(table, rows, cols, labels);  // Embedding Projector
//   const npy = M.npyBytes(table, rows, cols);                               // Uint8Array, a .npy file
//   const csv = M.coordinatesCsv(points, rows, 2, labels | null);           // Uint8Array, CSV text
// The first two come from src/io/npy.hpp and src/io/projector_tsv.hpp, so the page exports the bytes of
// `embedlab train --out table.npy --out-tsv DIR`: values as %.9g, labels escaped (\t \n \r \\),
// an empty label an empty line. The CSV (src/io/coordinates_csv.hpp) is "row,label,x,y[,z]" with
// CRLF line ends, labels in double quotes (RFC 4180) and each coordinate the shortest text that
// reads back to the same float32 (as word2vec text writes values).
(function (M) {
  'use strict';
  const { check, toFloats, integer, describe, fromUtf8, toUtf8 } = M._api;

  function shape(table, rows, cols, where) {
    integer(rows, where, 'rows', 0, 2147483647);
    integer(cols, where, 'cols', 0, 2147483647);
    return toFloats(table, where);
  }

  // labels [rows] (strings) -> {bytes: all of them in UTF-8, ends: Float64Array (rows)}
  function encodeLabels(labels, where) {
    if (!Array.isArray(labels) || labels.some((l) => typeof l !== 'string')) {
      throw new Error(`${where}: labels must be an array of strings, got ${describe(labels)}`);
    }
    const pieces = labels.map((l) => toUtf8(l));
    const ends = new Float64Array(pieces.length);
    let total = 0;
    pieces.forEach((p, k) => (ends[k] = total += p.length));
    const bytes = new Uint8Array(total);
    pieces.forEach((p, k) => bytes.set(p, ends[k] - p.length));
    return { bytes, ends };
  }

  // table (rows*cols), labels [rows] (strings) -> {vectors: 'vectors.tsv text', metadata: 'metadata.tsv text'}.
  M.projectorTsv = function projectorTsv(table, rows, cols, labels) {
    const where = 'projectorTsv';
    const t = shape(table, rows, cols, where);
    const { bytes, ends } = encodeLabels(labels, where);
    const r = check(M._projectorTsv(t, rows, cols, bytes, ends));
    return { vectors: fromUtf8(r.vectors), metadata: fromUtf8(r.metadata) };
  };

  // points (rows*k, Float32Array), k 2 | 3, labels [rows] (strings) or null -> Uint8Array: the
  // CSV "row,label,x,y[,z]\r\n0,\"the\",0.5,-1e-05\r\n..."
  M.coordinatesCsv = function coordinatesCsv(points, rows, k, labels = null) {
    const where = 'coordinatesCsv';
    integer(rows, where, 'rows', 0, 2147483647);
    integer(k, where, 'k', 2, 3);
    const p = toFloats(points, where);
    const { bytes, ends } = labels ? encodeLabels(labels, where) : { bytes: new Uint8Array(0), ends: new Float64Array(0) };
    return check(M._coordinatesCsv(p, rows, k, !!labels, bytes, ends));
  };

  // table (rows*cols) -> Uint8Array: the bytes of a float32 .npy file of shape (rows, cols).
  M.npyBytes = function npyBytes(table, rows, cols) {
    return check(M._npyBytes(shape(table, rows, cols, 'npyBytes'), rows, cols));
  };
})(Module);
