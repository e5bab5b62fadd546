// Worker-side handlers for the text pipeline (issue 3): corpus text -> tokenizer -> ids ->
// sliding windows, and step-by-step BPE training. The text and the ids stay in the worker;
// the page asks for slices (a few hundred tokens at a time), so a 1 MB corpus never crosses
// to the main thread as 300k strings.
//
//   setText   {text}                                   -> {chars, bytes}           (custom text)
//   tokenize  {corpus, enc, lower, bpeV}                -> {enc, vocabSize, tokens, chars, words, bytes, distinct, ms, mbPerS}
//   tokenSlice {start, count}                          -> {start, total, ids (n), strings [n], bytes (flat), offsets (n+1)}
//   windows   {L, stride, B, first, count}             -> {numSamples, numBatches, inputTokens, tokens,
//                                                          windows: [{index, start, inputs, targets}], strings {id: text}}
//                                                          (at most 64 windows, each with its first min(L, 64) ids)
//   bpeReset  {corpus, bpeV, seed}                     -> bpe state (below);  bpeStep {n, seed} -> bpe state
//      bpe state: {vocabSize, merges: [{left, right, id, count, token}] (all so far), done,
//                  grid: nn.Embedding(vocabSize, 16) drawn from seed, for the growing table}
//
// loadCorpus(name) -> Promise<string> is injected (fetch in the worker, fs in Node tests).
// Tokenizers come from the engine's factory (M.Tokenizer.make): 'gpt2' (tiktoken gpt2 ids),
// 'whitespace' | 'word' | 'char' (vocabularies built from the same text, specials <pad> <unk>
// <sos> <eos> first), 'bpe' (trained on the text up to bpeV ids). Windows are cut by the engine
// (M.slidingWindows(...).samples), as for the CLI's windows command.
//
// Engine calls name the payload arguments they depend on (blame, protocol.js), so a failure
// ("windows: stride must be >= 1, got 0", a size the engine refuses) lands on that field.
import { strideSample } from '../arrays.js';
import { blame } from '../protocol.js';

const CORPORA = ['the-verdict', 'tinyshakespeare'];
const BPE_TABLE_DIM = 16;
const MAX_WINDOWS = 64; // windows per 'windows' reply
const MAX_WINDOW_IDS = 64; // ids sent per window (max_length may be 10^6): the strip shows 36 columns

// -> {handlers (request type -> function), ensureTokens (for the training handlers)}
export function makeTextPipeline(M, loadCorpus) {
  const texts = new Map(); // corpus name -> string ('custom' from setText)
  let current = null; // {key, tok, ids, enc}
  let bpe = null; // {trainer, merges, key}

  async function corpusText(name) {
    if (texts.has(name)) return texts.get(name);
    if (name === 'custom') throw new Error('text: no custom text yet; paste or upload some first');
    if (!CORPORA.includes(name)) throw new Error(`text: unknown corpus '${name}', expected ${CORPORA.join(', ')} or custom`);
    const t = await loadCorpus(name);
    texts.set(name, t);
    return t;
  }

  // The engine's one tokenizer factory (M.Tokenizer.make); lower applies to the vocabulary
  // kinds, bpeV to BPE trained on the text.
  function makeTokenizer(enc, text, lower, bpeV) {
    if (enc === 'bpe') return M.Tokenizer.make('bpe', text, { vocabSize: bpeV });
    if (enc === 'gpt2') return M.Tokenizer.make('gpt2');
    return M.Tokenizer.make(enc, text, { lowercase: !!lower });
  }

  function setText({ text }) {
    if (typeof text !== 'string') throw new Error('text: expected a string');
    texts.set('custom', text);
    if (current && current.key.startsWith('custom|')) current = null;
    return { chars: text.length, bytes: new TextEncoder().encode(text).length };
  }

  // {corpus, enc, lower, bpeV} -> {key, tok, ids, enc, text}, cached for the same settings.
  async function ensureTokens({ corpus, enc, lower, bpeV }) {
    const text = await blame(['corpus'], () => corpusText(corpus));
    const key = `${corpus}|${enc}|${enc === 'bpe' ? bpeV : ''}|${lower && enc !== 'gpt2' && enc !== 'bpe' ? 1 : 0}|${text.length}`;
    if (!current || current.key !== key) {
      const tok = blame(enc === 'bpe' ? ['bpeV', 'corpus'] : ['enc', 'corpus', 'lower'], () => makeTokenizer(enc, text, lower, bpeV));
      let ids;
      try {
        ids = blame(['corpus', 'enc'], () => tok.encode(text)); // a lowercase vocabulary lowercases on encode too
      } catch (err) {
        tok.delete();
        throw err;
      }
      if (current) current.tok.delete();
      current = { key, tok, ids, enc, text };
    }
    return current;
  }

  async function tokenize(p) {
    const t0 = performance.now();
    const { text } = await ensureTokens(p);
    const { enc } = p;
    const ms = performance.now() - t0;
    const bytes = new TextEncoder().encode(text).length;
    const seen = new Uint8Array(current.tok.vocabSize);
    let distinct = 0;
    for (const id of current.ids) if (!seen[id]) (seen[id] = 1), distinct++;
    const words = text.split(/\s+/).filter(Boolean).length;
    return {
      enc, vocabSize: current.tok.vocabSize, tokens: current.ids.length, chars: [...text].length, words, bytes, distinct,
      ms, mbPerS: ms > 0 ? bytes / 1e6 / (ms / 1000) : null,
    };
  }

  function live(where) {
    if (!current) throw new Error(`${where}: tokenize a text first`);
    return current;
  }

  function tokenSlice({ start, count }) {
    const c = live('tokenSlice');
    const s = Math.max(0, Math.min(start | 0, Math.max(0, c.ids.length - 1)));
    const ids = c.ids.slice(s, s + Math.max(0, count | 0));
    const strings = ids.length ? c.tok.tokenStrings(ids) : [];
    const pieces = Array.from(ids, (id) => c.tok.tokenBytes(id));
    const offsets = new Int32Array(ids.length + 1);
    pieces.forEach((p, i) => (offsets[i + 1] = offsets[i] + p.length));
    const bytes = new Uint8Array(offsets[ids.length]);
    pieces.forEach((p, i) => bytes.set(p, offsets[i]));
    return { start: s, total: c.ids.length, ids, strings, bytes, offsets };
  }

  function windows({ L, stride, B, first = 0, count = 8 }) {
    const c = live('windows');
    const ds = blame(['L', 'stride', 'B'], () => M.slidingWindows(c.ids, { maxLength: L, stride, batchSize: B }));
    const f = Math.max(0, Math.min(first | 0, Math.max(0, ds.numSamples - 1)));
    const want = Math.ceil(Math.min(count, MAX_WINDOWS)); // NaN: none
    const n = want > 0 ? Math.min(ds.numSamples - f, want) : 0;
    // the engine cuts the windows; the page draws the first ids of a window only
    const cut = ds.samples(f, n, MAX_WINDOW_IDS);
    const shown = Math.min(L, MAX_WINDOW_IDS);
    const out = [];
    const used = new Set();
    for (let r = 0; r < cut.rows; r++) {
      const inputs = cut.inputs.slice(r * shown, (r + 1) * shown);
      const targets = cut.targets.slice(r * shown, (r + 1) * shown);
      for (const id of inputs) used.add(id);
      for (const id of targets) used.add(id);
      out.push({ index: f + r, start: cut.starts[r], inputs, targets });
    }
    const idList = [...used];
    const names = idList.length ? c.tok.tokenStrings(Int32Array.from(idList)) : [];
    const strings = Object.fromEntries(idList.map((id, i) => [id, names[i]]));
    return { numSamples: ds.numSamples, numBatches: ds.numBatches, inputTokens: ds.inputTokens, tokens: c.ids.length, first: f, windows: out, strings };
  }

  function bpeState(seed) {
    blame(['seed'], () => M.manualSeed(seed));
    const emb = new M.Embedding(bpe.trainer.vocabSize, BPE_TABLE_DIM);
    try {
      const V = emb.numEmbeddings;
      const grid = strideSample(emb.weight(), V, BPE_TABLE_DIM, 600, BPE_TABLE_DIM);
      return { vocabSize: bpe.trainer.vocabSize, target: bpe.target, merges: bpe.merges, done: bpe.trainer.done, grid, dim: BPE_TABLE_DIM, corpus: bpe.corpus };
    } finally {
      emb.delete();
    }
  }

  async function bpeReset({ corpus, bpeV, seed }) {
    const text = await blame(['corpus'], () => corpusText(corpus));
    const trainer = blame(['bpeV', 'corpus'], () => new M.BpeTrainer(text, bpeV));
    if (bpe) bpe.trainer.delete();
    bpe = { trainer, merges: [], target: bpeV, corpus };
    return bpeState(seed);
  }

  function bpeStep({ n = 1, seed }) {
    if (!bpe) throw new Error('bpeStep: start BPE training first (bpeReset)');
    bpe.merges.push(...bpe.trainer.step(n));
    return bpeState(seed);
  }

  return { handlers: { setText, tokenize, tokenSlice, windows, bpeReset, bpeStep }, ensureTokens };
}
