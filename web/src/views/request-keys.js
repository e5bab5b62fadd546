// The URL keys each view's engine request depends on (a change asks the engine again), apart
// from the views' code: the page (main.js) and the view registry (views/registry.js) read them
// before a view's module is loaded, since a view's code is loaded only when it is first shown
// (docs/page.md, "How the page loads"). Each view module re-exports its own array (the same
// array: addPositionalKeys extends it in place, for both). Plus what other views need of two
// views without loading them: clampTok, the table's rule for the picked token (the page applies
// it whether or not the table view is loaded), and textPayload, the text settings' tokenizer
// (the table view names its rows with it).
// Nothing else: no drawing, no engine calls.

export const TABLE_KEYS = ['seed', 'V', 'D', 'pad', 'maxn', 'scale', 'tok'];
export const TEXT_KEYS = ['corpus', 'enc', 'lower', 'bpeV'];
export const BPE_KEYS = ['corpus', 'bpeV', 'seed'];
export const WINDOWS_KEYS = ['corpus', 'enc', 'lower', 'bpeV', 'L', 'stride', 'B'];
export const POSITION_KEYS = ['seed', 'T', 'pd', 'sim'];
export const TRAIN_KEYS = ['tCorpus', 'tEnc', 'tLower', 'bpeV', 'model', 'pos', 'tD', 'ctx', 'tB', 'opt', 'lr', 'alpha', 'win', 'minc', 'ep', 'seed'];

// state -> the text views' tokenize payload (TextView.payload)
export function textPayload(state) {
  return { corpus: state.corpus, enc: state.enc, lower: state.lower, bpeV: state.bpeV };
}

// The picked token must be a row of the table: V lowered to V' <= tok moves it to V' - 1.
// state (mutated) -> {from, to} | null. V that is not a positive integer is left to the engine's message.
//   clampTok({V: 5, tok: 9}) -> {from: 9, to: 4}, state.tok = 4
export function clampTok(state) {
  const V = state.V;
  if (!Number.isSafeInteger(V) || V < 1 || !Number.isSafeInteger(state.tok) || state.tok < V) return null;
  const from = state.tok;
  state.tok = V - 1;
  return { from, to: state.tok };
}
