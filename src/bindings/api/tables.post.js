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
// GPT-2 checkpoints are recognised: a "wte.weight" tensor of 50257 rows comes labelled with the
// GPT-2 token strings (t.recognised === 'gpt2 token table'), "wpe.weight" as 'gpt2 position table'.
// No query copies the table: the rows stay in wasm memory until delete().
(function (M) {
  'use strict';
  const { check, takeError, toFloats, toIds, integer, describe, fromUtf8, toUtf8 } = M._api;

  const decodeStrings = (o) => {
    if (!o) return null;
    const out = new Array(o.offsets.length - 1);
    for (let i = 0; i < out.length; i++) out[i] = fromUtf8(o.bytes.subarray(o.offsets[i], o.offsets[i + 1]));
    return out;
  };
  const encodeStrings = (labels) => {
    const parts = labels.map((s) => toUtf8(String(s)));
    const offsets = new Int32Array(parts.length + 1);
    parts.forEach((p, i) => (offsets[i + 1] = offsets[i] + p.length));
    const bytes = new Uint8Array(offsets[parts.length]);
    parts.forEach((p, i) => bytes.set(p, offsets[i]));
    return { bytes, offsets };
  };
  const asBytes = (b, where) => {
    if (b instanceof Uint8Array) return b;
    if (b instanceof ArrayBuffer) return new Uint8Array(b);
    if (ArrayBuffer.isView(b)) return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    throw new Error(`${where}: expected the file's bytes (Uint8Array or ArrayBuffer), got ${describe(b)}`);
  };

  class Table {
    constructor(init) {
      this._h = new M._Table();
      const ok = init(this._h);
      const message = takeError();
      if (!ok || message) {
        this._h.delete();
        this._h = null;
        throw new Error(message || 'Table: construction failed');
      }
      this._labels = undefined;
    }
    static fromArray(data, rows, dim, opts = {}) {
      integer(rows, 'Table.fromArray', 'rows', 0, 2147483647);
      integer(dim, 'Table.fromArray', 'dim', 1, 2147483647);
      const t = new Table((h) => h.initArray(toFloats(data, 'Table.fromArray'), rows, dim));
      if (opts.labels) t.setLabels(opts.labels);
      return t;
    }
    // name: the file's name; its extension (.npy, .safetensors, .tsv, .bin, .vec) picks the format when format is ''
    static fromBytes(bytes, { format = '', tensor = '', metadata, name = '' } = {}) {
      const t = new Table((h) => h.initBytes(asBytes(bytes, 'Table.fromBytes'), String(format), toUtf8(String(tensor)), toUtf8(String(name))));
      if (metadata !== undefined) t.attachMetadata(metadata);
      return t;
    }
    static fromTensor(bytes, { dtype, shape, name = '' }) {
      return new Table((h) => h.initTensor(asBytes(bytes, 'Table.fromTensor'), String(dtype), Float64Array.from(shape), toUtf8(String(name))));
    }
    static safetensorsHeaderSize(first8) { return check(M._safetensorsHeaderSize(asBytes(first8, 'safetensorsHeaderSize'))); }
    // fileSize: the file's size in bytes, so that a file cut short is named as such
    static safetensorsHeader(head, { fileSize } = {}) {
      const size = fileSize === undefined ? -1 : Number(fileSize);
      return check(M._safetensorsHeader(asBytes(head, 'safetensorsHeader'), size)).map((t) => Object.assign(t, { name: fromUtf8(t.name) }));
    }
    static inspect(bytes, { format = '' } = {}) {
      return check(M._listTensors(asBytes(bytes, 'Table.inspect'), String(format))).map((t) => Object.assign(t, { name: fromUtf8(t.name) }));
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
    setLabels(labels) {
      const { bytes, offsets } = encodeStrings(Array.from(labels));
      check(this._live('setLabels').setLabels(bytes, offsets));
      this._labels = undefined;
    }
    attachMetadata(text) {
      check(this._live('attachMetadata').attachMetadata(typeof text === 'string' ? toUtf8(text) : asBytes(text, 'Table.attachMetadata')));
      this._labels = undefined;
    }
    attachVocab(text) {
      check(this._live('attachVocab').attachVocab(typeof text === 'string' ? toUtf8(text) : asBytes(text, 'Table.attachVocab')));
      this._labels = undefined;
    }
    row(i) { return check(this._live('row').row(Number(i))); }
    norms() { return check(this._live('norms').norms()); }
    neighbours({ id, vector, k = 10, metric = 'cosine' } = {}) {
      const h = this._live('neighbours');
      if (id !== undefined && id !== null) return check(h.nearest(Number(id), new Float32Array(0), Number(k), String(metric)));
      return check(h.nearest(-1, toFloats(vector, 'Table.neighbours'), Number(k), String(metric)));
    }
    analogy({ positive = [], negative = [], k = 10 } = {}) {
      const h = this._live('analogy');
      return check(h.analogy(toIds(positive, 'Table.analogy', h.rows()), toIds(negative, 'Table.analogy', h.rows()), Number(k)));
    }
    pca({ k = 2, ids, previous } = {}) {
      const h = this._live('pca');
      return check(h.pca(Number(k), ids ? toIds(ids, 'Table.pca', h.rows()) : new Int32Array(0),
        previous ? toFloats(previous, 'Table.pca') : new Float32Array(0)));
    }
    similarity(ids, { cosine = true } = {}) {
      const h = this._live('similarity');
      return check(h.similarity(toIds(ids, 'Table.similarity', h.rows()), !!cosine));
    }
    // -> a new resident Table (delete it too) with the same labels and every row divided by its
    // length (the engine's unit_rows); this one is unchanged
    normalised() {
      const h = this._live('normalised');
      return new Table((u) => u.initUnitRows(h));
    }
    export(format) { return check(this._live('export').exportBytes(String(format))); }
    delete() {
      if (this._h) this._h.delete();
      this._h = null;
    }
  }
  M.Table = Table;
  // `embedlab bench table` in wasm: {neighbours_ms, pca_ms, first_query_ms, pca_solver, ...}
  M.benchTable = ({ rows = 50257, dim = 768, reps = 7 } = {}) =>
    JSON.parse(fromUtf8(check(M._benchTable(Number(rows), Number(dim), Number(reps)))));
})(Module);
