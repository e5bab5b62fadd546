// Which settings (URL keys, state.js) each view reads: the keys that make it ask the engine again
// (each view's KEYS) and the display keys it redraws with (colour map, log axis) or reads on
// demand (the compare card's text, tokenizer and steps). The Embed box offers these as `controls`
// checkboxes, the page in embed mode and the <embedlab-view> widget show fields for them, and a
// key a view does not read is listed as ignored with this list as the reason. No DOM. The
// lists are the view registry's (views/registry.js keys and reads).
//
//   viewControls('table', 'seed,T') -> {keys: ['seed'], ignored: [{key: 'controls', value: 'T', reason: 'the table view does not read T (it reads seed, V, …)'}]}
import { VIEWS } from './registry.js';

// view -> the keys of its engine requests (views/registry.js keys: the train and positions
// views' gain the positional parameters' keys once the engine has sent its registry)
export const VIEW_KEYS = Object.fromEntries(VIEWS.map((v) => [v.name, v.keys]));

// view -> the keys it reads without a new engine request
const READ_KEYS = Object.fromEntries(VIEWS.map((v) => [v.name, v.reads]));

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
