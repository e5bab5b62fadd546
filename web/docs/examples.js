// @ts-check
// The runnable examples of docs.html, one function per step of the seed notebooks. Each takes the
// loaded module M and an io object, prints what the notebook prints, and returns the numbers a
// test checks (tests/js/docs-examples.test.mjs runs every one in Node against build/wasm;
// tsc --noEmit -p web/tsconfig.docs.json checks them against web/embedlab.d.ts).
// The page shows each function's own source (Function.prototype.toString), so they are written
// to be read: no imports, only M, io and the small formatting helpers below.
// It does not load the module or fetch the corpus: page.js (browser) and the test do.

/** @typedef {import('../embedlab.js').EmbedlabModule} EmbedlabModule */
/**
 * @typedef {object} ExampleIo
 * @property {(...parts: unknown[]) => void} print   one output line, parts joined by spaces
 * @property {string} verdict                          web/corpora/the-verdict.txt (20479 characters)
 */

/**
 * Values rounded to 4 decimals as torch prints them: row(Float32Array [0.33741, -0.1778], 0, 2) -> '0.3374 -0.1778'.
 * @param {ArrayLike<number>} a  a (rows * D) row-major array
 * @param {number} r             row
 * @param {number} D             width
 */
export function row(a, r, D) {
  return Array.from({ length: D }, (_, j) => a[r * D + j].toFixed(4)).join(' ');
}

/**
 * Step 1 (notebooks 000, 004): nn.Embedding is a lookup table, and an id outside [0, V) is an error.
 * @param {EmbedlabModule} M
 * @param {ExampleIo} io
 */
export function lookup(M, io) {
  M.manualSeed(0); // torch.manual_seed(0)
  const emb = new M.Embedding(10, 4); // nn.Embedding(10, 4)
  const out = emb.forward([2, 4, 2]); // "a", "c", "a": rows 2, 4, 2
  io.print('W.shape      ', emb.numEmbeddings, emb.embeddingDim);
  for (let i = 0; i < 3; i++) io.print(`lookup row ${i} `, row(out, i, 4));
  let message = '';
  try {
    emb.forward([10]); // torch: IndexError: index out of range in self
  } catch (e) {
    message = /** @type {Error} */ (e).message;
  }
  io.print('error        ', message);
  emb.delete();
  return { rows: [row(out, 0, 4), row(out, 1, 4), row(out, 2, 4)], message };
}

/**
 * Step 2 (notebook 003): one_hot(ids, V) @ W gives the lookup's rows, bit for bit.
 * @param {EmbedlabModule} M
 * @param {ExampleIo} io
 */
export function oneHot(M, io) {
  M.manualSeed(123);
  const emb = new M.Embedding(4, 5);
  const ids = [2, 3, 1];
  const viaLookup = emb.forward(ids);
  const viaOneHot = emb.oneHotForward(ids);
  const sameBits = viaLookup.every((v, i) => Object.is(v, viaOneHot[i]));
  const w0 = row(emb.weight(), 0, 5);
  io.print('W[0]         ', w0);
  io.print('lookup[0]    ', row(viaLookup, 0, 5));
  io.print('one-hot @ W  ', row(viaOneHot, 0, 5));
  io.print('same bits    ', sameBits);
  emb.delete();
  return { w0, lookup0: row(viaLookup, 0, 5), sameBits };
}

/**
 * Step 3 (notebook 000): the Transformer multiplies looked-up rows by √D, here D = 20.
 * @param {EmbedlabModule} M
 * @param {ExampleIo} io
 */
export function scale(M, io) {
  const batch = [[0, 123, 345, 455, 7, 1, 2, 2], [0, 56, 98, 234, 9, 56, 1, 2]]; // (2, 8)
  M.manualSeed(7);
  const plain = new M.Embedding(500, 20);
  M.manualSeed(7); // the same table again, now scaled
  const scaled = new M.Embedding(500, 20, { scale: true });
  const a = plain.forward(batch), b = scaled.forward(batch); // (2 * 8 * 20)
  const factor = scaled.scaleFactor;
  const exact = b.every((v, i) => v === Math.fround(a[i] * factor));
  io.print('output size  ', b.length, '= 2 x 8 x 20');
  io.print('scaleFactor  ', factor.toFixed(4), '= sqrt(20)');
  io.print('plain[0]     ', row(a, 0, 4), '...');
  io.print('scaled[0]    ', row(b, 0, 4), '...');
  io.print('scaled = plain x sqrt(20) in float32:', exact);
  plain.delete();
  scaled.delete();
  return { length: b.length, factor, exact };
}

/**
 * Step 4 (notebook 004): GPT-2 BPE on the-verdict.txt, then (input, target) windows of 4 ids.
 * @param {EmbedlabModule} M
 * @param {ExampleIo} io
 */
export function bpeWindows(M, io) {
  const tok = M.Tokenizer.gpt2();
  const ids = tok.encode(io.verdict);
  const w = M.slidingWindows(ids, { maxLength: 4, stride: 4, batchSize: 4 });
  const first = w.batch(0);
  const seen = Array.from(ids.subarray(0, w.inputTokens));
  const iAt = seen.flatMap((id, i) => (id === 40 ? [i] : [])); // token 40 is "I"
  io.print('characters   ', io.verdict.length);
  io.print('gpt2 tokens  ', ids.length, ' first:', Array.from(ids.subarray(0, 4)).join(' '), JSON.stringify(tok.decode(ids.subarray(0, 4))));
  io.print('windows      ', w.numSamples, 'samples,', w.numBatches, 'batches of 4, ids in them:', w.inputTokens);
  io.print('batch 0 x[0] ', Array.from(first.inputs.subarray(0, 4)).join(' '), ' y[0]', Array.from(first.targets.subarray(0, 4)).join(' '));
  io.print('"I" (id 40)  ', iAt.length, 'times, first at', iAt.slice(0, 5).join(', '));
  tok.delete();
  return { tokens: ids.length, samples: w.numSamples, batches: w.numBatches, inputTokens: w.inputTokens,
    firstInputs: Array.from(first.inputs.subarray(0, 4)), firstTargets: Array.from(first.targets.subarray(0, 4)),
    iCount: iAt.length, iFirst: iAt.slice(0, 5) };
}

/**
 * Step 5 (notebook 004 and the registry): every positional encoding the engine knows, T = 8, D = 8.
 * @param {EmbedlabModule} M
 * @param {ExampleIo} io
 */
export function positions(M, io) {
  /** @type {Record<string, number[]>} */
  const shapes = {};
  for (const kind of M.positionalKinds()) {
    if (kind.provides === 'none') {
      io.print(kind.name.padEnd(11), 'no table:', kind.description);
      continue;
    }
    const t = M.positionTable(kind.name, { positions: 8, dim: 8, heads: 2, seed: 1 });
    shapes[kind.name] = t.shape;
    const lo = Math.min(...t.data), hi = Math.max(...t.data);
    const params = kind.params.map((p) => `${p.name}=${p.default}`).join(' ');
    io.print(kind.name.padEnd(11), kind.provides.padEnd(9), `[${t.shape.join(', ')}]`, `min ${lo.toFixed(4)} max ${hi.toFixed(4)}`, params);
  }
  const sin = M.sinusoidal(8, 8);
  io.print('sinusoidal[1]', row(sin, 1, 8));
  // RoPE rotates pairs of a vector, so lengths are kept.
  const x = new Float32Array(8 * 8).fill(1);
  const r = M.ropeApply(x, 8, 8);
  const norm7 = Math.hypot(...r.subarray(7 * 8, 8 * 8));
  io.print('|rope(x)[7]| ', norm7.toFixed(4), '= |x[7]| =', Math.hypot(...x.subarray(56)).toFixed(4));
  return { shapes, sin1: row(sin, 1, 8), norm7 };
}

/**
 * Step 6: word2vec (skip-gram, negative sampling, gensim's algorithm) on the-verdict.txt, one epoch.
 * @param {EmbedlabModule} M
 * @param {ExampleIo} io
 */
export function word2vec(M, io) {
  const tok = M.Tokenizer.fromCorpus('word', io.verdict, { lowercase: true });
  const { ids, sentenceStarts } = tok.sentences(io.verdict);
  const tr = M.Trainer.word2vec(ids, sentenceStarts, { sg: true, vectorSize: 16, window: 3, minCount: 3, epochs: 1, seed: 1, counts: tok.counts() ?? undefined });
  let stats = tr.step(1);
  while (!stats.finished) stats = tr.step(1);
  const table = tr.table('input');
  const vocab = /** @type {Int32Array} */ (tr.vocabIds());
  const labels = tok.tokenStrings(vocab);
  const the = labels.indexOf('the');
  const near = M.nearest(table.data, table.rows, table.cols, { id: the, k: 3 });
  io.print('sentences    ', sentenceStarts.length - 1, ' words', ids.length, ' kept vocabulary', table.rows);
  io.print('steps        ', stats.totalSteps, ' learning rate now', stats.learningRate.toFixed(5));
  io.print('table        ', table.rows, 'x', table.cols, ' "the":', row(table.data, the, 4), '...');
  io.print('near "the"   ', Array.from(near.ids, (id, k) => `${labels[id]} ${near.scores[k].toFixed(3)}`).join(', '));
  tr.delete();
  tok.delete();
  return { rows: table.rows, cols: table.cols, the: row(table.data, the, 4), near: Array.from(near.ids) };
}

/**
 * Step 7: a tiny next-token model (characters, D 16, T 16, RoPE, Adam) on the-verdict.txt.
 * @param {EmbedlabModule} M
 * @param {ExampleIo} io
 */
export function nextToken(M, io) {
  const tok = M.Tokenizer.fromCorpus('char', io.verdict);
  const ids = tok.encode(io.verdict);
  const V = tok.vocabSize;
  /** @type {import('../embedlab.js').NextTokenOptions} */
  // tokenizer: its checkpoints carry it, so M.generate can sample text from them
  const opts = { vocabSize: V, vectorSize: 16, context: 16, batchSize: 8, pos: 'rope', optimizer: 'adam', lr: 0.01, seed: 1, tokenizer: tok };
  const tr = M.Trainer.nextToken(ids, opts);
  const first = tr.step(1);
  const rest = tr.step(59);
  io.print('vocabulary   ', V, 'characters;  ln V =', Math.log(V).toFixed(4));
  io.print('step 1 loss  ', (first.loss ?? NaN).toFixed(4));
  io.print('steps 2-60   ', (rest.loss ?? NaN).toFixed(4), '(mean), last', rest.lastLoss.toFixed(4));
  io.print('settings     ', JSON.stringify(tr.settings));
  // a checkpoint: a second trainer of the same settings continues from step 60 exactly
  const saved = tr.saveState();
  const again = M.Trainer.nextToken(ids, opts);
  const at = again.loadState(saved);
  tr.step(10);
  again.step(10);
  const a = tr.table('input').data;
  const b = again.table('input').data;
  const same = a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
  io.print('checkpoint   ', saved.length, 'bytes at step', at, '; 10 more steps in both: same table', same);
  // text sampled from the saved run: `embedlab generate --state` on these bytes prints the same
  const sample = M.generate(saved, { prompt: 'I had always', tokens: 60, temperature: 0.8, seed: 1 });
  io.print('sample       ', JSON.stringify(`I had always${sample.text}`));
  again.delete();
  tr.delete();
  tok.delete();
  return { vocabSize: V, firstLoss: first.loss ?? NaN, lastLoss: rest.lastLoss, checkpointBytes: saved.length, resumedSame: same, sample: sample.text };
}

/**
 * Step 8 (notebook 002): a labelled table handed to the engine once: neighbours, PCA, export, import.
 * @param {EmbedlabModule} M
 * @param {ExampleIo} io
 */
export function tables(M, io) {
  M.manualSeed(42);
  const emb = new M.Embedding(6, 3); // the notebook's six words, D = 3
  const words = ['fox', 'house', 'in', 'is', 'quick', 'the'];
  const t = M.Table.fromArray(emb.weight(), 6, 3, { labels: words });
  emb.delete();
  const fox = row(t.row(0), 0, 3);
  io.print('table        ', t.rows, 'x', t.dim, ' "fox":', fox);
  const near = t.neighbours({ id: 0, k: 2 });
  io.print('near "fox"   ', Array.from(near.ids, (id, k) => `${words[id]} ${near.scores[k].toFixed(4)}`).join(', '));
  const p = t.pca({ k: 2 });
  io.print('pca explained', Array.from(p.explained, (v) => v.toFixed(4)).join(' '), ' "fox" at', row(p.points, 0, 2));
  const npy = t.export('npy');
  const back = M.Table.fromBytes(npy);
  const same = back.row(5).every((v, i) => Object.is(v, t.row(5)[i]));
  io.print('export npy   ', npy.length, 'bytes; read back:', back.format, back.rows, 'x', back.dim, ' same bits:', same);
  const tsv = new TextDecoder().decode(t.export('tsv'));
  io.print('vectors.tsv  ', JSON.stringify(tsv.split('\n')[0]));
  back.delete();
  t.delete();
  return { fox, explained: Array.from(p.explained), near: Array.from(near.ids), npyBytes: npy.length, same, tsv0: tsv.split('\n')[0] };
}

/** Every example in page order: [name, title, function]. */
export const EXAMPLES = /** @type {const} */ ([
  ['lookup', '1. Lookup, and an id out of range', lookup],
  ['one-hot', '2. One-hot × W equals the lookup', oneHot],
  ['scale', '3. The √D scale', scale],
  ['bpe-windows', '4. GPT-2 BPE and sliding windows on the-verdict.txt', bpeWindows],
  ['positions', '5. Positional encodings from the registry', positions],
  ['word2vec', '6. Training word2vec (tiny)', word2vec],
  ['next-token', '7. Training a next-token model (tiny)', nextToken],
  ['tables', '8. Imported tables: neighbours, PCA, export', tables],
]);
