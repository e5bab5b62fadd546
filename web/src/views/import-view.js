// "Bring your own table" (issue 10), a card of the embedding-table view: pick a table file
// (.npy, .safetensors, Projector vectors.tsv, word2vec .txt/.bin, GloVe) and optionally a
// labels file; the worker reads it into a resident engine table (import-handler.js) and the card
// shows what it found (format, shape, GPT-2 recognised), a PCA map of every row (import-map.js:
// WebGL, with search, colour by a metadata column and a lasso) and, for a token or row typed in,
// its neighbours with cosine, euclidean and on-map distance side by side.
// Text from the file (labels) is only ever set as textContent. The "normalise rows" toggle, the
// token similarity heatmap and the norms histogram are import-analysis.js.
// The map is PCA, or a map of the worker's registry (issue 12; map-choice.js): Run asks the worker for the run
// (layoutStart) and then for frames (layoutStep, ~35 ms of engine work each, one per animation
// frame), so the points move while it runs; Cancel stops it and keeps the last frame. The
// neighbours' map distance is then measured on that map.
//
//   const iv = new ImportView(cardElement, engine, {onLoaded: (reply) => ..., onMapState: (key, value) => ...});
//   iv.setMapState(state);   // the link's imap, inn, imd, imetric, iperp
import { ImportMap } from './import-map.js';
import { visibleText } from '../widgets/chips.js';
import { formatNumber } from '../plots/scales.js';
import { ImportAnalysis, NORMALISED } from './import-analysis.js';
import { METHOD_NAMES, MapChoice, mapAlgorithmInfo, preparingText, readoutText } from './map-choice.js';
import { echo } from '../state.js';

const STEP_MS = 35; // engine time of one frame of a registry map's run
const nextFrame = () => new Promise((r) => requestAnimationFrame(() => r()));

export class ImportView {
  // onLoaded(reply): a table finished loading (main.js: the positions view may have a new wpe)
  // onMapState(key, value): the map's choice changed (main.js writes it to the link)
  constructor(root, engine, { onLoaded = () => {}, onMapState = () => {} } = {}) {
    this.root = root;
    this.engine = engine;
    this.onLoaded = onLoaded;
    this.layoutGen = 0; // a new run, Cancel, a new table or PCA ends the loop of the previous run
    this.mapMethod = 'pca'; // the map drawn

    const $ = (id) => root.querySelector(`#${id}`);
    this.el = {
      file: $('import-file'), meta: $('import-meta'), tensor: $('import-tensor'), tensorField: $('import-tensor-field'),
      note: $('import-note'), results: $('import-results'), form: $('import-nn-form'), query: $('import-query'),
      body: $('import-nn').querySelector('tbody'), nnNote: $('import-nn-note'),
    };
    this.map = new ImportMap(root, { onFocusPoint: (row) => this.focusPoint(row) });
    this.mapTitle = $('import-map-title');
    this.choice = new MapChoice($('import-map-choice'), {
      prefix: 'i', idPrefix: 'import-map',
      onChange: (key, value, k) => {
        onMapState(key, value);
        if (k === 'map') this.methodChanged();
      },
      onRun: () => this.runLayout(),
      onCancel: () => this.cancelLayout(),
    });
    // the point the arrow keys reached on the map, with its nearest rows: read out (aria-live)
    this.focusNote = document.createElement('p');
    this.focusNote.className = 'caption';
    this.focusNote.id = 'import-map-focus';
    this.focusNote.setAttribute('aria-live', 'polite');
    $('import-map').after(this.focusNote);
    this.analysis = new ImportAnalysis(this.el.results, engine, { onNormalise: (on) => this.setNormalise(on) });
    this.el.file.addEventListener('change', () => this.load());
    this.el.meta.addEventListener('change', () => this.el.file.files.length && this.load());
    this.el.tensor.addEventListener('change', () => this.load(this.el.tensor.value));
    this.el.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.neighbours();
    });
  }

  async load(tensor) {
    const file = this.el.file.files[0];
    if (!file) return;
    const metadata = this.el.meta.files[0];
    this.el.note.textContent = `reading ${echo(file.name, 80)} (${(file.size / 1048576).toFixed(1)} MiB) in the worker…`;
    this.picked = performance.now();
    try {
      const r = await this.engine.request('importTable', { file, metadata, tensor });
      if (r.needTensor) {
        this.showTensors(r.tensors, null);
        this.el.note.textContent = `${echo(file.name, 80)} holds several tensors; choose the table to look at.`;
        return;
      }
      this.showTensors(r.tensors, r.tensor);
      this.render(r);
      this.onLoaded(r);
    } catch (err) {
      // the previous table (if any) is still the current one
      this.el.note.textContent = `${err.message}${this.last ? ` — still showing ${echo(this.last.name, 80)}.` : ''}`;
      this.root.dataset.importError = err.message;
    }
  }

  showTensors(names, chosen) {
    this.el.tensorField.hidden = !names || names.length < 2;
    if (!names) return;
    // subtle: no spread of names into replaceChildren: a header may list a million tensors
    // ("Maximum call stack size exceeded")
    const options = document.createDocumentFragment();
    if (!chosen) options.append(new Option('choose a tensor…', ''));
    for (const n of names) options.append(new Option(n, n, false, n === chosen));
    this.el.tensor.replaceChildren(options);
  }

  render(r) {
    this.last = r;
    this.stopLayout();
    const what = r.recognised ? ` Recognised: ${r.recognised === 'gpt2 token table' ? "GPT-2's token table (wte), labelled with GPT-2's token strings" : r.recognised}.` : '';
    const pos = r.positions
      ? ` Its learned position table (${r.positions.tensor}, ${r.positions.rows.toLocaleString('en')} × ${r.positions.dim.toLocaleString('en')}) is drawn in the Positional encodings view.`
      : r.positionsError ? ` Its position table could not be read: ${r.positionsError}.` : '';
    this.el.note.textContent = `${echo(r.name, 80)}: ${r.rows.toLocaleString('en')} ${r.rows === 1 ? 'row' : 'rows'} × ${r.dim.toLocaleString('en')} (${r.format}${r.tensor ? `, tensor ${echo(r.tensor, 80)}` : ''}), ` +
      `${r.labels ? 'labelled' : 'no labels (add a metadata.tsv or vocabulary file)'}, read in ${formatNumber(r.ms / 1000)} s.${what}${pos}`;
    this.root.dataset.rows = String(r.rows);
    this.root.dataset.recognised = r.recognised || '';
    delete this.root.dataset.importError;
    this.el.results.hidden = false;
    this.labels = (r.labels || []).map(visibleText);
    // from the file picked to this note, as the person sees it (scripts/bench-page-import.mjs)
    this.root.dataset.timings = JSON.stringify({ ...(r.timings || {}), shown_ms: performance.now() - this.picked });
    delete this.root.dataset.mapDrawn;
    this.focusNote.textContent = '';
    this.el.body.replaceChildren();
    this.el.nnNote.textContent = 'Type a token (or a row number) to list its nearest rows.';
    this.normalise = false;
    this.shownQuery = null;
    // the table is ready now; its PCA map is the worker's next job (a second or so for GPT-2)
    this.map.el.note.textContent = `Computing the PCA map of ${r.rows.toLocaleString('en')} rows in the worker…`;
    this.choice.status(this.choice.method() === 'pca' ? '' : `Press Run for the ${METHOD_NAMES[this.choice.method()]} map of the ${r.rows.toLocaleString('en')} rows (the PCA map shows until then).`);
    const map = this.engine.request('importMap', { normalise: false }).then(async (m) => {
      if (this.last !== r) return; // a newer table
      await this.drawMap(m, false);
      this.root.dataset.mapDrawn = String(Math.round(m.ms));
    }, (err) => {
      if (this.last === r) this.map.el.note.textContent = `The PCA map could not be computed: ${err.message}`;
    });
    Promise.all([map, this.analysis.loaded(r)]).then(() => {
      this.root.dataset.loaded = String(Number(this.root.dataset.loaded || 0) + 1);
    });
  }

  // m: {points, explained} of the rows as stored or (normalised) of the unit rows. A new table
  // gets a new map (search, colours and the lasso start afresh); the same table's PCA map again
  // (after a registry map, or the unit rows) moves its rows, fitted to the view, and keeps them.
  async drawMap(m, normalised) {
    const r = this.last;
    // no PCA map of fewer than 3 rows or 2 columns: say so rather than leave the last table's map
    this.map.el.map.hidden = !m.points;
    if (!m.points) {
      this.map.el.note.textContent = `No map: a PCA map needs at least 3 rows and 2 columns, and this table is ${r.rows.toLocaleString('en')} × ${r.dim.toLocaleString('en')}.`;
      return;
    }
    this.mapMethod = 'pca';
    this.mapTitle.textContent = "every row on the table's two main directions (PCA)";
    delete this.root.dataset.mapMethod;
    if (this.mapFor === r) {
      this.map.update(m.points, 'pca', { explained: m.explained, fit: true, normalised });
      return;
    }
    this.mapFor = r;
    await this.map.show({ name: r.name, points: m.points, labels: this.labels, rawLabels: r.labels, metadata: r.metadata, explained: m.explained, normalised, method: 'pca' });
  }

  // The map as drawn -> {method, points} | null: what "CSV 2-D" saves (main.js TableExports drawn)
  drawnMap() {
    return this.mapFor === this.last ? this.map.drawn() : null;
  }

  // The map's keyboard focus reached row: name it and its three nearest rows by cosine (the
  // engine's neighbours of the table as shown: stored or normalised rows).
  async focusPoint(row) {
    const seq = (this.focusSeq = (this.focusSeq || 0) + 1);
    const name = (label, r) => (label === undefined || label === null ? `row ${r}` : JSON.stringify(visibleText(label)));
    try {
      const r = await this.engine.request('importNeighbours', { query: String(row), k: 3, normalise: !!this.normalise });
      if (seq !== this.focusSeq) return; // a later key press
      this.focusNote.textContent = `${name(r.query.label, row)}, row ${row}; nearest by cosine: ` +
        r.neighbours.map((n) => `${name(n.label, n.row)} (${n.cosine.toFixed(3)})`).join(', ') + '.';
    } catch (err) {
      if (seq === this.focusSeq) this.focusNote.textContent = `${name(this.last?.labels?.[row], row)}, row ${row}: ${err.message}`;
    }
  }

  // "normalise rows" toggled: the map of those rows, and the neighbours again if some were shown
  async setNormalise(on) {
    this.stopLayout();
    const m = await this.engine.request('importMap', { normalise: on });
    this.normalise = on;
    await this.drawMap(m, on);
    if (this.choice.method() !== 'pca') this.runLayout(); // the same map of the rows now shown
    this.root.dataset.normalised = String(on);
    if (this.shownQuery !== null) await this.neighbours(this.shownQuery);
  }

  // The link's map choice (imap, inn, imd, imetric, iperp)
  setMapState(state) {
    this.choice.set(state);
  }

  // PCA chosen: its map again (the run, if any, stops); a registry map waits for Run.
  methodChanged() {
    const m = this.choice.method();
    if (m === 'pca') {
      this.stopLayout();
      this.choice.status('');
      if (this.last && this.mapMethod !== 'pca') {
        this.engine.request('importMap', { normalise: !!this.normalise }).then((p) => this.drawMap(p, !!this.normalise))
          .then(() => this.shownQuery !== null && this.neighbours(this.shownQuery), (err) => (this.map.el.note.textContent = err.message));
      }
      return;
    }
    if (!this.running) this.choice.status(this.last ? `Press Run for the ${METHOD_NAMES[m]} map.` : `Load a table, then press Run for its ${METHOD_NAMES[m]} map.`);
  }

  // What the map shows and its caveats, under the map.
  layoutNote(method, s, p, state) {
    const n = s.rows.toLocaleString('en');
    const rows = this.normalise ? `${NORMALISED} first` : 'the rows as stored';
    const a = mapAlgorithmInfo(method);
    const o = this.runPayload; // the options of the run drawn, not the fields now
    const params = this.choice.params(method).map((q) => (q.type === 'choice' ? o[q.option] : `${q.name} ${o[q.option]}`));
    const info = a.noteInfo.map((k) => `${k} ${s.info[k]}`);
    const how = `${a.label} by the engine (${[...params, 'seed 0', `${s.total} ${a.stepName}s`, ...info].join(', ')}${readoutText(p.readout, 3)})`;
    const keeps = a.description;
    return `Every row (${n}, ${rows}) placed by ${how}, drawn on the page's scatter (search, colours and the lasso work as on the PCA map). ${keeps} ` +
      `${state}: neighbours, graph and initial layout ${formatNumber(s.ms / 1000)} s, the whole run so far ${formatNumber(p.ms / 1000)} s of engine time in this page's worker. The neighbours below are measured in the table; their map distance is on this map.`;
  }

  // Run: a registry map's run of the loaded table, drawn frame by frame until it ends or Cancel.
  async runLayout() {
    if (!this.last) {
      this.choice.status('Load a table first.');
      return;
    }
    const gen = ++this.layoutGen;
    const payload = { source: 'import', normalise: !!this.normalise, ...this.choice.payload() };
    const { method } = payload;
    const name = METHOD_NAMES[method];
    this.runPayload = payload;
    this.lastLayout = null;
    this.running = true;
    this.choice.running(true);
    this.choice.status(`${name}: starting on ${this.last.rows.toLocaleString('en')} rows in the worker…`);
    Object.assign(this.root.dataset, { mapMethod: method, mapFrames: '0', mapDone: '0', mapState: 'starting' });
    let p = null;
    this.preparing = null;
    try {
      let s = await this.engine.request('layoutStart', payload);
      if (gen !== this.layoutGen) return;
      this.root.dataset.mapState = 'preparing';
      this.preparing = s;
      this.choice.progress(s, method);
      // the construction (neighbours, graph, init) in the worker's slices: progress, no frame
      for (;;) {
        p = await this.engine.request('layoutStep', { source: 'import', budgetMs: STEP_MS });
        if (gen !== this.layoutGen) return;
        if (!p.preparing) break;
        this.preparing = p;
        this.choice.progress(p, method); // no frame to wait for: the line repaints between replies
      }
      this.preparing = null;
      s = { ...s, info: p.info, ms: p.prepareMs };
      this.mapTitle.textContent = `every row placed by ${name}`;
      this.root.dataset.mapState = 'running';
      for (let frames = 1; ; frames++) {
        if (frames > 1) {
          p = await this.engine.request('layoutStep', { source: 'import', budgetMs: STEP_MS });
          if (gen !== this.layoutGen) return;
        }
        this.mapMethod = method;
        // the run's first frame is a new map: fitted to the view whatever the zoom of the last one
        this.map.update(p.points, method, { note: frames === 1 || p.finished ? this.layoutNote(method, s, p, p.finished ? 'Finished' : 'Running') : null, fit: frames === 1 });
        this.choice.progress(p, method);
        Object.assign(this.root.dataset, { mapFrames: String(frames), mapDone: String(p.done), mapTotal: String(p.total) });
        this.lastLayout = { s, p };
        if (p.finished) break;
        await nextFrame();
        if (gen !== this.layoutGen) return;
      }
      this.root.dataset.mapState = 'finished';
      this.choice.status(`${name} finished: ${p.phase} ${p.done} / ${p.total}${readoutText(p.readout)} in ${formatNumber(p.ms / 1000)} s of engine time.`);
      if (this.shownQuery !== null) this.neighbours(this.shownQuery);
    } catch (err) {
      if (gen !== this.layoutGen) return;
      this.root.dataset.mapState = 'failed';
      this.choice.status(`${name} failed: ${err.message}${this.mapMethod !== method ? ' — the map shows the previous one.' : ''}`);
    } finally {
      if (gen === this.layoutGen) {
        this.running = false;
        this.choice.running(false);
      }
    }
  }

  // Ends the loop and frees the worker's run (the last frame stays drawn). -> true if one ran
  stopLayout() {
    if (!this.running) return false;
    this.layoutGen++;
    this.running = false;
    this.choice.running(false);
    this.engine.request('layoutStop', { source: 'import' }).catch(() => {}); // answered even when nothing runs
    return true;
  }

  cancelLayout() {
    if (!this.stopLayout()) return;
    const l = this.lastLayout && this.root.dataset.mapState === 'running' ? this.lastLayout.p : null;
    const prep = this.root.dataset.mapState === 'preparing' ? this.preparing : null;
    this.root.dataset.mapState = 'cancelled';
    const name = METHOD_NAMES[this.runPayload.method];
    this.choice.status(l
      ? `${name} cancelled at ${l.phase} ${l.done} / ${l.total}; the map shows that frame (Run starts again).`
      : `${name} cancelled before its first frame${prep ? ` (${preparingText(prep)})` : ''}; the map shows the previous one.`);
    if (l && this.shownQuery !== null) this.neighbours(this.shownQuery);
  }

  async neighbours(query = this.el.query.value) {
    try {
      const r = await this.engine.request('importNeighbours', { query, k: 10, normalise: !!this.normalise, map: this.mapMethod });
      this.shownQuery = query;
      const on = r.map ? `the ${METHOD_NAMES[r.map]} map shown` : 'the 2-D map';
      this.el.nnNote.textContent = `Nearest rows to ${JSON.stringify(visibleText(r.query.label))} (row ${r.query.row}) by cosine; the euclidean distance (in the table) and the distance on ${on} are for the same rows. ` +
        (r.normalised ? `${NORMALISED[0].toUpperCase()}${NORMALISED.slice(1)}: the cosines are unchanged, the euclidean distances are now √(2 − 2 cos) ≤ 2.` : 'No row is re-normalised.');
      this.el.body.replaceChildren(...r.neighbours.map((n, i) => {
        const tr = document.createElement('tr');
        for (const text of [String(i + 1), JSON.stringify(visibleText(n.label)), String(n.row), n.cosine.toFixed(4), formatNumber(n.euclidean), n.map === null ? '–' : formatNumber(n.map)]) {
          const td = document.createElement('td');
          td.textContent = text;
          tr.append(td);
        }
        return tr;
      }));
      this.root.dataset.neighbours = String(Number(this.root.dataset.neighbours || 0) + 1);
      if (query === this.el.query.value) this.analysis.neighboursShown(r);
    } catch (err) {
      this.el.nnNote.textContent = err.message;
      this.el.body.replaceChildren();
    }
  }
}
