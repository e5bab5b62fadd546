// View 6: training in the browser. Play runs `trainStep` requests back to back (each one a
// ~80 ms slice of steps in the worker: SLICE_MS in train-run.js), so the page keeps painting; the loss curve, the
// tokens/s readout and the embedding-table heatmap update at most once per frame. For the
// next-token model with a trained additive position table it also shows the learned position x
// position cosine similarity next to the sinusoidal one. "Compare encodings" trains the same
// model with each positional kind of the engine's registry (setKinds: same text, same seed) and
// plots the curves together.
//
// A link with step=N replays the run: render() plays it to step N in the same slices as Play
// (each step is the same whatever the slicing) and stops there, so the table's fingerprint
// (FNV-1a of the whole input table, shown in the readout) is the one of the page that made the link.
// A replay longer than one slice shows its progress (step n of N) with Cancel (job-progress.js,
// the box of the page's long jobs, class replay-progress); Cancel pauses at the step reached.
// state.js bounds a link's step (MAX_LINK_STEP).
//
//   const view = new TrainView(root, engine, {onError: (err) => ...,   // err.message, err.fields
//                                            onSteps: (n, settled) => ...});  // the run is at step n
//   view.render(trainStartReply, state);   // a fresh run at step 0, then played to state.step
//
// The map card (issue 12): PCA (refitted, or on frozen axes with trails), or a map of the
// worker's registry (map-choice.js). With such a map chosen, while playing each map update is a slice of the
// slot's live run in the worker (trainStep {map}: warm-started from the last frame on the newer
// table when a run ends), so the points move and the labelled rows leave trails; paused or
// finished, the whole run is drawn frame by frame (layoutStart / layoutStep, from the last
// layout when there is one), with progress and Cancel. A map never stops training: a map that
// fails says so on the map card (its progress line, data-map-error) and training goes on; a
// perplexity or n_neighbors too large for the table is lowered by the worker and the card says
// so ("perplexity 30 → 22 for 69 rows", data-map-clamp).
//
// The loss chart (issue 21: training loss, held-out loss, chance ln V and the verdict in words)
// is train-loss.js. The training text is the view's own (tCorpus, tEnc, tLower: state.js), sent
// to the worker as corpus, enc, lower.
//
// Autosave (session.js; option autosave: true on the page, off in widgets): while playing the run
// is saved every AUTOSAVE_MS by the worker (trainSave), and on pause and at the end; a trainStart
// reply with `restored` (the saved run of the same settings) shows that step, its loss curve and
// its fingerprint instead of step 0, and does not replay the link's step.
//
// Files: this one builds the view (constructor), renders a fresh run (render), draws the tables
// and answers the nearest-neighbour form; train-run.js is the run (play loop, replay, readout,
// autosave) and train-map.js the map card. Their methods are copied onto TrainView.prototype
// (mix-methods.js, at the end), so they are called as this.play(), this.drawMap() as before.
import { Heatmap } from '../plots/heatmap.js';
import { Legend } from '../plots/legend.js';
import { Scatter } from '../plots/scatter.js';
import { visibleText } from '../widgets/chips.js';
import { colorDomain, colormap, formatNumber, makeLut, scaleRange, similarityScale } from '../plots/scales.js';
import { summarize } from '../arrays.js';
import { CompareView } from './compare-view.js';
import { TableExports } from './table-exports.js';
import { MapChoice } from './map-choice.js';
import { TrainLoss } from './train-loss.js';
import { SampleBox } from './sample-view.js';
import { JobProgress } from './job-progress.js';
import { TrainMapMethods } from './train-map.js';
import { TrainRunMethods } from './train-run.js';
import { PlotVisibility } from './plot-visibility.js';
import { FRAME_PARTS } from '../handlers/train-frame.js';
import { mixMethods } from '../mix-methods.js';
import { TRAIN_KEYS } from './request-keys.js';

export { TRAIN_KEYS }; // request-keys.js: read before this module loads
// payload key -> the page field (the worker's text keys are the text views' names)
const TRAIN_FIELDS = { corpus: 'tCorpus', enc: 'tEnc', lower: 'tLower' };

const MODEL_TEXT = {
  next: 'Next-token model: token embedding (+ position) → one causal self-attention head with a residual → linear head → softmax cross-entropy, trained on sliding windows of the text.',
  skipgram: 'word2vec skip-gram with negative sampling (gensim’s algorithm and defaults): each word predicts the words around it; one step is one gensim job of up to 10,000 words.',
  cbow: 'word2vec CBOW with negative sampling: the mean of the context vectors predicts the centre word; one step is one gensim job of up to 10,000 words.',
};

export class TrainView {
  static payload(state) {
    const p = Object.fromEntries(TRAIN_KEYS.map((k) => [k, state[k]]));
    for (const [key, field] of Object.entries(TRAIN_FIELDS)) {
      p[key] = state[field];
      delete p[field];
    }
    return p;
  }

  // engine -> state -> Promise<trainStart reply | null>: a fresh run for these settings;
  // extra(state): more payload (the page's autosave asks for `resume`)
  static fetch(engine, extra = () => ({})) {
    return (state) => engine.latest('train', 'trainStart', { ...TrainView.payload(state), ...extra(state) }, TRAIN_FIELDS);
  }

  // onPlay(): Play started (a widget pauses the other widgets' runs, element.js)
  // autosave: the page's training run is saved in this browser (session.js); widgets do not
  // onMapState(key, value): the map's choice changed (the page writes it to the link)
  // onSetting(key, value): a setting changed in a card (the compare card's ticked kinds)
  constructor(root, engine, { onError, onSteps = () => {}, onPlay = () => {}, autosave = false, onMapState = () => {}, onSetting = () => {} }) {
    this.root = root;
    this.engine = engine;
    this.onError = onError;
    this.onSteps = onSteps;
    this.autosave = autosave;
    this.lastSave = 0;
    this.saving = null; // the trainSave in flight
    this.saveAgain = false;
    this.onPlay = onPlay;
    this.playGen = 0; // a new run or play() ends the loop of the previous one
    this.renderGen = 0; // the newest render(): an older one still awaiting stops
    const $ = (id) => root.querySelector(`#${id}`);
    this.el = {
      stale: $('train-stale'), model: $('train-model'), estimate: $('train-estimate'), readout: $('train-readout'),
      play: $('train-play'), step: $('train-step'), reset: $('train-reset'), message: $('train-message'),
      logy: $('train-logy'), posCard: $('train-pos-card'),
      tableNote: $('train-table-note'), saved: $('train-saved'),
    };
    this.loss = new TrainLoss(root); // the loss chart, its note and verdict
    // a link's replay: step n of N, Cancel (pauses where it is)
    this.replay = new JobProgress($('train-loss').parentElement, () => this.cancelReplay());
    this.replay.box.classList.add('replay-progress');
    this.replayCancelled = false;
    this.heatmap = new Heatmap($('train-table'), { xLabel: 'dimension', yLabel: 'table row', maxHeight: 380, minHeight: 160, exportName: 'table',
      formatTip: (c) => `${this.labels[this.rowPos(c.row)] ?? `row ${c.row}`}, dim ${c.col}: ${formatNumber(c.value)}` });
    this.legend = new Legend($('train-legend'), { caption: 'weight value', width: 220 });
    this.heatmap.setLegend(this.legend);
    this.learnedSim = new Heatmap($('train-pos-learned'), { xLabel: 'position n', yLabel: 'position m', square: true, maxHeight: 260, exportName: 'learned-similarity' });
    this.sinSim = new Heatmap($('train-pos-sin'), { xLabel: 'position n', yLabel: 'position m', square: true, maxHeight: 260, exportName: 'sinusoidal-similarity' });
    // learned vs sinusoidal: a colour bar and the stated range under each (scales.js similarityScale)
    for (const [hm, id] of [[this.learnedSim, 'train-pos-learned'], [this.sinSim, 'train-pos-sin']]) {
      hm.simLegend = new Legend($(`${id}-legend`), { caption: 'cosine similarity', width: 220 });
      hm.setLegend(hm.simLegend);
      hm.rangeNote = $(`${id}-range`);
    }
    this.kinds = []; // the engine's positional kinds (setKinds)
    this.compare = new CompareView(root, engine, { onError, onSetting });
    // the "Sample text" card under the loss chart (views/sample-view.js), when the markup has it
    const sampleCard = $('sample-card');
    this.sampleBox = sampleCard ? new SampleBox(sampleCard, engine) : null;
    this.scatter = new Scatter($('train-map'), { labelled: 30 });
    // the plots on screen: a slice asks the worker only for those (trainStep {show}); the others
    // catch up once when they come back on screen (catchUp)
    this.vis = new PlotVisibility({ loss: $('train-loss'), table: $('train-table'), positions: $('train-pos-learned'), map: $('train-map') }, (names) => this.catchUp(names));
    this.mapNote = $('map-note');
    this.freeze = $('map-freeze');
    this.mapTitle = $('train-map-title');
    this.freezeRow = $('map-freeze-row');
    this.layoutGen = 0;
    this.choice = new MapChoice($('train-map-choice'), {
      prefix: 't', idPrefix: 'train-map',
      onChange: (key, value, k) => {
        onMapState(key, value);
        if (k === 'map') this.methodChanged();
      },
      onRun: () => this.runLayout(null),
      onCancel: () => this.cancelLayout(),
    });
    this.freeze.addEventListener('change', async () => {
      try {
        this.scatter.clearTrails();
        this.drawMap(await this.engine.request('trainFreeze', { on: this.freeze.checked }), Number(this.root.dataset.steps || 0));
      } catch (err) {
        this.mapNote.textContent = err.message;
      }
    });
    this.playing = false;
    this.labels = [];
    this.last = null;
    this.el.play.addEventListener('click', () => (this.playing ? this.pause() : this.play()));
    this.el.step.addEventListener('click', () => this.stepOnce());
    this.el.reset.addEventListener('click', () => this.reset());
    $('export-vectors').addEventListener('click', () => this.download('vectors'));
    $('export-metadata').addEventListener('click', () => this.download('metadata'));
    this.exportNote = $('export-note');
    // every table format, from the engine's writers (trainExport {format})
    // "CSV 2-D" saves the map as drawn (PCA or a registry map)
    this.tableExports = new TableExports($('export-vectors').closest('article'), engine, { request: 'trainExport', drawn: () => this.drawnMap() });
    this.nn = { query: $('nn-query'), note: $('nn-note'), body: $('nn-table').querySelector('tbody') };
    $('nn-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.neighbours();
    });
  }

  // kinds: M.positionalKinds(), from the worker's ready message.
  setKinds(kinds) {
    this.kinds = kinds;
    this.compare.setKinds(kinds);
  }

  setStale(text) {
    this.el.stale.textContent = text || '';
    this.el.stale.hidden = !text;
    if (text) this.pause();
  }

  rowPos(row) {
    return this.last ? Array.prototype.indexOf.call(this.last.tableRowIndex || [], row) : -1;
  }

  // subtle: `state` is the page's live object, which changes while this awaits the sinusoidal
  // panel (a setting typed meanwhile, onSteps writing the step of a slice that landed): after
  // the await only `asked`, the settings this run was made with, is read, and a render that a
  // newer one replaced meanwhile stops there.
  async render(r, state) {
    const asked = { ...state };
    const gen = ++this.renderGen;
    this.playing = false; // not pause(): the new run is at step 0, the link's step still to come
    this.playGen++;
    this.stopLayout();
    this.el.play.textContent = '▶ Play';
    this.state = { ...asked };
    this.last = { ...r, tableRowIndex: r.table.rowIndex };
    this.labels = r.labels;
    this.rawRowLabels = r.rowLabels || [];
    this.rowOrder = r.rowOrder || null;
    this.rowLabels = this.rawRowLabels.map(visibleText);
    const restored = r.restored && r.restored.step >= 0 && !r.restored.error ? r.restored : null;
    this.steps = restored && restored.curve ? Array.from(restored.curve.steps) : [];
    this.losses = restored && restored.curve ? Array.from(restored.curve.losses) : [];
    this.root.dataset.steps = String(restored ? restored.step : 0);
    this.root.dataset.lossPoints = String(this.steps.length);
    this.showChecksum(r.checksum);
    this.restoreNote = '';
    if (this.el.saved) this.el.saved.textContent = '';
    this.loss.setLog(state.logy);
    this.loss.start(r.heldOut, restored && restored.curve ? restored.curve.held : null, state, r.remapped);
    this.loss.draw(this.steps, this.losses, true);
    this.compare.setLog(state.logy);
    this.compare.setState(state);
    const s = r.settings;
    this.el.model.textContent = MODEL_TEXT[state.model];
    if (this.sampleBox) this.sampleBox.setModel(state.model, state);
    const e = r.estimate;
    const total = e.totalSteps ? ` The run has ${e.totalSteps} steps (${s.epochs} epochs) ≈ ${formatNumber((e.totalSteps * e.msPerStep) / 1000)} s.` : ` 1,000 steps ≈ ${formatNumber(e.msPerStep)} s.`;
    this.el.estimate.textContent =
      `Cost before you press play: ${r.rows.toLocaleString('en')} table rows × ${s.vectorSize} dims; parameters and optimizer state ≈ ${formatNumber(e.bytes / 1048576)} MiB. ` +
      `One step (${e.tokensPerStep.toLocaleString('en')} tokens) took ${formatNumber(e.msPerStep)} ms here.${total}` +
      (r.remapped ? ` Only the ${r.remapped.toLocaleString('en')} ids that occur in the text get rows (remapped in id order).` : '');
    this.el.message.textContent = '';
    this.exportNote.textContent = 'Embedding Projector format (projector.tensorflow.org → Load).';
    const kind = this.kinds.find((k) => k.name === state.pos);
    this.el.posCard.hidden = !(state.model === 'next' && kind && kind.trainable && kind.provides === 'additive');
    this.root.querySelector('#compare-card').hidden = state.model !== 'next'; // positions belong to the next-token model
    this.root.querySelector('#extrapolation-card').hidden = state.model !== 'next' || !this.compare.last;
    this.el.tableNote.textContent = state.model === 'next' ? 'token embedding table (input), one row per token of the text' : 'word2vec input vectors (wv), one row per word kept by min_count';
    this.drawTables(r, restored ? restored.step : 0);
    this.freeze.checked = false;
    this.scatter.clearTrails();
    this.drawMap(r.map, restored ? restored.step : 0);
    this.showMethod();
    // a registry map chosen: the table as it is now, unless the link's step is replayed first
    if (this.choice.method() !== 'pca' && (restored || !(state.step > 0))) this.runLayout(null);
    this.lastRate = null;
    // a restored run: its step and last loss; the rate of a next-token run is constant (word2vec's decays: not shown)
    this.readout(restored ? { totalSteps: restored.step, lastLoss: this.losses.length ? this.losses[this.losses.length - 1] : NaN, learningRate: state.model === 'next' ? Number(s.lr) : NaN, finished: false } : null);
    if (!this.el.posCard.hidden) {
      const sin = await this.engine.request('positions', { seed: asked.seed, T: asked.ctx, D: asked.tD % 2 ? asked.tD + 1 : asked.tD, sim: 'cos', maxSide: 256, distanceCheck: false });
      if (gen !== this.renderGen) return; // a newer run is on screen: its render draws and replays
      this.drawSim(this.sinSim, sin.kinds[0].similarity);
    }
    // for the browser tests: the optimizer and rate of the run this render drew (several
    // settings typed in a row give several renders; a test waits for the one it needs)
    this.root.dataset.renderedRun = `${asked.opt} ${asked.lr}`;
    this.root.dataset.renders = String(Number(this.root.dataset.renders || 0) + 1);
    if (restored) {
      // the autosaved run: shown at its step, paused; the link now names that step
      const when = new Date(restored.savedAt).toLocaleTimeString('en-GB');
      this.el.message.textContent = `Restored from this browser's autosave (${when}) at step ${restored.step}; Play continues the run.`;
      this.root.dataset.restored = String(restored.step);
      this.showSaved({ step: restored.step, checksum: restored.checksum, savedAt: restored.savedAt });
      this.onSteps(restored.step, true);
      return;
    }
    // the saved run could not be loaded: said until the next run, before each autosave line
    this.restoreNote = r.restored && r.restored.error ? `Not restored: ${r.restored.error}. ` : '';
    if (this.el.saved) this.el.saved.textContent = this.restoreNote;
    if (asked.step > 0) this.play(asked.step); // the link's step: replayed, not awaited (the view is live)
  }

  // one position-similarity panel: a scale that shows its structure, with its colour bar and range in words
  drawSim(hm, grid) {
    const sc = similarityScale(summarize(grid.data), this.state.cmap);
    const lut = makeLut(sc.name);
    hm.setData(grid, { domain: sc.domain, lut });
    hm.simLegend.set({ domain: sc.domain, lut, note: sc.fitted ? 'fitted to this panel' : colormap(sc.name).diverging ? 'symmetric about 0' : 'min to max' });
    hm.rangeNote.textContent = `colour: ${scaleRange(sc, 'cosine')}`;
  }

  // The table grid and the learned position similarity of a reply, those it carries (a slice
  // leaves out the plots that are off screen); step: the run's step they show.
  drawTables(r, step) {
    if (r.table) {
      const stats = summarize(r.table.data);
      const domain = colorDomain(stats, this.state.cmap);
      const lut = makeLut(this.state.cmap);
      this.heatmap.setData(r.table, { domain, lut });
      this.legend.set({ domain, lut, note: r.table.sampled ? `${r.table.rows} of ${r.table.totalRows} rows drawn` : 'all rows' });
      this.drew('table', step);
    }
    if (r.positions) {
      this.drawSim(this.learnedSim, r.positions);
      this.drew('positions', step);
    }
  }

  // Plot `name` drew the run at `step`: for the tests, data-NAME-draws counts its draws and
  // data-NAME-step says which step it shows (loss, table, positions, map).
  drew(name, step) {
    this.vis.drawn(name);
    this.root.dataset[`${name}Draws`] = String(Number(this.root.dataset[`${name}Draws`] || 0) + 1);
    this.root.dataset[`${name}Step`] = String(step);
  }

  // Plots that came back on screen after slices that left them out (PlotVisibility): the loss
  // chart redraws from the curve the page holds; the table, the learned positions and the PCA map
  // come from one trainFrame while paused (while playing, the next slice carries them; a registry
  // map's own run draws it when training pauses).
  async catchUp(names) {
    const step = Number(this.root.dataset.steps || 0);
    if (names.includes('loss') && this.steps) {
      this.loss.draw(this.steps, this.losses, true);
      this.drew('loss', step);
    }
    if (this.playing || !this.last) return;
    const pca = this.choice.method() === 'pca';
    if (!pca && names.includes('map')) this.vis.drawn('map');
    const show = names.filter((n) => FRAME_PARTS.includes(n) && (n !== 'map' || pca));
    if (!show.length) return;
    const gen = this.playGen;
    try {
      const r = await this.engine.request('trainFrame', { show });
      if (gen !== this.playGen || this.playing) return; // another run, or Play: its slices draw
      for (const n of show) this.vis.drawn(n); // also a part the run does not have (positions of word2vec: null)
      this.drawTables(r, r.step);
      if (r.map !== undefined) this.drawMap(r.map, r.step);
    } catch (err) {
      if (gen === this.playGen && !this.playing) this.el.message.textContent = err.message; // not over a newer run's message
    }
  }

  async neighbours() {
    try {
      const r = await this.engine.request('trainNeighbours', { query: this.nn.query.value, k: 10 });
      this.nn.note.textContent = `${r.analogy ? 'Analogy ' : ''}${r.query}: cosine similarities at step ${r.step}${r.analogy ? " (gensim's most_similar)" : ''}.`;
      this.nn.body.replaceChildren();
      r.neighbours.forEach((n, i) => {
        const tr = document.createElement('tr');
        for (const text of [String(i + 1), JSON.stringify(n.label), String(n.row), n.cosine.toFixed(4)]) {
          const td = document.createElement('td');
          td.textContent = text;
          tr.append(td);
        }
        this.nn.body.append(tr);
      });
    } catch (err) {
      this.nn.note.textContent = err.message;
      this.nn.body.replaceChildren();
    }
  }

  // A setting that needs no new run (the compare card's text, tokenizer, steps, kinds, factor, fine-tune).
  setting(key, value) {
    if (this.state) this.state[key] = value;
    this.compare.setState(this.state);
  }

  // Saves the current table as vectors.tsv / metadata.tsv (Embedding Projector files) through
  // the table exports (named with the model, step and seed).
  async download(which) {
    const [saved] = await this.tableExports.save(which === 'vectors' ? 'tsv' : 'metadata');
    this.exportNote.textContent = saved
      ? `${saved.name}: ${saved.r.rows} rows × ${which === 'vectors' ? saved.r.dim : 1} columns at step ${saved.r.step}.`
      : this.tableExports.note.textContent;
  }

  recolor(state) {
    this.state = { ...this.state, cmap: state.cmap, logy: state.logy };
    this.loss.setLog(state.logy);
    this.compare.setLog(state.logy);
    if (this.steps) this.loss.draw(this.steps, this.losses, false);
  }
}

mixMethods(TrainView, TrainRunMethods, TrainMapMethods);
