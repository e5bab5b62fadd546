// Part of the public JS API (see embed.post.js for the conventions); uses the helpers in M._api.
// ---- training: word2vec and the next-token model, stepped from the worker -----------------
//   const tok = M.Tokenizer.fromCorpus('whitespace', text, { lowercase: true });
//   const tr = M.Trainer.word2vec(ids, sentenceStarts, { sg: true, seed: 1, counts: tok.counts() });
//   const tr = M.Trainer.nextToken(ids, { vocabSize: tok.vocabSize, pos: 'rope', seed: 1 });
//   tr.step(10);        // {loss, lastLoss, steps, totalSteps, tokens, rawTokens, elapsedMs,
//                       //  tokensPerSecond, rawTokensPerSecond, learningRate, finished}
//   tr.table('input');  // {rows, cols, data: Float32Array copy}
//   tr.settings;        // the settings in effect, defaults filled in
//   const saved = tr.saveState();   // Uint8Array: tables, optimizer state, batch position
//   tr2.loadState(saved);           // a trainer of the same settings and data continues from there
//   tr.startFinetune(64);  tr.step(50);  // next-token: 50 more steps at context 64
//   tr.phase();                     // {context: 64, finetune: {context: 64, step: <where it began>}}
//   tr.reset();  tr.delete();
//   M.Trainer.nextToken(ids, {vocabSize, tokenizer: tok, rowIds}) also saves the tokenizer, and
//   M.generate(tr.saveState(), {prompt, tokens, temperature, seed}) -> {text, ids} samples from it.
// A diverging run throws "train: loss became nan at step 37 with learning rate 10; lower the learning rate".
(function (M) {
  'use strict';
  const { check, takeError, toIds, toDoubles, toBytes, integer, describe, fromUtf8, toUtf8 } = M._api;

  const WORD2VEC_KEYS = ['sg', 'vectorSize', 'window', 'negative', 'minCount', 'sample', 'alpha', 'minAlpha',
    'epochs', 'cbowMean', 'batchWords', 'seed', 'counts'];
  const NEXT_TOKEN_KEYS = ['vocabSize', 'vectorSize', 'context', 'pos', 'posParams', 'scale', 'tie', 'seed',
    'batchSize', 'stride', 'optimizer', 'lr', 'weightDecay', 'tokenizer', 'rowIds'];
  // The flat option of every positional parameter (ropeBase, ...): option -> {kind, name}.
  let flatPositionOptions = null;
  function positionOptions() {
    if (!flatPositionOptions) {
      flatPositionOptions = new Map();
      for (const k of M.positionalKinds()) for (const p of k.params) flatPositionOptions.set(p.option, { kind: k.name, name: p.name });
    }
    return flatPositionOptions;
  }
  // opts -> {pos, posParams} with the flat options of the chosen kind folded into posParams;
  // a flat option of another kind is an error naming both.
  function positionParams(opts, where) {
    const pos = opts.pos ?? 'learned';
    const params = {};
    if (opts.posParams != null) {
      if (typeof opts.posParams !== 'object') throw new Error(`${where}: posParams must be an object, got ${describe(opts.posParams)}`);
      Object.assign(params, opts.posParams);
    }
    for (const [option, p] of positionOptions()) {
      if (opts[option] === undefined) continue;
      if (p.kind !== pos) throw new Error(`${where}: ${option} applies to pos '${p.kind}', not '${pos}'`);
      if (typeof opts[option] !== 'number') throw new Error(`${where}: ${option} must be a number, got ${describe(opts[option])}`);
      params[p.name] = opts[option];
    }
    return params;
  }
  const INTEGER_KEYS = new Set(['vectorSize', 'window', 'negative', 'minCount', 'epochs', 'batchWords', 'seed',
    'vocabSize', 'context', 'batchSize', 'stride']);

  // Checks option names and types; numbers stay numbers (NaN included: C++ names the bad value).
  function options(opts, keys, where) {
    opts = opts || {};
    const out = {};
    const flat = keys === NEXT_TOKEN_KEYS ? positionOptions() : new Map();
    for (const [k, v] of Object.entries(opts)) {
      if (flat.has(k)) continue; // folded into posParams by positionParams()
      if (!keys.includes(k)) throw new Error(`${where}: unknown option '${k}', expected ${[...keys, ...flat.keys()].join(', ')}`);
      if (v === undefined || k === 'counts' || k === 'posParams' || k === 'tokenizer' || k === 'rowIds') continue;
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
      this._h = M._api.made(new M._Trainer(), init, 'Trainer: construction failed');
      try {
        this._settings = check(this._h.settings());
      } catch (err) { // nothing half-made stays behind
        this.delete();
        throw err;
      }
      if (this._settings.pos instanceof Uint8Array) this._settings.pos = M._api.fromUtf8(this._settings.pos);
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
      // (numbers only: C++ checks each is an integer; null, '3' or true are not offsets)
      const starts = toDoubles(sentenceStarts, 'Trainer.word2vec', 'sentenceStarts');
      const counts = opts && opts.counts ? toDoubles(opts.counts, 'Trainer.word2vec', 'counts') : new Float64Array(0);
      return new Trainer((h) => h.initWord2Vec(v, starts, counts, o));
    }
    // ids: the training stream. Options: vocabSize (required), vectorSize 64, context 32,
    // batchSize 16, stride (= context), pos: a name of M.positionalKinds() ('learned'), posParams
    // {name: value} of that kind (or its flat options, e.g. ropeBase), scale false
    // (sqrt(D) on token rows), tie false (head = token table), optimizer 'sgd'|'adam'|'adamw'
    // ('adam'), lr (0.1 for sgd, else 1e-3), weightDecay (0.01 for adamw, else 0), seed 1.
    static nextToken(ids, opts) {
      const o = options(opts, NEXT_TOKEN_KEYS, 'Trainer.nextToken');
      o.posParams = positionParams(opts || {}, 'Trainer.nextToken');
      if (o.vocabSize === undefined) throw new Error('Trainer.nextToken: the vocabSize option is required');
      const v = toIds(ids, 'Trainer.nextToken', o.vocabSize);
      // the tokenizer (and the token id of each row) go into saveState(), for M.generate
      const tok = opts.tokenizer;
      if (tok !== undefined && !(tok instanceof M.Tokenizer)) throw new Error(`Trainer.nextToken: tokenizer must be a Tokenizer, got ${describe(tok)}`);
      if (opts.rowIds !== undefined && tok === undefined) throw new Error('Trainer.nextToken: rowIds needs the tokenizer option');
      const saved = tok ? check(tok._live('Trainer.nextToken').save()) : null;
      const rows = saved && opts.rowIds !== undefined ? toIds(opts.rowIds, 'Trainer.nextToken', 2147483647) : new Int32Array(0);
      return new Trainer((h) => h.initNextToken(v, o) && (!saved || h.setTokens(saved.kind, saved.data, rows)));
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
    // Steps taken since the start (or reset) of the run, loaded checkpoints included.
    stepsDone() { return check(this._live('stepsDone').stepsDone()); }
    // The whole run (tables, optimizer moments, batch position, generator) as checkpoint bytes
    // (src/train/checkpoint.hpp; the same bytes as `embedlab train --save-state`).
    saveState() { return check(this._live('saveState').saveState()); }
    // Continues from saveState() bytes of a trainer made with the same settings and data:
    // later steps give the tables the saved run would have, bit for bit. Other settings or
    // another text throw naming the difference ("checkpoint: saved with lr=0.01, this run has
    // lr=0.001"); the trainer is unchanged then. -> the step the run is at.
    loadState(bytes) {
      const b = toBytes(bytes);
      if (!b) throw new Error(`Trainer.loadState: bytes must be a Uint8Array, got ${describe(bytes)}`);
      check(this._live('loadState').loadState(b));
      return this.stepsDone();
    }
    // 'input' | 'output' | 'position' (next-token) -> {rows, cols, data: Float32Array}
    table(name) {
      const n = name ?? 'input';
      if (typeof n !== 'string') throw new Error(`Trainer.table: name must be 'input', 'output' or 'position', got ${describe(n)}`);
      return check(this._live('table').table(n));
    }
    // word2vec: Int32Array of the token id of each table row; next-token: null (row = id).
    vocabIds() { return check(this._live('vocabIds').vocabIds()) ?? null; }
    // next-token: mean loss over the non-overlapping windows of ids (forward only).
    evaluate(ids) {
      this._live('evaluate');
      // the ids first (the caller's getters may run), then the handle (see Embedding)
      const v = toIds(ids, 'Trainer.evaluate', this._settings.vocabSize ?? 2147483647);
      return check(this._live('evaluate').evaluate(v));
    }
    // next-token, length extrapolation: the trained model on windows of `length` positions ->
    // {loss, length, at, attention: Float32Array (length), the weights of position `at` (default
    // the last) in the first window}. A kind without rows past the context throws
    // "next-token evaluate: learned positions have no rows beyond T = 32 (asked for 64)".
    evaluateAt(ids, { length, at = -1 } = {}) {
      this._live('evaluateAt');
      const L = integer(length, 'Trainer.evaluateAt', 'length', 1, 2147483647);
      const a = integer(at, 'Trainer.evaluateAt', 'at', -1, 2147483647);
      const v = toIds(ids, 'Trainer.evaluateAt', this._settings.vocabSize ?? 2147483647);
      return check(this._live('evaluateAt').evaluateAt(v, L, a));
    }
    // next-token: continue the run at a longer context (the extrapolation lesson; position
    // interpolation is meant to be used with such a fine-tune). The parameters, the optimizer
    // state and the batch stream carry on, on windows of `context` positions; later step()s train
    // there, evaluate() runs there, saveState() records it and loadState() restores it. Throws,
    // leaving the run as it was, for a context that is not longer ("next-token fine-tune: context
    // 16 must be > the training context 32"), for learned positions (no rows past T), a second
    // fine-tune, or buffers over the memory limit. reset() returns to the training context.
    startFinetune(context) {
      const T = integer(context, 'Trainer.startFinetune', 'context', 1, 2147483647);
      check(this._live('startFinetune').startFinetune(T));
    }
    // next-token -> {context: the length of the windows trained now, finetune: null before
    // startFinetune, else {context, step: the step it began at}}
    phase() { return check(this._live('phase').phase()); }
    delete() {
      if (this._h) this._h.delete();
      this._h = null;
    }
  }
  M.Trainer = Trainer;

  // Text sampled from a next-token checkpoint (Trainer.saveState() of a trainer given its
  // tokenizer, or `embedlab train --model next-token --save-state` bytes), as `embedlab generate`:
  //   M.generate(state, {prompt: 'ROMEO:', tokens: 100, temperature: 1, seed: 1})
  //     -> {text: the continuation of the prompt, ids: Int32Array of the generated token ids}
  // temperature 0 takes the most likely token; the same state, prompt and seed give the same text
  // as the CLI (src/train/generate.hpp).
  const GENERATE_KEYS = ['prompt', 'tokens', 'temperature', 'seed'];
  M.generate = (state, opts) => {
    const where = 'generate';
    const stateBytes = toBytes(state);
    if (!stateBytes) throw new Error(`${where}: state must be a Uint8Array (checkpoint bytes), got ${describe(state)}`);
    opts = opts || {};
    for (const k of Object.keys(opts)) if (!GENERATE_KEYS.includes(k)) throw new Error(`${where}: unknown option '${k}', expected ${GENERATE_KEYS.join(', ')}`);
    // subtle: no destructuring declaration here: Emscripten 3.1.6's JS optimizer drops it from a --post-js
    const prompt = opts.prompt;
    const tokens = opts.tokens ?? 100;
    const temperature = opts.temperature ?? 1;
    const seed = opts.seed ?? 1;
    if (typeof prompt !== 'string') throw new Error(`${where}: prompt must be a string, got ${describe(prompt)}`);
    if (typeof temperature !== 'number') throw new Error(`${where}: temperature must be a number, got ${describe(temperature)}`);
    integer(tokens, where, 'tokens', 0, 4096);
    integer(seed, where, 'seed', 0, Number.MAX_SAFE_INTEGER);
    const r = check(M._generate(stateBytes, toUtf8(prompt), tokens, temperature, seed));
    return { text: fromUtf8(r.text), ids: r.ids };
  };

  // The rows of a next-token run (src/train/run_tokens.hpp run_rows, the CLI's step):
  //   M.nextTokenRows(ids, tok)                      // gpt2: the ids that occur, remapped in id order
  //   M.nextTokenRows(ids, tok, {fullVocab: true})   // every id of the tokenizer (row r = id r)
  //     -> {ids: Int32Array (model rows), rowIds: Int32Array (row -> token id), remapped}
  //   M.nextTokenRows([5, 9, 5], M.Tokenizer.gpt2()) -> {ids: [0, 1, 0], rowIds: [5, 9], remapped: true}
  // Give Trainer.nextToken {vocabSize: rowIds.length, tokenizer: tok, rowIds} when remapped.
  M.nextTokenRows = (ids, tok, opts) => {
    const where = 'nextTokenRows';
    if (!(tok instanceof M.Tokenizer)) throw new Error(`${where}: tokenizer must be a Tokenizer, got ${describe(tok)}`);
    opts = opts || {};
    for (const k of Object.keys(opts)) if (k !== 'fullVocab') throw new Error(`${where}: unknown option '${k}', expected fullVocab`);
    const V = tok.vocabSize;
    const kind = tok.kind;
    return check(M._nextTokenRows(toIds(ids, where, V), kind, V, opts.fullVocab ? 'all' : 'default'));
  };

  M.benchNextToken = (o) => {
    o = o || {};
    const where = 'benchNextToken';
    const n = (key, fallback) => integer(o[key] ?? fallback, where, key, 1, 2147483647);
    const s = (key, fallback) => {
      const v = o[key] ?? fallback;
      if (typeof v !== 'string') throw new Error(`${where}: ${key} must be a string, got ${describe(v)}`);
      return v;
    };
    return check(M._benchNextToken(n('vocabSize', 5000), n('vectorSize', 64), n('context', 32), n('batchSize', 256),
      n('steps', 5), s('optimizer', 'adam'), s('pos', 'learned')));
  };
  // word2vec with gensim's defaults over (ids, sentenceStarts, counts): {effective_words_per_s, ...}
  M.benchWord2Vec = (ids, sentenceStarts, counts, sg = true) =>
    check(M._benchWord2Vec(toIds(ids, 'benchWord2Vec', 2147483647), toDoubles(sentenceStarts, 'benchWord2Vec', 'sentenceStarts'),
      counts ? toDoubles(counts, 'benchWord2Vec', 'counts') : new Float64Array(0), M._api.flag(sg, 'benchWord2Vec', 'sg', true)));
})(Module);
