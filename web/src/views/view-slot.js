// One view of the page as main.js holds it: the keys its engine request depends on, its fetch,
// its dirty flag and, once the view is first shown, its view object. The view's code is loaded
// then (views/registry.js create imports its module: docs/page.md, "How the page loads"), so
// what the page tells a view before that is kept and told to it, in order, when it exists.
// It does not decide when a view is shown or what it draws (main.js, views/*-view.js).
//
//   const slot = new ViewSlot(VIEW_BY_NAME.table, () => entry.create(section, engine, host, options), fetch);
//   slot.with((view) => view.noteClamp(null));   // now, or once the view is created
//   const view = await slot.load();               // creates it (once); a failed load is tried again next time
//   if (slot.view && slot.view.last) ...          // null until created

export class ViewSlot {
  // entry: its views/registry.js entry; create() -> Promise of the view object; fetch: (state) -> Promise<reply | null>
  constructor(entry, create, fetch) {
    this.name = entry.name;
    this.keys = entry.keys;
    this.fetch = fetch;
    this.dirty = true;
    this.view = null;
    this.create = create;
    this.loading = null;
    this.waiting = []; // fn(view) calls kept until the view exists
    this.error = null; // PlotError and JobProgress of its plot area (main.js)
    this.progress = null;
  }

  // -> Promise of the view object, created on the first call; the kept calls run on it first
  load() {
    if (!this.loading) {
      this.loading = this.create().then(
        (view) => {
          this.view = view;
          for (const fn of this.waiting.splice(0)) fn(view);
          return view;
        },
        (err) => {
          this.loading = null;
          throw err;
        },
      );
    }
    return this.loading;
  }

  // fn(view object): now if it exists, else once it is created (when the view is first shown)
  with(fn) {
    if (this.view) fn(this.view);
    else this.waiting.push(fn);
  }
}
