// What the worker's next-token runs (train-handler.js, compare-handler.js) build their trainer
// from: the rows of the output layer (nextTokenRows), and the one held-out rule (the CLI's) that
// splits the ids into a training stream and a held-out tail (the positional parameters of a
// payload: state.js positionParams).
//
//   nextTokenRows(M, [5, 9, 5], gpt2) -> {ids: [0, 1, 0], rowIds: Int32Array [5, 9], remapped: true}
//   nextTokenRows(M, ids, charTok) -> {ids, rowIds: [0..65], remapped: false}
//   heldOutSplit(20479) -> {cut: 18432, held: 2047}   (ids[0, cut) train, ids[cut, n) held out)
//   heldOutProbe(2047, {V: 62, D: 32, T: 32}) -> 2047   (all of it: cheap enough)

// The CLI's --valid-fraction default (src/cli/cmd_train.cpp): the last floor(n * 0.1) ids are
// held out, never trained on.
export const HELD_OUT_FRACTION = 0.1;

// Work of one held-out evaluation while training, in token x D x (V + T + 4D) multiply-adds
// (the output layer, attention and the four D x D matrices of one forward pass): 2^28 is about
// 25 ms in this page's wasm (6 ms for 8,192 characters of Tiny Shakespeare at D 32).
export const HELD_OUT_WORK = 2 ** 28;
export const HELD_OUT_MAX_TOKENS = 8192; // and at most this many held-out tokens (+1 for the last target)

// The rows of a next-token run: the engine's one remap (M.nextTokenRows, src/train/run_tokens.hpp
// run_rows), which `embedlab train` runs too, so the page's table is the CLI's. GPT-2's fixed
// vocabulary of 50,257 ids is remapped to the ids that occur, in id order (1,416 rows for
// the-verdict; the CLI's --full-vocab keeps all of them); a vocabulary built from the text
// (characters, words, BPE, with its special tokens <pad> <unk> <sos> <eos>) keeps its rows as the
// tokenizer numbers them.
// M, ids (n) int32 token ids, tok (M.Tokenizer) -> {ids (model rows), rowIds (row -> token id), remapped}
export function nextTokenRows(M, ids, tok) {
  return M.nextTokenRows(ids, tok);
}

// n ids -> {cut, held}: ids[0, cut) are trained on, the last `held` = floor(n * fraction) are
// held out. The same double arithmetic as cmd_train.cpp's
// static_cast<size_t>(ids.size() * valid_fraction), so the page and the CLI cut at the same id.
export function heldOutSplit(n, fraction = HELD_OUT_FRACTION) {
  const held = Math.floor(n * fraction);
  return { cut: n - held, held };
}

// How many held-out tokens (from the start of the held-out tail) one evaluation while training
// reads: all of them when they fit the work bound (then the number equals the CLI's
// valid_loss for the same settings and steps), else the first ones that do, at least T + 1 (one
// window). held: held-out tokens; V, D, T: rows, width and context of the model.
//   heldOutProbe(111539, {V: 65, D: 32, T: 32}) -> 8193;  heldOutProbe(33800, {V: 11000, D: 32, T: 32}) -> 751
export function heldOutProbe(held, { V, D, T }) {
  const perToken = D * (V + T + 4 * D);
  const fit = Math.floor(HELD_OUT_WORK / perToken);
  return Math.min(held, Math.max(T + 1, Math.min(HELD_OUT_MAX_TOKENS + 1, fit)));
}
