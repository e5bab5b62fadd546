// The public JS API of the embedlab wasm module, built on the raw bindings in bindings.cpp.
// Emscripten pastes this file into the module factory (--post-js), so `Module` is the object
// that createEmbedlab() resolves with.
//
//   const M = await createEmbedlab();
//   M.manualSeed(123);
//   const emb = new M.Embedding(6, 3, { paddingIdx: 0, scale: true });
//   emb.weight();            // Float32Array(18), a copy
//   emb.forward([2, 3, 1]);  // Float32Array(9)
//   emb.delete();
//
// Every failure arrives as a JS Error carrying the C++ message, e.g.
// "lookup: token id 10 out of range [0, 10)" or, for sizes, the planner's
// "lookup: output 64 x 67108864 float32 need 16.0 GiB; the limit here is 2.0 GiB". The raw
// calls never throw across the wasm boundary (they store the message and return undefined), so
// failing in a loop leaks nothing, and no argument can trap the module: C++ checks every number
// (fractions, NaN, Infinity, out-of-range values fail with the argument's name and range) and
// plans every buffer before allocating it.
//
// Text crosses the boundary as UTF-8 bytes: strings go in through TextEncoder and every string
// result (decode, tokenString(s), BpeTrainer merges' token, save(), error messages) comes back
// as bytes decoded with TextDecoder('utf-8', {ignoreBOM: true}), so a U+FEFF anywhere survives.
// This is invisible to callers: the API takes and returns JS strings as before.
(function (M) {
  'use strict';

  // UTF-8 both ways; subtle: ignoreBOM keeps a leading U+FEFF (the default strips it), and
  // fatal: false is safe because C++ already replaced invalid UTF-8 in every string result.
  const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const utf8Encoder = new TextEncoder();
  const fromUtf8 = (bytes) => utf8Decoder.decode(bytes);
  // A JS string -> its UTF-8 bytes; lone surrogates become U+FFFD (as tiktoken sees them).
  const toUtf8 = (text) => utf8Encoder.encode(text);

  // The message the last raw call left ('' when it succeeded); taking it clears it.
  function takeError() {
    const bytes = M._takeError();
    return bytes === undefined ? '' : fromUtf8(bytes);
  }

  // Throws the message the last raw call left, if any; else returns result.
  function check(result) {
    const message = takeError();
    if (message) throw new Error(message);
    return result;
  }

  function describe(v) {
    return typeof v === 'string' ? JSON.stringify(v) : String(v);
  }

  // A [B][T] nested array -> flat row-major array (rows must have equal lengths).
  function flattenBatch(ids, where) {
    const T = ids[0].length;
    const flat = [];
    for (let b = 0; b < ids.length; b++) {
      const row = ids[b];
      if (row == null || typeof row.length !== 'number' || row.length !== T) {
        throw new Error(`${where}: batch row ${b} has ${row && row.length} ids, expected ${T} like row 0`);
      }
      for (let t = 0; t < T; t++) flat.push(row[t]);
    }
    return flat;
  }

  // ids: array-like of integers, or a [B][T] nested array (flattened row-major, so the
  // output is (B, T, D)) -> Int32Array; bad values fail with their position.
  function toIds(ids, where, limit) {
    if (ids instanceof Int32Array) return ids;
    if (ids == null || typeof ids.length !== 'number') {
      throw new Error(`${where}: ids must be an array of integers, got ${describe(ids)}`);
    }
    if (ids.length > 0 && ids[0] != null && typeof ids[0] === 'object') ids = flattenBatch(ids, where);
    const out = new Int32Array(ids.length);
    for (let i = 0; i < ids.length; i++) {
      const v = ids[i];
      if (!Number.isInteger(v)) {
        throw new Error(`${where}: token id ${describe(v)} at index ${i} is not an integer`);
      }
      if (v < -2147483648 || v > 2147483647) {
        throw new Error(`${where}: token id ${v} out of range [0, ${limit})`);
      }
      out[i] = v;
    }
    return out;
  }

  function toFloats(x, where) {
    if (x instanceof Float32Array) return x;
    if (x == null || typeof x.length !== 'number') {
      throw new Error(`${where}: expected an array of numbers, got ${describe(x)}`);
    }
    return Float32Array.from(x);
  }

  function integer(v, where, name, lo, hi) {
    if (!Number.isInteger(v) || v < lo || v > hi) {
      throw new Error(`${where}: ${name} ${describe(v)} must be an integer in [${lo}, ${hi}]`);
    }
    return v;
  }

  const OPTION_KEYS = new Set(['paddingIdx', 'maxNorm', 'scale', 'freeze']);
  function embeddingOptions(opts, where) {
    opts = opts || {};
    for (const k of Object.keys(opts)) {
      if (!OPTION_KEYS.has(k)) throw new Error(`${where}: unknown option '${k}', expected paddingIdx, maxNorm, scale or freeze`);
    }
    // null/undefined: no padding row (passed as NaN); negative values count from the end, as torch
    const paddingIdx = opts.paddingIdx == null ? NaN : opts.paddingIdx;
    if (opts.paddingIdx != null && !Number.isInteger(paddingIdx)) throw new Error(`${where}: paddingIdx ${describe(paddingIdx)} is not an integer`);
    const maxNorm = opts.maxNorm == null ? 0 : Number(opts.maxNorm);
    return { paddingIdx, maxNorm, scale: !!opts.scale, freeze: opts.freeze !== false };
  }

  M.manualSeed = function manualSeed(seed) {
    check(M._manualSeed(Number(seed)));
  };

  M.isa = () => M._isa();

  class Embedding {
    // new Embedding(V, D, {paddingIdx, maxNorm, scale}): drawn from the module's generator
    // like torch's nn.Embedding(V, D) after torch.manual_seed.
    constructor(numEmbeddings, embeddingDim, opts) {
      const o = embeddingOptions(opts, 'Embedding');
      this._h = new M._Embedding();
      this._init(() => this._h.init(Number(numEmbeddings), Number(embeddingDim), o.paddingIdx, o.maxNorm, o.scale));
    }
    _init(call) {
      const ok = call();
      const message = takeError();
      if (!ok || message) {
        this._h.delete();
        this._h = null;
        throw new Error(message || 'Embedding: construction failed');
      }
    }
    // Embedding.fromPretrained(weights (V*D), V, D, {freeze = true, paddingIdx, maxNorm, scale})
    static fromPretrained(weights, numEmbeddings, embeddingDim, opts) {
      const o = embeddingOptions(opts, 'Embedding.fromPretrained');
      const w = toFloats(weights, 'Embedding.fromPretrained');
      const e = Object.create(Embedding.prototype);
      e._h = new M._Embedding();
      e._init(() => e._h.initPretrained(w, Number(numEmbeddings), Number(embeddingDim), o.paddingIdx, o.maxNorm, o.scale, o.freeze));
      return e;
    }
    _live(where) {
      if (!this._h) throw new Error(`${where}: this Embedding was deleted`);
      return this._h;
    }
    get numEmbeddings() { return this._live('numEmbeddings').rows(); }
    get embeddingDim() { return this._live('embeddingDim').dim(); }
    get paddingIdx() { const p = this._live('paddingIdx').paddingIdx(); return p < 0 ? null : p; }
    get scaleFactor() { return this._live('scaleFactor').scaleFactor(); }
    weight() { return check(this._live('weight').weight()); }
    // ids (n) -> Float32Array (n * D)
    forward(ids) {
      const h = this._live('forward');
      return check(h.forward(toIds(ids, 'lookup', h.rows())));
    }
    // ids (n), positions (T * D) -> (n * D) = W[ids] * scale + positions[i % T]
    forwardWithPositions(ids, positions, T) {
      const h = this._live('forwardWithPositions');
      return check(h.forwardWithPositions(toIds(ids, 'lookup', h.rows()), toFloats(positions, 'forwardWithPositions'), Number(T)));
    }
    // The same lookup computed as one_hot(ids, V) @ W.
    oneHotForward(ids) {
      const h = this._live('oneHotForward');
      return check(h.forwardOneHot(toIds(ids, 'oneHotForward', h.rows())));
    }
    // Gradient of sum(forward(ids) * dout) w.r.t. the table:
    // {sparse: true} (default) -> {rows: Int32Array, values: Float32Array}, else Float32Array (V * D).
    backward(ids, dout, opts) {
      const h = this._live('backward');
      const sparse = !opts || opts.sparse !== false;
      return check(h.backward(toIds(ids, 'backward', h.rows()), toFloats(dout, 'backward'), sparse));
    }
    delete() {
      if (this._h) this._h.delete();
      this._h = null;
    }
  }
  M.Embedding = Embedding;

  class Linear {
    // new Linear(inFeatures, outFeatures): nn.Linear(in, out, bias=False) from the module's generator.
    constructor(inFeatures, outFeatures) {
      integer(inFeatures, 'Linear', 'inFeatures', 1, 2147483647);
      integer(outFeatures, 'Linear', 'outFeatures', 1, 2147483647);
      this._h = new M._Linear();
      const ok = this._h.init(inFeatures, outFeatures);
      const message = takeError();
      if (!ok || message) {
        this._h.delete();
        this._h = null;
        throw new Error(message);
      }
    }
    _live(where) {
      if (!this._h) throw new Error(`${where}: this Linear was deleted`);
      return this._h;
    }
    get inFeatures() { return this._live('inFeatures').inFeatures(); }
    get outFeatures() { return this._live('outFeatures').outFeatures(); }
    // Float32Array (out * in), row-major like torch's weight
    weight() { return check(this._live('weight').weight()); }
    // x (n * in) -> (n * out)
    forward(x, n) { return check(this._live('forward').forward(toFloats(x, 'Linear.forward'), Number(n))); }
    delete() {
      if (this._h) this._h.delete();
      this._h = null;
    }
  }
  M.Linear = Linear;

  // Positional encodings, each a Float32Array (T * D) row-major.
  M.sinusoidal = (positions, dim) => check(M._sinusoidal(Number(positions), Number(dim)));
  M.learnedPositions = (contextLength, dim) => check(M._learnedPositions(Number(contextLength), Number(dim)));
  M.ropeTable = (positions, dim) => check(M._ropeTable(Number(positions), Number(dim)));
  M.ropeApply = (x, positions, dim, offset) =>
    check(M._ropeApply(toFloats(x, 'ropeApply'), Number(positions), Number(dim), Number(offset || 0)));
  // The registry of positional-encoding kinds (embed/positions/registry.hpp), in the engine's
  // order: [{name, label, description, provides: 'none'|'additive'|'rotation'|'bias', trainable,
  // evenDim, extrapolates (runs on windows longer than T), params: [{name, default, min, max,
  // integer, help, option}]}]. A fresh copy each call.
  let kinds = null;
  M.positionalKinds = () => {
    if (!kinds) {
      const raw = check(M._positionalKinds());
      kinds = raw.map((k) => ({
        name: fromUtf8(k.name), label: fromUtf8(k.label), description: fromUtf8(k.description),
        provides: fromUtf8(k.provides), trainable: k.trainable, evenDim: k.evenDim, extrapolates: k.extrapolates,
        params: k.params.map((p) => ({ name: fromUtf8(p.name), default: p.default, min: p.min, max: p.max,
          integer: p.integer, help: fromUtf8(p.help), option: fromUtf8(p.option) })),
      }));
    }
    return structuredClone(kinds);
  };
  // A kind's table: M.positionTable(kind, {positions, dim, heads, seed, params}) -> {shape, data}:
  // (T, D), or (heads, T, T) for bias kinds; seed: a number draws learned tables from it,
  // undefined from the module's generator (manualSeed).
  M.positionTable = (kind, o) => {
    o = o || {};
    return check(M._positionTable(String(kind), Number(o.positions), Number(o.dim ?? 1), Number(o.heads ?? 1),
      o.seed ?? undefined, o.params ?? undefined));
  };
  // Older names of kind tables: (H, T, T) biases of H heads.
  M.alibi = (heads, positions) => M.positionTable('alibi', { positions, heads }).data;
  M.positionSimilarity = (table, positions, dim, opts) =>
    check(M._positionSimilarity(toFloats(table, 'positionSimilarity'), Number(positions), Number(dim), !!(opts && opts.cosine)));
  M.benchLookup = (o) => {
    o = o || {};
    return check(M._benchLookup(Number(o.numEmbeddings ?? 50257), Number(o.embeddingDim ?? 768), Number(o.batch ?? 32),
      Number(o.context ?? 256), Number(o.reps ?? 15)));
  };

  // Shared helpers for the wrappers other areas append below.
  M._api = { check, takeError, toIds, toFloats, integer, describe, fromUtf8, toUtf8 };
})(Module);
