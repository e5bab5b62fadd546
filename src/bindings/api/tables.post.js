// Part of the public JS API (see embed.post.js for the conventions); uses the helpers in M._api.
// ---- resident tables: imported or handed over once, queried in place ---------------------
//   const t = M.Table.fromBytes(bytes, { format: '', tensor: 'wte.weight', name: 'model.safetensors' });   // '': the name's format, else detected
//   const u = M.Table.fromArray(f32, rows, dim, { labels });
//   t.rows; t.dim; t.format; t.labels;          // labels: array of strings or null
//   t.row(5);                                  // Float32Array (dim), a copy
//   t.neighbours({ id: 5, k: 10, metric: 'cosine' });   // or {vector: Float32Array (dim)}: {ids, scores}
//   t.analogy({ positive: [a, c], negative: [b], k: 10 });
//   t.pca({ k: 2, ids, previous });            // as M.pca, on the resident rows
//   t.norms(); t.similarity([1, 2, 3]);        // Float32Array (rows); (n * n) cosine
//   const u = t.normalised();                  // a new Table: rows scaled to length 1 (zero rows stay 0)
//   t.export('npy' | 'tsv' | 'word2vec-text' | 'word2vec-binary');   // Uint8Array
//   t.export('metadata');                      // metadata.tsv (as `convert` writes it beside a .tsv)
//   t.delete();
// Safetensors files can be read in pieces (the page slices the File):
//   M.Table.safetensorsHeaderSize(first8) -> 8 + N;  M.Table.safetensorsHeader(head, { fileSize }) -> [{name, dtype, shape, begin, end}]
//   M.Table.fromTensor(bytesOfOneTensor, { dtype, shape, name })
// The table formats (src/io/formats.hpp's registry), the source of the page's import and export lists:
//   M.tableFormats() -> [{name: 'npy', label: 'NumPy .npy', extensions: ['npy'], outExtension: 'npy',
//                         canRead: true, canWrite: true, tensors: false}, ...]
// GPT-2 checkpoints are recognised: a "wte.weight" tensor of 50257 rows comes labelled with the
// GPT-2 token strings (t.recognised === 'gpt2 token table'), "wpe.weight" as 'gpt2 position table'.
// No query copies the table: the rows stay in wasm memory until delete().
(function (M) {
  'use strict';
  const { check, takeError, toFloats, toIds, toBytes, typedName, integer, flag, describe, fromUtf8, toUtf8 } = M._api;

  const decodeStrings = (o) => {
    if (!o) return null;
    const out = new Array(o.offsets.length - 1);
    for (let i = 0; i < out.length; i++) out[i] = fromUtf8(o.bytes.subarray(o.offsets[i], o.offsets[i + 1]));
    return out;
  };
  // labels: an array (or array-like) of strings; anything else fails naming the first bad one
  // (String() would turn undefined into the label 'undefined').
  const encodeStrings = (labels, where) => {
    if (labels == null || typeof labels === 'string' || typeof labels.length !== 'number') {
      throw new Error(`${where}: labels must be an array of strings, got ${describe(labels)}`);
    }
    const parts = Array.from(labels, (s, i) => {
      if (typeof s !== 'string') throw new Error(`${where}: label ${describe(s)} at index ${i} is not a string`);
      return toUtf8(s);
    });
    const offsets = new Int32Array(parts.length + 1);
    parts.forEach((p, i) => (offsets[i + 1] = offsets[i] + p.length));
    const bytes = new Uint8Array(offsets[parts.length]);
    parts.forEach((p, i) => bytes.set(p, offsets[i]));
    return { bytes, offsets };
  };
  // The file's bytes: a Uint8Array (a subclass is copied), an ArrayBuffer or any other view
  // (its bytes, read through the intrinsics: no getter of the caller's runs).
  const asBytes = (b, where) => {
    const bytes = toBytes(b);
    if (bytes) return bytes;
    if (b instanceof ArrayBuffer) return new Uint8Array(b);
    if (typedName(b) !== undefined) return toBytes(new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
    if (ArrayBuffer.isView(b)) return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    throw new Error(`${where}: expected the file's bytes (Uint8Array or ArrayBuffer), got ${describe(b)}`);
  };
  const asText = (text, where) => (typeof text === 'string' ? toUtf8(text) : asBytes(text, where));
  const asString = (v, where, name) => {
    if (typeof v !== 'string') throw new Error(`${where}: ${name} must be a string, got ${describe(v)}`);
    return v;
  };
  // A tensor's shape: an array-like object (not a string) of integers in [0, 2^53 - 1]
  // ('12' is not [1, 2], [2, '3'] is not [2, 3]).
  const asShape = (shape, where) => {
    if (shape === null || typeof shape !== 'object' || typeof shape.length !== 'number') {
      throw new Error(`${where}: shape must be an array of integers, got ${describe(shape)}`);
    }
    return Float64Array.from(Array.from(shape), (d, i) => integer(d, where, `shape[${i}]`, 0, Number.MAX_SAFE_INTEGER));
  };

  class Table {
    constructor(init) {
      this._h = M._api.made(new M._Table(), init, 'Table: construction failed');
      this._labels = undefined;
    }
    // Every argument is read and checked before the table is made, and a step that fails after
    // it (labels, metadata) deletes it: a failing call leaves nothing behind in wasm memory.
    static fromArray(data, rows, dim, opts = {}) {
      const where = 'Table.fromArray';
      integer(rows, where, 'rows', 0, 2147483647);
      integer(dim, where, 'dim', 1, 2147483647);
      const values = toFloats(data, where);
      let labels = null;
      if (opts.labels) {
        labels = encodeStrings(opts.labels, 'Table.setLabels');
        if (labels.offsets.length - 1 !== rows) {
          throw new Error(`Table.setLabels: labels: ${labels.offsets.length - 1} labels for ${rows} rows`);
        }
      }
      const t = new Table((h) => h.initArray(values, rows, dim));
      if (labels) t._whole(() => check(t._h.setLabels(labels.bytes, labels.offsets)));
      return t;
    }
    // name: the file's name; its extension (.npy, .safetensors, .tsv, .bin, .vec) picks the format when format is ''
    static fromBytes(bytes, { format = '', tensor = '', metadata, name = '' } = {}) {
      const where = 'Table.fromBytes';
      const b = asBytes(bytes, where);
      const f = asString(format, where, 'format'), t8 = toUtf8(asString(tensor, where, 'tensor'));
      const n8 = toUtf8(asString(name, where, 'name'));
      const meta = metadata === undefined ? undefined : asText(metadata, 'Table.attachMetadata');
      const t = new Table((h) => h.initBytes(b, f, t8, n8));
      if (meta !== undefined) t._whole(() => check(t._h.attachMetadata(meta)));
      return t;
    }
    static fromTensor(bytes, { dtype, shape, name = '' } = {}) {
      const where = 'Table.fromTensor';
      const b = asBytes(bytes, where), s = asShape(shape, where);
      const d = asString(dtype, where, 'dtype'), n = toUtf8(asString(name, where, 'name'));
      return new Table((h) => h.initTensor(b, d, s, n));
    }
    // Runs step on a table this call made; if it throws, the table is deleted first.
    _whole(step) {
      try {
        step();
      } catch (err) {
        this.delete();
        throw err;
      }
    }
    static safetensorsHeaderSize(first8) { return check(M._safetensorsHeaderSize(asBytes(first8, 'safetensorsHeaderSize'))); }
    // fileSize: the file's size in bytes, so that a file cut short is named as such
    static safetensorsHeader(head, { fileSize } = {}) {
      const size = fileSize === undefined ? -1 : integer(fileSize, 'safetensorsHeader', 'fileSize', 0, Number.MAX_SAFE_INTEGER);
      return check(M._safetensorsHeader(asBytes(head, 'safetensorsHeader'), size)).map((t) => Object.assign(t, { name: fromUtf8(t.name) }));
    }
    static inspect(bytes, { format = '' } = {}) {
      const b = asBytes(bytes, 'Table.inspect'), f = asString(format, 'Table.inspect', 'format');
      return check(M._listTensors(b, f)).map((t) => Object.assign(t, { name: fromUtf8(t.name) }));
    }
    _live(where) {
      if (!this._h) throw new Error(`${where}: this Table was deleted`);
      return this._h;
    }
    get rows() { return this._live('rows').rows(); }
    get dim() { return this._live('dim').dim(); }
    get format() { return this._live('format').format(); }
    // 'gpt2 token table' | 'gpt2 position table' | '' (src/io/known_tables.hpp)
    get recognised() { return this._live('recognised').recognised(); }
    get tensor() { return fromUtf8(this._live('tensor').tensor()); }
    get labels() {
      if (this._labels === undefined) this._labels = decodeStrings(check(this._live('labels').labels()));
      return this._labels;
    }
    // {header: [names], columns: [[strings per row] per column]} of the Projector metadata, or null
    get metadata() {
      const h = this._live('metadata');
      const header = decodeStrings(check(h.metadataHeader()));
      if (!header || !header.length) return null;
      return { header, columns: header.map((_, c) => decodeStrings(check(h.metadataColumn(c)))) };
    }
    // Every query reads its arguments (which may run the caller's getters) before it takes the
    // handle: a getter that deletes this Table gives "...: this Table was deleted".
    setLabels(labels) {
      const { bytes, offsets } = encodeStrings(labels, 'Table.setLabels');
      check(this._live('setLabels').setLabels(bytes, offsets));
      this._labels = undefined;
    }
    attachMetadata(text) {
      const b = asText(text, 'Table.attachMetadata');
      check(this._live('attachMetadata').attachMetadata(b));
      this._labels = undefined;
    }
    attachVocab(text) {
      const b = asText(text, 'Table.attachVocab');
      check(this._live('attachVocab').attachVocab(b));
      this._labels = undefined;
    }
    row(i) {
      const h = this._live('row');
      return check(h.row(integer(i, 'Table.row', 'row', 0, h.rows() - 1)));
    }
    norms() { return check(this._live('norms').norms()); }
    neighbours({ id, vector, k = 10, metric = 'cosine' } = {}) {
      const where = 'Table.neighbours';
      const kk = integer(k, where, 'k', -2147483648, 2147483647);
      const m = asString(metric, where, 'metric');
      if (id !== undefined && id !== null) {
        const row = integer(id, where, 'id', 0, this._live('neighbours').rows() - 1);
        return check(this._live('neighbours').nearest(row, new Float32Array(0), kk, m));
      }
      const v = toFloats(vector, where);
      return check(this._live('neighbours').nearest(-1, v, kk, m));
    }
    analogy({ positive = [], negative = [], k = 10 } = {}) {
      const rows = this._live('analogy').rows();
      const p = toIds(positive, 'Table.analogy', rows), n = toIds(negative, 'Table.analogy', rows);
      const kk = integer(k, 'Table.analogy', 'k', -2147483648, 2147483647);
      return check(this._live('analogy').analogy(p, n, kk));
    }
    pca({ k = 2, ids, previous } = {}) {
      const kk = integer(k, 'Table.pca', 'k', -2147483648, 2147483647);
      const v = ids ? toIds(ids, 'Table.pca', this._live('pca').rows()) : new Int32Array(0);
      const prev = previous ? toFloats(previous, 'Table.pca') : new Float32Array(0);
      return check(this._live('pca').pca(kk, v, prev));
    }
    similarity(ids, { cosine = true } = {}) {
      const c = flag(cosine, 'Table.similarity', 'cosine', true);
      const v = toIds(ids, 'Table.similarity', this._live('similarity').rows());
      return check(this._live('similarity').similarity(v, c));
    }
    // -> a new resident Table (delete it too) with the same labels and every row divided by its
    // length (the engine's unit_rows); this one is unchanged
    normalised() {
      const h = this._live('normalised');
      return new Table((u) => u.initUnitRows(h));
    }
    export(format) {
      const f = asString(format, 'Table.export', 'format');
      return check(this._live('export').exportBytes(f));
    }
    delete() {
      if (this._h) this._h.delete();
      this._h = null;
    }
  }
  M.Table = Table;
  M.tableFormats = () => check(M._tableFormats());
  // `embedlab bench table` in wasm: {neighbours_ms, pca_ms, first_query_ms, pca_solver, ...}
  M.benchTable = ({ rows = 50257, dim = 768, reps = 7 } = {}) =>
    JSON.parse(fromUtf8(check(M._benchTable(integer(rows, 'benchTable', 'rows', 1, 2147483647),
      integer(dim, 'benchTable', 'dim', 1, 2147483647), integer(reps, 'benchTable', 'reps', 1, 1000)))));
})(Module);
