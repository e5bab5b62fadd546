// A WebGL scatter for big tables (issue 10, "Seeing a big table"): every row of an imported table
// (262,144 for Gemma's vocabulary) at its 2-D PCA position, drawn by deck.gl (an OrthographicView
// and one ScatterplotLayer fed with binary attributes, so no per-point JS accessor runs), with
// zoom and pan (wheel, drag, keyboard), hover labels, highlighted search matches, a lasso, and
// colours per row. Both axes have the same scale (a unit of PC1 is as long as a unit of PC2), so
// distances on the map are the ones the neighbours table reports.
//
// What it does not do: it does not compute the projection (the worker's PCA does), decide the
// colours (colour-by.js) or list, search and export rows (the import view does).
//
// Why deck.gl and not regl-scatterplot (which the issue suggested): regl compiles its draw
// commands with `Function.apply` (node_modules/regl/dist/regl.js, ~line 6015), i.e. eval, and
// regl-scatterplot starts blob: workers; the page's CSP (`script-src 'self' 'wasm-unsafe-eval';
// worker-src 'self'`) forbids both, and the page runs no eval. deck.gl/luma.gl compile only GLSL.
// We pass typed arrays, so deck.gl never loads anything (no loaders.gl worker from a CDN).
//
// Files (one class, GlScatter, written in five: mix-methods.js copies the parts' methods onto it):
//   gl-scatter.js         the element, the data (setData, setPoints, colours, matches, selection),
//                         the deck.gl layers and the one-frame-in-flight send
//   gl-scatter-view.js    the view: fit, pan and zoom (drag, wheel), data <-> pixels, the axes
//   gl-scatter-keys.js    the keyboard (pan, zoom, the walk between points) and hover tooltips
//   gl-scatter-lasso.js   the lasso (shift+drag or lasso mode) and its outline
//   gl-scatter-paint.js   2-D painting: the exported PNG / SVG figure and the flat canvas of a moving map
//
//   if (a WebGL2 context can be had) {   // import-map.js checks, and falls back to the canvas Scatter
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
//   }
import { Deck, OrthographicView } from '@deck.gl/core';
import { ScatterplotLayer } from '@deck.gl/layers';
import { onNextFrame } from './frame.js';
import { attachExport, figureExport, pointTable } from './plot-export.js';
import { PointGrid } from './point-index.js';
import { plotTheme, watchTheme } from './theme.js';
import { mixMethods } from '../mix-methods.js';
import { RADIUS, ScatterView } from './gl-scatter-view.js';
import { ScatterKeys } from './gl-scatter-keys.js';
import { ScatterLasso } from './gl-scatter-lasso.js';
import { ScatterPaint } from './gl-scatter-paint.js';

// Colours and text size follow the theme (theme.js): the points' base colour and the matches'
// outline in WebGL, the axes on their canvas; the frame's position (style.css .gl-scatter-frame,
// which makes room for bigger labels) is read from the page, so the axes always fit it.
const FLAT_MAX_POINTS = 20000; // a moving map of at most this many rows is painted in 2-D (setFlat)

export class GlScatter {
  constructor(parent, { height = 460, onSelect = () => {}, onHover = () => {}, onFocusPoint = () => {}, onError = () => {}, exportName = null } = {}) {
    this.height = height;
    this.onSelect = onSelect;
    this.onHover = onHover;
    this.onFocusPoint = onFocusPoint;
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
    this.lasso = document.createElement('canvas');
    this.lasso.className = 'gl-scatter-lasso';
    this.marker = document.createElement('div');
    this.marker.className = 'gl-scatter-marker';
    this.marker.hidden = true;
    this.tip = document.createElement('div');
    this.tip.className = 'tooltip';
    this.tip.hidden = true;
    this.flatCanvas = document.createElement('canvas');
    this.flatCanvas.className = 'gl-scatter-flat';
    this.flatCanvas.hidden = true;
    this.frame.append(this.flatCanvas, this.lasso, this.marker);
    this.root.append(this.axes, this.frame, this.tip);
    this.root.style.height = `${height}px`;
    parent.append(this.root);
    this.data = null;
    this.matches = null;
    this.selection = null;
    this.lassoMode = false;
    this.viewState = { target: [0, 0, 0], zoom: 0 }; // the view the user sees (axes, hover, lasso)
    this.drawnView = this.viewState; // the view of the last frame deck.gl drew
    this.scheduleAxes = onNextFrame(() => this.drawAxes());
    this.deck = new Deck({
      parent: this.frame,
      width: '100%',
      height: '100%',
      views: new OrthographicView({ id: 'map', flipY: false, controller: false }),
      viewState: this.viewState,
      useDevicePixels: true,
      layers: [],
      getCursor: () => 'inherit', // the frame's CSS class says grab, grabbing or crosshair
      onBeforeRender: () => (this.renderStart = performance.now()),
      onAfterRender: (context) => this.afterRender(context),
      onError: (err) => onError(err),
      // deck.gl's event manager (mjolnir.js, for keyboard input we do not use) makes its canvas a
      // tab stop with no focus ring; the frame (role application) is the map's one tab stop
      onLoad: () => {
        const canvas = this.deck.getCanvas?.() || this.deck.canvas;
        if (canvas) canvas.tabIndex = -1;
      },
    });
    this.listen();
    new ResizeObserver(() => this.scheduleAxes()).observe(this.root);
    watchTheme(this);
    // PNG / SVG: the view as shown, painted again on a 2-D context (plot-export.js); a WebGL
    // canvas cannot be read back once composited
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
    this.setFlat(false);
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
    this.setFlat(this.data.n <= FLAT_MAX_POINTS);
    if (this.focusRow >= 0) this.hideTip();
    if (!this.userMoved) this.resetView(); // draws (flat: paints) the new points
    else {
      this.scheduleAxes();
      this.updateLayers();
    }
    return true;
  }

  setColours(colours) {
    this.colours = colours;
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

  // The rows of `rows` as their own binary attributes (positions, and colours when given).
  subset(rows, withColours) {
    const { points } = this.data;
    const pos = new Float32Array(rows.length * 2);
    const col = withColours ? new Uint8Array(rows.length * 4) : null;
    rows.forEach((r, k) => {
      pos[2 * k] = points[2 * r];
      pos[2 * k + 1] = points[2 * r + 1];
      if (col) {
        for (let c = 0; c < 3; c++) col[4 * k + c] = this.colours ? this.colours[4 * r + c] : this.base[c];
        col[4 * k + 3] = 255;
      }
    });
    return { length: rows.length, attributes: { getPosition: { value: pos, size: 2 }, ...(col && { getFillColor: { value: col, size: 4, normalized: true } }) } };
  }

  updateLayers() {
    if (!this.data) return;
    if (this.flat) {
      this.paintFlat();
      return;
    }
    const { points, n } = this.data;
    const th = plotTheme(this.root);
    const themed = this.base !== th.point; // the subsets carry the base colour: rebuilt
    this.base = th.point;
    const radiusScale = this.radiusScale();
    const attributes = { getPosition: { value: points, size: 2 } };
    if (this.colours) attributes.getFillColor = { value: this.colours, size: 4, normalized: true };
    // the data object is rebuilt only when its arrays change: deck.gl re-uploads on a new object
    if (!this.baseData || this.baseData.attributes.getPosition.value !== points || this.baseData.attributes.getFillColor?.value !== (this.colours || undefined)) {
      this.baseData = { length: n, attributes };
    }
    // the highlighted subsets carry their rows' colours: rebuilt when the rows or the colours change
    const recolour = this.colours !== this.subsetColours || themed;
    this.subsetColours = this.colours;
    if (recolour || this.matches !== this.matchesFor) {
      this.matchData = this.matches ? this.subset(this.matches, true) : null;
      this.matchesFor = this.matches;
    }
    if (recolour || this.selection !== this.selectionFor) {
      this.selectionData = this.selection ? this.subset(this.selection, true) : null;
      this.selectionFor = this.selection;
    }
    const layers = [
      new ScatterplotLayer({
        id: 'points', data: this.baseData, radiusUnits: 'pixels', getRadius: RADIUS, radiusScale, getFillColor: th.point,
        opacity: this.matches || this.selection ? 0.18 : 1, stroked: false, pickable: false,
      }),
    ];
    if (this.selectionData) {
      layers.push(new ScatterplotLayer({
        id: 'selection', data: this.selectionData, radiusUnits: 'pixels', getRadius: RADIUS + 0.5, radiusScale,
        opacity: this.matches ? 0.45 : 0.75, stroked: false, pickable: false,
      }));
    }
    if (this.matchData) {
      layers.push(new ScatterplotLayer({
        id: 'matches', data: this.matchData, radiusUnits: 'pixels', getRadius: RADIUS + 2.5, radiusScale,
        stroked: true, lineWidthUnits: 'pixels', getLineWidth: 1, getLineColor: th.matchLine, pickable: false,
      }));
    }
    this.send({ layers });
  }

  // Props for deck.gl, applied when the previous frame has left the GPU (see the header).
  send(props) {
    this.pending = Object.assign(this.pending || {}, props);
    if (this.sendQueued) return;
    this.sendQueued = true;
    const tryNow = () => {
      const { gl, fence } = this;
      if (fence && gl.getSyncParameter(fence, gl.SYNC_STATUS) !== gl.SIGNALED) {
        requestAnimationFrame(tryNow);
        return;
      }
      if (fence) gl.deleteSync(fence);
      this.fence = null;
      this.sendQueued = false;
      const p = this.pending;
      this.pending = null;
      if (p.viewState) this.committed = p.viewState;
      this.deck.setProps(p);
    };
    tryNow();
  }

  // deck.gl drew this.committed: the transform now maps that frame to the view the user sees
  afterRender({ gl }) {
    if (gl?.fenceSync) {
      this.gl = gl;
      this.fence = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
      gl.flush();
    }
    this.root.dataset.renderMs = (performance.now() - this.renderStart).toFixed(1); // main-thread time of deck.gl's last draw
    if (this.committed) {
      this.drawnView = this.committed;
      this.committed = null;
      this.preview();
    }
    if (this.data && this.root.dataset.drawn === undefined) {
      this.root.dataset.drawn = String(this.data.n); // for the browser tests: points in the drawn layer
      this.root.dataset.firstDrawMs = (performance.now() - this.t0).toFixed(1);
    }
  }

  destroy() {
    this.deck.finalize();
    this.root.remove();
  }
}

mixMethods(GlScatter, ScatterView, ScatterKeys, ScatterLasso, ScatterPaint);
