// The page's views as the <embedlab-view> widget mounts them (element.js): for each view, how to
// build the page's own view object (views/*.js, the same code as the page, on a copy of its
// section of index.html in the widget's shadow root) with the widget's hooks in place of the
// page's, and how it asks the engine (the view's static fetch). Nothing is drawn here.
//
//   const w = WIDGET_VIEWS.table.make(section, engine.scope('element-1'), host);
//   const r = await w.fetch(state); if (r) await w.view.render(r, state);
//
// host: {state() -> the widget's state, set(key, value) (sets the attribute: re-renders),
//        kinds (the engine's positional kinds), onError(err), onPlay() (a run started playing)}.
// What a widget leaves out: the cards that read the reader's files (embed.js PAGE_ONLY_CARDS:
// "Bring your own table", "Your own text") or show what such a file held (GPT-2's imported
// position table), and the text view's "show this row in the table view" button (there is no
// table view beside it).
import { TableView } from './views/table-view.js';
import { PositionsView } from './views/positions-view.js';
import { TextView } from './views/text-view.js';
import { WindowsView } from './views/windows-view.js';
import { BpeView } from './views/bpe-view.js';
import { TrainView } from './views/train-view.js';
import { PAGE_ONLY_CARDS } from './views/embed.js';

export const LEFT_OUT_CARDS = [...PAGE_ONLY_CARDS, 'positions-imported'];

export const WIDGET_VIEWS = {
  table: {
    make: (root, engine, host) => ({
      view: new TableView(root, {
        onPick: (row) => host.set('tok', row),
        labels: async (V, ids) => (await engine.request('tableLabels', { ...TextView.payload(host.state()), V, ids })).labels,
      }),
      fetch: TableView.fetch(engine),
    }),
  },
  positions: {
    make: (root, engine) => ({ view: new PositionsView(root), fetch: PositionsView.fetch(engine) }),
  },
  text: {
    make: (root, engine, host) => {
      const view = new TextView(root, engine, {
        onCustomText: () => {},
        onPosition: () => {},
        tableSettings: () => {
          const s = host.state();
          return { seed: s.seed, D: s.D, scale: s.scale, enc: s.enc };
        },
        onOpenRow: () => {},
      });
      root.querySelector('#token-open').hidden = true;
      return { view, fetch: TextView.fetch(engine) };
    },
  },
  windows: {
    make: (root, engine) => ({ view: new WindowsView(root, engine), fetch: WindowsView.fetch(engine) }),
  },
  bpe: {
    make: (root, engine, host) => ({ view: new BpeView(root, engine, { onError: (err) => host.onError(err) }), fetch: BpeView.fetch(engine) }),
  },
  train: {
    make: (root, engine, host) => {
      const view = new TrainView(root, engine, { onError: (err) => host.onError(err), onPlay: () => host.onPlay() });
      view.setKinds(host.kinds);
      return { view, fetch: TrainView.fetch(engine) };
    },
  },
};
