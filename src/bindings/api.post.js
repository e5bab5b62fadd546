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
// "lookup: token id 10 out of range [0, 10)". The raw calls never throw across the wasm
// boundary (they store the message and return undefined), so failing in a loop leaks nothing.
(function (M) {
  'use strict';

  // Throws the message the last raw call left, if any; else returns result.
  function check(result) {
    const message = M._takeError();
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
      if (opts && opts._pretrained) return;
      this._init(() => this._h.init(Number(numEmbeddings), Number(embeddingDim), o.paddingIdx, o.maxNorm, o.scale));
    }
    _init(call) {
      const ok = call();
      const message = M._takeError();
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
      const message = M._takeError();
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
  M.alibi = (heads, positions) => check(M._alibi(Number(heads), Number(positions)));
  M.positionSimilarity = (table, positions, dim, opts) =>
    check(M._positionSimilarity(toFloats(table, 'positionSimilarity'), Number(positions), Number(dim), !!(opts && opts.cosine)));
  M.benchLookup = (o) => {
    o = o || {};
    return check(M._benchLookup(o.numEmbeddings ?? 50257, o.embeddingDim ?? 768, o.batch ?? 32, o.context ?? 256, o.reps ?? 15));
  };

  // Shared helpers for the wrappers other areas append below.
  M._api = { check, toIds, toFloats, integer, describe };
})(Module);

// ---- tokenizers, sliding windows, BPE training ---------------------------------------------
//   const tok = M.Tokenizer.gpt2();                 // or fromCorpus('word', text, {lowercase}) / fromBpe(file)
//   const ids = tok.encode('Hello world');          // Int32Array [15496, 995]
//   tok.decode(ids);                                // 'Hello world'
//   const ds = M.slidingWindows(ids, { maxLength: 4, stride: 4, batchSize: 4 });
//   ds.batch(0);                                    // {rows, inputs: Int32Array(rows*4), targets}
//   const tr = new M.BpeTrainer(text, 512);  tr.step(10);  // [{left, right, id, count, token}]
(function (M) {
  'use strict';
  const { check, toIds, integer, describe } = M._api;

  // subtle: a JS string with a lone surrogate would reach C++ as invalid UTF-8 (0xED 0xA0 0x80);
  // tiktoken (TextEncoder) sees U+FFFD there, so make the string well-formed first.
  function text(t, where) {
    if (typeof t === 'string') return t.isWellFormed && !t.isWellFormed() ? t.toWellFormed() : t;
    if (t instanceof Uint8Array) return t;
    throw new Error(`${where}: text must be a string or a Uint8Array, got ${describe(t)}`);
  }
  function knownKeys(opts, keys, where) {
    for (const k of Object.keys(opts)) {
      if (!keys.includes(k)) throw new Error(`${where}: unknown option '${k}', expected ${keys.join(', ')}`);
    }
  }

  class Tokenizer {
    constructor(init) {
      this._h = new M._Tokenizer();
      const ok = init(this._h);
      const message = M._takeError();
      if (!ok || message) {
        this._h.delete();
        this._h = null;
        throw new Error(message || 'Tokenizer: construction failed');
      }
    }
    // GPT-2 byte-level BPE, the same ids as tiktoken's gpt2 encoding (50257 ids).
    static gpt2() { return new Tokenizer((h) => h.initGpt2()); }
    // A word/char vocabulary built from text. kind: 'whitespace' (Python str.split), 'word'
    // (\w+|[^\w\s]) or 'char'; opts {lowercase = false, minCount = 1, maxSize = 0 (no limit)}.
    static fromCorpus(kind, corpus, opts) {
      opts = opts || {};
      knownKeys(opts, ['lowercase', 'minCount', 'maxSize'], 'Tokenizer.fromCorpus');
      const minCount = integer(opts.minCount ?? 1, 'Tokenizer.fromCorpus', 'minCount', 1, 2147483647);
      const maxSize = integer(opts.maxSize ?? 0, 'Tokenizer.fromCorpus', 'maxSize', 0, 2147483647);
      const t = text(corpus, 'Tokenizer.fromCorpus');
      return new Tokenizer((h) => h.initCorpus(String(kind), t, !!opts.lowercase, minCount, maxSize));
    }
    // A trained BPE from the text of a merge file (BpeTrainer.save()).
    static fromBpe(file) { return new Tokenizer((h) => h.initBpe(text(file, 'Tokenizer.fromBpe'))); }
    _live(where) {
      if (!this._h) throw new Error(`${where}: this Tokenizer was deleted`);
      return this._h;
    }
    get kind() { return this._live('kind').kind(); }
    get vocabSize() { return this._live('vocabSize').vocabSize(); }
    // text -> Int32Array of ids; {allowSpecial: true} makes '<|endoftext|>' 50256 (gpt2 only).
    encode(t, opts) {
      return check(this._live('encode').encode(text(t, 'encode'), !!(opts && opts.allowSpecial)));
    }
    // ids -> string (invalid UTF-8 replaced by U+FFFD).
    decode(ids) {
      const h = this._live('decode');
      return check(h.decode(toIds(ids, 'decode', h.vocabSize())));
    }
    tokenBytes(id) { return check(this._live('tokenBytes').tokenBytes(Number(id))); }
    tokenString(id) { return this.tokenStrings([id])[0]; }
    // ids -> display strings, one per id.
    tokenStrings(ids) {
      const h = this._live('tokenStrings');
      return check(h.tokenStrings(toIds(ids, 'tokenStrings', h.vocabSize())));
    }
    // Float64Array (vocabSize) of corpus counts for word/char vocabularies; null for BPE kinds.
    counts() { return check(this._live('counts').counts()) ?? null; }
    delete() {
      if (this._h) this._h.delete();
      this._h = null;
    }
  }
  M.Tokenizer = Tokenizer;

  class BpeTrainer {
    // new BpeTrainer(text, vocabSize >= 256): byte-level BPE over GPT-2 pre-tokenized pieces.
    constructor(corpus, vocabSize) {
      const t = text(corpus, 'BpeTrainer');
      this._h = new M._BpeTrainer();
      const ok = this._h.init(t, Number(vocabSize));
      const message = M._takeError();
      if (!ok || message) {
        this._h.delete();
        this._h = null;
        throw new Error(message || 'BpeTrainer: construction failed');
      }
    }
    _live(where) {
      if (!this._h) throw new Error(`${where}: this BpeTrainer was deleted`);
      return this._h;
    }
    // Up to n merges (default 1) -> [{left, right, id, count, token, tokens}]; [] when done.
    // count: occurrences of the pair when merged; tokens: the training text's token count after it.
    step(n) { return check(this._live('step').step(Number(n ?? 1))); }
    get done() { return this._live('done').done(); }
    get vocabSize() { return this._live('vocabSize').vocabSize(); }
    get tokenCount() { return this._live('tokenCount').tokenCount(); }
    // The merge file text (see src/tokenizer/bpe.hpp for the format).
    save() { return check(this._live('save').save()); }
    tokenizer() { return Tokenizer.fromBpe(this.save()); }
    delete() {
      if (this._h) this._h.delete();
      this._h = null;
    }
  }
  M.BpeTrainer = BpeTrainer;

  // LLMs-from-scratch create_dataloader_v1 over ids:
  // {numSamples, numBatches, inputTokens, starts (Int32Array, batch order), batch(b) -> {rows, inputs, targets}}.
  M.slidingWindows = function slidingWindows(ids, opts) {
    opts = opts || {};
    knownKeys(opts, ['maxLength', 'stride', 'batchSize', 'shuffle', 'seed', 'dropLast'], 'slidingWindows');
    const v = toIds(ids, 'slidingWindows', 2147483647);
    const L = integer(opts.maxLength ?? 256, 'slidingWindows', 'maxLength', -2147483648, 2147483647);
    const S = integer(opts.stride ?? 128, 'slidingWindows', 'stride', -2147483648, 2147483647);
    const B = integer(opts.batchSize ?? 4, 'slidingWindows', 'batchSize', -2147483648, 2147483647);
    const seed = integer(opts.seed ?? 0, 'slidingWindows', 'seed', 0, Number.MAX_SAFE_INTEGER);
    const r = check(M._slidingWindows(v, L, S, B, !!opts.shuffle, seed, opts.dropLast !== false));
    r.maxLength = L;
    r.batchSize = B;
    r.batch = (b) => {
      integer(b, 'slidingWindows batch', 'batch index', 0, r.numBatches - 1);
      const first = b * B, rows = Math.min(B, r.starts.length - first);
      const inputs = new Int32Array(rows * L), targets = new Int32Array(rows * L);
      for (let k = 0; k < rows; k++) {
        const s = r.starts[first + k];
        inputs.set(v.subarray(s, s + L), k * L);
        targets.set(v.subarray(s + 1, s + L + 1), k * L);
      }
      return { rows, inputs, targets };
    };
    return r;
  };

  // ids -> Int32Array (pairs * 2) of (center, context) within `window` positions.
  M.skipgramPairs = (ids, window) => check(M._skipgramPairs(toIds(ids, 'skipgramPairs', 2147483647), Number(window)));

  // {encoding = 'gpt2', reps = 7} -> {mb_per_s, median_ms, tokens, ...} for text (fresh tokenizer per rep).
  M.benchTokenize = (t, o) => {
    o = o || {};
    return check(M._benchTokenize(text(t, 'benchTokenize'), o.encoding ?? 'gpt2', o.reps ?? 7));
  };
})(Module);

// ---- training: word2vec and the next-token model, stepped from the worker -----------------
//   const tok = M.Tokenizer.fromCorpus('whitespace', text, { lowercase: true });
//   const tr = M.Trainer.word2vec(ids, sentenceStarts, { sg: true, seed: 1, counts: tok.counts() });
//   const tr = M.Trainer.nextToken(ids, { vocabSize: tok.vocabSize, pos: 'rope', seed: 1 });
//   tr.step(10);        // {loss, lastLoss, steps, totalSteps, tokens, rawTokens, elapsedMs,
//                       //  tokensPerSecond, rawTokensPerSecond, learningRate, finished}
//   tr.table('input');  // {rows, cols, data: Float32Array copy}
//   tr.settings;        // the settings in effect, defaults filled in
//   tr.reset();  tr.delete();
// A diverging run throws "train: loss became nan at step 37 with learning rate 10; lower the learning rate".
(function (M) {
  'use strict';
  const { check, toIds, integer, describe } = M._api;

  const WORD2VEC_KEYS = ['sg', 'vectorSize', 'window', 'negative', 'minCount', 'sample', 'alpha', 'minAlpha',
    'epochs', 'cbowMean', 'batchWords', 'seed', 'counts'];
  const NEXT_TOKEN_KEYS = ['vocabSize', 'vectorSize', 'context', 'pos', 'scale', 'tie', 'alibiSlope', 'seed',
    'batchSize', 'stride', 'optimizer', 'lr', 'weightDecay'];
  const INTEGER_KEYS = new Set(['vectorSize', 'window', 'negative', 'minCount', 'epochs', 'batchWords', 'seed',
    'vocabSize', 'context', 'batchSize', 'stride']);

  // Checks option names and types; numbers stay numbers (NaN included: C++ names the bad value).
  function options(opts, keys, where) {
    opts = opts || {};
    const out = {};
    for (const [k, v] of Object.entries(opts)) {
      if (!keys.includes(k)) throw new Error(`${where}: unknown option '${k}', expected ${keys.join(', ')}`);
      if (v === undefined || k === 'counts') continue;
      if (k === 'pos' || k === 'optimizer') {
        if (typeof v !== 'string') throw new Error(`${where}: ${k} must be a string, got ${describe(v)}`);
      } else if (['sg', 'cbowMean', 'scale', 'tie'].includes(k)) {
        if (typeof v !== 'boolean') throw new Error(`${where}: ${k} must be true or false, got ${describe(v)}`);
      } else if (typeof v !== 'number') {
        throw new Error(`${where}: ${k} must be a number, got ${describe(v)}`);
      } else if (INTEGER_KEYS.has(k)) {
        integer(v, where, k, k === 'seed' ? 0 : -2147483648, k === 'seed' ? Number.MAX_SAFE_INTEGER : 2147483647);
      }
      out[k] = v;
    }
    return out;
  }

  class Trainer {
    constructor(init) {
      this._h = new M._Trainer();
      const ok = init(this._h);
      const message = M._takeError();
      if (!ok || message) {
        this._h.delete();
        this._h = null;
        throw new Error(message || 'Trainer: construction failed');
      }
      this._settings = check(this._h.settings());
    }
    // ids: all sentences' ids concatenated; sentenceStarts: S+1 offsets (sentence k is
    // ids[starts[k], starts[k+1])). Options as gensim's Word2Vec, camelCased: sg (false: CBOW),
    // vectorSize 100, window 5, negative 5, minCount 5, sample 1e-3, alpha 0.025, minAlpha 1e-4,
    // epochs 5, cbowMean true, batchWords 10000, seed 1; counts: per-id corpus counts
    // (Tokenizer.counts()), else counted from ids. One step = one gensim job (<= batchWords words).
    static word2vec(ids, sentenceStarts, opts) {
      const o = options(opts, WORD2VEC_KEYS, 'Trainer.word2vec');
      const v = toIds(ids, 'Trainer.word2vec', 2147483647);
      if (sentenceStarts == null || typeof sentenceStarts.length !== 'number') {
        throw new Error(`Trainer.word2vec: sentenceStarts must be an array of offsets, got ${describe(sentenceStarts)}`);
      }
      const starts = Float64Array.from(sentenceStarts);
      const counts = opts && opts.counts ? Float64Array.from(opts.counts) : new Float64Array(0);
      return new Trainer((h) => h.initWord2Vec(v, starts, counts, o));
    }
    // ids: the training stream. Options: vocabSize (required), vectorSize 64, context 32,
    // batchSize 16, stride (= context), pos 'none'|'learned'|'sinusoidal'|'rope'|'alibi' ('learned'),
    // scale false (sqrt(D) on token rows), tie false (head = token table), alibiSlope 0.5, optimizer
    // 'sgd'|'adam'|'adamw' ('adam'), lr (0.1 for sgd, else 1e-3), weightDecay (0.01 for adamw, else 0), seed 1.
    static nextToken(ids, opts) {
      const o = options(opts, NEXT_TOKEN_KEYS, 'Trainer.nextToken');
      if (o.vocabSize === undefined) throw new Error('Trainer.nextToken: the vocabSize option is required');
      const v = toIds(ids, 'Trainer.nextToken', o.vocabSize);
      return new Trainer((h) => h.initNextToken(v, o));
    }
    _live(where) {
      if (!this._h) throw new Error(`${where}: this Trainer was deleted`);
      return this._h;
    }
    get settings() { return Object.assign({}, this._settings); }
    // Runs n steps (default 1) and returns their statistics.
    step(n) {
      integer(n ?? 1, 'Trainer.step', 'n', 0, 2147483647);
      return check(this._live('step').step(n ?? 1));
    }
    reset() { check(this._live('reset').reset()); }
    // 'input' | 'output' | 'position' (next-token) -> {rows, cols, data: Float32Array}
    table(name) { return check(this._live('table').table(String(name ?? 'input'))); }
    // word2vec: Int32Array of the token id of each table row; next-token: null (row = id).
    vocabIds() { return check(this._live('vocabIds').vocabIds()) ?? null; }
    // next-token: mean loss over the non-overlapping windows of ids (forward only).
    evaluate(ids) {
      const h = this._live('evaluate');
      return check(h.evaluate(toIds(ids, 'Trainer.evaluate', this._settings.vocabSize ?? 2147483647)));
    }
    delete() {
      if (this._h) this._h.delete();
      this._h = null;
    }
  }
  M.Trainer = Trainer;

  M.benchNextToken = (o) => {
    o = o || {};
    return check(M._benchNextToken(o.vocabSize ?? 5000, o.vectorSize ?? 64, o.context ?? 32, o.batchSize ?? 256,
      o.steps ?? 5, o.optimizer ?? 'adam', o.pos ?? 'learned'));
  };
  // word2vec with gensim's defaults over (ids, sentenceStarts, counts): {effective_words_per_s, ...}
  M.benchWord2Vec = (ids, sentenceStarts, counts, sg = true) =>
    check(M._benchWord2Vec(toIds(ids, 'benchWord2Vec', 2147483647), Float64Array.from(sentenceStarts),
      counts ? Float64Array.from(counts) : new Float64Array(0), !!sg));
})(Module);

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
