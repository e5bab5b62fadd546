// Worker-side handler of the "Why positions?" card (views/why-positions-card.js): the
// position-independent-embeddings notebook's numbers, computed by the engine on GPT-2 ids of
// the-verdict. It does not draw, and it keeps its own GPT-2 tokenizer (the text pipeline's
// current tokens belong to the text and windows views).
//
//   whyPositions {} -> {
//     tokens,                          5,145 GPT-2 ids of the-verdict (tiktoken's)
//     flatTokens,                      5,136: the inputs of the full batches, flattened
//     token: {id, string, count, positions (count), same},   id 40 ("I"): where it stands in
//                                      those 5,136 ids (the notebook's count: 29);
//                                      same: its rows at those positions are bit-identical
//     phrases: [{text, ids, strings, sorted (ids ascending)}] x 2, sameSet, sameRows,
//              differWithPositions   " dog bites man" / " man bites dog": the same ids in another
//                                    order, so their rows, ordered by id, are the same bits; with
//                                    the position rows added (forwardWithPositions) they differ
//     windows: {maxLength 4, stride 4, batchSize 4, numSamples, numBatches, inputTokens, first (4 * 4)},
//     shape: [B, T, D] = [4, 4, 256],
//     tokRow0 (3), posRows (4 * 3), tokFirst (4 * 3), sumFirst (4 * 3)   first 3 of 256 values:
//       tok.weight[0], pos.weight[p], tok rows of the first window's ids, and input_embeddings[0, p]
//   }
// The tables: torch.manual_seed(123); tok = nn.Embedding(50257, 256); pos = nn.Embedding(4, 256)
// (M.manualSeed, M.Embedding, then M.learnedPositions from the same generator); the lookup and
// the addition are the engine's (Embedding.forward and forwardWithPositions:
// out[i] = W[ids[i]] + pos[i % T]). The reply is computed once per worker (it depends on nothing).
import { checkPageBudget } from './limits.js';

const SEED = 123;
const V = 50257; // GPT-2's vocabulary
const D = 256;
const T = 4; // max_length = stride = batch_size = 4, as the notebook
const TOKEN = 40; // "I"
const PHRASES = [' dog bites man', ' man bites dog'];
const SHOW = 3; // values shown per row

// rows (n * D) -> their first SHOW values, (n * SHOW)
function heads(rows, n) {
  const out = new Float32Array(n * SHOW);
  for (let r = 0; r < n; r++) out.set(rows.subarray(r * D, r * D + SHOW), r * SHOW);
  return out;
}

// rows (n * D) of ids (n) reordered by ascending id -> (n * D): a set of rows in one order
function rowsById(rows, ids) {
  const order = Array.from(ids, (id, i) => [id, i]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out = new Float32Array(rows.length);
  order.forEach(([, i], k) => out.set(rows.subarray(i * D, (i + 1) * D), k * D));
  return out;
}

const sameBits = (a, b) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

export function makeWhyPositionsHandler(M, loadCorpus) {
  let cached = null;

  async function compute() {
    const text = await loadCorpus('the-verdict');
    checkPageBudget('why positions', 'token table', [V, D]);
    const tokenizer = M.Tokenizer.make('gpt2');
    let tok = null;
    try {
      const ids = tokenizer.encode(text);
      const ds = M.slidingWindows(ids, { maxLength: T, stride: T, batchSize: T });
      // the notebook counts in the batched inputs (5,136 ids), flattened in batch order
      const flat = new Int32Array(ds.numBatches * T * T);
      for (let b = 0; b < ds.numBatches; b++) flat.set(ds.batch(b).inputs, b * T * T);
      const positions = [];
      flat.forEach((id, i) => id === TOKEN && positions.push(i));
      M.manualSeed(SEED);
      tok = new M.Embedding(V, D);
      const pos = M.learnedPositions(T, D);
      // the same id wherever it stands: the lookup gives the same row, bit for bit
      const rowsOfToken = tok.forward(Int32Array.from(positions, (p) => flat[p]));
      const first = rowsOfToken.subarray(0, D);
      let same = true;
      for (let k = 1; k < positions.length; k++) same = same && sameBits(rowsOfToken.subarray(k * D, (k + 1) * D), first);
      const phrases = PHRASES.map((p) => {
        const pids = tokenizer.encode(p);
        return { text: p, ids: pids, strings: tokenizer.tokenStrings(pids), sorted: Int32Array.from(pids).sort() };
      });
      const sets = phrases.map((p) => rowsById(tok.forward(p.ids), p.ids));
      const posSets = phrases.map((p) => rowsById(tok.forwardWithPositions(p.ids, pos.subarray(0, p.ids.length * D), p.ids.length), p.ids));
      const batch = ds.batch(0); // inputs (4 * 4)
      const firstIds = batch.inputs.subarray(0, T);
      const inputs = tok.forwardWithPositions(batch.inputs, pos, T); // (B * T * D) = (4, 4, 256)
      return {
        tokens: ids.length, flatTokens: flat.length,
        token: { id: TOKEN, string: tokenizer.tokenString(TOKEN), count: positions.length, positions: Int32Array.from(positions), same },
        phrases,
        sameSet: sameBits(phrases[0].sorted, phrases[1].sorted),
        sameRows: sameBits(sets[0], sets[1]),
        differWithPositions: !sameBits(posSets[0], posSets[1]),
        windows: {
          maxLength: T, stride: T, batchSize: T,
          numSamples: ds.numSamples, numBatches: ds.numBatches, inputTokens: ds.inputTokens,
          first: Int32Array.from(batch.inputs), firstStrings: tokenizer.tokenStrings(firstIds),
        },
        shape: [batch.rows, T, D],
        seed: SEED, V, D,
        tokRow0: heads(tok.weight().subarray(0, D), 1),
        posRows: heads(pos, T),
        tokFirst: heads(tok.forward(firstIds), T),
        sumFirst: heads(inputs, T),
      };
    } finally {
      tokenizer.delete();
      if (tok) tok.delete();
    }
  }

  async function whyPositions() {
    if (!cached) cached = compute();
    try {
      const r = await cached;
      // fresh typed arrays each time: a reply's buffers are transferred to the page
      return structuredClone(r);
    } catch (err) {
      cached = null;
      throw err;
    }
  }

  return { whyPositions };
}
