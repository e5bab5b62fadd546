// Part of the public JS API (see embed.post.js for the conventions); uses the helpers in M._api.
// ---- tokenizers, sliding windows, BPE training ---------------------------------------------
//   const tok = M.Tokenizer.gpt2();                 // or fromCorpus('word', text, {lowercase}) / fromBpe(file)
//   M.Tokenizer.make('bpe', text, { vocabSize: 300 });   // any kind, one engine factory
//   M.sentences(tok, text);                         // {ids, sentenceStarts}: word2vec's sentences
//   const ids = tok.encode('Hello world');          // Int32Array [15496, 995]
//   tok.decode(ids);                                // 'Hello world'
//   const ds = M.slidingWindows(ids, { maxLength: 4, stride: 4, batchSize: 4 });
//   ds.batch(0);                                    // {rows, inputs: Int32Array(rows*4), targets}
//   ds.samples(5, 2, 3);                            // samples 5, 6: their first 3 ids (a viewer's slice)
//   const tr = new M.BpeTrainer(text, 512);  tr.step(10);  // [{left, right, id, count, token}]
// Text goes to C++ as UTF-8 bytes and comes back as bytes decoded here (see embed.post.js), so
// every string, a leading U+FEFF included, survives exactly; Uint8Array inputs are raw bytes.
(function (M) {
  'use strict';
  const { check, takeError, toIds, toBytes, integer, flag, describe, fromUtf8, toUtf8 } = M._api;
  const int32 = (v, where, name) => integer(v, where, name, -2147483648, 2147483647);
  const name = (v, where, what) => {
    if (typeof v !== 'string') throw new Error(`${where}: ${what} must be a string, got ${describe(v)}`);
    return v;
  };

  // Text goes into wasm as UTF-8 bytes (a Uint8Array), exactly: a string is encoded with
  // TextEncoder, which turns a lone surrogate into U+FFFD as tiktoken sees it; a Uint8Array
  // is taken as the bytes themselves.
  function text(t, where) {
    if (typeof t === 'string') return toUtf8(t);
    const bytes = toBytes(t);  // a subclass is copied through the intrinsics
    if (bytes) return bytes;
    throw new Error(`${where}: text must be a string or a Uint8Array, got ${describe(t)}`);
  }
  function knownKeys(opts, keys, where) {
    for (const k of Object.keys(opts)) {
      if (!keys.includes(k)) throw new Error(`${where}: unknown option '${k}', expected ${keys.join(', ')}`);
    }
  }

  class Tokenizer {
    constructor(init) {
      this._h = M._api.made(new M._Tokenizer(), init, 'Tokenizer: construction failed');
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
      const k = name(kind, 'Tokenizer.fromCorpus', 'kind');
      const lower = flag(opts.lowercase, 'Tokenizer.fromCorpus', 'lowercase', false);
      return new Tokenizer((h) => h.initCorpus(k, t, lower, minCount, maxSize));
    }
    // A trained BPE from the text of a merge file (BpeTrainer.save()).
    static fromBpe(file) { return new Tokenizer((h) => h.initBpe(text(file, 'Tokenizer.fromBpe'))); }
    // Any kind through the engine's one factory (src/tokenizer/tokenizer_kinds.hpp):
    // 'gpt2'; 'whitespace' | 'word' | 'char' built from corpus with {lowercase, minCount, maxSize};
    // 'bpe' from {merges: a merge file's text} or trained on corpus to {vocabSize} ids.
    // Options that do not apply to the kind are errors ("tokenizer: ... not gpt2").
    static make(kind, corpus, opts) {
      const where = 'Tokenizer.make';
      opts = opts || {};
      knownKeys(opts, ['lowercase', 'minCount', 'maxSize', 'vocabSize', 'merges'], where);
      const o = {};
      if (opts.lowercase != null) o.lowercase = flag(opts.lowercase, where, 'lowercase', false);
      if (opts.minCount != null) o.minCount = integer(opts.minCount, where, 'minCount', 1, 2147483647);
      if (opts.maxSize != null) o.maxSize = integer(opts.maxSize, where, 'maxSize', 0, 2147483647);
      if (opts.vocabSize != null) o.vocabSize = integer(opts.vocabSize, where, 'vocabSize', -2147483648, 2147483647);
      const merges = opts.merges == null ? undefined : text(opts.merges, where);
      const c = corpus == null ? new Uint8Array(0) : text(corpus, where);
      const k = name(kind, where, 'kind');
      return new Tokenizer((h) => h.init(k, c, merges, o));
    }
    _live(where) {
      if (!this._h) throw new Error(`${where}: this Tokenizer was deleted`);
      return this._h;
    }
    get kind() { return this._live('kind').kind(); }
    get vocabSize() { return this._live('vocabSize').vocabSize(); }
    // text -> Int32Array of ids; {allowSpecial: true} makes '<|endoftext|>' 50256 (gpt2 only).
    // (each method reads its arguments before it takes the handle: see Embedding)
    encode(t, opts) {
      const bytes = text(t, 'encode'), special = flag(opts && opts.allowSpecial, 'encode', 'allowSpecial', false);
      return check(this._live('encode').encode(bytes, special));
    }
    // ids -> string (invalid UTF-8 replaced by U+FFFD).
    decode(ids) {
      const v = toIds(ids, 'decode', this._live('decode').vocabSize());
      return fromUtf8(check(this._live('decode').decode(v)));
    }
    // id -> Uint8Array: the token's raw bytes.
    tokenBytes(id) {
      const i = int32(id, 'tokenBytes', 'id');
      return check(this._live('tokenBytes').tokenBytes(i));
    }
    tokenString(id) { return this.tokenStrings([id])[0]; }
    // ids -> display strings, one per id (C++ sends them as one byte buffer and their ends).
    tokenStrings(ids) {
      const v = toIds(ids, 'tokenStrings', this._live('tokenStrings').vocabSize());
      const { bytes, ends } = check(this._live('tokenStrings').tokenStrings(v));
      const out = new Array(ends.length);
      for (let k = 0, start = 0; k < ends.length; start = ends[k], k++) out[k] = fromUtf8(bytes.subarray(start, ends[k]));
      return out;
    }
    // word2vec's sentences of a text (src/data/sentences.hpp: one per line, CRLF read as LF,
    // blank lines skipped) -> {ids: Int32Array (n), sentenceStarts: Float64Array (S+1)}.
    sentences(t) {
      const bytes = text(t, 'sentences');
      return check(this._live('sentences').sentences(bytes));
    }
    // Float64Array (vocabSize) of corpus counts for word/char vocabularies; null for BPE kinds.
    counts() { return check(this._live('counts').counts()) ?? null; }
    delete() {
      if (this._h) this._h.delete();
      this._h = null;
    }
  }
  M.Tokenizer = Tokenizer;
  // M.sentences(tokenizer, text): the same as tokenizer.sentences(text).
  M.sentences = function sentences(tokenizer, t) {
    if (!(tokenizer instanceof Tokenizer)) throw new Error(`sentences: tokenizer must be an M.Tokenizer, got ${describe(tokenizer)}`);
    return tokenizer.sentences(t);
  };

  class BpeTrainer {
    // new BpeTrainer(text, vocabSize >= 256): byte-level BPE over GPT-2 pre-tokenized pieces.
    constructor(corpus, vocabSize) {
      const t = text(corpus, 'BpeTrainer');
      const v = int32(vocabSize, 'BpeTrainer', 'vocabSize');
      this._h = M._api.made(new M._BpeTrainer(), (raw) => raw.init(t, v), 'BpeTrainer: construction failed');
    }
    _live(where) {
      if (!this._h) throw new Error(`${where}: this BpeTrainer was deleted`);
      return this._h;
    }
    // Up to n merges (default 1) -> [{left, right, id, count, token, tokens}]; [] when done.
    // count: occurrences of the pair when merged; tokens: the training text's token count after it.
    step(n) {
      const k = integer(n ?? 1, 'BpeTrainer.step', 'n', 0, 2147483647);
      const merges = check(this._live('step').step(k));
      for (const m of merges) m.token = fromUtf8(m.token);
      return merges;
    }
    get done() { return this._live('done').done(); }
    get vocabSize() { return this._live('vocabSize').vocabSize(); }
    get tokenCount() { return this._live('tokenCount').tokenCount(); }
    // The merge file text (see src/tokenizer/bpe.hpp for the format).
    save() { return fromUtf8(check(this._live('save').save())); }
    tokenizer() { return Tokenizer.fromBpe(this.save()); }
    delete() {
      if (this._h) this._h.delete();
      this._h = null;
    }
  }
  M.BpeTrainer = BpeTrainer;

  // LLMs-from-scratch create_dataloader_v1 over ids: {numSamples, numBatches, inputTokens,
  // starts (Int32Array, batch order), batch(b) -> {rows, inputs, targets},
  // samples(first, count, maxIds = maxLength) -> {rows, starts, inputs, targets}}; the engine
  // (src/data/windows.hpp) cuts every batch and sample.
  M.slidingWindows = function slidingWindows(ids, opts) {
    opts = opts || {};
    knownKeys(opts, ['maxLength', 'stride', 'batchSize', 'shuffle', 'seed', 'dropLast'], 'slidingWindows');
    const v = toIds(ids, 'slidingWindows', 2147483647);
    const L = integer(opts.maxLength ?? 256, 'slidingWindows', 'maxLength', -2147483648, 2147483647);
    const S = integer(opts.stride ?? 128, 'slidingWindows', 'stride', -2147483648, 2147483647);
    const B = integer(opts.batchSize ?? 4, 'slidingWindows', 'batchSize', -2147483648, 2147483647);
    const seed = integer(opts.seed ?? 0, 'slidingWindows', 'seed', 0, Number.MAX_SAFE_INTEGER);
    const shuffle = flag(opts.shuffle, 'slidingWindows', 'shuffle', false);
    const dropLast = flag(opts.dropLast, 'slidingWindows', 'dropLast', true);
    const r = check(M._slidingWindows(v, L, S, B, shuffle, seed, dropLast));
    r.maxLength = L;
    r.batchSize = B;
    r.samples = (first, count, maxIds) => {
      const where = 'slidingWindows.samples';
      integer(first, where, 'first', 0, 2147483647);
      integer(count, where, 'count', 0, 2147483647);
      integer(maxIds ?? L, where, 'maxIds', 1, 2147483647);
      return check(M._windowSamples(v, L, S, B, shuffle, seed, dropLast, first, count, maxIds ?? L));
    };
    r.batch = (b) => {
      integer(b, 'slidingWindows batch', 'batch index', 0, r.numBatches - 1);
      const { rows, inputs, targets } = r.samples(b * B, B, L);
      return { rows, inputs, targets };
    };
    return r;
  };

  // ids -> Int32Array (pairs * 2) of (center, context) within `window` positions.
  M.skipgramPairs = (ids, window) =>
    check(M._skipgramPairs(toIds(ids, 'skipgramPairs', 2147483647), int32(window, 'skipgramPairs', 'window')));

  // {encoding = 'gpt2', reps = 7} -> {mb_per_s, median_ms, tokens, ...} for text (fresh tokenizer per rep).
  M.benchTokenize = (t, o) => {
    o = o || {};
    return check(M._benchTokenize(text(t, 'benchTokenize'), name(o.encoding ?? 'gpt2', 'benchTokenize', 'encoding'),
      integer(o.reps ?? 7, 'benchTokenize', 'reps', 1, 1000)));
  };
})(Module);
