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
// plans every buffer before allocating it. Nothing is coerced: an id, size, count or shape is an
// integer Number ("Table.row: row null must be an integer in [0, 9]"; -0 is 0), an array of
// numbers holds Numbers, a name is a string. No caller code runs inside a raw call: the wrappers
// read every argument (getters, Proxy traps) before they take the engine handle, and C++ reads
// typed arrays through the intrinsics (see M._typedLength below).
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
    if (typeof v === 'string') return JSON.stringify(v);
    if (typeof v === 'bigint') return `${v}n`;
    if (Object.is(v, -0)) return '-0';
    // integers exactly, as C++'s js_number prints them (2 ** 64 is 18446744073709551616, not ...2000)
    if (Number.isInteger(v) && Math.abs(v) < 1e21) return BigInt(v).toString();
    try {
      return String(v);
    } catch { // an object whose toString throws (or a null-prototype object) is still named
      return Object.prototype.toString.call(v);
    }
  }

  // ---- arguments are read before any raw call, and raw calls run no caller code ------------
  // subtle: a caller's code can run in the middle of a C++ call only through a getter or a
  // Proxy trap on an argument (a typed-array subclass whose `length` getter deletes the table
  // being queried). So the wrappers read every argument into plain values (numbers, strings,
  // fresh typed arrays) before they take the engine handle, and C++ reads typed arrays through
  // M._typedLength below: the intrinsic %TypedArray%.prototype getters, captured now, which
  // read the array's own slots and call nothing (a Proxy is not a typed array to them).
  const TypedArrayProto = Object.getPrototypeOf(Int32Array.prototype);
  const bindCall = Function.prototype.call.bind(Function.prototype.bind, Function.prototype.call);
  const typedLengthOf = bindCall(Object.getOwnPropertyDescriptor(TypedArrayProto, 'length').get);
  const typedNameOf = bindCall(Object.getOwnPropertyDescriptor(TypedArrayProto, Symbol.toStringTag).get);
  const typedSet = bindCall(TypedArrayProto.set);
  const bufferOf = bindCall(Object.getOwnPropertyDescriptor(TypedArrayProto, 'buffer').get);
  const isView = ArrayBuffer.isView;
  const getPrototypeOf = Object.getPrototypeOf;
  // 'Int32Array', 'Float32Array', ... for a typed array (a subclass too), else undefined.
  const typedName = (a) => (isView(a) ? typedNameOf(a) : undefined);
  // For C++ (common.hpp typed_length): a's element count if it is a `name` typed array, else -1.
  M._typedLength = (a, name) => (typedName(a) === name ? typedLengthOf(a) : -1);
  // For C++ (common.hpp typed_set): copies src into dst (a view of wasm memory) if both still have
  // dst's length; false if src changed meanwhile (a view of wasm memory detached by its growth).
  M._typedSet = (dst, src) => {
    if (typedLengthOf(src) !== typedLengthOf(dst)) return false;
    typedSet(dst, src);
    return true;
  };
  // a, a typed array of the class Type: itself when it is exactly a Type of its own memory, else
  // a plain copy of its elements, read through the intrinsics (a subclass's getters never run;
  // a view of wasm memory, such as M.HEAPF32.subarray(...), would be detached if the call grew it).
  function plainTyped(a, Type) {
    if (getPrototypeOf(a) === Type.prototype && bufferOf(a) !== M.HEAP8.buffer) return a;
    const out = new Type(typedLengthOf(a));
    typedSet(out, a);
    return out;
  }
  // The elements of an array-like that is not a typed array of the right class, each one
  // checked by item(v, i); the caller's getters run here, before any raw call.
  function fromArrayLike(x, Type, item, where) {
    const n = x.length;
    if (!Number.isInteger(n) || n < 0 || n > 2147483647) {
      throw new Error(`${where}: an array's length must be an integer in [0, 2147483647], got ${describe(n)}`);
    }
    const out = new Type(n);
    for (let i = 0; i < n; i++) out[i] = item(x[i], i);
    return out;
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
    if (typedName(ids) === 'Int32Array') return plainTyped(ids, Int32Array);
    if (ids == null || typeof ids.length !== 'number' || typeof ids === 'string') {
      throw new Error(`${where}: ids must be an array of integers, got ${describe(ids)}`);
    }
    if (ids.length > 0 && ids[0] != null && typeof ids[0] === 'object') ids = flattenBatch(ids, where);
    return fromArrayLike(ids, Int32Array, (v, i) => {
      if (!Number.isInteger(v)) {
        throw new Error(`${where}: token id ${describe(v)} at index ${i} is not an integer`);
      }
      if (v < -2147483648 || v > 2147483647) {
        throw new Error(`${where}: token id ${v} out of range [0, ${limit})`);
      }
      return v;
    }, where);
  }

  // x: a Float32Array (copied if it is a subclass) or an array-like of numbers (NaN and
  // Infinity pass: the engine names them; null, '3' or true are not numbers) -> Float32Array
  function toFloats(x, where) {
    if (typedName(x) === 'Float32Array') return plainTyped(x, Float32Array);
    if (x == null || typeof x.length !== 'number' || typeof x === 'string') {
      throw new Error(`${where}: expected an array of numbers, got ${describe(x)}`);
    }
    return fromArrayLike(x, Float32Array, (v, i) => {
      if (typeof v !== 'number') throw new Error(`${where}: value ${describe(v)} at index ${i} is not a number`);
      return v;
    }, where);
  }
  // The same for Float64Array arguments (offsets, counts, shapes: C++ checks each is an integer).
  function toDoubles(x, where, what) {
    if (typedName(x) === 'Float64Array') return plainTyped(x, Float64Array);
    if (x == null || typeof x.length !== 'number' || typeof x === 'string') {
      throw new Error(`${where}: ${what} must be an array of numbers, got ${describe(x)}`);
    }
    return fromArrayLike(x, Float64Array, (v, i) => {
      if (typeof v !== 'number') throw new Error(`${where}: ${what}[${i}] ${describe(v)} is not a number`);
      return v;
    }, where);
  }
  // Bytes (Uint8Array, a subclass copied) -> Uint8Array, or undefined for anything else.
  function toBytes(b) {
    if (typedName(b) === 'Uint8Array') return plainTyped(b, Uint8Array);
    return undefined;
  }

  // An integer Number in [lo, hi] (-0 is 0); anything else (undefined, null, '3', true, 1.5,
  // NaN, 2n) fails naming the argument and the value: "Table.row: row null must be an integer
  // in [0, 9]". The same words as C++'s int_arg, which checks the numbers once more.
  function integer(v, where, name, lo, hi) {
    if (!Number.isInteger(v) || v < lo || v > hi) {
      throw new Error(`${where}: ${name} ${describe(v)} must be an integer in [${lo}, ${hi}]`);
    }
    return v === 0 ? 0 : v;
  }
  // Runs init(h) on a fresh raw handle h; if it fails (a stored message, false, or a JS
  // exception), h is deleted before the error is thrown, so a failed constructor leaves nothing.
  function made(h, init, fallback) {
    let ok, message;
    try {
      ok = init(h);
      message = takeError();
    } catch (err) {
      h.delete();
      throw err;
    }
    if (!ok || message) {
      h.delete();
      throw new Error(message || fallback);
    }
    return h;
  }
  // A switch: true or false, or the fallback when absent ('false' and 0 are not switches).
  function flag(v, where, name, fallback) {
    if (v == null) return fallback;
    if (typeof v !== 'boolean') throw new Error(`${where}: ${name} must be true or false, got ${describe(v)}`);
    return v;
  }
  // A Number for an integer argument whose range C++ checks (the message names it); anything
  // else fails here: "benchTable: rows \"5\" must be an integer Number".
  function whole(v, where, name) {
    if (typeof v !== 'number') throw new Error(`${where}: ${name} ${describe(v)} must be an integer Number`);
    return v;
  }
  // A Number (NaN and Infinity pass: C++ names them with the parameter's range); anything else
  // fails: "Embedding: maxNorm \"2\" must be a number".
  function number(v, where, name) {
    if (typeof v !== 'number') throw new Error(`${where}: ${name} ${describe(v)} must be a number`);
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
    const maxNorm = opts.maxNorm == null ? 0 : number(opts.maxNorm, where, 'maxNorm');
    return { paddingIdx, maxNorm, scale: flag(opts.scale, where, 'scale', false), freeze: flag(opts.freeze, where, 'freeze', true) };
  }

  M.manualSeed = function manualSeed(seed) {
    check(M._manualSeed(integer(seed, 'manualSeed', 'seed', 0, Number.MAX_SAFE_INTEGER)));
  };

  M.isa = () => M._isa();
  // The engine's thread count (core/parallel.hpp): M.threads() -> the count in use;
  // M.setThreads(n) asks for n in [1, 64] and returns the count in use, min(n, the cores this
  // build can use): always 1 in the single-thread build (embedlab.js), the logical cores in the
  // threaded one (embedlab-mt.js). Bad input throws "setThreads: threads 0 out of range [1, 64]".
  M.threads = () => M._threads();
  M.setThreads = (n) => {
    if (typeof n !== 'number') throw new Error(`setThreads: threads ${describe(n)} must be an integer in [1, 64]`);
    return check(M._setThreads(n));
  };

  class Embedding {
    // new Embedding(V, D, {paddingIdx, maxNorm, scale}): drawn from the module's generator
    // like torch's nn.Embedding(V, D) after torch.manual_seed.
    constructor(numEmbeddings, embeddingDim, opts) {
      const o = embeddingOptions(opts, 'Embedding');
      const V = integer(numEmbeddings, 'Embedding', 'numEmbeddings', 1, 2147483647);
      const D = integer(embeddingDim, 'Embedding', 'embeddingDim', 1, 2147483647);
      this._h = new M._Embedding();
      this._init(() => this._h.init(V, D, o.paddingIdx, o.maxNorm, o.scale));
    }
    _init(call) {  // call() uses this._h
      try {
        made(this._h, call, 'Embedding: construction failed');
      } catch (err) {
        this._h = null;
        throw err;
      }
    }
    // Embedding.fromPretrained(weights (V*D), V, D, {freeze = true, paddingIdx, maxNorm, scale})
    static fromPretrained(weights, numEmbeddings, embeddingDim, opts) {
      const where = 'Embedding.fromPretrained';
      const o = embeddingOptions(opts, where);
      const w = toFloats(weights, where);
      const V = integer(numEmbeddings, where, 'numEmbeddings', 1, 2147483647);
      const D = integer(embeddingDim, where, 'embeddingDim', 1, 2147483647);
      const e = Object.create(Embedding.prototype);
      e._h = new M._Embedding();
      e._init(() => e._h.initPretrained(w, V, D, o.paddingIdx, o.maxNorm, o.scale, o.freeze));
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
    // Every method reads its arguments (which may run the caller's getters) before it takes
    // the handle: a getter that deletes this Embedding gives "...: this Embedding was deleted".
    // ids (n) -> Float32Array (n * D)
    forward(ids) {
      const v = toIds(ids, 'lookup', this._live('forward').rows());
      return check(this._live('forward').forward(v));
    }
    // ids (n), positions (T * D) -> (n * D) = W[ids] * scale + positions[i % T]
    forwardWithPositions(ids, positions, T) {
      const where = 'forwardWithPositions';
      const v = toIds(ids, 'lookup', this._live(where).rows());
      const p = toFloats(positions, where);
      const t = integer(T, where, 'positions', 1, 2147483647);
      return check(this._live(where).forwardWithPositions(v, p, t));
    }
    // The same lookup computed as one_hot(ids, V) @ W.
    oneHotForward(ids) {
      const v = toIds(ids, 'oneHotForward', this._live('oneHotForward').rows());
      return check(this._live('oneHotForward').forwardOneHot(v));
    }
    // Gradient of sum(forward(ids) * dout) w.r.t. the table:
    // {sparse: true} (default) -> {rows: Int32Array, values: Float32Array}, else Float32Array (V * D).
    backward(ids, dout, opts) {
      const sparse = flag(opts && opts.sparse, 'backward', 'sparse', true);
      const v = toIds(ids, 'backward', this._live('backward').rows());
      const g = toFloats(dout, 'backward');
      return check(this._live('backward').backward(v, g, sparse));
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
      this._h = made(new M._Linear(), (raw) => raw.init(inFeatures, outFeatures), 'Linear: construction failed');
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
    forward(x, n) {
      const v = toFloats(x, 'Linear.forward');
      const rows = integer(n, 'Linear.forward', 'n', 0, 2147483647);
      return check(this._live('forward').forward(v, rows));
    }
    delete() {
      if (this._h) this._h.delete();
      this._h = null;
    }
  }
  M.Linear = Linear;

  // Positional encodings, each a Float32Array (T * D) row-major.
  // (sizes: integer Numbers >= 1, as C++'s size_arg; C++ checks what each kind allows, e.g. an even dim)
  const size = (v, where, name, lo = 1) => integer(v, where, name, lo, 2147483647);
  M.sinusoidal = (positions, dim) => check(M._sinusoidal(size(positions, 'sinusoidal', 'positions'), size(dim, 'sinusoidal', 'dim')));
  M.learnedPositions = (contextLength, dim) =>
    check(M._learnedPositions(size(contextLength, 'learnedPositions', 'positions'), size(dim, 'learnedPositions', 'dim')));
  M.ropeTable = (positions, dim) => check(M._ropeTable(size(positions, 'ropeTable', 'positions'), size(dim, 'ropeTable', 'dim')));
  // x (T * D) rotated by position (+ offset); opts {kind, params}: a rotation kind of the registry
  // (rope, rope-pi, ...) with its parameters, rotated by that kind's inv_freq (positionTable's);
  // without opts plain RoPE at base 10000, as before.
  M.ropeApply = (x, positions, dim, offset, opts) => {
    let kind, params;
    if (opts != null) {
      if (typeof opts !== 'object') throw new Error(`ropeApply: opts must be an object, got ${describe(opts)}`);
      kind = opts.kind;
      if (typeof kind !== 'string') throw new Error(`ropeApply: kind must be a string, got ${describe(kind)}`);
      params = numberParams('ropeApply', opts.params);
    }
    return check(M._ropeApply(toFloats(x, 'ropeApply'), size(positions, 'ropeApply', 'positions'), size(dim, 'ropeApply', 'dim'),
      size(offset ?? 0, 'ropeApply', 'offset', 0), kind, params));
  };
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
  // a kind's parameters as a fresh plain object of numbers (C++ reads no getter of the caller's); undefined: none given
  const numberParams = (where, given) => {
    if (given == null) return undefined;
    if (typeof given !== 'object') throw new Error(`${where}: params must be an object, got ${describe(given)}`);
    const params = {};
    for (const [name, v] of Object.entries(given)) params[name] = number(v, where, `params.${name}`);
    return params;
  };
  // A kind's table: M.positionTable(kind, {positions, dim, heads, seed, params}) -> {shape, data}:
  // (T, D), or (heads, T, T) for bias kinds; rotation kinds add invFreq (D/2) and attentionScale;
  // seed: a number draws learned tables from it, undefined from the module's generator (manualSeed).
  M.positionTable = (kind, o) => {
    o = o || {};
    if (typeof kind !== 'string') throw new Error(`positionTable: kind must be a string, got ${describe(kind)}`);
    // messages name the kind, as C++'s do ("alibi: positions -3 must be ..."); an unknown kind is C++'s to name
    const where = M.positionalKinds().some((k) => k.name === kind) ? kind : 'positionTable';
    const positions = size(o.positions, where, 'positions'), dim = size(o.dim ?? 1, where, 'dim');
    const heads = size(o.heads ?? 1, where, 'heads');
    const seed = o.seed == null ? undefined : integer(o.seed, where, 'seed', 0, Number.MAX_SAFE_INTEGER);
    return check(M._positionTable(kind, positions, dim, heads, seed, numberParams(where, o.params)));
  };
  // Older names of kind tables: (H, T, T) biases of H heads.
  M.alibi = (heads, positions) => M.positionTable('alibi', { positions, heads }).data;
  M.positionSimilarity = (table, positions, dim, opts) =>
    check(M._positionSimilarity(toFloats(table, 'positionSimilarity'), size(positions, 'positionSimilarity', 'positions'),
      size(dim, 'positionSimilarity', 'dim'), flag(opts && opts.cosine, 'positionSimilarity', 'cosine', false)));
  M.benchLookup = (o) => {
    o = o || {};
    const n = (key, fallback) => size(o[key] ?? fallback, 'benchLookup', key);
    return check(M._benchLookup(n('numEmbeddings', 50257), n('embeddingDim', 768), n('batch', 32), n('context', 256),
      integer(o.reps ?? 15, 'benchLookup', 'reps', 1, 1000)));
  };

  // Shared helpers for the wrappers other areas append below.
  M._api = { check, takeError, toIds, toFloats, toDoubles, toBytes, typedName, integer, whole, number, flag, made, describe, fromUtf8, toUtf8 };
})(Module);
