// Part of the public JS API (see embed.post.js for the conventions); uses the helpers in M._api.
// ---- table writers: the files the CLI writes, as text and bytes ----------------------------
//   const { vectors, metadata } = M.projectorTsv(table, rows, cols, labels);  // Embedding Projector
//   const npy = M.npyBytes(table, rows, cols);                               // Uint8Array, a .npy file
// Both come from src/io/table_writers.hpp, so the page exports the bytes of
// `embedlab train --out table.npy --out-tsv DIR`: values as %.9g, labels escaped (\t \n \r \\),
// an empty label an empty line.
(function (M) {
  'use strict';
  const { check, toFloats, integer, describe, fromUtf8, toUtf8 } = M._api;

  function shape(table, rows, cols, where) {
    integer(rows, where, 'rows', 0, 2147483647);
    integer(cols, where, 'cols', 0, 2147483647);
    return toFloats(table, where);
  }

  // table (rows*cols), labels [rows] (strings) -> {vectors: 'vectors.tsv text', metadata: 'metadata.tsv text'}.
  M.projectorTsv = function projectorTsv(table, rows, cols, labels) {
    const where = 'projectorTsv';
    const t = shape(table, rows, cols, where);
    if (!Array.isArray(labels) || labels.some((l) => typeof l !== 'string')) {
      throw new Error(`${where}: labels must be an array of strings, got ${describe(labels)}`);
    }
    const pieces = labels.map((l) => toUtf8(l));
    const ends = new Float64Array(pieces.length);
    let total = 0;
    pieces.forEach((p, k) => (ends[k] = total += p.length));
    const bytes = new Uint8Array(total);
    pieces.forEach((p, k) => bytes.set(p, ends[k] - p.length));
    const r = check(M._projectorTsv(t, rows, cols, bytes, ends));
    return { vectors: fromUtf8(r.vectors), metadata: fromUtf8(r.metadata) };
  };

  // table (rows*cols) -> Uint8Array: the bytes of a float32 .npy file of shape (rows, cols).
  M.npyBytes = function npyBytes(table, rows, cols) {
    return check(M._npyBytes(shape(table, rows, cols, 'npyBytes'), rows, cols));
  };
})(Module);
