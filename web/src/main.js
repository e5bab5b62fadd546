// Page glue: reads the URL hash into the state, wires the settings panel and the tabs to the
// views, sends engine requests for the visible view only, and writes the hash back after a
// successful draw (so a shared link always reproduces a plot that worked). No engine calls
// or drawing code here: engine-client.js talks to the worker, views/* draw. The views are the
// view registry's (views/registry.js), built here with the page's own options (PAGE_OPTIONS),
// each when first shown: its code is loaded then (loadView), not with the page, and what the
// page tells a view before that waits for it (withView). docs/page.md, "How the page loads".
//
// Error policy: an engine failure shows its message under the control it concerns and where
// the failed plot would be (views/plot-error.js), over the view's last good plot, which stays
// (a "stale" badge says so). The control is the one the worker names (the request's payload
// arguments blamed for the failure, protocol.js), narrowed by error-target.js; values that
// came from the link land on their own field too.
import { EngineClient } from './engine-client.js';
import { adoptWorker } from './engine-boot.js'; // started by index.html before this module graph loaded
import { failedField } from './error-target.js';
import { DEFAULTS, ignoredLines, parseHash, serializeHash, setMapAlgorithms, setPositionalKinds } from './state.js';
import { useMapAlgorithms } from './views/map-choice.js';
import { buildPositionFields, showPositionHelp } from './views/position-fields.js';
import { decodeText, tooLongMessage } from './text-link.js';
import { downloadBytes } from './download.js';
import { Controls } from './views/controls.js';
import { PlotError } from './views/plot-error.js';
import { JobProgress } from './views/job-progress.js';
import { TEXT_KEYS, TRAIN_KEYS, clampTok } from './views/request-keys.js';
import { VIEWS, VIEW_BY_NAME, addPositionalKeys } from './views/registry.js';
import { ViewSlot } from './views/view-slot.js';
import { ImportView } from './views/import-view.js';
import { TableExports } from './views/table-exports.js';
import { setExportNamer } from './plots/plot-export.js';
import { fileName } from './file-names.js';
import { installEmbed, movedCardView, showEmbedControls, showOnlyCard } from './views/embed.js';
import { installReadLinks } from './views/read-links.js';
import { viewControls } from './views/view-keys.js';
import { Session } from './session.js';
import { applyDisplay } from './plots/theme.js';

// Theme and label size from the link at once (not after the engine is ready): no flash of the
// light page before a dark one. parseHash reports the positional keys as unknown until the
// registry arrives; only theme and fs are read here.
const linked = parseHash(location.hash).state;
applyDisplay(document.documentElement, linked);
// The code of the view the link shows (else the table's) loads while the engine starts, not after
// (its first refresh would wait for it); the view object is made at that refresh, as for any view.
const firstView = VIEW_BY_NAME[movedCardView(linked.view, linked.card)] || VIEW_BY_NAME.table;
firstView.load().catch(() => {}); // a failure shows at the view's refresh, which loads it again

const statusEl = document.getElementById('engine-status');
const urlMessages = document.getElementById('url-messages');
const engine = new EngineClient('./worker.js', adoptWorker());

// The hash is read once the engine has sent its registry of positional kinds (start(), below).
let state = null;
let ignored = [];
let positionalKinds = [];
let lastChanged = null;
let lastWrittenHash = null;
let lastStepWrite = 0;

// view name -> its ViewSlot (views/view-slot.js: keys, fetch, dirty, the view object once
// first shown): one per entry of the view registry (views/registry.js), in its order
const views = {};
const loadView = (name) => views[name].load(); // -> Promise of the view object (its code loaded)
const withView = (name, fn) => views[name].with(fn); // fn(view) now, or once the view is first shown

function showIgnored(items) {
  urlMessages.replaceChildren();
  urlMessages.hidden = items.length === 0;
  for (const line of ignoredLines(items, (t) => `Link setting ${t}.`)) {
    const p = document.createElement('p');
    p.textContent = line;
    urlMessages.append(p);
  }
}

function writeHash() {
  const h = serializeHash(state);
  if (!state.embed) session.saveSettings(h); // an embedded card never overwrites the page's session
  const target = h ? `#${h}` : '';
  if (location.hash === target || (!h && location.hash === '')) return;
  lastWrittenHash = target;
  history.replaceState(null, '', `${location.pathname}${location.search}${target}`);
}

// Shows a failure of view v on its field and in its plot area; the last good plot stays.
function showFailure(v, err) {
  const key = failedField(err, v.keys, lastChanged);
  controls.setError(key, err.message);
  const kept = !!(v.view && v.view.last);
  v.error.show(err.message, { field: controls.label(key), kept });
  if (kept) v.view.setStale('showing the last good plot');
}

async function refresh(name) {
  const v = views[name];
  if (!v) return;
  v.dirty = false;
  const creating = loadView(name); // its code loads while the engine computes
  creating.catch(() => {}); // reported below
  try {
    const r = await v.fetch(state);
    if (r === null) return; // a newer request for this view is on its way
    const view = await creating;
    controls.clearErrors(v.keys);
    await view.render(r, state);
    // a part the view drew without (a kind refused at these settings): its message on its field
    if (view.fieldErrors) for (const [key, message] of view.fieldErrors()) controls.setError(key, message);
    view.setStale('');
    v.error.clear();
    v.progress.clear();
    writeHash();
  } catch (err) {
    if (err.cancelled) {
      // Cancel (views/job-progress.js): the last good plot stays, no field is at fault
      v.progress.cancelled();
      if (v.view && v.view.last) v.view.setStale('cancelled: showing the last plot that finished');
      return;
    }
    v.progress.clear();
    showFailure(v, err);
  }
}

function showView(name) {
  if (!state) return;
  const shown = views[state.view] && views[state.view].view;
  if (state.view !== name && shown && shown.pause) shown.pause(); // training stops off-screen
  state.view = name;
  for (const sec of document.querySelectorAll('.view')) sec.hidden = sec.dataset.view !== name;
  for (const b of document.querySelectorAll('.tabs button')) {
    b.setAttribute('aria-selected', String(b.dataset.view === name));
    b.tabIndex = b.dataset.view === name ? 0 : -1; // roving tabindex: the selected tab is the tab stop
  }
  controls.showGroupsFor(name);
  if (views[name] && views[name].dirty) refresh(name);
  writeHash();
}

function onChange(key, value) {
  if (!state) return; // the engine has not sent its registry yet (start())
  state[key] = value;
  lastChanged = key;
  // the link drops text it no longer shows (neither the text views nor training read it)
  if ((key === 'corpus' || key === 'tCorpus') && state.corpus !== 'custom' && state.tCorpus !== 'custom') state.txt = state.txtdb = '';
  if (key === 'V') pickedTokenFits();
  if (key === 'model' || key === 'pos') controls.showFieldsForModel(state.model, state.pos);
  if (key === 'pos') showPositionHelp(controls.form, positionalKinds, value);
  if (TEXT_KEYS.includes(key)) state.at = 0; // other ids: start the token strip from the top
  if (TEXT_KEYS.includes(key)) state.pick = null; // and no token is picked
  if (TRAIN_KEYS.includes(key)) state.step = 0; // a new run starts at step 0
  if (key === 'theme' || key === 'fs') {
    applyDisplay(document.documentElement, state); // style.css switches; every plot redraws (theme.js)
    writeHash();
    return;
  }
  if (key === 'threads') {
    applyThreads();
    writeHash();
    return;
  }
  if (key === 'cmap' || key === 'logy') {
    for (const v of Object.values(views)) if (v.view) v.view.recolor(state); // the others draw with it when shown
    writeHash();
    return;
  }
  let used = false;
  for (const [name, v] of Object.entries(views)) {
    if (!v.keys.includes(key)) continue;
    used = true;
    v.dirty = true;
    if (name === state.view) refresh(name);
  }
  if (!used) {
    // a setting read on demand (compare steps): tell the views, no recompute
    for (const v of Object.values(views)) if (v.view && v.view.setting) v.view.setting(key, value);
    writeHash();
  }
}

// A custom text too long for the link: offered as a file (the worker holds its bytes).
const customDownload = document.getElementById('custom-download');
customDownload.addEventListener('click', async () => {
  try {
    const r = await engine.request('customBytes', {});
    downloadBytes(r.bytes, r.name || fileName(state, { subject: 'text', what: 'custom', ext: 'txt' }), 'text/plain;charset=utf-8');
  } catch (err) {
    withView('text', (view) => view.setKeepNote(err.message));
  }
});

// Copy link: the hash is written on every change already; the button copies the whole address
// and says what it holds (or what it cannot: a text too long for the link).
const copyLink = document.getElementById('copy-link');
const copyLinkNote = document.getElementById('copy-link-note');
copyLink.addEventListener('click', async () => {
  if (!state) return;
  writeHash();
  const link = location.href;
  copyLink.dataset.link = link;
  const missing = (state.corpus === 'custom' || state.tCorpus === 'custom') && !state.txt ? ' Your text is too long for it: download it in the Text view and send it along.' : '';
  try {
    await navigator.clipboard.writeText(link);
    copyLinkNote.textContent = `Link copied (${link.length.toLocaleString('en')} characters).${missing}`;
  } catch {
    copyLinkNote.textContent = `Could not copy (the browser refused): the address bar holds the link.${missing}`;
  }
});

const controls = new Controls(document.getElementById('controls'), onChange);

// Autosave of the settings, the typed text and the training run (session.js); Start over clears it.
const session = new Session({
  status: document.getElementById('session-note'),
  startOver: document.getElementById('start-over'),
  dialog: document.getElementById('start-over-dialog'),
  beforeClear: async () => (views.train.view ? views.train.view.stopSaving() : undefined), // never shown: nothing saving
});
session.watchDraft(document.getElementById('custom-text'), document.getElementById('use-text'));

// V lowered below the picked token: the picked token moves to the last row (the table view says so).
function pickedTokenFits() {
  const moved = clampTok(state);
  const V = state.V;
  withView('table', (view) => view.noteClamp(moved, V));
  if (moved) document.getElementById('f-tok').value = String(state.tok);
}

// The page's own options of its views, over the ones the view registry builds for both hosts
// (views/registry.js create(..., extra)): view name -> {options, fetch?}
const PAGE_OPTIONS = {
  table: {
    options: {
      onPick: (row) => {
        controls.fill({ ...state, tok: row });
        document.getElementById('f-tok').value = String(row);
        onChange('tok', row);
      },
    },
  },
  text: {
    options: {
      // the worker holds the new text (setText reply r): tokens first, then where it is kept
      onCustomText: async (r) => {
        state.txt = state.txtdb = '';
        customDownload.hidden = true;
        controls.fill({ ...state, corpus: 'custom' });
        document.getElementById('f-corpus').value = 'custom';
        onChange('corpus', 'custom'); // marks text, windows and bpe for a refresh (training has its own text: tCorpus)
        await views.text.view.nextRender();
        const kept = await engine.request('keepText', {}).catch((err) => ({ error: err.message }));
        state.txt = kept.txt || '';
        state.txtdb = kept.txtdb || '';
        const chars = `${r.chars.toLocaleString('en')} characters`;
        const tooLong = kept.linkChars ? `too long for the page link (${tooLongMessage(kept.linkChars)}): download it to send it with the link` : '';
        views.text.view.setKeepNote(kept.txt ? `${chars}: kept in the page link (compressed).`
          : kept.txtdb ? `${chars}: ${tooLong}. Saved in this browser too (IndexedDB); the link names it (txtdb=${kept.txtdb}) and reopens it after a reload here, not in another browser.`
            : `${chars}: ${tooLong || 'not kept in the link'}. Not saved in this browser (${kept.error}); kept in this tab only.`);
        customDownload.hidden = !!kept.txt;
        writeHash();
      },
      // a chip's row, shown in the table view: V = the tokenizer's vocabulary, the picked row
      onOpenRow: ({ V, id }) => {
        state.V = V;
        state.tok = id;
        withView('table', (view) => view.noteClamp(null));
        controls.fill(state);
        views.table.dirty = true;
        showView('table');
      },
      onPosition: (at) => {
        state.at = at;
        writeHash();
      },
      onPickToken: (at) => {
        state.pick = at;
        writeHash();
      },
    },
  },
  bpe: {
    options: { onError: (err) => showFailure(views.bpe, err) },
  },
  train: {
    // the first run after loading may be the autosaved one (session.js): the worker restores it
    fetch: async (s) => {
      const { TrainView } = await VIEW_BY_NAME.train.load();
      const r = await TrainView.fetch(engine, () => ({ resume: session.resume && !s.embed, session: session.tab }))(s);
      if (r) session.resume = false;
      return r;
    },
    options: {
      autosave: session.enabled,
      onMapState: (key, value) => onMapState(key, value),
      // a step or a comparison failed: the run's message line or the compare note says it too
      onError: (err) => controls.setError(failedField(err, [...TRAIN_KEYS, 'cmp'], 'lr'), err.message),
      // the run's step goes in the link (step=N replays it): written when the run settles, else at most once a second
      onSteps: (n, settled) => {
        state.step = n;
        if (settled || performance.now() - lastStepWrite > 1000) {
          lastStepWrite = performance.now();
          writeHash();
        }
      },
    },
  },
};

// The page as the views' host (views/registry.js): its state; what a view's own hooks do on the
// page is in PAGE_OPTIONS.
const pageHost = {
  state: () => state,
  set: (key, value) => onChange(key, value),
  onError: () => {},
  onPlay: () => {},
};
for (const v of VIEWS) {
  const own = PAGE_OPTIONS[v.name] || {};
  views[v.name] = new ViewSlot(v, () => v.create(document.getElementById(v.section), engine, pageHost, own.options), own.fetch || v.fetch(engine));
}

// A map's choice (imap…, tmap…: map-choice.js) goes in the link; nothing is recomputed here
// (the card runs its map itself).
function onMapState(key, value) {
  if (!state) return;
  state[key] = value;
  writeHash();
}

// Bring your own table: a card of the table view with its own requests; in the link only its map choice
const importCard = document.getElementById('import-card');
const importView = new ImportView(importCard, engine, {
  onLoaded: () => { views.positions.dirty = true; }, // a GPT-2 file's wpe (or its absence) shows there
  onMapState,
});
new TableExports(importCard.querySelector('#import-results'), engine, { request: 'importExport', element: importCard, drawn: () => importView.drawnMap() });

// Downloads (plots and tables) are named from the state and where the plot sits (file-names.js):
// element -> {subject, step, kind, table}
function exportSubject(el, extra) {
  if (el && el.closest('#import-card')) {
    const file = importCard.querySelector('#import-file').files[0];
    const tensorField = importCard.querySelector('#import-tensor-field');
    const tensor = tensorField.hidden ? '' : importCard.querySelector('#import-tensor').value;
    return { subject: 'import', table: { name: file ? file.name : 'table', tensor, recognised: importCard.dataset.recognised } };
  }
  if (el && el.closest('#compare-card, #extrapolation-card')) return { subject: 'compare' };
  const view = (el && el.closest('[data-view]')) ? el.closest('[data-view]').dataset.view : state.view;
  if (view === 'train') return { subject: 'train', step: extra.step ?? Number(document.getElementById('view-train').dataset.steps || 0) };
  if (view === 'positions') return { subject: 'positions', kind: el && el.closest('[data-kind]') ? el.closest('[data-kind]').dataset.kind : undefined };
  return { subject: view };
}
setExportNamer((what, ext, el, extra = {}) => fileName(state, { ...exportSubject(el, extra), what, ext }));

for (const v of VIEWS) views[v.name].error = new PlotError(document.querySelector(`#${v.section} [data-plot-area]`));
// Long engine jobs: progress and Cancel in the plot area of the view that asked (a request
// keyed by a view name), else of the visible view.
for (const v of VIEWS) views[v.name].progress = new JobProgress(document.querySelector(`#${v.section} [data-plot-area]`), (id) => engine.cancel(id));
engine.onJob = (e) => {
  if (e.phase === 'end') {
    for (const v of Object.values(views)) v.progress.end(e.id);
    return;
  }
  const v = views[e.key] || (state && views[state.view]);
  if (v) v.progress.show(e);
};

for (const b of document.querySelectorAll('.tabs button')) {
  b.addEventListener('click', () => showView(b.dataset.view));
}
// ARIA tabs pattern: arrow keys (wrapping), Home and End move the focus and show that view.
document.querySelector('.tabs').addEventListener('keydown', (e) => {
  const tabs = [...document.querySelectorAll('.tabs button')];
  const i = tabs.indexOf(document.activeElement);
  const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
  if (i < 0 || to === undefined) return;
  e.preventDefault();
  const tab = tabs[(to + tabs.length) % tabs.length];
  tab.focus();
  showView(tab.dataset.view);
});

// Reads the link into the state, the controls and the views, then draws the view it names.
function readLink() {
  ({ state, ignored } = parseHash(location.hash));
  state.view = movedCardView(state.view, state.card); // a card that moved: its new view
  // embed mode with controls=a,b: fields for those settings above the card (the view's only)
  const embedded = state.embed ? viewControls(views[state.view] ? state.view : 'table', state.controls) : { keys: [], ignored: [] };
  ignored.push(...embedded.ignored);
  showIgnored(ignored);
  controls.fill(state);
  controls.showFieldsForModel(state.model, state.pos);
  showPositionHelp(controls.form, positionalKinds, state.pos);
  applyDisplay(document.documentElement, state);
  applyThreads();
  document.body.classList.toggle('embed', state.embed);
  if (state.embed) withView('train', (view) => (view.autosave = false));
  showOnlyCard(state);
  showEmbedControls(embedded.keys, controls);
  importView.setMapState(state);
  const mapState = state;
  withView('train', (view) => view.setMapState(mapState));
  for (const v of Object.values(views)) v.dirty = true;
  loadLinkText().then(() => {
    showView(views[state.view] ? state.view : 'table');
    if (!state.embed) session.restoreDraft(document.getElementById('custom-text'), document.getElementById('custom-caption'));
  });
}

window.addEventListener('hashchange', () => {
  if (!state || location.hash === lastWrittenHash) return;
  readLink();
});

// The user's text from the link (txt) or from this browser's storage (txtdb) goes to the
// worker before the first view asks for tokens. Missing: say so, use the built-in corpus.
async function loadLinkText() {
  pickedTokenFits();
  const key = state.txt ? 'txt' : state.txtdb ? 'txtdb' : null;
  if (!key) return;
  try {
    if (key === 'txt') {
      const text = await decodeText(state.txt);
      const r = await engine.request('setText', { text });
      (await loadView('text')).showCustomText({ ...r, text }, 'From the page link.'); // the text box shows it on every view
    } else {
      const r = await engine.request('loadStoredText', { hash: state.txtdb });
      const note = `${r.chars.toLocaleString('en')} characters: from this browser's storage (IndexedDB, txtdb=${state.txtdb}), named by the page link.`;
      (await loadView('text')).showCustomText(r, note);
    }
  } catch (err) {
    ignored.push({ key, value: state[key], reason: err.message });
    showIgnored(ignored);
    state.txt = state.txtdb = '';
    for (const k of ['corpus', 'tCorpus']) if (state[k] === 'custom') state[k] = DEFAULTS[k];
    controls.fill(state);
  }
}

// The registry of positional kinds (from the engine) -> the pos select, its parameter fields,
// their URL keys and the compare run; then the link is read and the first view drawn.
async function start(kinds, maps) {
  positionalKinds = kinds;
  setMapAlgorithms(maps); // the map keys of the link (state.js) and the map choices (map-choice.js)
  useMapAlgorithms(maps);
  // the train and positions views read each kind's parameters (views/registry.js positional)
  addPositionalKeys(setPositionalKinds(kinds));
  for (const f of buildPositionFields(controls.form, kinds)) controls.bind(f);
  withView('train', (view) => view.setKinds(kinds));
  installReadLinks(document.querySelector('main'));
  installEmbed({ state: () => state, hash: () => location.hash });
  // an address without settings gets the autosaved ones (a link keeps its own)
  const saved = await session.restoreHash(location.hash);
  if (saved && !location.hash.replace(/^#/, '')) {
    lastWrittenHash = `#${saved}`;
    history.replaceState(null, '', `${location.pathname}${location.search}#${saved}`);
  }
  readLink();
}

// The engine's threads: the `threads` setting (null: every core the build may use) goes to the
// worker (M.setThreads), and the badge says how many run. Only the time changes: the engine
// computes the same bytes at any count (docs/page.md, Threads). A page that is not cross-origin
// isolated runs the single-thread build, and the badge and the field's note say why.
let engineInfo = null; // {isa, build: 'embedlab' | 'embedlab-mt', threads}
const threadsNote = document.getElementById('threads-note');
function showReady() {
  const { isa, build, threads } = engineInfo;
  const single = build !== 'embedlab-mt';
  readyText = `engine ready (${isa}, ${threads} thread${threads === 1 ? '' : 's'})`;
  if (!statusEl.classList.contains('busy')) statusEl.textContent = readyText;
  statusEl.title = single ? 'This page is not cross-origin isolated, so the engine runs its single-thread build.' : `The threaded build runs ${threads} thread${threads === 1 ? '' : 's'}.`;
  threadsNote.textContent = single
    ? 'One thread: the page is not cross-origin isolated (the server sends no COOP/COEP headers).'
    : `${threads} running; this machine has ${navigator.hardwareConcurrency || 'an unknown number of'} logical cores.`;
  document.body.dataset.threads = String(threads);
  document.body.dataset.build = build;
}
let threadsAsked = Promise.resolve();
function applyThreads() {
  if (!engineInfo) return;
  const n = state.threads == null ? 64 : state.threads; // 64: as many as the build may use
  threadsAsked = threadsAsked.then(() => engine.request('threads', { n })).then(
    (r) => {
      engineInfo.threads = r.threads;
      showReady();
    },
    (err) => {
      threadsNote.textContent = err.message;
    },
  );
}

// "working…" after 300 ms of open requests, so quick answers do not flicker the badge
let busyTimer = null;
let readyText = '';
engine.onBusy = (open) => {
  if (!readyText) return;
  clearTimeout(busyTimer);
  if (open === 0) {
    statusEl.textContent = readyText;
    statusEl.classList.remove('busy');
    return;
  }
  busyTimer = setTimeout(() => {
    statusEl.textContent = 'engine working…';
    statusEl.classList.add('busy');
  }, 300);
};

engine.onCrash = (message) => {
  statusEl.textContent = message;
  statusEl.classList.remove('ok');
  statusEl.classList.add('bad');
};

engine.ready.then(
  (info) => {
    start(info.positionalKinds, info.mapAlgorithms);
    engineInfo = { isa: info.isa, build: info.build, threads: info.threads };
    showReady();
    statusEl.classList.add('ok');
    document.body.dataset.engine = 'ready';
  },
  (err) => {
    statusEl.textContent = err.message;
    statusEl.classList.add('bad');
    document.body.dataset.engine = 'failed';
  },
);
