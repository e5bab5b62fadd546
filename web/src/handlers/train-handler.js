// Worker-side handlers for training (issue 4): a next-token model or word2vec (skip-gram /
// CBOW) on the text view's tokens, stepped in time slices so the page stays live.
//
//   trainStart   {corpus, enc, lower, bpeV, model, pos, tD, ctx, tB, opt, lr, alpha, win, minc, ep, seed}
//                (the page sends its training text keys tCorpus, tEnc, tLower as corpus, enc, lower)
//                -> info {settings, rows, tokens, labels (of the drawn table rows), estimate {bytes, msPerStep, tokensPerStep}, remapped,
//                   heldOut (next-token: {tokens, evaluated, trainTokens, every, vocab, chance, points: [[0, loss]]},
//                   or {reason, trainTokens, vocab, chance, points: null} when the tail is shorter than a window; word2vec: null)}
//   trainStep    {budgetMs = 40, maxSteps, show} -> {points: [[step, loss]...], held: [[step, loss]...] (held-out
//                evaluations of the slice), stats (of the last step), slice: {steps, tokens, ms} (of the whole
//                slice; ms: the worker's time for it, steps and copies), checksum (FNV-1a of the whole input table),
//                and of the parts in show (FRAME_PARTS; all when show is absent) table grid, positions
//                (the learned position similarity, sampled: at most 256 x 256), map: a part the page does
//                not show (its plot is off screen) is neither computed nor sent
//   trainFrame   {show} -> {step, checksum, table?, positions?, map? (PCA)}: the parts of the run as it is
//                now, without a step (a plot shown again after slices that left it out catches up)
//   Per reply the input table is copied out of wasm once (its checksum, grid and PCA share it), the
//   position table only when its similarity is shown.
//   trainReset   {} -> info (the same run from step 0)
//   (comparing the positional kinds: compare-handler.js)
//   trainExport  {} -> {vectors: 'vectors.tsv text', metadata: 'metadata.tsv text', npy (Uint8Array), rows, cols, step}
//                {format, points?, map?} -> {bytes, rows, dim, step, map}: one file of the input table
//                (table-exports.js; 'csv2' holds the map the page draws, sent as points and its
//                method map; without them the PCA map, frozen axes included)
//   trainNeighbours {query: 'thou' | 'king - man + woman', k} -> {query, analogy, step, neighbours: [{row, label, cosine}]}
//   trainStart/trainReset/trainStep replies also carry map: {points (rows*2), explained [2]} (PCA, at most every 250 ms);
//   trainStart carries rowLabels (the token text of every row)
//   trainFreeze  {on} -> map on frozen axes (on) or refitted (off)
//   trainStep {..., map: {method (a map registry name), its options by option key}}:
//                the reply's map is that method's instead of PCA, {points | null, method,
//                continued, live: true, phase, progress, done, total, clamp}: a slice of the
//                slot's live run (layout-handler.js trainMap), warm-started from the previous
//                frame on the newer table when a run ends, so the points move between updates
//                rather than jump; points null while a run constructs (kNN, graph). The
//                animated registry map of the table (paused or finished) is layout-handler.js,
//                source 'train'
//   A map never fails a step: the steps of the slice are done and reported whatever the map
//   does; a map that fails gives mapError: 'message' (and no map) in the same reply, and the
//   next update tries again. A step that fails after others of its slice succeeded gives those
//   steps and stepError {message, fields}, so the page shows every step the trainer made.
//   trainStart {..., resume: true, session: TAB}: when this tab's autosaved run (the 'train@TAB'
//                record, storage.js; TAB is remembered for trainSave) has the same settings, it is loaded (Trainer.loadState) and the reply carries
//                restored {step, checksum, savedAt, curve}; a saved run of other settings is left
//                alone, one the engine refuses (another text) gives restored {error}
//   trainSave    {curve: {steps, losses}} -> {step, checksum, bytes, savedAt}: the run's checkpoint
//                (Trainer.saveState) written to the tab's 'train@TAB' record {v: 2, tab, ...} (no TAB
//                given yet: 'train'), from the worker (no copy to the page)
//   trainDrop    {} -> {dropped}: frees the run (a widget that left the page)
//   trainSample  {prompt, tokens, temperature, seed} -> {text, ids (Int32Array), prompt, step}: text
//                sampled from the next-token run as it is now (M.generate on its checkpoint bytes,
//                which carry the tokenizer and the rows' ids: `embedlab generate` on the autosave
//                gives the same text); word2vec runs answer with an error
//   trainState   {} -> {bytes (Uint8Array), step}: the run's checkpoint, downloaded by the sample card
//
// Runs by slot: every request may carry `slot` (a string; none = '', the page's run). Each slot
// holds its own run, so several <embedlab-view> widgets of a page train their own tables on the
// one worker (element.js gives each widget its slot); at most MAX_RUNS slots hold a run at once.
//
// Next-token on GPT-2 ids: only the ids that occur are trained (remapped to 0..R-1 in id
// order, by the engine: M.nextTokenRows, the CLI's step too), so the output layer is R wide instead of 50,257 (1,416 rows for the-verdict); other
// vocabularies keep the tokenizer's rows, as the CLI does (next-token-input.js nextTokenRows).
// Held out (next-token): the CLI's rule (next-token-input.js heldOutSplit, `embedlab train
// --valid-fraction 0.1`): the last floor(n / 10) ids are never trained on. Their loss (the
// engine's Trainer.evaluate, forward only) is measured at step 0 and after every
// HELD_OUT_EVERY-th step, so the curve is the same however the steps are sliced. One evaluation
// reads the first heldOutProbe() tokens of the tail (all of them unless that would cost more
// than ~25 ms: then the number is that part's loss, not the CLI's, and the reply says how many).
// word2vec: one sentence per line, blank lines skipped (tok.sentences, the CLI's rule); the trainer
// keeps its own vocabulary (min_count), `vocabIds()` maps rows back to token ids.
// The estimate comes from one measured step (then reset), so it reflects this machine.
//
// What a reply shows of a run (the table grid, the position similarity, the PCA map, the
// fingerprint; only the parts the page shows): train-frame.js.
// Sizes: the engine plans every buffer of a run when it is made (tables, attention, batches) and
// refuses what its build cannot hold; the page budget (limits.js) refuses, in the same words,
// tables the engine would hold but the page copies on every step. Engine calls name the payload
// arguments they depend on (blame, protocol.js), most likely first, so failures land on a field.
import { sampleIndices } from '../arrays.js';
import { blame, blamed } from '../protocol.js';
import { checkPageBudget } from './limits.js';
import { MAX_TABLE_ROWS, frameParts, makeTrainFrame } from './train-frame.js';
import { heldOutProbe, heldOutSplit, nextTokenRows } from './next-token-input.js';
import { positionParams } from '../state.js';
import { drawnMap, exportTableFile, withTable } from './table-exports.js';
import { SESSION_VERSION, getRecord, putRecord, recordKey } from '../storage.js';

const MAP_EVERY_MS = 250; // PCA of the table at most this often while training
const MAP_SLICE_MS = 30; // engine time of one registry map update while training (a slice of the live run)
const MAX_LABEL_ORDER = 200; // rows in the map's label order
export const HELD_OUT_EVERY = 50; // next-token: the held-out loss after every 50th step (and at step 0)
export const MAX_RUNS = 8; // slots holding a run at once (the page's and each training widget's)
// payload arguments a trainer depends on, the likeliest culprit of a size failure first
const NEXT_ARGS = ['ctx', 'tB', 'tD', 'lr', 'opt', 'pos', 'seed'];
const W2V_ARGS = ['tD', 'win', 'minc', 'ep', 'alpha', 'seed'];
const NEXT_STEP_ARGS = ['lr', 'ctx', 'tB', 'tD', 'opt', 'pos', 'seed']; // a failing step: divergence first

function paramBytes(s, rows) {
  // parameters: token table + output table (+ position table, 4 D x D attention matrices)
  const D = s.vectorSize;
  let n = 2 * rows * D;
  if (s.model === 'next-token') n += s.context * D + 4 * D * D;
  const copies = s.optimizer === 'sgd' || s.model !== 'next-token' ? 2 : 4; // value + grad (+ Adam m, v)
  return n * 4 * copies;
}

// The run's identity for the autosave: its payload without `resume` and `slot`, keys sorted.
export function runKey(p) {
  return JSON.stringify(Object.keys(p).filter((k) => k !== 'resume' && k !== 'slot' && k !== 'session').sort().map((k) => [k, p[k]]));
}

// store (optional): {getRecord, putRecord} (storage.js, IndexedDB; Node tests pass their own).
// layout (optional): makeLayoutHandlers(M)'s object; a slot's input table is its 'train' source.
export function makeTrainHandlers(M, ensureTokens, store = { getRecord, putRecord }, layout = null) {
  let sessionTab = ''; // the page tab whose autosave this worker writes (trainStart {session})
  const frames = makeTrainFrame(M); // what a reply shows of a run (train-frame.js)
  const runs = new Map(); // slot -> {tr, make, rowIds, strings, model, pos, key}
  let run = null; // the run of the request being handled (use()); requests run one at a time
  const layoutKey = (slot) => `train:${String(slot ?? '')}`;
  if (layout) {
    layout.addSource('train', (p) => {
      const r = runs.get(String(p.slot ?? ''));
      if (!r) throw new Error('map: start a training run first');
      const t = r.tr.table('input');
      return { data: t.data, rows: t.rows, cols: t.cols };
    });
  }
  const layoutGone = (slot) => layout && layout.dropSource(layoutKey(slot));

  // payload -> its slot's run (where: the message when there is none)
  function use(p, where) {
    run = runs.get(String(p.slot ?? '')) || null;
    if (!run && where) throw new Error(`${where}: start a run first`);
    return run;
  }

  function nextOpts(p, pos) {
    return { vectorSize: p.tD, context: p.ctx, batchSize: p.tB, pos, posParams: positionParams(p, pos), optimizer: p.opt, lr: p.lr, seed: p.seed };
  }

  async function prepare(p) {
    const c = await ensureTokens(p);
    if (p.model === 'next') {
      const { ids, rowIds, remapped } = nextTokenRows(M, c.ids, c.tok);
      const strings = rowIds.length ? c.tok.tokenStrings(rowIds) : [];
      const { cut } = heldOutSplit(ids.length);
      const train = ids.subarray(0, cut);
      const tail = ids.subarray(cut);
      const T = Number(p.ctx);
      const evaluated = heldOutProbe(tail.length, { V: rowIds.length, D: Number(p.tD), T });
      // a tail shorter than one window (T + 1 ids) has no held-out loss: said, not drawn
      const heldOut = tail.length > T
        ? { tokens: tail.length, evaluated, trainTokens: cut, every: HELD_OUT_EVERY, vocab: rowIds.length, chance: Math.log(rowIds.length) }
        : { reason: `the held-out tenth of the text has ${tail.length} tokens, fewer than context ${T} + 1`, trainTokens: cut, vocab: rowIds.length, chance: Math.log(rowIds.length) };
      const probe = tail.length > T ? tail.subarray(0, evaluated) : null;
      // the tokenizer and the rows' ids go into the run's checkpoint (autosave, trainSample: M.generate)
      const make = (pos, on = train) => blame(NEXT_ARGS, () => M.Trainer.nextToken(on, { vocabSize: rowIds.length, ...nextOpts(p, pos), tokenizer: c.tok, rowIds }));
      return { ids, rowIds, remapped, strings, tokens: c.ids.length, make, heldOut, probe };
    }
    // the engine's sentence rule (src/data/sentences.hpp), the CLI's too
    const { ids, sentenceStarts: starts } = blame(['corpus', 'enc'], () => c.tok.sentences(c.text));
    const counts = c.tok.counts();
    const opts = { sg: p.model === 'skipgram', vectorSize: p.tD, window: p.win, minCount: p.minc, epochs: p.ep, alpha: p.alpha, seed: p.seed };
    if (counts) opts.counts = counts;
    return { ids, rowIds: null, strings: null, tokens: ids.length, make: () => blame(W2V_ARGS, () => M.Trainer.word2vec(ids, starts, opts)), tok: c.tok, heldOut: null, probe: null };
  }

  function info() {
    const s = run.tr.settings;
    // the fastest of three steps: the first one also pays for allocating buffers
    let msPerStep = Infinity;
    let st = null;
    let failure = null;
    try {
      for (let i = 0; i < 3 && !(st && st.finished); i++) {
        const t0 = performance.now();
        st = run.tr.step(1);
        msPerStep = Math.min(msPerStep, performance.now() - t0);
      }
    } catch (err) {
      // a diverging setting: the estimate keeps the steps measured so far; Play reports the message
      failure = err;
    }
    run.tr.reset();
    // the first step failed (diverged, or a buffer the engine refused): its own message
    if (!st) throw blamed(failure ?? new Error('train: the first step already failed'), run.model === 'next' ? NEXT_STEP_ARGS : W2V_ARGS);
    const rows = run.rowIds.length; // the table's rows (next-token: vocabSize; word2vec: vocabIds)
    const labels = Array.from(sampleIndices(rows, MAX_TABLE_ROWS), (r) =>
      run.rowIds && r < run.rowIds.length ? `id ${run.rowIds[r]} ${JSON.stringify(run.strings[r])}` : `row ${r}`);
    return {
      settings: s, rows, tokens: run.tokens, labels, remapped: run.model === 'next' && run.remapped ? run.rowIds.length : null,
      estimate: { bytes: paramBytes(s, rows), msPerStep, tokensPerStep: st.tokens, totalSteps: s.totalSteps ?? null },
      heldOut: run.heldOut ? { ...run.heldOut, points: run.probe ? [[0, heldOutLoss()]] : null } : null,
    };
  }

  // The held-out loss of the run as it is now (next-token, a tail of at least one window).
  function heldOutLoss() {
    return blame(NEXT_STEP_ARGS, () => run.tr.evaluate(run.probe));
  }

  async function trainStart(p) {
    const slot = String(p.slot ?? '');
    if (slot === '' && typeof p.session === 'string' && p.session) sessionTab = p.session; // the page's tab (session.js)
    if (!runs.has(slot) && runs.size >= MAX_RUNS) {
      throw new Error(`train: ${runs.size} runs are open already, the most this page keeps (one per training view or widget); remove a widget or reload`);
    }
    const prep = await prepare(p);
    const tr = prep.make(p.pos);
    try {
      // the page copies the input table on every step: rows x D within the page budget
      const rows = p.model === 'next' ? prep.rowIds.length : tr.vocabIds().length;
      blame(['tD'], () => checkPageBudget('train', 'token table', [rows, Number(p.tD)]));
    } catch (err) {
      tr.delete();
      throw err;
    }
    if (runs.has(slot)) runs.get(slot).tr.delete();
    layoutGone(slot);
    run = { ...prep, tr, model: p.model, pos: p.pos, key: runKey(p) };
    runs.set(slot, run);
    if (p.model !== 'next') {
      const v = tr.vocabIds();
      run.rowIds = v;
      run.strings = v.length ? prep.tok.tokenStrings(v) : [];
    }
    const base = info();
    const restored = p.resume && slot === '' ? await restore() : null; // the page's run only, never a widget's
    return { ...base, ...frames.wholeFrame(run), rowLabels: run.strings, rowOrder: rowOrder(prep), restored };
  }

  // The autosaved run, when it is this run's: loaded into the trainer. -> restored | null
  async function restore() {
    let rec = null;
    try {
      rec = await store.getRecord(recordKey('train', sessionTab));
    } catch {
      return null; // no storage here: nothing to restore
    }
    if (!rec || rec.v > SESSION_VERSION || rec.key !== run.key || !(rec.state instanceof Uint8Array)) return null;
    try {
      run.step = run.tr.loadState(rec.state);
    } catch (err) {
      return { error: `the run saved in this browser could not be loaded (${err.message}); this run starts afresh` };
    }
    return { step: run.step, checksum: frames.checksum(run.tr.table('input')), saved: rec.checksum, savedAt: rec.savedAt, curve: rec.curve || null };
  }

  async function trainSave(p = {}) {
    use(p, 'save');
    const state = run.tr.saveState();
    const rec = { v: SESSION_VERSION, tab: sessionTab, key: run.key, step: run.tr.stepsDone(), checksum: frames.checksum(run.tr.table('input')), state, curve: p.curve ?? null, savedAt: Date.now() };
    await store.putRecord(recordKey('train', sessionTab), rec);
    return { step: rec.step, checksum: rec.checksum, bytes: state.length, savedAt: rec.savedAt };
  }

  // The rows to label first on the map, most frequent token first (at most MAX_LABEL_ORDER):
  // next-token rows are ids in id order, so they are sorted by their count in the text; word2vec
  // rows already are in gensim's vocabulary order (by count).
  function rowOrder(prep) {
    const rows = run.rowIds.length;
    if (run.model !== 'next') return Int32Array.from({ length: Math.min(rows, MAX_LABEL_ORDER) }, (_, i) => i);
    const counts = new Float64Array(rows);
    for (const id of prep.ids) counts[id]++;
    const order = Int32Array.from({ length: rows }, (_, i) => i).sort((a, b) => counts[b] - counts[a] || a - b);
    return order.slice(0, MAX_LABEL_ORDER);
  }

  function trainStep({ budgetMs = 40, maxSteps = Infinity, slot, map: mapOpts = null, show }) {
    use({ slot }, 'train');
    const parts = frameParts(show);
    const points = [];
    const held = [];
    const t0 = performance.now();
    let stats = null;
    let n = 0;
    let tokens = 0; // of every step of the slice (stats only describes the last one)
    const args = run.model === 'next' ? NEXT_STEP_ARGS : W2V_ARGS;
    let stepError = null;
    const failed = (err) => {
      if (!stats) throw err; // the slice's first step: nothing to report
      stepError = { message: err.message, fields: Array.isArray(err.args) ? err.args : [] }; // the steps before it are the run's
    };
    do {
      try {
        stats = blame(args, () => run.tr.step(1));
      } catch (err) {
        failed(err);
        break;
      }
      n++;
      tokens += stats.tokens;
      points.push([stats.totalSteps, stats.lastLoss]);
      if (run.probe && stats.totalSteps % HELD_OUT_EVERY === 0) {
        try {
          held.push([stats.totalSteps, heldOutLoss()]);
        } catch (err) {
          failed(err);
          break;
        }
      }
    } while (!stats.finished && n < maxSteps && performance.now() - t0 < budgetMs);
    run.step = stats.totalSteps;
    const t = run.tr.table('input'); // the slice's one copy: checksum, table grid, PCA, a registry map's start
    const method = mapOpts && layout && mapOpts.method !== 'pca' ? mapOpts.method : 'pca';
    const wanted = method === 'pca' ? 'pca' : JSON.stringify(mapOpts);
    // every MAP_EVERY_MS, and at once for another map or other options than the last update's
    const due = stats.finished || !!stepError || wanted !== run.mapWanted || !(performance.now() - run.lastMap <= MAP_EVERY_MS);
    // a hidden map: nothing computed, and the first update it is shown again is due at once
    run.mapWanted = parts.has('map') ? wanted : null;
    if (method === 'pca' && layout) layout.stopLive(layoutKey(slot));
    let map;
    let mapError = null;
    if (due && parts.has('map')) {
      try {
        map = method === 'pca' ? frames.pcaMap(run, t) : layoutMap(slot, mapOpts, t);
      } catch (err) {
        // the steps stand; the map card says why this update has no map
        map = undefined;
        mapError = err.message; // the engine's, which names the method and the value
        run.lastMap = performance.now();
      }
    }
    const reply = { points, held, stats, slice: { steps: n, tokens }, checksum: frames.checksum(t), map, mapError, stepError };
    if (parts.has('table')) reply.table = frames.tableGrid(t);
    if (parts.has('positions')) reply.positions = frames.positions(run);
    reply.slice.ms = performance.now() - t0; // the worker's time of the whole slice: steps, copies, map
    return reply;
  }

  // The parts `show` of the run as it is now, without a step: a plot that was hidden while the
  // run went on catches up once when it is shown again (the page asks when it is paused; while
  // playing the next slice carries it). The map is the PCA one (refitted or frozen); a registry
  // map is drawn by its own run (layoutStart) when training pauses.
  function trainFrame({ slot, show } = {}) {
    use({ slot }, 'train');
    const parts = frameParts(show);
    const t = run.tr.table('input');
    const reply = { step: run.tr.stepsDone(), checksum: frames.checksum(t) };
    if (parts.has('table')) reply.table = frames.tableGrid(t);
    if (parts.has('positions')) reply.positions = frames.positions(run);
    if (parts.has('map')) reply.map = frames.pcaMap(run, t);
    return reply;
  }

  function trainReset(p = {}) {
    use(p, 'train');
    layoutGone(p.slot);
    const r = info();
    run.step = 0;
    run.components = null;
    run.frozen = null;
    return { ...r, ...frames.wholeFrame(run) };
  }

  // vectors.tsv and metadata.tsv of the Embedding Projector (%.9g values; labels escaped as
  // \t \n \r \\) and the .npy bytes of `embedlab train --out`.
  // points, map: the map the page draws ('csv2' saves it: a registry map is saved under its name); without
  // them the PCA map as the page would draw it (frozen axes included)
  function trainExport({ format, slot, points = null, map: method = 'pca' } = {}) {
    use({ slot }, 'export');
    const t = run.tr.table('input');
    const labels = Array.from({ length: t.rows }, (_, r) => (run.strings && r < run.strings.length ? run.strings[r] : `row ${r}`));
    if (format) {
      const drawn = format === 'csv2' ? drawnMap({ points, map: method }, t.rows, layout?.mapNames) : null;
      const map = format === 'csv2' && !drawn && t.cols >= 2 && t.rows >= 3 ? frames.pcaMap(run, t) : null;
      const points2 = drawn ? drawn.points : map && map.points;
      const file = withTable(M, t.data, t.rows, t.cols, labels, (table) => exportTableFile(M, table, format, { points2 }));
      return { ...file, step: run.step || 0, map: format === 'csv2' ? (drawn ? drawn.method : 'pca') : null };
    }
    const { vectors, metadata } = M.projectorTsv(t.data, t.rows, t.cols, labels);
    const npy = M.npyBytes(t.data, t.rows, t.cols);
    return { vectors, metadata, npy, rows: t.rows, cols: t.cols, step: run.step || 0 };
  }

  // Row of a token text: exact, then lower-cased, then with a leading space (GPT-2 words
  // inside a sentence carry one).
  function rowOf(text) {
    const strings = run.strings || [];
    for (const cand of [text, text.toLowerCase(), ` ${text}`, ` ${text.toLowerCase()}`]) {
      const r = strings.indexOf(cand);
      if (r >= 0) return r;
    }
    throw new Error(`neighbours: ${JSON.stringify(text)} is not a token of this table (${strings.length} rows)`);
  }

  // {query, k = 10} -> {query, label, step, neighbours: [{row, label, cosine}]} from the engine's
  // M.nearest (cosine, the query row left out) or, for "a - b + c", M.analogy (gensim's
  // most_similar(positive=[a, c], negative=[b])).
  function trainNeighbours({ query, k = 10, slot }) {
    use({ slot }, 'neighbours');
    const terms = String(query).trim().split(/\s*([+-])\s*/).filter((t) => t !== '');
    if (!terms.length) throw new Error('neighbours: type a token, or an analogy like king - man + woman');
    const positive = [];
    const negative = [];
    let sign = '+';
    for (const t of terms) {
      if (t === '+' || t === '-') sign = t;
      else (sign === '+' ? positive : negative).push(rowOf(t));
    }
    const t = run.tr.table('input');
    const r = positive.length === 1 && negative.length === 0
      ? M.nearest(t.data, t.rows, t.cols, { id: positive[0], k })
      : M.analogy(t.data, t.rows, t.cols, { positive, negative, k });
    const label = (row) => (run.strings && row < run.strings.length ? run.strings[row] : `row ${row}`);
    const described = terms.map((x) => (x === '+' || x === '-' ? x : JSON.stringify(label(rowOf(x))))).join(' ');
    return {
      query: described, analogy: positive.length + negative.length > 1, step: run.step || 0,
      neighbours: Array.from(r.ids, (row, i) => ({ row, label: label(row), cosine: r.scores[i] })),
    };
  }

  // A slice of the slot's live registry map run (layout-handler.js trainMap), which reads the
  // input table t (the slice's copy) when it starts a run. -> its frame (points null while it constructs)
  function layoutMap(slot, opts, t) {
    const get = () => ({ data: t.data, rows: t.rows, cols: t.cols });
    try {
      return { ...layout.trainMap(layoutKey(slot), get, opts.method, opts, MAP_SLICE_MS), live: true };
    } finally {
      run.lastMap = performance.now(); // the next update MAP_EVERY_MS after this one ends
    }
  }

  // {on} -> map: freeze the current PCA axes (and the table mean) or go back to refitting.
  function trainFreeze({ on, slot }) {
    use({ slot }, 'map');
    return frames.freeze(run, on);
  }

  // Text sampled from the run as it is now: M.generate on its checkpoint bytes, so
  // `embedlab generate --state` on the autosaved run gives the same text for the same seed.
  function trainSample({ prompt, tokens, temperature, seed, slot }) {
    use({ slot }, 'sample');
    if (run.model !== 'next') throw new Error('sample: word2vec has no next-token head to sample from; choose the next-token model');
    const r = M.generate(run.tr.saveState(), { prompt, tokens, temperature, seed });
    return { text: r.text, ids: r.ids, prompt, step: run.tr.stepsDone() };
  }

  // The run's checkpoint bytes, for a download: `embedlab generate --state` and `train --resume` read them.
  function trainState({ slot } = {}) {
    use({ slot }, 'state');
    return { bytes: run.tr.saveState(), step: run.tr.stepsDone() };
  }

  function trainDrop(p = {}) {
    const r = use(p);
    if (r) {
      r.tr.delete();
      layoutGone(p.slot);
      runs.delete(String(p.slot ?? ''));
      run = null;
    }
    return { dropped: !!r };
  }

  return { trainStart, trainStep, trainFrame, trainReset, trainExport, trainNeighbours, trainFreeze, trainDrop, trainSave, trainSample, trainState };
}
