// The page's views, listed once: the page (main.js) and the <embedlab-view> widget (element.js,
// through element-views.js) both iterate over VIEWS, and views/view-keys.js reads each view's
// URL keys from it, in the order of the page's tabs. An entry says everything that is the same in both hosts:
//   name     the view's name: the link's view=NAME, the widget's view="NAME", the data-view of
//            its tab and section, the key of main.js's views.NAME (state.js lists the same
//            names as the values of `view`: checked below)
//   section  the id of its <section class="view"> in index.html (the widget mounts a copy of it,
//            cut out at build time by scripts/page-sections.mjs)
//   keys     the URL keys of its engine requests (a change asks the engine again); the array is
//            the view module's own (TABLE_KEYS...), so addPositionalKeys extends both
//   reads    the keys it reads without a new request (display keys, the compare card's settings)
//   positional  true: its keys gain the positional parameters' keys ('rope.base'...) once the
//            engine has sent its registry (addPositionalKeys)
//   widget   true: <embedlab-view view="NAME"> shows it
//   load()   -> Promise of the view's module (a dynamic import(): its code is fetched when the
//            view is first shown, not with the page; docs/page.md "How the page loads")
//   create(root, engine, host, extra) -> Promise of the view object, its module loaded first
//            (views/*-view.js: render(reply, state),
//            recolor(state), setStale(text), last; maybe pause(), setting(key, value))
//            host: {state() -> the host's state, set(key, value) (a setting the view changed),
//                   onError(err), onPlay() (a run started playing), kinds (the engine's positional
//                   kinds, when known at creation)}; extra: the host's own options for this view
//            (the page's: main.js PAGE_OPTIONS), which win over the ones built here
//   fetch(engine, extra?) -> (state) -> Promise<reply | null>: the view's static fetch (its
//            module loaded on the first call, so the request and the code load in parallel)
//   inWidget(section)   optional: what the widget removes from its copy of the section
//   drop(engine)        optional: what a widget frees in the worker when it is removed
//
// Not here: the views' code (views/*-view.js), the page's own glue (which setting changes what
// on the page, the link, autosave: main.js) and the widget's (attributes, shadow root:
// element.js). `load`, `create` and `fetch` are the only places that touch a view's module, and
// nothing imports a view module statically: each is a chunk of its own (scripts/build-web.mjs),
// fetched when the view is first created. The keys are in request-keys.js, outside the modules.
//
// Adding a view: its module(s) in views/, its <section class="view" id="view-NAME"> and tab in
// index.html, `NAME` in state.js's `view` values, and one entry here (then its tests and docs).
//
//   for (const v of VIEWS) views[v.name] = { keys: v.keys, fetch: v.fetch(engine) };
//   views.table.view = await VIEW_BY_NAME.table.create(root, engine, host);   // when first shown
import { BPE_KEYS, POSITION_KEYS, TABLE_KEYS, TEXT_KEYS, TRAIN_KEYS, WINDOWS_KEYS, textPayload } from './request-keys.js';
import { paramSpec } from '../state.js';

const tableModule = () => import('./table-view.js');
const textModule = () => import('./text-view.js');
const bpeModule = () => import('./bpe-view.js');
const windowsModule = () => import('./windows-view.js');
const positionsModule = () => import('./positions-view.js');
const trainModule = () => import('./train-view.js');

// load, the view's class -> (engine, extra?) => (state) => Promise: its static fetch, the
// module loaded (once) on the first call
//   fetch: lazyFetch(tableModule, (m) => m.TableView)
function lazyFetch(load, cls) {
  return (...args) => {
    let made = null;
    return async (state) => {
      made = made || load().then((m) => cls(m).fetch(...args));
      return (await made)(state);
    };
  };
}

export const VIEWS = [
  {
    name: 'table', section: 'view-table', keys: TABLE_KEYS, reads: ['cmap'], widget: true, load: tableModule,
    create: async (root, engine, host, extra = {}) => new (await tableModule()).TableView(root, {
      onPick: (row) => host.set('tok', row),
      // token strings of table rows when V is the vocabulary of the text settings' tokenizer
      labels: async (V, ids) => (await engine.request('tableLabels', { ...textPayload(host.state()), V, ids })).labels,
      ...extra,
    }),
    fetch: lazyFetch(tableModule, (m) => m.TableView),
  },
  {
    name: 'text', section: 'view-text', keys: TEXT_KEYS, reads: [], widget: true, load: textModule,
    create: async (root, engine, host, extra = {}) => new (await textModule()).TextView(root, engine, {
      onCustomText: () => {},
      onPosition: () => {},
      tableSettings: () => {
        const s = host.state();
        return { seed: s.seed, D: s.D, scale: s.scale, enc: s.enc };
      },
      onOpenRow: () => {},
      ...extra,
    }),
    fetch: lazyFetch(textModule, (m) => m.TextView),
    // no table view beside a widget: no "show this row in the table view" button
    inWidget: (section) => {
      section.querySelector('#token-open').hidden = true;
    },
  },
  {
    name: 'bpe', section: 'view-bpe', keys: BPE_KEYS, reads: ['cmap'], widget: true, load: bpeModule,
    create: async (root, engine, host, extra = {}) => new (await bpeModule()).BpeView(root, engine, { onError: (err) => host.onError(err), ...extra }),
    fetch: lazyFetch(bpeModule, (m) => m.BpeView),
  },
  {
    name: 'windows', section: 'view-windows', keys: WINDOWS_KEYS, reads: [], widget: true, load: windowsModule,
    create: async (root, engine) => new (await windowsModule()).WindowsView(root, engine),
    fetch: lazyFetch(windowsModule, (m) => m.WindowsView),
  },
  {
    name: 'positions', section: 'view-positions', keys: POSITION_KEYS, reads: ['cmap'], positional: true, widget: true, load: positionsModule,
    create: async (root) => new (await positionsModule()).PositionsView(root),
    fetch: lazyFetch(positionsModule, (m) => m.PositionsView),
  },
  {
    name: 'train', section: 'view-train', keys: TRAIN_KEYS, reads: ['cmap', 'logy', 'cmp', 'cmpCorpus', 'cmpEnc', 'cmpKinds', 'cmpFactor', 'cmpFt'], positional: true, widget: true, load: trainModule,
    create: async (root, engine, host, extra = {}) => {
      const { TrainView } = await trainModule();
      const view = new TrainView(root, engine, { onError: (err) => host.onError(err), onPlay: () => host.onPlay(), onSetting: (key, value) => host.set(key, value), ...extra });
      if (host.kinds) view.setKinds(host.kinds);
      return view;
    },
    // extra(state): more payload (the page's autosave asks for `resume`)
    fetch: lazyFetch(trainModule, (m) => m.TrainView),
    // a widget that goes frees its training run in the worker
    drop: (engine) => engine.request('trainDrop', {}).catch(() => {}),
  },
];

// name -> its entry (undefined for a name that is no view)
export const VIEW_BY_NAME = Object.fromEntries(VIEWS.map((v) => [v.name, v]));

// The positional parameters' keys (state.js setPositionalKinds) -> added to the keys of the
// views that draw or train positional encodings. Called once per host (main.js, element.js).
export function addPositionalKeys(keys) {
  for (const v of VIEWS) if (v.positional) v.keys.push(...keys);
}

// One list, two spellings: the link's `view` values (state.js) must be these names, in this order.
{
  const values = paramSpec('view').values;
  const names = VIEWS.map((v) => v.name);
  if (values.join() !== names.join()) {
    throw new Error(`views/registry.js: the views (${names.join(', ')}) and state.js's view values (${values.join(', ')}) differ`);
  }
}
