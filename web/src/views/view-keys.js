// Which settings (URL keys, state.js) each view reads: the keys that make it ask the engine again
// (each view's KEYS) and the display keys it redraws with (colour map, log axis) or reads on
// demand (the compare card's text, tokenizer and steps). The Embed box offers these as `controls`
// checkboxes, the page in embed mode and the <embedlab-view> widget show fields for them, and a
// key a view does not read is listed as ignored with this list as the reason. No DOM.
//
//   viewControls('table', 'seed,T') -> {keys: ['seed'], ignored: [{key: 'controls', value: 'T', reason: 'the table view does not read T (it reads seed, V, …)'}]}
import { TABLE_KEYS } from './table-view.js';
import { POSITION_KEYS } from './positions-view.js';
import { TEXT_KEYS } from './text-view.js';
import { WINDOWS_KEYS } from './windows-view.js';
import { BPE_KEYS } from './bpe-view.js';
import { TRAIN_KEYS } from './train-view.js';

// view -> the keys of its engine requests (TRAIN_KEYS gains the positional parameters' keys
// once the engine has sent its registry: main.js and element.js push them)
export const VIEW_KEYS = { table: TABLE_KEYS, positions: POSITION_KEYS, text: TEXT_KEYS, windows: WINDOWS_KEYS, bpe: BPE_KEYS, train: TRAIN_KEYS };

// view -> the keys it reads without a new engine request
const READ_KEYS = { table: ['cmap'], positions: ['cmap'], text: [], windows: [], bpe: ['cmap'], train: ['cmap', 'logy', 'cmp', 'cmpCorpus', 'cmpEnc'] };

// view -> every key a reader may be given a field for
export function readKeys(view) {
  return [...(VIEW_KEYS[view] || []), ...(READ_KEYS[view] || [])];
}

// view, a list already checked against the known keys (state.js parseKeyList) ->
// {keys: the ones the view reads, ignored: [{key: 'controls', value, reason}] for the others}
export function viewControls(view, list) {
  const reads = readKeys(view);
  const keys = [];
  const ignored = [];
  for (const k of String(list || '').split(',').filter(Boolean)) {
    if (reads.includes(k)) keys.push(k);
    else ignored.push({ key: 'controls', value: k, reason: `the ${view} view does not read ${k} (it reads ${reads.join(', ')})` });
  }
  return { keys, ignored };
}
