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
// Pan and zoom are ours, not deck.gl's controller, for the same reason as hover below: in software
// GL (SwiftShader, as in headless Chromium) one frame of 262,144 points takes seconds, and a
// controller that redraws on every mouse move backs the whole page up behind the GPU. While the
// user drags or turns the wheel, the last drawn frame is moved and scaled with a CSS transform
// (compositor only, no GL); the view is handed to deck.gl when the gesture pauses (COMMIT_MS) or
// ends, and the transform is dropped in the same frame as that draw. With a real GPU the redraw
// takes a millisecond and the pause is all one notices. For the same reason at most one frame is
// in flight: after each draw a fence goes into the GL stream, and new layers or views wait
// (polled once per animation frame, never blocking) until the GPU has passed it; the page's main
// thread then never stalls behind a queue of software-rendered frames.
//
// Hover does not use GPU picking: a pick renders the 262,144 points again into a picking buffer
// and reads it back synchronously, which blocks the main thread in software GL. A grid in data
// space (point-index.js) answers "the nearest point within 8 px" in well under a millisecond.
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
import { attachExport, figureExport, plotTitle, pointTable, titled } from './plot-export.js';
import { PointGrid, rowsInPolygon } from './point-index.js';
import { formatNumber, valueTicks } from './scales.js';
import { plotTheme, watchTheme } from './theme.js';

// Colours and text size follow the theme (theme.js): the points' base colour and the matches'
// outline in WebGL, the axes on their canvas; the frame's position (style.css .gl-scatter-frame,
// which makes room for bigger labels) is read from the page, so the axes always fit it.
const FONT_PX = 11;
const RADIUS = 1.5; // px at the fitted zoom; grows (up to 4x) as one zooms in
const HOVER_PX = 8; // hover finds the nearest point within this many pixels
const KEY_PAN = 0.15; // arrow keys move the view by this fraction of its size
const COMMIT_MS = 150; // a pan or zoom gesture paused this long is drawn for real
const WHEEL_ZOOM = 1 / 400; // zoom levels (factors of 2) per pixel of wheel delta
const LABELLED_MATCHES = 40; // exported figures label the search matches when there are at most this many
const SVG_VECTOR_POINTS = 20000;
const FLAT_MAX_POINTS = 20000; // a moving map of at most this many rows is painted in 2-D (setFlat) // more points in view than this: the SVG carries them as one embedded image

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

  figure() {
    const width = Math.max(200, this.root.clientWidth);
    const th = plotTheme(this.root, { light: true });
    return titled(plotTitle(this.root), [{ width, height: this.height, paint: (ctx) => this.paint(ctx, width, this.height, typeof ctx.getSerializedSvg === 'function', th) }]);
  }

  // The frame's points in the current view (base colour or the column's colours; the selection
  // and the search matches on top, as on screen), then the axes, in theme th. svg: many points
  // go in as one image at twice the CSS resolution instead of one <rect> each.
  paint(ctx, width, height, svg, th) {
    const M = this.margins();
    if (this.data) {
      const [w, h] = this.size();
      const { points, n } = this.data;
      const drawAll = (c) => this.paintPoints(c, th);
      let inView = 0;
      for (let i = 0; i < n && inView <= SVG_VECTOR_POINTS; i++) {
        const [px, py] = this.project(points[2 * i], points[2 * i + 1]);
        if (px >= 0 && py >= 0 && px <= w && py <= h) inView++;
      }
      ctx.save();
      ctx.translate(M.left, M.top);
      ctx.beginPath();
      ctx.rect(0, 0, w, h);
      ctx.clip();
      if (svg && inView > SVG_VECTOR_POINTS) {
        const layer = document.createElement('canvas');
        layer.width = w * 2;
        layer.height = h * 2;
        const lc = layer.getContext('2d');
        lc.scale(2, 2);
        drawAll(lc);
        ctx.drawImage(layer, 0, 0, w, h);
      } else {
        drawAll(ctx);
      }
      // a few search matches are labelled, as the tooltip names them on screen
      if (this.matches && this.matches.length <= LABELLED_MATCHES) {
        ctx.font = th.font(FONT_PX);
        ctx.fillStyle = th.label;
        ctx.textAlign = 'left';
        ctx.textBaseline = 'bottom';
        for (const i of this.matches) {
          const [px, py] = this.project(points[2 * i], points[2 * i + 1]);
          if (px >= 0 && py >= 0 && px <= w && py <= h) ctx.fillText(String(this.data.labels[i] ?? `row ${i}`), px + 4, py - 2);
        }
      }
      ctx.restore();
    }
    this.paintAxes(ctx, th);
  }

  // The points in the current view on a 2-D context whose origin is the frame's corner (the
  // exported figure, and the flat canvas of a moving map): as deck.gl draws them.
  // th: the theme to paint in (the screen's; a download passes the light one)
  paintPoints(c, th = plotTheme(this.root)) {
    const BASE = th.point;
    const [w, h] = this.size();
    const { points, n } = this.data;
    const r = RADIUS * this.radiusScaleFor(this.viewState.zoom);
    const rgba = (col, a) => `rgba(${col[0]}, ${col[1]}, ${col[2]}, ${a})`;
    const dim = this.matches || this.selection ? 0.18 : 1;
    // the view's transform inlined (project() allocates an array per point)
    const sc = 2 ** this.viewState.zoom;
    const [tx, ty] = this.viewState.target;
    const cols = this.colours;
    const drawRows = (rows, radius, alpha, colour) => {
      const count = rows ? rows.length : n;
      const styles = new Map(); // packed rgba -> its CSS text (a column has few colours)
      const base = rgba(colour || BASE, colour ? alpha : (BASE[3] / 255) * alpha);
      let last = '';
      for (let k = 0; k < count; k++) {
        const i = rows ? rows[k] : k;
        const px = w / 2 + (points[2 * i] - tx) * sc;
        const py = h / 2 - (points[2 * i + 1] - ty) * sc;
        if (px < -radius || py < -radius || px > w + radius || py > h + radius) continue;
        let style = base;
        if (!colour && cols) {
          const key = ((cols[4 * i] << 24) | (cols[4 * i + 1] << 16) | (cols[4 * i + 2] << 8) | cols[4 * i + 3]) >>> 0;
          style = styles.get(key);
          if (style === undefined) {
            style = rgba([cols[4 * i], cols[4 * i + 1], cols[4 * i + 2]], (cols[4 * i + 3] / 255) * alpha);
            styles.set(key, style);
          }
        }
        if (style !== last) {
          c.fillStyle = style;
          last = style;
        }
        c.fillRect(px - radius, py - radius, 2 * radius, 2 * radius);
      }
    };
    drawRows(null, r, dim);
    if (this.selection) drawRows(this.selection, r + 0.5, this.matches ? 0.45 : 0.75);
    if (this.matches) {
      drawRows(this.matches, r + 2.5, 1, th.matchLine);
      drawRows(this.matches, r + 1.5, 1);
    }
  }

  // --- the flat canvas of a moving map -----------------------------------------------------
  // A map that moves (setPoints: an animated registry map) of at most FLAT_MAX_POINTS rows is
  // painted on a 2-D canvas over the WebGL one, which is hidden: in software GL (SwiftShader,
  // headless Chromium) every deck.gl frame of 5,000 points costs the main thread ~140 ms (the
  // compositor reads the WebGL canvas back and waits for the GPU process: measured with a
  // trace, GLES2::ReadPixels in Commit), while the 2-D paint takes a few ms. Colours, search
  // matches, the selection, pan and zoom repaint it; a new setData() returns to deck.gl.
  setFlat(on) {
    if (on === !!this.flat) return;
    this.flat = on;
    this.flatCanvas.hidden = !on;
    const canvas = this.deck.getCanvas?.() || this.deck.canvas;
    if (canvas) canvas.style.visibility = on ? 'hidden' : '';
    this.root.dataset.flat = String(on);
  }

  paintFlat() {
    const [w, h] = this.size();
    const dpr = window.devicePixelRatio || 1;
    const c = this.flatCanvas;
    if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
      c.width = Math.round(w * dpr);
      c.height = Math.round(h * dpr);
    }
    const ctx = c.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    this.paintPoints(ctx);
    this.drawnView = this.viewState;
    this.root.dataset.drawn = String(this.data.n);
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

  // --- data -------------------------------------------------------------------------------

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

  setLassoMode(on) {
    this.lassoMode = !!on;
    this.root.classList.toggle('lasso-mode', this.lassoMode);
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

  // --- view -------------------------------------------------------------------------------

  size() {
    return [Math.max(1, this.frame.clientWidth), Math.max(1, this.frame.clientHeight)];
  }

  // The zoom (log2 of pixels per data unit) at which the 99th percentile (under 1,000 rows: the
// largest) of |x| and of |y|,
  // padded by 15%, fit the frame (a few outliers do not squeeze the cloud into a corner).
  fitZoom() {
    const { points, n } = this.data;
    const [w, h] = this.size();
    const ext = [0, 1].map((k) => {
      const step = Math.max(1, Math.floor(n / 65536));
      const a = new Float32Array(Math.ceil(n / step));
      for (let i = 0, j = 0; i < n; i += step, j++) a[j] = Math.abs(points[2 * i + k]);
      a.sort();
      // every point of a small table is shown; of a large one, a few outliers may sit outside
      return Math.max(1e-6, a[Math.floor((n < 1000 ? 1 : 0.99) * (a.length - 1))] * 1.15);
    });
    return Math.log2(Math.min(w / (2 * ext[0]), h / (2 * ext[1])));
  }

  resetView() {
    if (!this.data) return;
    this.userMoved = false; // an animated map is refitted again
    this.fit = this.fitZoom();
    this.setView({ target: [0, 0, 0], zoom: this.fit, minZoom: this.fit - 4, maxZoom: this.fit + 14 });
  }

  // The view the user asked for. commit: draw it now (keys, reset); else (a drag or the wheel)
  // show the last frame transformed and draw when the gesture pauses.
  setView(viewState, commit = true) {
    const z = Math.min(viewState.maxZoom ?? Infinity, Math.max(viewState.minZoom ?? -Infinity, viewState.zoom));
    this.viewState = { ...viewState, zoom: z };
    this.hideTip();
    this.scheduleAxes();
    clearTimeout(this.commitTimer);
    if (commit || this.flat) this.commit();
    else this.commitTimer = setTimeout(() => this.commit(), COMMIT_MS);
    this.preview();
  }

  commit() {
    if (this.flat) {
      this.paintFlat(); // cheap: no need to wait for the gesture to pause
      return;
    }
    if (this.drag) return; // the pointer is still down: panEnd commits
    this.send({ viewState: this.viewState });
    if (this.data && this.radiusScaleFor(this.viewState.zoom) !== this.shownRadiusScale) this.updateLayers();
  }

  // CSS transform (origin 0 0) taking the drawn frame to the current view: a data point at
  // pixel p in the drawn view is at k p + (w/2 (1 - k) + (tx - tx') s', h/2 (1 - k) - (ty - ty') s')
  // in the current one, k = s' / s.
  preview() {
    const canvas = this.deck.getCanvas?.() || this.deck.canvas;
    if (!canvas) return;
    const [w, h] = this.size();
    const [a, b] = [this.drawnView, this.viewState];
    const s1 = 2 ** b.zoom;
    const k = s1 / 2 ** a.zoom;
    const dx = (w / 2) * (1 - k) + (a.target[0] - b.target[0]) * s1;
    const dy = (h / 2) * (1 - k) - (a.target[1] - b.target[1]) * s1;
    canvas.style.transformOrigin = '0 0';
    canvas.style.transform = k === 1 && dx === 0 && dy === 0 ? '' : `translate(${dx}px, ${dy}px) scale(${k})`;
  }

  panStart(e) {
    if (!this.data || e.button !== 0) return;
    this.frame.setPointerCapture(e.pointerId);
    this.drag = { x: e.clientX, y: e.clientY, target: this.viewState.target };
    this.frame.classList.add('dragging');
    this.hideTip();
  }

  panMove(e) {
    this.userMoved = true;
    const s = 2 ** this.viewState.zoom;
    const { x, y, target } = this.drag;
    this.setView({ ...this.viewState, target: [target[0] - (e.clientX - x) / s, target[1] + (e.clientY - y) / s, 0] }, false);
  }

  panEnd() {
    if (!this.drag) return;
    this.drag = null;
    this.frame.classList.remove('dragging');
    clearTimeout(this.commitTimer);
    this.commit();
  }

  // the wheel zooms about the pointer: the data point under it stays under it
  wheel(e) {
    if (!this.data) return;
    e.preventDefault();
    this.userMoved = true;
    const [px, py] = this.local(e);
    const [x, y] = this.unproject(px, py);
    const { zoom, minZoom = -Infinity, maxZoom = Infinity } = this.viewState;
    const z = Math.min(maxZoom, Math.max(minZoom, zoom - e.deltaY * (e.deltaMode ? 40 : 1) * WHEEL_ZOOM));
    const f = 2 ** (zoom - z);
    this.setView({ ...this.viewState, zoom: z, target: [x - (x - this.viewState.target[0]) * f, y - (y - this.viewState.target[1]) * f, 0] }, false);
  }

  // points grow (at most 4x) as one zooms in, in steps of 1/8 so a zoom redraws few layer props
  radiusScaleFor(zoom) {
    return Math.round(Math.min(4, 2 ** Math.max(0, (zoom - (this.fit ?? 0)) / 3)) * 8) / 8;
  }

  radiusScale() {
    this.shownRadiusScale = this.radiusScaleFor(this.viewState.zoom);
    return this.shownRadiusScale;
  }

  // data (x, y) -> CSS pixels in the frame, and back (the OrthographicViewport's transform with
  // flipY false: y grows upwards)
  project(x, y) {
    const [w, h] = this.size();
    const s = 2 ** this.viewState.zoom;
    const [tx, ty] = this.viewState.target;
    return [w / 2 + (x - tx) * s, h / 2 - (y - ty) * s];
  }

  unproject(px, py) {
    const [w, h] = this.size();
    const s = 2 ** this.viewState.zoom;
    const [tx, ty] = this.viewState.target;
    return [tx + (px - w / 2) / s, ty - (py - h / 2) / s];
  }

  key(e) {
    if (!this.data) return;
    const [w, h] = this.size();
    const s = 2 ** this.viewState.zoom;
    const [tx, ty] = this.viewState.target;
    const pan = { ArrowLeft: [-w, 0], ArrowRight: [w, 0], ArrowUp: [0, h], ArrowDown: [0, -h] }[e.key];
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
    if (step && !e.shiftKey) this.stepFocus(step);
    else if (pan) {
      this.userMoved = true;
      this.setView({ ...this.viewState, target: [tx + (pan[0] * KEY_PAN) / s, ty + (pan[1] * KEY_PAN) / s, 0] });
    }
    else if (e.key === 'Escape' && this.focusRow >= 0) {
      this.focusRow = -1;
      this.hideTip();
    }
    else if (e.key === '+' || e.key === '=' || e.key === '-' || e.key === '_') {
      this.userMoved = true;
      this.setView({ ...this.viewState, zoom: this.viewState.zoom + (e.key === '+' || e.key === '=' ? 0.5 : -0.5) });
    }
    else if (e.key === '0') this.resetView();
    else return;
    e.preventDefault();
  }

  // --- keyboard walk between points -------------------------------------------------------

  // From the focused point (at first: the one nearest the centre of the view) to the nearest
  // point on screen in direction dir ([dx, dy] in screen pixels, y down) within 45 degrees of it;
  // ties go to the lower row. The view follows a point that leaves it.
  stepFocus(dir) {
    const { points, n } = this.data;
    const [w, h] = this.size();
    let from = this.focusRow;
    if (from < 0) {
      const [cx, cy] = this.unproject(w / 2, h / 2);
      let bd = Infinity;
      for (let i = 0; i < n; i++) {
        const d = (points[2 * i] - cx) ** 2 + (points[2 * i + 1] - cy) ** 2;
        if (d < bd) [bd, from] = [d, i];
      }
      this.focusPoint(from);
      return;
    }
    const s = 2 ** this.viewState.zoom;
    const fx = points[2 * from];
    const fy = points[2 * from + 1];
    let best = -1;
    let bestScore = Infinity;
    for (let i = 0; i < n; i++) {
      // screen offsets from the focused point (y grows downwards on screen)
      const dx = (points[2 * i] - fx) * s;
      const dy = -(points[2 * i + 1] - fy) * s;
      const along = dx * dir[0] + dy * dir[1];
      if (along <= 0) continue; // includes the point itself and points at the same pixel
      const across = Math.abs(dx * dir[1] - dy * dir[0]);
      if (across > along) continue;
      const score = along + 2 * across;
      if (score < bestScore) [bestScore, best] = [score, i];
    }
    if (best >= 0) this.focusPoint(best);
  }

  // Marks row and names it in the tooltip (and to the page: onFocusPoint); pans to keep it in view.
  focusPoint(row) {
    this.focusRow = row;
    const p = this.data.points;
    let [px, py] = this.project(p[2 * row], p[2 * row + 1]);
    const [w, h] = this.size();
    if (px < 0 || py < 0 || px > w || py > h) {
      this.setView({ ...this.viewState, target: [p[2 * row], p[2 * row + 1], 0] });
      [px, py] = this.project(p[2 * row], p[2 * row + 1]);
    }
    this.showTip(row, px, py, px, py);
    this.root.dataset.focusRow = String(row);
    this.onFocusPoint(row);
  }

  // --- hover ------------------------------------------------------------------------------

  hover(e) {
    if (!this.data || e.buttons) return; // no lookups while a drag pans
    const r = this.frame.getBoundingClientRect();
    const mx = e.clientX - r.left;
    const my = e.clientY - r.top;
    const [x, y] = this.unproject(mx, my);
    if (this.gridFor !== this.data.points) {
      this.grid = new PointGrid(this.data.points);
      this.gridFor = this.data.points;
    }
    const row = this.grid.nearest(x, y, HOVER_PX / 2 ** this.viewState.zoom);
    if (row < 0) {
      this.hideTip();
      return;
    }
    const p = this.data.points;
    const [px, py] = this.project(p[2 * row], p[2 * row + 1]);
    this.showTip(row, px, py, mx, my);
    this.root.dataset.hoverRow = String(row);
    this.onHover(row);
  }

  // The marker on row (frame pixels px, py) and its label, row and coordinates in the tooltip
  // next to (tx, ty): the mouse when hovering, the point itself when walking with the keys.
  showTip(row, px, py, tx, ty) {
    const p = this.data.points;
    this.tip.textContent = `${this.data.labels[row] ?? `row ${row}`} · row ${row} · (${formatNumber(p[2 * row])}, ${formatNumber(p[2 * row + 1])})`;
    this.tip.hidden = false;
    this.marker.hidden = false;
    this.marker.style.left = `${px}px`;
    this.marker.style.top = `${py}px`;
    const M = this.margins();
    this.tip.style.left = `${Math.max(0, Math.min(M.left + tx + 12, this.root.clientWidth - this.tip.offsetWidth - 4))}px`;
    this.tip.style.top = `${M.top + ty + 14}px`;
  }

  hideTip() {
    this.tip.hidden = true;
    this.marker.hidden = true;
  }

  // --- lasso ------------------------------------------------------------------------------

  lassoStart(e) {
    if (!this.data || e.button !== 0 || !(this.lassoMode || e.shiftKey)) return false;
    e.preventDefault();
    this.frame.setPointerCapture(e.pointerId);
    this.path = [this.local(e)];
    this.hideTip();
    this.drawLasso();
    return true;
  }

  lassoMove(e) {
    const p = this.local(e);
    const last = this.path[this.path.length - 1];
    if (Math.hypot(p[0] - last[0], p[1] - last[1]) >= 2) this.path.push(p);
    this.drawLasso();
  }

  lassoEnd() {
    const path = this.path;
    this.path = null;
    this.drawLasso();
    if (path.length < 3) return;
    const polygon = path.map(([px, py]) => this.unproject(px, py));
    const rows = rowsInPolygon(this.data.points, polygon);
    this.setSelection(rows);
    this.polygon = polygon; // kept (in data coordinates) and outlined until the next lasso or the points move
    this.root.dataset.lassoOutline = 'true';
    this.drawLasso();
    this.onSelect(rows, polygon);
  }

  local(e) {
    const r = this.frame.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  }

  drawLasso() {
    const [w, h] = this.size();
    const dpr = window.devicePixelRatio || 1;
    if (this.lasso.width !== Math.round(w * dpr) || this.lasso.height !== Math.round(h * dpr)) {
      this.lasso.width = Math.round(w * dpr);
      this.lasso.height = Math.round(h * dpr);
    }
    const ctx = this.lasso.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    const path = this.path || this.polygon?.map(([x, y]) => this.project(x, y));
    if (!path) return;
    ctx.beginPath();
    path.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
    ctx.closePath();
    if (this.path) {
      ctx.fillStyle = 'rgba(213, 94, 0, 0.08)';
      ctx.fill();
    }
    ctx.setLineDash([5, 4]);
    ctx.strokeStyle = '#D55E00';
    ctx.lineWidth = 1.5;
    ctx.stroke();
  }

  // --- axes (a 2-D canvas around the WebGL frame) -----------------------------------------

  drawAxes() {
    const width = Math.max(200, this.root.clientWidth);
    const height = this.height;
    const dpr = window.devicePixelRatio || 1;
    // resized only when the size changes: setting width reallocates the canvas (every frame of a moving map)
    if (this.axes.width !== Math.round(width * dpr)) this.axes.width = Math.round(width * dpr);
    if (this.axes.height !== Math.round(height * dpr)) this.axes.height = Math.round(height * dpr);
    const ctx = this.axes.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    this.drawLasso();
    this.paintAxes(ctx, plotTheme(this.root));
  }

  // The frame, ticks and axis titles of the current view on a 2-D context (the page's overlay
  // canvas, or an exported figure), in theme th.
  paintAxes(ctx, th) {
    if (!this.data) return;
    const M = this.margins();
    const [w, h] = this.size();
    const [x0, y1] = this.unproject(0, 0);
    const [x1, y0] = this.unproject(w, h);
    ctx.font = th.font(FONT_PX);
    ctx.fillStyle = th.text;
    ctx.strokeStyle = th.frame;
    ctx.strokeRect(M.left - 0.5, M.top - 0.5, w + 1, h + 1);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (const t of valueTicks(x0, x1, 6)) {
      const [px] = this.project(t, 0);
      ctx.fillRect(M.left + px - 0.5, M.top + h, 1, 4);
      ctx.fillText(formatNumber(t), M.left + px, M.top + h + 6);
    }
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const t of valueTicks(y0, y1, 6)) {
      const [, py] = this.project(0, t);
      ctx.fillRect(M.left - 4, M.top + py - 0.5, 4, 1);
      ctx.fillText(formatNumber(t), M.left - 6, M.top + py);
    }
    const [e1, e2] = this.data.explained || [NaN, NaN];
    const pct = (e) => (Number.isFinite(e) ? ` (${(100 * e).toFixed(1)}% of the variance)` : '');
    const [a1, a2] = this.data.axes || [`PC1${pct(e1)}`, `PC2${pct(e2)}`];
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.fillText(`${a1} · both axes to the same scale`, M.left + w / 2, M.top + h + 8 + th.px(14));
    ctx.save();
    ctx.translate(4 + th.px(7), M.top + h / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textBaseline = 'middle';
    ctx.fillText(a2, 0, 0);
    ctx.restore();
  }

  destroy() {
    this.deck.finalize();
    this.root.remove();
  }
}
