// Worker-side handlers for the text pipeline (issue 3): corpus text -> tokenizer -> ids ->
// sliding windows, and step-by-step BPE training. The text and the ids stay in the worker;
// the page asks for slices (a few hundred tokens at a time), so a 1 MB corpus never crosses
// to the main thread as 300k strings.
//
//   setText   {text} | {file: File} | {bytes: ArrayBuffer}, name? -> {chars, bytes, head, name}  (custom text;
//                                                          a File is read here, so its bytes never pass the main thread)
//   keepText  {}                                       -> {txt: base64url} (fits the link, text-link.js) |
//                                                          {txtdb: hash, linkChars} (saved in IndexedDB, storage.js) |
//                                                          {error, linkChars} (linkChars: the compressed length that did not fit)
//   customBytes {}                                     -> {bytes (the custom text, UTF-8), name}: its download
//   loadStoredText {hash}                              -> setText's reply, or an error when this browser lacks it
//   tokenize  {corpus, enc, lower, bpeV}                -> {enc, vocabSize, tokens, chars, words, bytes, distinct, ms, mbPerS}
//   tokenSlice {start, count}                          -> {start, total, ids (n), strings [n], bytes (flat), offsets (n+1)}
//   previewSlice {count}                               -> the same with total null: the first GPT-2 tokens of the custom
//                                                          text's head, drawn while the whole text is tokenized
//   windows   {L, stride, B, first, count}             -> {numSamples, numBatches, inputTokens, tokens, batchSize, used,
//                                                          windows: [{index, start, batch (null: dropped), inputs, targets}],
//                                                          strings {id: text}}
//                                                          (at most 64 windows, each with its first min(L, 64) ids;
//                                                          windows from `used` = numBatches * B on are dropped by drop_last)
//   tokenRow  {id, seed, D, scale, k}                  -> {id, token, V, D, row, oneHot, identical, neighbours: [{id, token, score}]}
//                                                          row `id` of nn.Embedding(V = the tokenizer's size, D) drawn from seed
//   tableLabels {V, ids, corpus, enc, lower, bpeV}     -> {labels: [text] | null, vocabSize}: token strings of table rows
//                                                          when V is the vocabulary size of that tokenizer (already built)
//   bpeReset  {corpus, bpeV, seed}                     -> bpe state (below);  bpeStep {n, seed} -> bpe state
//      bpe state: {vocabSize, merges: [{left, right, id, count, token}] (all so far), done,
//                  grid: nn.Embedding(vocabSize, 16) drawn from seed, for the growing table}
//
// tokenSlice, windows and tokenRow work on the ids of the last tokenize; given the text settings
// too ({corpus, enc, lower, bpeV} in the payload) they first make sure those are the ids (cached:
// free when they are), so views that share the worker (several widgets of a page) never read
// each other's tokens. BPE training (bpeReset, bpeStep) is kept per `slot` (none = '', the page's),
// as training runs are (train-handler.js).
//
// loadCorpus(name) -> Promise<string> is injected (fetch in the worker, fs in Node tests).
// Tokenizers come from the engine's factory (M.Tokenizer.make): 'gpt2' (tiktoken gpt2 ids),
// 'whitespace' | 'word' | 'char' (vocabularies built from the same text, specials <pad> <unk>
// <sos> <eos> first), 'bpe' (trained on the text up to bpeV ids). Windows are cut by the engine
// (M.slidingWindows(...).samples), as for the CLI's windows command.
//
// Engine calls name the payload arguments they depend on (blame, protocol.js), so a failure
// ("windows: stride must be >= 1, got 0", a size the engine refuses) lands on that field.
import { bitsEqual, scaleFloat32, strideSample } from '../arrays.js';
import { NO_JOB, blame } from '../protocol.js';
import { encodeTextInfo } from '../text-link.js';
import { getText, putText, textHash } from '../storage.js';
import { checkPageBudget } from './limits.js';

const CORPORA = ['the-verdict', 'tinyshakespeare'];
const BPE_TABLE_DIM = 16;
const BPE_CHUNK_MS = 40; // BPE training between two yields of the tokenize job
const MAX_WINDOWS = 64; // windows per 'windows' reply
const MAX_WINDOW_IDS = 64; // ids sent per window (max_length may be 10^6): the strip shows 36 columns
const HEAD_CHARS = 240; // start of a custom text, for the page's summary
const PREVIEW_CHARS = 32768; // previewSlice encodes this much of the head
const PREVIEW_MARGIN = 64; // tokens left out before the cut
const GPT2_VOCAB = 50257;

// Counts without building arrays of millions of strings: code points and whitespace-separated
// words (JS \s, as text.split(/\s+/) would count them).
const isSpace = (c) => (c >= 9 && c <= 13) || c === 32 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
export function countText(text) {
  let chars = 0;
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff) chars++; // a low surrogate belongs to the code point before it
    const space = isSpace(c);
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return { chars, words };
}

// -> {handlers (request type -> function), ensureTokens (for the training handlers)}
// store (optional): {putText, getText} (storage.js, IndexedDB; Node tests pass their own).
export function makeTextPipeline(M, loadCorpus, store = { putText, getText }) {
  const texts = new Map(); // corpus name -> string ('custom' from setText)
  let custom = null; // {bytes: Uint8Array, name}: the custom text's UTF-8 bytes (hash, storage)
  let current = null; // {key, tok, ids, enc}
  const bpes = new Map(); // slot -> {trainer, merges, target, corpus}
  let bpe = null; // the slot's BPE of the request being handled
  let tableCache = null; // {key, emb, weight}: the table of tokenRow

  async function corpusText(name) {
    if (texts.has(name)) return texts.get(name);
    if (name === 'custom') throw new Error('text: no custom text yet; paste or upload some first');
    if (!CORPORA.includes(name)) throw new Error(`text: unknown corpus '${name}', expected ${CORPORA.join(', ')} or custom`);
    const t = await loadCorpus(name);
    texts.set(name, t);
    return t;
  }

  // The engine's one tokenizer factory (M.Tokenizer.make); lower applies to the vocabulary
  // kinds, bpeV to BPE trained on the text. BPE is a long job on a large text: it trains with
  // M.BpeTrainer in steps of ~BPE_CHUNK_MS, yielding to the worker between them (job.tick:
  // progress, cancel; protocol.js); the merges and so the tokenizer are those of
  // M.Tokenizer.make('bpe', text, {vocabSize}) (tests/js/protocol.test.mjs checks the ids).
  async function makeTokenizer(enc, text, lower, bpeV, job = NO_JOB) {
    if (enc === 'bpe') {
      const tr = new M.BpeTrainer(text, bpeV);
      try {
        let n = 16; // merges per step, adapted so a step takes about BPE_CHUNK_MS
        while (!tr.done) {
          const t0 = performance.now();
          tr.step(n);
          const ms = performance.now() - t0;
          n = Math.max(1, Math.min(4096, Math.round((n * BPE_CHUNK_MS) / Math.max(ms, 1))));
          await job.tick(tr.vocabSize - 256, bpeV - 256, `training BPE: ${tr.vocabSize.toLocaleString('en')} of ${bpeV.toLocaleString('en')} ids`);
        }
        return tr.tokenizer();
      } finally {
        tr.delete();
      }
    }
    if (enc === 'gpt2') return M.Tokenizer.make('gpt2');
    return M.Tokenizer.make(enc, text, { lowercase: !!lower });
  }

  function useCustom(text, bytes, name) {
    texts.set('custom', text);
    custom = { bytes, name };
    if (current && current.key.startsWith('custom|')) current = null;
    const { chars } = countText(text);
    return { chars, bytes: bytes.length, head: text.slice(0, HEAD_CHARS), name };
  }

  async function setText({ text, file, bytes, name = '' }) {
    if (typeof text === 'string') return useCustom(text, new TextEncoder().encode(text), name);
    let raw;
    if (file && typeof file.arrayBuffer === 'function') raw = new Uint8Array(await file.arrayBuffer());
    else if (bytes instanceof ArrayBuffer || ArrayBuffer.isView(bytes)) raw = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    else throw new Error('text: expected a string, a file or bytes');
    // invalid UTF-8 becomes U+FFFD, as the engine's decode does
    return useCustom(new TextDecoder('utf-8', { fatal: false }).decode(raw), raw, name || (file && file.name) || '');
  }

  // The custom text in the link if it fits (text-link.js), else in IndexedDB under its hash.
  async function keepText() {
    if (!custom) throw new Error('text: no custom text yet; paste or upload some first');
    const { encoded, chars } = encodeTextInfo(texts.get('custom'));
    if (encoded !== null) return { txt: encoded };
    const hash = await textHash(custom.bytes);
    try {
      await store.putText(hash, custom.bytes);
      return { txtdb: hash, linkChars: chars };
    } catch (err) {
      return { error: err.message, linkChars: chars };
    }
  }

  // The custom text's bytes, for a download when it is too long for the link.
  function customBytes() {
    if (!custom) throw new Error('text: no custom text yet; paste or upload some first');
    return { bytes: custom.bytes.slice(), name: custom.name || '' };
  }

  async function loadStoredText({ hash }) {
    let bytes = null;
    try {
      bytes = await store.getText(String(hash));
    } catch (err) {
      throw new Error(`text: the text saved for this link could not be read (${err.message})`);
    }
    if (!bytes) throw new Error('text: the text saved for this link is not in this browser\'s storage (another browser, or cleared)');
    return setText({ bytes, name: '' });
  }

  const tokensKey = ({ corpus, enc, lower, bpeV }, text) =>
    `${corpus}|${enc}|${enc === 'bpe' ? bpeV : ''}|${lower && enc !== 'gpt2' && enc !== 'bpe' ? 1 : 0}|${text.length}`;

  // {corpus, enc, lower, bpeV} -> {key, tok, ids, enc, text}, cached for the same settings.
  // job (optional): the request's job, for progress and cancel of a BPE build (protocol.js).
  async function ensureTokens({ corpus, enc, lower, bpeV }, job = NO_JOB) {
    const text = await blame(['corpus'], () => corpusText(corpus));
    const key = tokensKey({ corpus, enc, lower, bpeV }, text);
    if (!current || current.key !== key) {
      const tok = await blame(enc === 'bpe' ? ['bpeV', 'corpus'] : ['enc', 'corpus', 'lower'], () => makeTokenizer(enc, text, lower, bpeV, job));
      let ids;
      try {
        if (enc === 'bpe') await job.tick(1, 1, 'encoding the text with the trained BPE'); // one engine call, not chunked
        ids = blame(['corpus', 'enc'], () => tok.encode(text)); // a lowercase vocabulary lowercases on encode too
        if (enc === 'bpe') await job.tick(1, 1, 'encoding the text with the trained BPE'); // cancelled meanwhile: keep the old tokens
      } catch (err) {
        tok.delete();
        throw err;
      }
      if (current) current.tok.delete();
      current = { key, tok, ids, enc, text };
    }
    return current;
  }

  async function tokenize(p, job) {
    const t0 = performance.now();
    const { text } = await ensureTokens(p, job);
    const { enc } = p;
    const ms = performance.now() - t0;
    const bytes = p.corpus === 'custom' && custom ? custom.bytes.length : new TextEncoder().encode(text).length;
    const seen = new Uint8Array(current.tok.vocabSize);
    let distinct = 0;
    for (const id of current.ids) if (!seen[id]) (seen[id] = 1), distinct++;
    const { chars, words } = countText(text);
    return {
      enc, vocabSize: current.tok.vocabSize, tokens: current.ids.length, chars, words, bytes, distinct,
      ms, mbPerS: ms > 0 ? bytes / 1e6 / (ms / 1000) : null,
    };
  }

  // The ids a slice, windows or row request reads: those of its text settings when it names
  // them (tokenized now if they are not the current ones), else the last tokenize's.
  async function live(where, p) {
    if (p.corpus !== undefined) return ensureTokens(p);
    if (!current) throw new Error(`${where}: tokenize a text first`);
    return current;
  }

  // ids (Int32Array) of tok -> {start, ids, strings, bytes (flat), offsets}
  function sliceOf(tok, ids, start) {
    const strings = ids.length ? tok.tokenStrings(ids) : [];
    const pieces = Array.from(ids, (id) => tok.tokenBytes(id));
    const offsets = new Int32Array(ids.length + 1);
    pieces.forEach((p, i) => (offsets[i + 1] = offsets[i] + p.length));
    const bytes = new Uint8Array(offsets[ids.length]);
    pieces.forEach((p, i) => bytes.set(p, offsets[i]));
    return { start, ids, strings, bytes, offsets };
  }

  async function tokenSlice(p) {
    const { start, count } = p;
    const c = await live('tokenSlice', p);
    const s = Math.max(0, Math.min(start | 0, Math.max(0, c.ids.length - 1)));
    return { ...sliceOf(c.tok, c.ids.slice(s, s + Math.max(0, count | 0)), s), total: c.ids.length };
  }

  // The first `count` GPT-2 tokens of the custom text, from its head only, while the whole
  // text waits its turn (a 5 MB text: chips in a few ms instead of after the full encode).
  // GPT-2 ids need no vocabulary built from the text, so these are the final ids; the split
  // near the cut may differ, and PREVIEW_CHARS leaves thousands of tokens before it.
  let gpt2 = null;
  function previewSlice({ count }) {
    if (!texts.has('custom')) throw new Error('text: no custom text yet; paste or upload some first');
    gpt2 = gpt2 || M.Tokenizer.make('gpt2');
    const ids = gpt2.encode(texts.get('custom').slice(0, PREVIEW_CHARS));
    const n = Math.max(0, Math.min(count | 0, ids.length - PREVIEW_MARGIN));
    return { ...sliceOf(gpt2, ids.slice(0, n), 0), total: null };
  }

  async function windows(p) {
    const { L, stride, B, first = 0, count = 8 } = p;
    const c = await live('windows', p);
    const ds = blame(['L', 'stride', 'B'], () => M.slidingWindows(c.ids, { maxLength: L, stride, batchSize: B }));
    const f = Math.max(0, Math.min(first | 0, Math.max(0, ds.numSamples - 1)));
    const want = Math.ceil(Math.min(count, MAX_WINDOWS)); // NaN: none
    const n = want > 0 ? Math.min(ds.numSamples - f, want) : 0;
    // the engine cuts the windows; the page draws the first ids of a window only
    const cut = ds.samples(f, n, MAX_WINDOW_IDS);
    const shown = Math.min(L, MAX_WINDOW_IDS);
    const used = ds.numBatches * B; // drop_last: windows from here on never reach a batch
    const out = [];
    const seen = new Set();
    for (let r = 0; r < cut.rows; r++) {
      const inputs = cut.inputs.slice(r * shown, (r + 1) * shown);
      const targets = cut.targets.slice(r * shown, (r + 1) * shown);
      for (const id of inputs) seen.add(id);
      for (const id of targets) seen.add(id);
      const index = f + r;
      out.push({ index, start: cut.starts[r], batch: index < used ? Math.floor(index / B) : null, inputs, targets });
    }
    const idList = [...seen];
    const names = idList.length ? c.tok.tokenStrings(Int32Array.from(idList)) : [];
    const strings = Object.fromEntries(idList.map((id, i) => [id, names[i]]));
    return {
      numSamples: ds.numSamples, numBatches: ds.numBatches, inputTokens: ds.inputTokens, tokens: c.ids.length, batchSize: B, used,
      first: f, windows: out, strings,
    };
  }

  // Row `id` of the table nn.Embedding(V, D) for the current tokenizer (V = its vocabulary
  // size, torch.manual_seed(seed)), by lookup and by one-hot x W, and its k nearest rows by cosine.
  async function tokenRow(p) {
    const { id, seed, D, scale = false, k = 8 } = p;
    const c = await live('tokenRow', p);
    const V = c.tok.vocabSize;
    const key = JSON.stringify([seed, V, D, !!scale]);
    if (!tableCache || tableCache.key !== key) {
      blame(['D'], () => checkPageBudget('Embedding', 'table', [V, Number(D)]));
      blame(['seed'], () => M.manualSeed(seed));
      const emb = blame(['D'], () => new M.Embedding(V, D, { scale: !!scale }));
      if (tableCache) tableCache.emb.delete();
      tableCache = { key, emb, weight: emb.weight() };
    }
    const { emb, weight } = tableCache;
    const row = blame(['tok'], () => emb.forward([id]));
    const plain = emb.oneHotForward([id]);
    const oneHot = emb.scaleFactor === 1 ? plain : scaleFloat32(plain, emb.scaleFactor);
    const near = M.nearest(weight, V, emb.embeddingDim, { id, k: Math.min(k, V - 1), metric: 'cosine' });
    const ids = Int32Array.from([id, ...near.ids]);
    const names = c.tok.tokenStrings(ids);
    return {
      id, token: names[0], V, D: emb.embeddingDim, seed, scaleFactor: emb.scaleFactor, row, oneHot, identical: bitsEqual(row, oneHot),
      neighbours: Array.from(near.ids, (n, i) => ({ id: n, token: names[i + 1], score: near.scores[i] })),
    };
  }

  // Token strings for table rows `ids` when the table's V is the vocabulary size of the text
  // settings' tokenizer. GPT-2's vocabulary needs no text; the others only if already built.
  function tableLabels({ V, ids, corpus, enc, lower, bpeV }) {
    let tok = null;
    let owned = null;
    if (enc === 'gpt2') {
      if (current && current.enc === 'gpt2') tok = current.tok;
      else if (V === GPT2_VOCAB) tok = owned = M.Tokenizer.make('gpt2');
    } else if (current && texts.has(corpus) && current.key === tokensKey({ corpus, enc, lower, bpeV }, texts.get(corpus))) {
      tok = current.tok;
    }
    try {
      if (!tok || tok.vocabSize !== V) return { labels: null, vocabSize: tok ? tok.vocabSize : null };
      const list = Int32Array.from(ids || [], (i) => Math.max(0, Math.min(V - 1, i | 0)));
      return { labels: list.length ? tok.tokenStrings(list) : [], vocabSize: V };
    } finally {
      if (owned) owned.delete();
    }
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

  async function bpeReset({ corpus, bpeV, seed, slot = '' }) {
    const text = await blame(['corpus'], () => corpusText(corpus));
    const trainer = blame(['bpeV', 'corpus'], () => new M.BpeTrainer(text, bpeV));
    if (bpes.has(String(slot))) bpes.get(String(slot)).trainer.delete();
    bpe = { trainer, merges: [], target: bpeV, corpus };
    bpes.set(String(slot), bpe);
    return bpeState(seed);
  }

  function bpeStep({ n = 1, seed, slot = '' }) {
    bpe = bpes.get(String(slot)) || null;
    if (!bpe) throw new Error('bpeStep: start BPE training first (bpeReset)');
    bpe.merges.push(...bpe.trainer.step(n));
    return bpeState(seed);
  }

  return { handlers: { setText, keepText, customBytes, loadStoredText, tokenize, tokenSlice, previewSlice, windows, tokenRow, tableLabels, bpeReset, bpeStep }, ensureTokens };
}
