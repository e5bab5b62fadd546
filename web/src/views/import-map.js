// The PCA map of "Bring your own table" (issue 10, "Seeing a big table"): the point map of
// every row (gl-scatter.js, drawn in its own worker) with its tools: search (matching labels highlighted, their count),
// colour by a metadata column (with a legend), a lasso whose selection is listed and can be
// exported as TSV, and a reset of the view. Without OffscreenCanvas (a browser that cannot hand a canvas to a
// worker) it falls back to the canvas Scatter (no search, colours or lasso) and the map note says so. Labels are user data: they are only
// ever set as textContent. The map's code is loaded on the first table shown, as its own chunk,
// and its worker (scatter-worker.js) started then.
//
//   const map = new ImportMap(cardElement);     // finds #import-map, #import-search, ... in it
//   map.show({name, points, labels (display text), rawLabels, metadata, explained});   // from a worker importTable reply
//   map.update(points, method, {note, fit});   // the same rows moved (a frame of a registry map, layout-handler.js, or
//                                         // the PCA map again): search, colours and the lasso's rows stay; the note
//                                         // says what the map is. fit: a new map (another method, a new run), drawn
//                                         // fitted to the view whatever the user's zoom of the old one
//   map.drawn();                          // {method, points} as drawn: what "CSV 2-D" and the selection export hold
// A lasso outlines rows of the map it was drawn on. When the rows move (another map, or the next
// frame of a run) the selection is kept by row id and highlighted where the rows are now, as
// the Embedding Projector keeps a selection across its maps: comparing where one
// group of rows lands on two maps is what a selection across maps is for. Its outline goes (it
// would circle empty space: the rows are no longer inside it) and the note says which map it was
// drawn on.
import { Scatter } from '../plots/scatter.js';
import { Legend } from '../plots/legend.js';
import { colourColumn } from '../plots/colour-by.js';
import { lowerLabels, matchRows } from '../plots/point-index.js';
import { makeLut } from '../plots/scales.js';
import { NORMALISED } from './import-analysis.js';
import { METHOD_NAMES } from './map-choice.js';

// axis titles of the maps that have no explained variance
// a registry map's axes (PCA has its own: PC1, PC2 with the explained variance)
const axesOf = (method) => (method && method !== 'pca' && METHOD_NAMES[method] ? [1, 2].map((i) => `${METHOD_NAMES[method]} ${i}`) : null);
const LISTED = 50; // selected rows listed in the card (all of them go into the export)
const SEARCH_DELAY = 120; // ms of quiet typing before a search runs

export class ImportMap {
  // onFocusPoint(row): the arrow keys reached a point (import-view.js names it and its neighbours)
  constructor(root, { onFocusPoint = () => {} } = {}) {
    this.onFocusPoint = onFocusPoint;
    const $ = (id) => root.querySelector(`#${id}`);
    this.root = root;
    this.el = {
      map: $('import-map'), note: $('import-map-note'), tools: $('import-map-tools'), search: $('import-search'),
      searchNote: $('import-search-note'), colour: $('import-colour'), lasso: $('import-lasso'), reset: $('import-reset'),
      legend: $('import-legend'), selection: $('import-selection'), selectionNote: $('import-selection-note'),
      selectionList: $('import-selection-list'), exportSelection: $('import-export-selection'),
    };
    this.gl = offscreenSupported();
    if (!this.gl) {
      this.scatter = new Scatter(this.el.map, { labelled: 40, height: 380 });
      this.el.tools.hidden = true;
    }
    let timer = 0;
    this.el.search.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.search(), SEARCH_DELAY);
    });
    this.el.search.addEventListener('keydown', (e) => e.key === 'Enter' && (clearTimeout(timer), this.search()));
    this.el.colour.addEventListener('change', () => this.colourBy(this.el.colour.value));
    this.el.lasso.addEventListener('click', () => {
      const on = this.el.lasso.getAttribute('aria-pressed') !== 'true';
      this.el.lasso.setAttribute('aria-pressed', String(on));
      this.scatter?.setLassoMode(on);
    });
    this.el.reset.addEventListener('click', () => this.scatter?.resetView());
    this.el.exportSelection.addEventListener('click', () => this.exportSelection());
  }

  // the point map, its module loaded on first use; the page's ?scatter= picks its renderer
  async glScatter() {
    if (!this.scatter) {
      const { GlScatter, scatterBackend } = await import('../plots/gl-scatter.js');
      const { backend, error } = scatterBackend();
      this.backendError = error;
      this.scatter ??= new GlScatter(this.el.map, {
        height: 460,
        backend,
        onSelect: (rows) => this.showSelection(rows),
        onFocusPoint: (row) => this.onFocusPoint(row),
        onError: (err) => (this.el.note.textContent = `The map failed: ${err.message}`),
      });
      this.scatter.setLassoMode(this.el.lasso.getAttribute('aria-pressed') === 'true');
    }
    return this.scatter;
  }

  async show(r) {
    this.data = r;
    this.lower = null;
    const { points, labels, metadata, explained } = r;
    if (!this.gl) {
      this.scatter.setData({ points, labels, explained, frozen: false, method: 'pca' });
      this.el.note.textContent = this.pcaNote(points.length / 2, explained, r.normalised);
      return;
    }
    try {
      await this.glScatter();
    } catch (err) {
      this.el.note.textContent = `The map could not be loaded: ${err.message}`;
      return;
    }
    if (this.data !== r) return; // a newer table arrived while the module loaded
    this.scatter.setData({ points, labels, explained, axes: axesOf(r.method), method: r.method || 'pca' });
    // subtle: a loop, not a spread: a metadata.tsv may have a million columns
    const options = document.createDocumentFragment();
    options.append(new Option('none', ''));
    if (metadata) metadata.header.forEach((h, c) => options.append(new Option(h, String(c))));
    this.el.colour.replaceChildren(options);
    this.el.colour.disabled = !metadata;
    this.el.search.value = '';
    this.el.searchNote.textContent = '';
    this.el.legend.replaceChildren();
    this.el.map.dataset.colour = '';
    this.showSelection(null);
    this.el.note.textContent = this.pcaNote(points.length / 2, explained, r.normalised);
  }

  // What the PCA map shows, under it.
  pcaNote(n, explained, normalised) {
    const pct = explained ? (100 * (explained[0] + explained[1])).toFixed(1) : '?';
    if (!this.gl) return `Every row projected on the table's two main directions of variation (PCA by the engine${normalised ? `, ${NORMALISED} first` : ''}). This browser cannot draw a canvas in a worker (no OffscreenCanvas), so the map is the simple canvas one (no search, colours or lasso; slow past a few thousand rows). PCA keeps ${pct}% of the variance, so distances on the map can differ a lot from distances in the table (see the neighbours).`;
    return `Every row (${n.toLocaleString('en')}) projected on the table's two main directions of variation (PCA by the engine${normalised ? `, ${NORMALISED} first` : ''}), drawn in a worker of its own; both axes have the same scale. Hover a point for its label; drag or use the arrow keys to pan, the wheel or + and - to zoom. PCA keeps ${pct}% of the variance, so distances on the map can differ a lot from distances in the table (see the neighbours).${this.backendError ? ` Note: ${this.backendError}.` : ''}`;
  }

  // The map as drawn -> {method, points} | null (nothing drawn yet)
  drawn() {
    return this.data && this.data.points ? { method: this.data.method || 'pca', points: this.data.points } : null;
  }

  // New positions of the rows shown (method: 'pca' | a registry name; explained: PCA's), with the
  // note under the map. The canvas fallback redraws all; the WebGL map keeps its tools' state.
  // fit: a new map (see the header); normalised: a PCA of the unit rows (its note says so).
  update(points, method, { note = null, explained = null, fit = false, normalised = false } = {}) {
    if (!this.data) return;
    this.data = { ...this.data, points, method, explained, normalised };
    if (note !== null) this.el.note.textContent = note;
    else if (method === 'pca') this.el.note.textContent = this.pcaNote(points.length / 2, explained, normalised);
    const axes = axesOf(method);
    if (!this.gl) this.scatter.setData({ points, labels: this.data.labels, explained, axes, method, frozen: false });
    else if (this.scatter && !this.scatter.setPoints(points, { axes, explained, method, fit })) this.show(this.data);
    if (this.selected) this.noteSelection();
  }

  search() {
    if (!this.data || !this.scatter) return;
    const q = this.el.search.value;
    const labels = this.data.labels || [];
    const n = this.data.points.length / 2;
    if (!this.lower) this.lower = lowerLabels(labels);
    const rows = matchRows(labels, q, n, this.lower);
    this.scatter.highlight(rows);
    this.el.map.dataset.matches = String(rows.length);
    this.el.searchNote.textContent = q.trim() ? `${rows.length.toLocaleString('en')} of ${n.toLocaleString('en')} rows match` : '';
  }

  colourBy(value) {
    const meta = this.data?.metadata;
    if (!this.scatter) return;
    this.el.legend.replaceChildren();
    this.el.map.dataset.colour = value === '' ? '' : meta.header[Number(value)];
    if (value === '' || !meta) {
      this.scatter.setColours(null);
      return;
    }
    const name = meta.header[Number(value)];
    const c = colourColumn(meta.columns[Number(value)], { alpha: 150 });
    if (c.kind === 'none') {
      this.scatter.setColours(null);
      this.el.legend.textContent = `"${name}" cannot colour the map: ${c.reason}.`;
      return;
    }
    this.scatter.setColours(c.colours);
    if (c.kind === 'numeric') {
      new Legend(this.el.legend, { caption: name }).set({ domain: c.domain, lut: makeLut('viridis'), note: `viridis${c.empty ? `; ${c.empty} empty cells grey` : ''}` });
      return;
    }
    const title = document.createElement('span');
    title.textContent = `${name}:`;
    this.el.legend.append(title, ...c.categories.map(({ value: v, count, colour }) => {
      const item = document.createElement('span');
      item.className = 'map-legend-item';
      const sw = document.createElement('span');
      sw.className = 'map-legend-swatch';
      sw.style.background = colour;
      const text = document.createElement('span');
      text.textContent = `${v === '' ? '(empty)' : v} (${count.toLocaleString('en')})`;
      item.append(sw, text);
      return item;
    }));
  }

  showSelection(rows) {
    this.selected = rows && rows.length ? rows : null;
    this.selectedOn = this.data?.method || 'pca'; // the map the lasso was drawn on
    this.el.selection.hidden = !rows;
    this.el.map.dataset.selected = String(rows ? rows.length : 0);
    if (!rows) return;
    const labels = this.data.labels || [];
    this.el.selectionNote.textContent = rows.length
      ? `${rows.length.toLocaleString('en')} rows in the lasso${rows.length > LISTED ? ` (the first ${LISTED} listed; the export has all)` : ''}.`
      : 'No row in the lasso.';
    this.el.exportSelection.disabled = !rows.length;
    this.el.map.dataset.selectedOn = this.selectedOn;
    this.el.selectionList.replaceChildren(...Array.from(rows.slice(0, LISTED), (r) => {
      const li = document.createElement('li');
      li.textContent = `${r}  ${labels[r] ?? ''}`;
      return li;
    }));
  }

  // The rows moved under a selection: it stays (by row id); the note says where it was drawn.
  noteSelection() {
    const n = this.selected.length;
    const now = METHOD_NAMES[this.data.method || 'pca'];
    const on = METHOD_NAMES[this.selectedOn];
    const listed = n > LISTED ? ` (the first ${LISTED} listed; the export has all)` : '';
    const text = this.selectedOn === (this.data.method || 'pca')
      ? `${n.toLocaleString('en')} rows in the lasso drawn on an earlier ${now} map${listed}, highlighted where they are on this one (the outline was around where they were then).`
      : `${n.toLocaleString('en')} rows in the lasso drawn on the ${on} map${listed}, highlighted where ${now} places them (the outline belonged to the ${on} map). Draw a new lasso to select on this one.`;
    // a live region, updated at every frame of a run: set only when it says something new
    if (this.el.selectionNote.textContent !== text) this.el.selectionNote.textContent = text;
    this.el.map.dataset.selectionNote = 'moved';
  }

  // All selected rows as TSV: row, label, x, y (of the map shown); labels with tabs or newlines escaped.
  exportSelection() {
    if (!this.selected) return;
    const { points, name } = this.data;
    const labels = this.data.rawLabels || this.data.labels || []; // the file's own strings, not the display marks
    const esc = (s) => String(s ?? '').replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
    const lines = ['row\tlabel\tx\ty'];
    for (const r of this.selected) lines.push(`${r}\t${esc(labels[r])}\t${points[2 * r]}\t${points[2 * r + 1]}`);
    const url = URL.createObjectURL(new Blob([`${lines.join('\n')}\n`], { type: 'text/tab-separated-values' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `embedlab-${String(name).replace(/\.[^.]*$/, '').replace(/[^\w.-]+/g, '_')}-selection.tsv`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}

// true when this browser can hand a canvas to a worker (gl-scatter.js draws the map there)
function offscreenSupported() {
  return typeof OffscreenCanvas === 'function' && typeof HTMLCanvasElement.prototype.transferControlToOffscreen === 'function';
}
