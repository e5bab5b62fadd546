// The point map for big tables (issue 10, "Seeing a big table"; issue 24, "Never block, even
// without a GPU"): every row of an imported table (262,144 for Gemma's vocabulary) at its 2-D
// position, with zoom and pan (wheel, drag, keyboard), hover labels, highlighted search matches,
// a lasso, and colours per row. Both axes have the same scale (a unit of PC1 is as long as a
// unit of PC2), so distances on the map are the ones the neighbours table reports.
//
// Drawn off the main thread: the map's canvas is handed to a worker (scatter-worker.js) with
// transferControlToOffscreen, and the worker draws every frame there, with WebGL2 on a GPU or
// its own CPU rasteriser without one (software WebGL is slower than the rasteriser). The page
// never owns the map's drawing context, so no frame is drawn, composited or read back in the
// main thread (with deck.gl on the main thread, software GL's readback blocked it ~4 s per
// redraw of 262,144 points). The main thread keeps the data and its grid index for hover,
// lasso, keys and exports, and sends the worker a frame (view, size, theme, layers) per
// animation frame at most; the worker draws the newest one it has.
//
// What it does not do: it does not compute the projection (the worker's PCA does), decide the
// colours (colour-by.js) or list, search and export rows (the import view does).
//
// Files (one class, GlScatter, written in five: mix-methods.js copies the parts' methods onto it):
//   gl-scatter.js         the element, the data (setData, setPoints, colours, matches, selection)
//                         and the frames sent to the drawing worker
//   gl-scatter-view.js    the view: fit, pan and zoom (drag, wheel), data <-> pixels, the axes
//   gl-scatter-keys.js    the keyboard (pan, zoom, the walk between points) and hover tooltips
//   gl-scatter-lasso.js   the lasso (shift+drag or lasso mode) and its outline
//   gl-scatter-paint.js   2-D painting of the exported PNG / SVG figure
//   scatter-scene.js, scatter-worker.js, scatter-gl.js: the layers, the worker, its WebGL2 renderer
//
//   if (OffscreenCanvas can be had) {   // import-map.js checks, and falls back to the canvas Scatter
//     const sc = new GlScatter(parentEl, {height: 460, onSelect: (rows) => ..., onHover: (row) => ...});
//     sc.setData({points: Float32Array (n*2), labels: [n strings], colours: Uint8Array (n*4) | null, explained: [e1, e2]});
//     sc.setData({points, labels, axes: ['<map> 1', '<map> 2']});   // a map with named axes (no explained variance)
//     sc.setPoints(points, {axes, explained, method, fit});  // the same rows moved (an animated registry map, or
//                                               // another map): labels, colours, search matches and the lasso's
//                                               // rows stay (highlighted where they are now; the lasso's outline
//                                               // belonged to the old positions and goes); the view is refitted to
//                                               // the points every frame until the user pans or zooms, and always
//                                               // for fit: true (a new map: the user's zoom of the old one is no
//                                               // view of the new one)
//     sc.setColours(Uint8Array (n*4) | null);   // null: one colour for all
//     sc.highlight(Int32Array rows | null);     // search matches: bigger, outlined; the rest dimmed
//     sc.setSelection(Int32Array rows | null);  // as a lasso selects: in their colours, the rest dimmed
//     sc.setLassoMode(true);                    // drag draws a lasso (shift+drag always does)
//     sc.resetView(); sc.destroy();
//     await sc.probe([[x, y], ...]);   // the next frame's colours at those CSS pixels, and the pixels
//                                      // covered (the browser tests read the worker's canvas this way)
//     await sc.nextFrame();            // the worker has drawn the map as it is now
//     root.dataset: renderer ('webgl2' | 'canvas', when the worker is ready), drawn (rows in the last
//     frame), draws (frames drawn), renderMs (the worker's time for the last frame)
//   }
import { rgb } from 'd3-color';
import { onNextFrame } from './frame.js';
import { attachExport, figureExport, pointTable } from './plot-export.js';
import { PointGrid } from './point-index.js';
import { sceneLayers } from './scatter-scene.js';
import { plotTheme, watchTheme } from './theme.js';
import { mixMethods } from '../mix-methods.js';
import { RADIUS as RADIUS_PX, ScatterView } from './gl-scatter-view.js';
import { ScatterKeys } from './gl-scatter-keys.js';
import { ScatterLasso } from './gl-scatter-lasso.js';
import { ScatterPaint } from './gl-scatter-paint.js';

// The map's drawing worker, beside app.js (scripts/build-web.mjs bundles it)
const WORKER_URL = 'scatter-worker.js';
const BACKENDS = ['auto', 'webgl2', 'canvas'];

// The renderer asked for in the page's query string (?scatter=webgl2 | canvas | auto; see
// docs/page.md) -> {backend, error}: an unknown value is named and 'auto' used
export function scatterBackend(search = typeof location === 'object' ? location.search : '') {
  const v = new URLSearchParams(search).get('scatter');
  if (v === null || v === '') return { backend: 'auto', error: null };
  if (BACKENDS.includes(v)) return { backend: v, error: null };
  return { backend: 'auto', error: `unknown map renderer '${v.slice(0, 40)}' in ?scatter= (expected ${BACKENDS.join(', ')}); using auto` };
}

export class GlScatter {
  constructor(parent, { height = 460, onSelect = () => {}, onHover = () => {}, onFocusPoint = () => {}, onError = () => {}, exportName = null, backend = 'auto' } = {}) {
    this.height = height;
    this.onSelect = onSelect;
    this.onHover = onHover;
    this.onFocusPoint = onFocusPoint;
    this.onError = onError;
    this.focusRow = -1; // the point the arrow keys walk between (-1: none yet)
    this.root = document.createElement('div');
    this.root.className = 'gl-scatter';
    this.root.glScatter = this; // for the browser tests (points, project)
    this.axes = document.createElement('canvas');
    this.axes.className = 'gl-scatter-axes';
    this.frame = document.createElement('div');
    this.frame.className = 'gl-scatter-frame';
    this.frame.tabIndex = 0;
    this.frame.setAttribute('role', 'application');
    this.frame.setAttribute('aria-roledescription', 'scatter plot');
    this.frame.setAttribute('aria-label', 'map of the table rows: arrow keys move to the nearest point in that direction and name it, shift+arrows or drag pan, wheel or + and - zoom, 0 resets the view, Escape leaves the point, shift+drag draws a lasso');
    this.canvas = document.createElement('canvas'); // drawn by the worker (transferControlToOffscreen)
    this.canvas.className = 'gl-scatter-points';
    this.lasso = document.createElement('canvas');
    this.lasso.className = 'gl-scatter-lasso';
    this.marker = document.createElement('div');
    this.marker.className = 'gl-scatter-marker';
    this.marker.hidden = true;
    this.tip = document.createElement('div');
    this.tip.className = 'tooltip';
    this.tip.hidden = true;
    this.frame.append(this.canvas, this.lasso, this.marker);
    this.root.append(this.axes, this.frame, this.tip);
    this.root.style.height = `${height}px`;
    parent.append(this.root);
    this.data = null;
    this.matches = null;
    this.selection = null;
    this.lassoMode = false;
    this.viewState = { target: [0, 0, 0], zoom: 0 }; // the view the user sees (axes, hover, lasso)
    this.drawnView = this.viewState; // the view of the last frame the worker drew
    this.seq = 0; // frames sent
    this.inFlight = new Map(); // seq -> the view of a frame sent and not yet drawn
    this.probes = new Map(); // seq -> resolve of a probe()
    this.draws = 0;
    this.scheduleAxes = onNextFrame(() => this.drawAxes());
    this.scheduleFrame = onNextFrame(() => this.sendFrame());
    this.worker = new Worker(WORKER_URL, { type: 'module' });
    this.worker.onmessage = (e) => this.fromWorker(e.data);
    this.worker.onerror = (e) => onError(new Error(`the map's drawing worker failed: ${e.message || 'it did not start'}`));
    const offscreen = this.canvas.transferControlToOffscreen();
    this.worker.postMessage({ type: 'init', canvas: offscreen, backend }, [offscreen]);
    this.listen();
    new ResizeObserver(() => (this.scheduleAxes(), this.scheduleFrame())).observe(this.root);
    watchTheme(this);
    // PNG / SVG: the view as shown, painted again on a 2-D context (plot-export.js): the
    // worker's canvas is not readable here
    attachExport(parent, figureExport(() => this.figure(), { name: exportName ?? (() => `${this.data?.method || 'pca'}2`), element: this.root, table: () => pointTable(this.data) }));
  }

  // the theme or label size changed: point colours (WebGL), axes and the frame's margins (CSS)
  themeChanged() {
    this.scheduleAxes();
    this.updateLayers();
  }

  // The plot rectangle inside the root: the frame's place, which style.css sets (its margins
  // grow with the label size) -> {left, top}
  margins() {
    return { left: this.frame.offsetLeft, top: this.frame.offsetTop };
  }

  listen() {
    const f = this.frame;
    f.addEventListener('pointerdown', (e) => this.lassoStart(e) || this.panStart(e));
    f.addEventListener('pointermove', (e) => (this.path ? this.lassoMove(e) : this.drag ? this.panMove(e) : this.hover(e)));
    f.addEventListener('pointerup', (e) => (this.path ? this.lassoEnd(e) : this.panEnd()));
    f.addEventListener('pointercancel', (e) => (this.path ? this.lassoEnd(e) : this.panEnd()));
    f.addEventListener('pointerleave', () => this.hideTip());
    f.addEventListener('wheel', (e) => this.wheel(e), { passive: false });
    f.addEventListener('keydown', (e) => this.key(e));
  }

  setData({ points, labels = [], colours = null, explained = null, axes = null, method = null }) {
    const n = points.length >> 1;
    this.data = { points, labels, n, explained, axes, method };
    this.grid = new PointGrid(points);
    this.gridFor = points;
    this.colours = colours;
    this.matches = null;
    this.selection = null;
    this.polygon = null;
    this.root.dataset.lassoOutline = 'false';
    this.t0 = performance.now();
    this.drawnRows = 0;
    this.root.dataset.points = String(n);
    delete this.root.dataset.drawn;
    this.post({ type: 'rows', name: 'matches', rows: null });
    this.post({ type: 'rows', name: 'selection', rows: null });
    this.matchesSent = this.selectionSent = null;
    this.post({ type: 'colours', colours });
    this.post({ type: 'points', points });
    this.resetView();
    this.updateLayers();
  }

  // New positions of the same n rows (see the header). -> false when n differs (nothing changed)
  setPoints(points, { axes = this.data?.axes ?? null, explained = null, method = this.data?.method ?? null, fit = false } = {}) {
    if (!this.data || points.length >> 1 !== this.data.n) return false;
    this.data = { ...this.data, points, axes, explained, method };
    if (this.polygon) { // drawn around where the rows were: it would circle empty space now
      this.polygon = null;
      this.drawLasso();
    }
    this.root.dataset.lassoOutline = 'false';
    if (fit) this.userMoved = false; // a new map fits itself to the view
    this.gridFor = null; // rebuilt on the next hover, not every frame
    this.matchesFor = this.selectionFor = undefined; // the highlighted subsets take the new positions
    this.frames = (this.frames || 0) + 1;
    this.root.dataset.frames = String(this.frames);
    this.post({ type: 'points', points });
    if (this.focusRow >= 0) this.hideTip();
    if (!this.userMoved) this.resetView(); // draws the new points
    else {
      this.scheduleAxes();
      this.updateLayers();
    }
    return true;
  }

  setColours(colours) {
    this.colours = colours;
    this.post({ type: 'colours', colours });
    this.updateLayers();
  }

  highlight(rows) {
    this.matches = rows && rows.length ? rows : null;
    this.updateLayers();
  }

  setSelection(rows) {
    this.selection = rows && rows.length ? rows : null;
    this.polygon = null;
    this.updateLayers();
  }

  // The search matches and the lasso's selection changed, or the colours or the theme: the
  // worker gets the rows that changed, and a frame.
  updateLayers() {
    if (!this.data) return;
    if (this.matches !== this.matchesSent) {
      this.post({ type: 'rows', name: 'matches', rows: this.matches });
      this.matchesSent = this.matches;
    }
    if (this.selection !== this.selectionSent) {
      this.post({ type: 'rows', name: 'selection', rows: this.selection });
      this.selectionSent = this.selection;
    }
    this.scheduleFrame();
  }

  // The layers of the current view (scatter-scene.js), for the worker and the exported figure.
  layers(th = plotTheme(this.root)) {
    return sceneLayers({ radius: this.radiusScale() * RADIUS_PX, matches: !!this.matches, selection: !!this.selection, matchLine: th.matchLine });
  }

  // msg.points / colours / rows: the worker gets its own copy, made once here and transferred
  // (the page keeps the data for hover, lasso and exports; a structured clone of a view would
  // also copy the whole buffer under it)
  post(msg) {
    const key = ['points', 'colours', 'rows'].find((k) => msg[k]);
    if (!key) {
      this.worker.postMessage(msg);
      return;
    }
    const copy = Array.isArray(msg[key]) ? Int32Array.from(msg[key]) : msg[key].slice();
    this.worker.postMessage({ ...msg, [key]: copy }, [copy.buffer]);
  }

  // One frame of the current view for the worker (at most one per animation frame: scheduleFrame).
  sendFrame(probe = null) {
    if (!this.data) return;
    const [w, h] = this.size();
    const dpr = window.devicePixelRatio || 1;
    const th = plotTheme(this.root);
    const seq = ++this.seq;
    const view = this.viewState;
    this.inFlight.set(seq, view);
    this.worker.postMessage({
      type: 'frame', seq, W: Math.max(1, Math.round(w * dpr)), H: Math.max(1, Math.round(h * dpr)), dpr,
      view: { target: [view.target[0], view.target[1]], zoom: view.zoom }, base: th.point, background: rgbOf(th.surface),
      layers: this.layers(th), ...(probe && { probe }),
    });
    return seq;
  }

  // The colours the next frame has at CSS pixels [[x, y]...] of the frame, and how many device
  // pixels it covers: -> Promise {pixels: [[r, g, b]...], covered, backend}
  probe(at) {
    return new Promise((resolve) => this.probes.set(this.sendFrame(at), resolve));
  }

  // Resolves once the worker has drawn the map as it is now (tests and benchmarks wait on it)
  nextFrame() {
    return this.data ? this.probe(null) : Promise.resolve(null);
  }

  fromWorker(msg) {
    if (msg.type === 'ready') {
      this.backend = msg.backend;
      this.root.dataset.renderer = msg.backend;
      this.root.dataset.rendererReason = msg.reason;
    } else if (msg.type === 'drawn') {
      const view = this.inFlight.get(msg.seq);
      for (const k of this.inFlight.keys()) if (k <= msg.seq) this.inFlight.delete(k); // older frames were skipped
      this.drawnView = view;
      this.draws++;
      this.root.dataset.draws = String(this.draws);
      this.root.dataset.renderMs = msg.ms.toFixed(1); // the worker's time for this frame
      this.preview();
      if (this.data && this.root.dataset.drawn === undefined) {
        this.root.dataset.drawn = String(this.data.n); // for the browser tests: rows in the drawn frame
        this.root.dataset.firstDrawMs = (performance.now() - this.t0).toFixed(1);
      }
      for (const [k, resolve] of this.probes) {
        if (k === msg.seq) resolve(msg.probe ? { ...msg.probe, backend: this.backend } : null);
        if (k <= msg.seq) this.probes.delete(k);
      }
    } else if (msg.type === 'error') {
      this.onError(new Error(`the map's drawing worker: ${msg.message}`));
    }
  }

  destroy() {
    this.worker.terminate();
    this.root.remove();
  }
}

// a CSS colour -> [r, g, b]
function rgbOf(colour) {
  const c = rgb(colour);
  return [c.r, c.g, c.b];
}

mixMethods(GlScatter, ScatterView, ScatterKeys, ScatterLasso, ScatterPaint);
