// Which plots of a view are on screen, so the view asks the worker only for what it can show
// (issue 24, lean training frames). An IntersectionObserver watches each plot's element: a plot
// scrolled out, in a hidden card or in a view that is not shown (display: none) is off screen.
// A plot left out of an update while off screen is stale; when it comes back on screen onShow
// gets the stale names once, and the view catches them up (one request, or the next update).
//
// Not here: what an update carries (handlers/train-frame.js) or how a plot draws (plots/).
// Without IntersectionObserver (Node) every plot counts as on screen, as before the observer
// reports its first entries.
//
//   const vis = new PlotVisibility({ table: el1, map: el2 }, (names) => view.catchUp(names));
//   vis.shown()            // ['table', 'map'] minus those off screen
//   vis.visible('map')     // false once the map is scrolled out
//   vis.skipped('map')     // an update left the map out: stale until drawn
//   vis.drawn('map')       // drawn with the newest data
//   vis.stale()            // the stale plots that are on screen (a paused view catches them up)
//   vis.disconnect()

const MARGIN = '64px 0px'; // a plot about to scroll in counts as on screen

export class PlotVisibility {
  // plots: {name: Element | null} (a null element is never on screen); onShow(names): stale plots came on screen
  constructor(plots, onShow = () => {}) {
    this.names = Object.keys(plots);
    this.onShow = onShow;
    this.on = new Map(this.names.map((n) => [n, !!plots[n]]));
    this.stale_ = new Set();
    this.observer = null;
    if (typeof IntersectionObserver !== 'function') return;
    const byElement = new Map(Object.entries(plots).filter(([, el]) => el).map(([n, el]) => [el, n]));
    this.observer = new IntersectionObserver((entries) => this.update(entries.map((e) => [byElement.get(e.target), e.isIntersecting])), { rootMargin: MARGIN });
    for (const el of byElement.keys()) this.observer.observe(el);
  }

  // [[name, on screen]...] -> calls onShow with the stale plots that came on screen
  update(changes) {
    const back = [];
    for (const [name, on] of changes) {
      if (!this.on.has(name)) continue;
      if (on && !this.on.get(name) && this.stale_.has(name)) back.push(name);
      this.on.set(name, on);
    }
    if (back.length) this.onShow(back);
  }

  visible(name) {
    return this.on.get(name) === true;
  }

  // the names of the plots on screen, in the order they were given
  shown() {
    return this.names.filter((n) => this.on.get(n));
  }

  skipped(name) {
    this.stale_.add(name);
  }

  drawn(name) {
    this.stale_.delete(name);
  }

  // stale plots now on screen
  stale() {
    return this.names.filter((n) => this.stale_.has(n) && this.on.get(n));
  }

  disconnect() {
    if (this.observer) this.observer.disconnect();
  }
}
