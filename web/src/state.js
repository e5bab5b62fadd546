// Page state <-> URL hash. Pure: no DOM, so it is tested in Node (tests/js/state.test.mjs).
//
// The hash is a query string: "#view=table&seed=123&V=6&D=3&T=16&scale=1".
// parseHash() never throws. A value it cannot use falls back to the default and is
// reported in `ignored` ({key, value, reason}), so the page can say which value it dropped
// (tensorflow/playground State.deserializeState does the same). Unknown keys are reported too.
// serializeHash() writes every key whose value differs from its default, in PARAMS order,
// so a link only carries what the user changed.
//
// Training has its own text (tCorpus, tEnc, tLower; default: characters of Tiny Shakespeare, a
// run that generalises), apart from the text views' corpus, enc, lower (default: GPT-2 ids of
// The Verdict, the notebooks' order). Links made before that trained on corpus/enc/lower; so a
// link that shows training (view=train, or a step > 0) and names corpus, enc or lower but none
// of the training text keys is read as such an older link: its corpus, enc and lower (with their
// defaults) become tCorpus, tEnc and tLower, and `ignored` says so (an item with `migrated`).
// serializeHash() keeps a new link from being read that way: when it would write such a link it
// also writes tCorpus, even at its default (the one exception to "only what changed").
//
// This module does not validate against the engine's limits (V x D bytes, even D for RoPE):
// the engine does that and the page shows its message next to the control.
//
//   parseHash('#seed=abc&D=8') -> {state: {...DEFAULTS, D: 8},
//                                  ignored: [{key: 'seed', value: 'abc', reason: 'seed must be an integer in [0, 9007199254740991]'}]}
//   serializeHash({...DEFAULTS, D: 8}) -> 'D=8'
//
// What a link says is echoed with care (describeIgnored, echo): at most ECHO_CHARS characters of
// a key or value, control and format characters (U+202E RIGHT-TO-LEFT OVERRIDE, zero-width
// joiners, NUL...) shown as the escape \u202E, never as themselves, and at most MAX_IGNORED
// items listed (then one line saying how many more). parseHash reads at most MAX_HASH_CHARS
// characters of a hash (a `txt` link is at most 8,000): the rest is refused with one item,
// so a 2 MB hash costs no more than a 16 KB one.

// Each entry: kind int | num (finite, > min) | real (finite, in [min, max]) | bool | enum | optint
// (an integer or empty = none) | b64 (base64url text, the user's compressed text) | name (a card
// name) | keys (a comma list of setting keys: the known ones are kept, in order, each other one
// is listed as ignored on its own) | kinds (a comma list of positional kinds of the registry, kept
// in the registry's order, each unknown one listed as ignored; '' = every kind).
// The positional encodings come from the engine's registry (M.positionalKinds(), sent with the
// worker's ready message): setPositionalKinds() fills the values of `pos` and adds one key per
// parameter of every kind, "<kind>.<param>" (e.g. "rope.base"), so no kind is named here.
// Ranges here are "could ever make sense" bounds, not engine limits.
// The most training steps a link's step=N replays (the `step` key's max; docs/page.md, Links).
export const MAX_LINK_STEP = 100000;

export const PARAMS = [
  { key: 'view', kind: 'enum', def: 'table', values: ['table', 'text', 'bpe', 'windows', 'positions', 'train'] },
  { key: 'seed', kind: 'int', def: 123, min: 0, max: Number.MAX_SAFE_INTEGER },
  { key: 'V', kind: 'int', def: 6, min: 1, max: 2147483647 },
  { key: 'D', kind: 'int', def: 3, min: 1, max: 65536 },
  { key: 'T', kind: 'int', def: 32, min: 1, max: 1 << 20 },
  { key: 'scale', kind: 'bool', def: false },
  { key: 'pad', kind: 'optint', def: null, min: -2147483648, max: 2147483647 },
  { key: 'maxn', kind: 'real', def: 0, min: 0, max: 1e30 }, // table: nn.Embedding's max_norm (0: none)
  { key: 'tok', kind: 'int', def: 2, min: 0, max: 2147483647 },
  { key: 'pd', kind: 'int', def: 64, min: 1, max: 65536 },
  { key: 'sim', kind: 'enum', def: 'cos', values: ['cos', 'dot'] },
  { key: 'cmap', kind: 'enum', def: 'puor', values: ['puor', 'rdbu', 'viridis', 'cividis'] },
  { key: 'theme', kind: 'enum', def: 'auto', values: ['auto', 'light', 'dark'] }, // auto: prefers-color-scheme (style.css)
  { key: 'fs', kind: 'enum', def: 'medium', values: ['small', 'medium', 'large'] }, // label size of the plots' text
  // the engine's threads (null: every core the build may use); only the time changes, never a number
  { key: 'threads', kind: 'optint', def: null, min: 1, max: 64 },
  { key: 'corpus', kind: 'enum', def: 'the-verdict', values: ['the-verdict', 'tinyshakespeare', 'custom'] },
  { key: 'enc', kind: 'enum', def: 'gpt2', values: ['gpt2', 'whitespace', 'word', 'char', 'bpe'] },
  { key: 'lower', kind: 'bool', def: false },
  { key: 'at', kind: 'int', def: 0, min: 0, max: 2147483647 },
  { key: 'pick', kind: 'optint', def: null, min: 0, max: 2147483647 }, // text view: the picked chip (token position in the text)
  { key: 'L', kind: 'int', def: 4, min: 1, max: 1 << 20 },
  { key: 'stride', kind: 'int', def: 4, min: 1, max: 1 << 20 },
  { key: 'B', kind: 'int', def: 4, min: 1, max: 1 << 20 },
  { key: 'bpeV', kind: 'int', def: 300, min: 256, max: 1 << 20 }, // 256: the byte tokens only (no merges), as M.BpeTrainer allows
  // training's own text (see the header): the defaults give a run that generalises
  { key: 'tCorpus', kind: 'enum', def: 'tinyshakespeare', values: ['the-verdict', 'tinyshakespeare', 'custom'] },
  { key: 'tEnc', kind: 'enum', def: 'char', values: ['gpt2', 'whitespace', 'word', 'char', 'bpe'] },
  { key: 'tLower', kind: 'bool', def: false },
  { key: 'model', kind: 'enum', def: 'next', values: ['next', 'skipgram', 'cbow'] },
  { key: 'pos', kind: 'enum', def: 'learned', values: [] }, // values: setPositionalKinds()
  { key: 'tD', kind: 'int', def: 32, min: 1, max: 4096 },
  { key: 'ctx', kind: 'int', def: 32, min: 1, max: 1 << 16 },
  { key: 'tB', kind: 'int', def: 16, min: 1, max: 1 << 16 },
  { key: 'opt', kind: 'enum', def: 'adam', values: ['adam', 'adamw', 'sgd'] },
  { key: 'lr', kind: 'num', def: 0.01, min: 0, max: 1e6 },
  { key: 'alpha', kind: 'num', def: 0.025, min: 0, max: 1e6 },
  { key: 'win', kind: 'int', def: 5, min: 1, max: 1 << 16 },
  { key: 'minc', kind: 'int', def: 2, min: 1, max: 1 << 30 },
  { key: 'ep', kind: 'int', def: 5, min: 1, max: 1 << 16 },
  // train: opening the link replays the run to this step and stops (in slices, with progress
  // and Cancel: train-view.js); at most MAX_LINK_STEP steps, about 10 minutes at 200 steps/s
  { key: 'step', kind: 'int', def: 0, min: 0, max: MAX_LINK_STEP, why: `a link replays at most ${MAX_LINK_STEP.toLocaleString('en')} steps` },
  { key: 'logy', kind: 'bool', def: false },
  { key: 'cmp', kind: 'int', def: 600, min: 1, max: 100000 }, // compare: steps per encoding
  { key: 'cmpCorpus', kind: 'enum', def: 'tinyshakespeare', values: ['the-verdict', 'tinyshakespeare', 'custom'] }, // compare: text
  { key: 'cmpEnc', kind: 'enum', def: 'char', values: ['gpt2', 'whitespace', 'word', 'char', 'bpe'] }, // compare: tokenizer
  // compare: the encodings compared, a comma list of the registry's kinds ('' = every kind; values: setPositionalKinds)
  { key: 'cmpKinds', kind: 'kinds', def: '', values: [] },
  // compare: the factor of every RoPE scaling (the kinds with a `factor` parameter) in the comparison
  { key: 'cmpFactor', kind: 'real', def: 2, min: 1, max: 1024 },
  // compare: steps of the fine-tune at context 2T after training at T (0: none), per encoding
  { key: 'cmpFt', kind: 'int', def: 100, min: 0, max: 100000 },
  // the maps (views/map-choice.js): i… the imported table's, t… the training table's; the method,
  // then the page parameters of the worker's map registry (setMapAlgorithms)
  ...mapParams('i'),
  ...mapParams('t'),
  { key: 'embed', kind: 'bool', def: false }, // 1: only the view (no header, panel or tabs), for iframes
  { key: 'card', kind: 'name', def: '', max: 40 }, // with embed=1: only this card of the view (views/embed.js cardName)
  { key: 'controls', kind: 'keys', def: '' }, // with embed=1: fields for these settings, e.g. 'T,seed' (views/view-keys.js)
  { key: 'txt', kind: 'b64', def: '', max: 8000 }, // the user's own text, deflated (text-link.js)
  { key: 'txtdb', kind: 'b64', def: '', max: 64 }, // a text too long for txt: its hash in this browser's IndexedDB (storage.js)
];

// The URL keys of one map's choice (prefix 'i' or 't'): `<prefix>map` (pca, or an algorithm of
// the worker's registry), then one key per page parameter: setMapAlgorithms() adds them.
function mapParams(prefix) {
  return [{ key: `${prefix}map`, kind: 'enum', def: 'pca', values: ['pca'], mapPrefix: prefix }];
}
export const MAP_PREFIXES = ['i', 't'];

// The one rule of a map parameter's URL key (after the prefix): the initials of a name of
// several words, the name of one word; a parameter may declare an older `key` (kept for links).
//   {name: 'n_neighbors'} -> 'nn', {name: 'min_dist'} -> 'md', {name: 'metric'} -> 'metric',
//   {name: 'perplexity', key: 'perp'} -> 'perp'
export function mapParamKey(param) {
  if (param.key) return param.key;
  const words = param.name.split('_');
  return words.length > 1 ? words.map((w) => w[0]).join('') : param.name;
}

// list (the registry's page metadata) -> [{suffix, param, methods}]: the page parameters of every
// algorithm, one per URL key; a parameter shared by several algorithms (same key) is one entry.
export function mapFields(list) {
  const out = new Map();
  for (const a of list) {
    for (const q of a.params) {
      if (!q.page) continue;
      const suffix = mapParamKey(q);
      const f = out.get(suffix);
      if (f && f.param.default !== q.default) throw new Error(`map parameter ${q.name}: key ${suffix} has two defaults (${f.param.default}, ${q.default})`);
      if (f) f.methods.push(a.name);
      else out.set(suffix, { suffix, param: q, methods: [a.name] });
    }
  }
  return [...out.values()];
}

const BY_KEY = new Map(PARAMS.map((p) => [p.key, p]));

// Keys that are not settings a reader could be offered as a field (`controls`): what to show,
// where the reader is, and the user's own text.
const NOT_SETTINGS = new Set(['view', 'at', 'pick', 'step', 'embed', 'card', 'controls', 'txt', 'txtdb']);
export const isSettingKey = (key) => BY_KEY.has(key) && !NOT_SETTINGS.has(key);

// 'T, seed,bogus,T' -> {keys: ['T', 'seed'], bad: [{value: 'bogus', reason}]}: known setting keys,
// in order, without repeats. Used for `controls` (the page's iframe form and the widget).
// Longest hash parseHash reads (characters after '#'); the rest is refused with a note.
export const MAX_HASH_CHARS = 16384;
// Longest key or value echoed in a message (characters; longer: cut, with '…').
export const ECHO_CHARS = 40;
// Most ignored settings listed one by one (the rest: counted in one more line).
export const MAX_IGNORED = 20;

// user text -> what a message may show: at most `max` code points (then '…'), with control,
// format (bidi overrides and isolates, zero-width characters) and line/paragraph separators
// escaped as \uXXXX, so no echoed text can reorder, hide or break the line around it.
//   echo('a\u202Eb') -> 'a\\u202Eb'      echo('x'.repeat(50)) -> 'xxxx…' (40 x's, then …)
export function echo(text, max = ECHO_CHARS) {
  const chars = Array.from(String(text).slice(0, 4 * max + 4)); // never walk a 2 MB string
  const cut = chars.length > max ? [...chars.slice(0, max), '…'] : chars;
  return cut.map((c) => (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}]/u.test(c)
    ? `\\u${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`
    : c)).join('');
}

export function parseKeyList(raw) {
  const keys = [];
  const bad = [];
  for (const k of String(raw).split(',').map((x) => x.trim()).filter(Boolean)) {
    if (isSettingKey(k)) {
      if (!keys.includes(k)) keys.push(k);
    } else {
      bad.push({ value: k, reason: `'${echo(k)}' is not a setting (controls takes a comma list of setting keys, e.g. T,seed)` });
    }
  }
  return { keys, bad };
}

// A comma list of positional kinds (kind 'kinds', p.values: the registry's names) -> {value:
// the known ones in the registry's order, joined by ',', bad: [{value, reason}]}.
//   parseKindList(cmpKinds, 'rope-pi, rope,x') -> {value: 'rope,rope-pi', bad: [{value: 'x', reason: ...}]}
export function parseKindList(p, raw) {
  const given = String(raw).split(',').map((x) => x.trim()).filter(Boolean);
  const bad = given.filter((k) => !p.values.includes(k))
    .map((k) => ({ value: k, reason: `'${echo(k)}' is not a positional kind (${p.key} takes a comma list of ${p.values.join(', ')})` }));
  return { value: p.values.filter((k) => given.includes(k)).join(','), bad };
}

// Mutable only through setPositionalKinds(), which adds the keys of the kinds' parameters.
export const DEFAULTS = Object.fromEntries(PARAMS.map((p) => [p.key, p.def]));

// The URL key of a kind's parameter.
export const positionParamKey = (kind, param) => `${kind}.${param}`;

// kinds: M.positionalKinds() -> the keys it added ('rope.base', ...). `pos` accepts exactly the
// kinds' names (its default must be one of them); each parameter becomes an int or real key
// with the engine's default and range, inserted after `pos`.
export function setPositionalKinds(kinds) {
  const pos = BY_KEY.get('pos');
  pos.values = kinds.map((k) => k.name);
  for (const p of PARAMS) if (p.kind === 'kinds') p.values = pos.values;
  if (!pos.values.includes(pos.def)) pos.def = DEFAULTS.pos = pos.values[0];
  const added = [];
  let at = PARAMS.indexOf(pos) + 1;
  for (const k of kinds) {
    for (const q of k.params) {
      const key = positionParamKey(k.name, q.name);
      if (BY_KEY.has(key)) continue;
      const p = { key, kind: q.integer ? 'int' : 'real', def: q.default, min: q.min, max: q.max, posKind: k.name, posParam: q.name };
      PARAMS.splice(at++, 0, p);
      BY_KEY.set(key, p);
      DEFAULTS[key] = q.default;
      added.push(key);
    }
  }
  return added;
}

// list: the map registry's page metadata (the worker's ready message, mapAlgorithms) -> the keys
// it added. `<prefix>map` accepts pca and the algorithms' names; each page parameter becomes
// `<prefix><mapParamKey>` with the registry's default and range, inserted after `<prefix>map`.
export function setMapAlgorithms(list) {
  const added = [];
  for (const prefix of MAP_PREFIXES) {
    const map = BY_KEY.get(`${prefix}map`);
    map.values = ['pca', ...list.map((a) => a.name)];
    let at = PARAMS.indexOf(map) + 1;
    for (const { suffix, param: q } of mapFields(list)) {
      const key = `${prefix}${suffix}`;
      if (BY_KEY.has(key)) continue;
      const p = q.type === 'choice'
        ? { key, kind: 'enum', def: q.default, values: [...q.choices] }
        : { key, kind: q.type === 'int' ? 'int' : 'real', def: q.default, min: q.min, max: q.max };
      PARAMS.splice(at++, 0, p);
      BY_KEY.set(key, p);
      DEFAULTS[key] = q.default;
      added.push(key);
    }
  }
  return added;
}

// state (or a worker payload) -> {name: value} of kind's parameters, read from its
// '<kind>.<param>' keys (the engine's posParams). Pure: works without setPositionalKinds (the
// worker has its own copy of this module).
//   positionParams({pos: 'rope', 'rope.base': 500, 'sinusoidal.base': 90}) -> {base: 500}
export function positionParams(state, kind = state.pos) {
  const out = {};
  const prefix = positionParamKey(kind, '');
  for (const [k, v] of Object.entries(state)) if (k.startsWith(prefix) && v !== undefined && v !== null) out[k.slice(prefix.length)] = v;
  return out;
}

// state -> {kind: {param: value}} for every '<kind>.<param>' key set up by setPositionalKinds
// (the positions view draws each kind with its own values).
//   positionParamsByKind({'rope.base': 500, 't5.num_buckets': 8, seed: 1}) -> {rope: {base: 500}, t5: {num_buckets: 8}}
export function positionParamsByKind(state) {
  const out = {};
  for (const p of PARAMS) {
    if (!p.posKind || state[p.key] === undefined || state[p.key] === null) continue;
    (out[p.posKind] ||= {})[p.posParam] = state[p.key];
  }
  return out;
}

function rangeText(p) {
  return `[${p.min}, ${p.max}]`;
}

// Parses one raw string for param p -> {ok: true, value} | {ok: false, reason}.
export function parseValue(p, raw) {
  const s = String(raw).trim();
  switch (p.kind) {
    case 'int':
    case 'optint': {
      if (p.kind === 'optint' && (s === '' || s === 'none')) return { ok: true, value: null };
      // subtle: Number('') is 0 and Number('1e3') is 1000; accept only plain decimal integers.
      const why = p.why ? `, ${p.why}` : '';
      if (!/^-?\d{1,16}$/.test(s)) return { ok: false, reason: `${p.key} must be an integer in ${rangeText(p)}${why}` };
      const v = Number(s);
      if (!Number.isSafeInteger(v) || v < p.min || v > p.max) {
        return { ok: false, reason: `${p.key} must be an integer in ${rangeText(p)}${why}` };
      }
      return { ok: true, value: v };
    }
    case 'num': {
      // plain decimal or exponent notation; must be finite and > min (learning rates are never 0)
      if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(s)) return { ok: false, reason: `${p.key} must be a number in (${p.min}, ${p.max}]` };
      const v = Number(s);
      if (!Number.isFinite(v) || v <= p.min || v > p.max) return { ok: false, reason: `${p.key} must be a number in (${p.min}, ${p.max}]` };
      return { ok: true, value: v };
    }
    case 'real': {
      if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(s)) return { ok: false, reason: `${p.key} must be a number in [${p.min}, ${p.max}]` };
      const v = Number(s);
      if (!Number.isFinite(v) || v < p.min || v > p.max) return { ok: false, reason: `${p.key} must be a number in [${p.min}, ${p.max}]` };
      return { ok: true, value: v };
    }
    case 'b64':
      if (s.length <= p.max && /^[A-Za-z0-9_-]*$/.test(s)) return { ok: true, value: s };
      return { ok: false, reason: `${p.key} must be base64url text of at most ${p.max} characters` };
    case 'keys': {
      const { keys, bad } = parseKeyList(s);
      return bad.length ? { ok: false, reason: bad[0].reason } : { ok: true, value: keys.join(',') };
    }
    case 'kinds': {
      const { value, bad } = parseKindList(p, s);
      return bad.length ? { ok: false, reason: bad[0].reason } : { ok: true, value };
    }
    case 'name':
      if (s.length <= p.max && /^[a-z0-9-]*$/.test(s)) return { ok: true, value: s };
      return { ok: false, reason: `${p.key} must be lower-case letters, digits and '-', at most ${p.max} characters` };
    case 'bool':
      if (s === '1' || s === 'true') return { ok: true, value: true };
      if (s === '0' || s === 'false') return { ok: true, value: false };
      return { ok: false, reason: `${p.key} must be 0 or 1` };
    case 'enum':
      if (p.values.includes(s)) return { ok: true, value: s };
      return { ok: false, reason: `${p.key} must be one of ${p.values.join(', ')}` };
    default:
      return { ok: false, reason: `${p.key}: unknown parameter kind ${p.kind}` };
  }
}

export function formatValue(p, v) {
  if (p.kind === 'bool') return v ? '1' : '0';
  if (v === null || v === undefined) return '';
  return String(v);
}

function decode(s) {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s; // malformed %-escape: keep the raw text so the message can show it
  }
}

const TEXT_KEYS = ['corpus', 'enc', 'lower'];
const TRAIN_TEXT_KEYS = ['tCorpus', 'tEnc', 'tLower']; // in the order of TEXT_KEYS

// Does this state show a training run (so its link may be mistaken for an older one)?
const showsTraining = (state) => state.view === 'train' || state.step > 0;

// hash ('#a=1&b=2', 'a=1&b=2' or '') -> {state, ignored: [{key, value, reason, migrated?}]}
export function parseHash(hash) {
  const state = { ...DEFAULTS };
  const ignored = [];
  let text = String(hash || '').replace(/^#/, '');
  if (!text) return { state, ignored };
  let refused = null;
  if (text.length > MAX_HASH_CHARS) {
    // the settings up to the last '&' within the limit; the rest is not even split
    const end = text.lastIndexOf('&', MAX_HASH_CHARS);
    refused = { key: 'link', value: '', cut: text.length, reason: `the link's settings are ${text.length.toLocaleString('en')} characters; only the first ${MAX_HASH_CHARS.toLocaleString('en')} are read` };
    text = text.slice(0, end > 0 ? end : MAX_HASH_CHARS);
  }
  const named = new Set(); // keys the link gave a usable value
  for (const part of text.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const key = decode(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : decode(part.slice(eq + 1));
    const p = BY_KEY.get(key);
    if (!p) {
      ignored.push({ key, value, reason: `unknown setting '${echo(key)}'` });
      continue;
    }
    if (p.kind === 'keys' || p.kind === 'kinds') {
      // a list: the good entries stay, each bad one is listed on its own
      const list = p.kind === 'keys' ? parseKeyList(value) : parseKindList(p, value);
      const { bad } = list;
      state[key] = p.kind === 'keys' ? list.keys.join(',') : list.value;
      for (const b of bad) ignored.push({ key, value: b.value, reason: b.reason });
      continue;
    }
    const r = parseValue(p, value);
    if (r.ok) {
      state[key] = r.value;
      named.add(key);
    } else {
      ignored.push({ key, value, reason: r.reason });
    }
  }
  migrateTrainingText(state, named, ignored);
  if (refused) ignored.push(refused);
  return { state, ignored };
}

// An older link (see the header): training reads the text keys it names.
function migrateTrainingText(state, named, ignored) {
  const old = TEXT_KEYS.filter((k) => named.has(k));
  if (!showsTraining(state) || !old.length || TRAIN_TEXT_KEYS.some((k) => named.has(k))) return;
  TEXT_KEYS.forEach((k, i) => { state[TRAIN_TEXT_KEYS[i]] = state[k]; });
  const given = old.map((k) => `${k}=${formatValue(BY_KEY.get(k), state[k])}`).join('&');
  const now = TRAIN_TEXT_KEYS.map((k) => `${k}=${formatValue(BY_KEY.get(k), state[k])}`).join(', ');
  ignored.push({ key: old[0], value: given, migrated: true,
    reason: `training has its own text settings now; this older link trains on the text it names: ${now}` });
}

// state -> 'k=v&...' (no leading '#'), only keys that differ from DEFAULTS, and tCorpus when
// the link would otherwise read as an older one (see the header).
export function serializeHash(state) {
  const parts = [];
  const looksOld = showsTraining(state) && TEXT_KEYS.some((k) => state[k] !== undefined && state[k] !== DEFAULTS[k]) &&
    TRAIN_TEXT_KEYS.every((k) => state[k] === undefined || state[k] === DEFAULTS[k]);
  for (const p of PARAMS) {
    const v = state[p.key];
    if (v === undefined || (v === p.def && !(looksOld && p.key === 'tCorpus'))) continue;
    const text = encodeURIComponent(formatValue(p, v));
    parts.push(`${encodeURIComponent(p.key)}=${p.kind === 'keys' || p.kind === 'kinds' ? text.replace(/%2C/g, ',') : text}`); // controls=T,seed stays readable
  }
  return parts.join('&');
}

// One line for the page: "ignored seed=abc (seed must be an integer in [0, ...]); using the default 123"
export function describeIgnored(item) {
  if (item.migrated) return `${item.value} (an older link): ${item.reason}`;
  if (item.cut) return `refused: ${item.reason}; the rest is ignored`;
  const p = BY_KEY.get(item.key);
  const shown = echo(item.value);
  item = { ...item, key: echo(item.key), reason: echo(item.reason, 1000) };
  if (p && p.kind === 'b64') return `ignored ${item.key}=${shown} (${item.reason}); using the built-in corpus`;
  if (p && (p.kind === 'keys' || p.kind === 'kinds' || p.kind === 'name')) return `ignored ${item.key}=${shown} (${item.reason})`; // the reason says what happens instead
  const fallback = p ? `; using the default ${formatValue(p, p.def) || 'none'}` : '';
  return `ignored ${item.key}=${shown} (${item.reason})${fallback}`;
}

// ignored items -> the lines of a notice: at most MAX_IGNORED of them described, then how many
// more (a link with 100,000 unknown keys is one screen, not 100,000 paragraphs). A refused
// rest of the link (the `cut` item) is always shown.
//   ignoredLines(items, (t) => `Link setting ${t}.`)
export function ignoredLines(items, wrap = (t) => t) {
  const cut = items.filter((i) => i.cut);
  const rest = items.filter((i) => !i.cut);
  const lines = rest.slice(0, MAX_IGNORED).map((i) => wrap(describeIgnored(i)));
  if (rest.length > MAX_IGNORED) lines.push(`…and ${(rest.length - MAX_IGNORED).toLocaleString('en')} more ignored settings (only the first ${MAX_IGNORED} are listed).`);
  for (const i of cut) lines.push(wrap(describeIgnored(i)));
  return lines;
}

export function paramSpec(key) {
  return BY_KEY.get(key);
}
