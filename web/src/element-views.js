// The page's views as the <embedlab-view> widget mounts them (element.js): for each view of the
// registry (views/registry.js) that a widget shows, how to build the page's own view object
// (views/*.js, the same code as the page, on a copy of its section of index.html in the widget's
// shadow root) with the widget's hooks in place of the page's, and how it asks the engine (the
// view's static fetch). Nothing is drawn here, and no view is named here: a view is added to the
// registry, not to this file.
//
//   const w = await WIDGET_VIEWS.table.make(section, engine.scope('element-1'), host);
//   const r = await w.fetch(state); if (r) await w.view.render(r, state);
//
// host: {state() -> the widget's state, set(key, value) (sets the attribute: re-renders),
//        kinds (the engine's positional kinds), onError(err), onPlay() (a run started playing)}.
// What a widget leaves out: the cards that read the reader's files (embed.js PAGE_ONLY_CARDS:
// "Bring your own table", "Your own text") or show what such a file held (GPT-2's imported
// position table), and what a view's registry entry removes in a widget (inWidget: the text
// view's "show this row in the table view" button, as there is no table view beside it).
import { VIEWS } from './views/registry.js';
import { PAGE_ONLY_CARDS } from './views/embed.js';

export const LEFT_OUT_CARDS = [...PAGE_ONLY_CARDS, 'positions-imported'];

// view name -> {make(root, engine, host) -> Promise<{view, fetch}>} (the view's module is loaded
// on the first make: views/registry.js load)
export const WIDGET_VIEWS = Object.fromEntries(VIEWS.filter((v) => v.widget).map((v) => [v.name, {
  make: async (root, engine, host) => {
    const view = await v.create(root, engine, host);
    if (v.inWidget) v.inWidget(root);
    return { view, fetch: v.fetch(engine) };
  },
}]));
