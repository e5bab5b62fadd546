// View 6: training in the browser. Play runs `trainStep` requests back to back (each one a
// ~40 ms slice of steps in the worker), so the page keeps painting; the loss curve, the
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
import { renderStatList } from './stat-list.js';
import { Heatmap } from '../plots/heatmap.js';
import { Legend } from '../plots/legend.js';
import { Scatter, TRAIL_ROWS } from '../plots/scatter.js';
import { visibleText } from '../widgets/chips.js';
import { colorDomain, colormap, formatNumber, makeLut, scaleRange, similarityScale } from '../plots/scales.js';
import { summarize } from '../arrays.js';
import { CompareView } from './compare-view.js';
import { TableExports } from './table-exports.js';
import { METHOD_NAMES, MapChoice, preparingText, readoutText } from './map-choice.js';
import { TrainLoss } from './train-loss.js';
import { SampleBox } from './sample-view.js';
import { JobProgress } from './job-progress.js';

const LAYOUT_STEP_MS = 35; // engine time of one frame of a registry map's run

export const TRAIN_KEYS = ['tCorpus', 'tEnc', 'tLower', 'bpeV', 'model', 'pos', 'tD', 'ctx', 'tB', 'opt', 'lr', 'alpha', 'win', 'minc', 'ep', 'seed'];
// payload key -> the page field (the worker's text keys are the text views' names)
const TRAIN_FIELDS = { corpus: 'tCorpus', enc: 'tEnc', lower: 'tLower' };
const RATE_WINDOW_MS = 2000; // tokens / s: the average over this much wall time
const AUTOSAVE_MS = 2000; // while playing, the run is autosaved at most this often

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
  constructor(root, engine, { onError, onSteps = () => {}, onPlay = () => {}, autosave = false, onMapState = () => {} }) {
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
    this.compare = new CompareView(root, engine, { onError });
    // the "Sample text" card under the loss chart (views/sample-view.js), when the markup has it
    const sampleCard = $('sample-card');
    this.sampleBox = sampleCard ? new SampleBox(sampleCard, engine) : null;
    this.scatter = new Scatter($('train-map'), { labelled: 30 });
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

  async render(r, state) {
    this.playing = false; // not pause(): the new run is at step 0, the link's step still to come
    this.playGen++;
    this.stopLayout();
    this.el.play.textContent = '▶ Play';
    this.state = { ...state };
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
    this.drawTables(r);
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
      const sin = await this.engine.request('positions', { seed: state.seed, T: state.ctx, D: state.tD % 2 ? state.tD + 1 : state.tD, sim: 'cos', maxSide: 256, distanceCheck: false });
      this.drawSim(this.sinSim, sin.kinds[0].similarity);
    }
    // for the browser tests: the optimizer and rate of the run this render drew (several
    // settings typed in a row give several renders; a test waits for the one it needs)
    this.root.dataset.renderedRun = `${state.opt} ${state.lr}`;
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
    if (state.step > 0) this.play(state.step); // the link's step: replayed, not awaited (the view is live)
  }

  showSaved(s) {
    this.root.dataset.savedStep = String(s.step);
    this.root.dataset.savedChecksum = s.checksum;
    if (this.el.saved) {
      this.el.saved.textContent = `${this.restoreNote || ''}Autosaved in this browser at step ${s.step} (${new Date(s.savedAt).toLocaleTimeString('en-GB')}): a reload continues from there.`;
    }
  }

  // The run's checkpoint to this browser's storage, by the worker (one save at a time; a request
  // during a save makes one more save after it). -> Promise
  save() {
    if (!this.autosave || !this.last) return Promise.resolve();
    if (this.saving) {
      this.saveAgain = true;
      return this.saving;
    }
    this.lastSave = performance.now();
    const gen = this.playGen;
    this.saving = this.engine.request('trainSave', { curve: { steps: this.steps, losses: this.losses, held: this.loss.held } })
      .then((s) => {
        if (gen === this.playGen || this.playing) this.showSaved(s);
      }, (err) => {
        if (this.el.saved) this.el.saved.textContent = `Not autosaved: ${err.message}`;
        this.autosave = false; // no storage here: stop trying
      })
      .finally(() => {
        this.saving = null;
        if (this.saveAgain) {
          this.saveAgain = false;
          this.save();
        }
      });
    return this.saving;
  }

  // Start over: no more saves; resolves when the save in flight (if any) is written.
  async stopSaving() {
    this.pause();
    this.autosave = false;
    this.saveAgain = false;
    if (this.saving) await this.saving;
  }

  showChecksum(sum) {
    this.root.dataset.checksum = sum || '';
    this.el.message.title = sum ? `fingerprint of the whole input table (FNV-1a of its float32 bytes): ${sum}` : '';
  }

  drawMap(map, step) {
    if (!map) {
      this.mapNote.textContent = 'No map: PCA needs a table at least 2 wide with 3 rows.';
      return;
    }
    if (map.method) {
      this.drawLayout(map, step);
      return;
    }
    this.scatter.setData({ points: map.points, labels: this.rowLabels, explained: map.explained, frozen: map.frozen, order: this.rowOrder, method: 'pca' });
    this.mapNote.textContent =
      'Each dot is one row of the table projected on its two main directions of variation (PCA by the engine, ' +
      (map.frozen
        ? 'axes frozen: the PCA basis stays fixed, so motion is motion in the table, while the view follows the cloud smoothly, its centre and its scale, framing the points and the trails as the vectors grow). ' +
          `Orange lines: the trails of the ${TRAIL_ROWS} most frequent ${this.state.model === 'next' ? 'tokens' : 'words'}, faint where older; an arrow on the edge marks a trail that left the frame while the view catches up. `
        : 'refitted every 250 ms while training, signs kept from the previous frame). ') +
      `Labelled: the 30 most frequent ${this.state.model === 'next' ? 'tokens of the text' : 'words'} where they do not overlap; each axis spans 99% of the points. Step ${step}.`;
  }

  // A frame of a registry map: {points, method, continued (from the previous update, while
  // playing)} or a frame of the animated run (layoutStep reply: done, total, phase).
  drawLayout(map, step) {
    const name = METHOD_NAMES[map.method];
    // trails only between training updates (each one starts from the last): the frames of a whole
    // run move too far early on to read as paths
    const training = !!map.live;
    this.scatter.setData({ points: map.points, labels: this.rowLabels, axes: [1, 2].map((i) => `${name} ${i}`), method: map.method, trails: training, order: this.rowOrder });
    this.mapFrames = (this.mapFrames || 0) + 1;
    this.root.dataset.mapFrames = String(this.mapFrames);
    this.root.dataset.mapMethod = map.method;
    // the page parameters: numbers by name (a clamped one last, as the clamp states it), then choices
    const params = this.choice.params(map.method);
    const nums = params.filter((q) => q.type !== 'choice' && q.name !== map.clamp?.key).map((q) => `${q.name} ${q.value}`);
    const opts = [...nums, ...(map.clamp ? [map.clamp.text] : [])].join(', ');
    const picks = params.filter((q) => q.type === 'choice').map((q) => q.value).join(', ');
    this.showClamp(map.clamp);
    const how = !training
      ? `${name} of the table at step ${step} (${opts}, ${picks}, seed 0), drawn while it runs: ${map.phase} ${map.done} / ${map.total}`
      : `${name} while training (${opts}, ${picks}, seed 0): each update runs a slice of a short run from the previous run's layout on the table as it was when that run started${map.continued ? '' : ' (this first one from the engine\'s own start)'}, so points move rather than jump; step ${step}`;
    this.mapNote.textContent =
      `Each dot is one row of the table, placed by ${how}. ${training ? `The orange lines are the trails of the ${TRAIL_ROWS} most frequent rows over the last updates, faint where older` : 'Labelled: the 30 most frequent'} (${this.state.model === 'next' ? 'tokens of the text' : 'words'}). ` +
      `${name} keeps rows near their nearest neighbours; distances between clusters, cluster sizes and the axes mean little, and another seed gives another picture. Pause or the end of training draws the whole ${name} run.`;
  }

  // The map as drawn -> {method, points} | null
  drawnMap() {
    const d = this.scatter.data;
    return d && d.points ? { method: d.method || 'pca', points: d.points } : null;
  }

  // The worker's clamp of the map's perplexity / n_neighbors to the table (null: none), on the card.
  showClamp(clamp) {
    if (clamp) this.root.dataset.mapClamp = clamp.text;
    else delete this.root.dataset.mapClamp;
  }

  // A map update of trainStep: a frame of the live run, its construction's progress, or its error.
  trainingMap(r) {
    const m = this.choice.method();
    if (r.mapError) {
      this.root.dataset.mapError = r.mapError;
      this.root.dataset.mapState = 'failed';
      this.choice.status(`The map could not be updated: ${r.mapError}. Training goes on; the map shows the last frame it could draw.`);
      return;
    }
    if (!r.map) return;
    delete this.root.dataset.mapError;
    if (!r.map.method) {
      this.drawMap(r.map, r.stats.totalSteps);
      return;
    }
    if (r.map.method !== m) return; // an update asked before the choice changed
    this.root.dataset.mapState = 'training';
    const clamp = r.map.clamp ? `; ${r.map.clamp.text}: ${r.map.clamp.why}` : '';
    if (!r.map.points) {
      this.showClamp(r.map.clamp);
      this.choice.status(`${METHOD_NAMES[m]} while training: ${preparingText(r.map)}${clamp}`);
      return;
    }
    this.drawMap(r.map, r.stats.totalSteps);
    // the same line at every update (it is a live region): no counters here, the note has the step
    this.choice.status(`${METHOD_NAMES[m]} while training: each update continues the map from its last frame${clamp}`);
  }

  // The link's map choice (tmap, tnn, tmd, tmetric, tperp)
  setMapState(state) {
    this.choice.set(state);
    this.showMethod();
  }

  showMethod() {
    const m = this.choice.method();
    this.mapTitle.textContent = `Map of the table (${METHOD_NAMES[m]})`;
    this.freezeRow.hidden = m !== 'pca';
  }

  // The choice changed: PCA again (with frozen axes if ticked), or the registry map's run now
  // (paused) or from the next update on (playing).
  async methodChanged() {
    this.showMethod();
    this.stopLayout();
    this.scatter.clearTrails();
    const m = this.choice.method();
    this.choice.status('');
    if (!this.last) return;
    if (m !== 'pca') {
      if (!this.playing) this.runLayout(null);
      else this.choice.status(`${METHOD_NAMES[m]} from the next map update on (every 250 ms while training).`);
      return;
    }
    try {
      this.drawMap(await this.engine.request('trainFreeze', { on: this.freeze.checked }), Number(this.root.dataset.steps || 0));
    } catch (err) {
      this.mapNote.textContent = err.message;
    }
  }

  // The whole registry map run of the table as it is now, drawn frame by frame. from: 'previous'
  // starts from the last layout (the one training left), null from the engine's own start.
  async runLayout(from) {
    if (!this.last || this.choice.method() === 'pca') return;
    const gen = ++this.layoutGen;
    const payload = { source: 'train', from, clamp: true, ...this.choice.payload() };
    const name = METHOD_NAMES[payload.method];
    this.layoutMethod = payload.method;
    this.lastLayout = null;
    this.layoutRunning = true;
    this.choice.running(true);
    this.choice.status(`${name}: starting in the worker…`);
    this.root.dataset.mapState = 'starting';
    this.preparing = null;
    if (!from) this.scatter.clearTrails();
    let step = Number(this.root.dataset.steps || 0);
    try {
      this.preparing = await this.engine.request('layoutStart', payload);
      if (gen !== this.layoutGen) return;
      // the worker answers in order: a training slice sent before this start has been shown
      step = Number(this.root.dataset.steps || 0);
      delete this.root.dataset.mapError;
      const clamp = this.preparing.clamp;
      this.root.dataset.mapState = 'preparing';
      this.choice.progress(this.preparing, payload.method);
      for (;;) {
        const p = await this.engine.request('layoutStep', { source: 'train', budgetMs: LAYOUT_STEP_MS });
        if (gen !== this.layoutGen) return;
        if (p.preparing) { // the construction (neighbours, graph, init): progress, no frame
          this.preparing = p;
          this.choice.progress(p, payload.method);
          continue;
        }
        this.preparing = null;
        this.root.dataset.mapState = 'running';
        this.drawMap({ ...p, method: payload.method, clamp }, step);
        this.choice.progress(p, payload.method);
        this.lastLayout = p;
        if (p.finished) break;
        await new Promise((res) => requestAnimationFrame(() => res()));
        if (gen !== this.layoutGen) return;
      }
      this.root.dataset.mapState = 'finished';
      const p = this.lastLayout;
      this.choice.status(`${name} of the table at step ${step} finished: ${p.phase} ${p.done} / ${p.total}${readoutText(p.readout)} in ${formatNumber(p.ms / 1000)} s of engine time${clamp ? `; ${clamp.text}: ${clamp.why}` : ''}.`);
    } catch (err) {
      if (gen !== this.layoutGen) return;
      this.root.dataset.mapState = 'failed';
      this.root.dataset.mapError = err.message;
      this.choice.status(`${name} failed: ${err.message}`);
    } finally {
      if (gen === this.layoutGen) {
        this.layoutRunning = false;
        this.choice.running(false);
      }
    }
  }

  // Ends the run's loop and frees it in the worker (the last frame stays). -> true if one ran
  stopLayout() {
    if (!this.layoutRunning) return false;
    this.layoutGen++;
    this.layoutRunning = false;
    this.choice.running(false);
    this.engine.request('layoutStop', { source: 'train' }).catch(() => {});
    return true;
  }

  cancelLayout() {
    if (!this.stopLayout()) return;
    const p = this.lastLayout;
    const prep = this.root.dataset.mapState === 'preparing' ? this.preparing : null;
    this.root.dataset.mapState = 'cancelled';
    const name = METHOD_NAMES[this.layoutMethod];
    this.choice.status(p ? `${name} cancelled at ${p.phase} ${p.done} / ${p.total}; the map shows that frame.`
      : `${name} cancelled before its first frame${prep ? ` (${preparingText(prep)})` : ''}.`);
  }

  // one position-similarity panel: a scale that shows its structure, with its colour bar and range in words
  drawSim(hm, grid) {
    const sc = similarityScale(summarize(grid.data), this.state.cmap);
    const lut = makeLut(sc.name);
    hm.setData(grid, { domain: sc.domain, lut });
    hm.simLegend.set({ domain: sc.domain, lut, note: sc.fitted ? 'fitted to this panel' : colormap(sc.name).diverging ? 'symmetric about 0' : 'min to max' });
    hm.rangeNote.textContent = `colour: ${scaleRange(sc, 'cosine')}`;
  }

  drawTables(r) {
    const stats = summarize(r.table.data);
    const domain = colorDomain(stats, this.state.cmap);
    const lut = makeLut(this.state.cmap);
    this.heatmap.setData(r.table, { domain, lut });
    this.legend.set({ domain, lut, note: r.table.sampled ? `${r.table.rows} of ${r.table.totalRows} rows drawn` : 'all rows' });
    if (r.positions) this.drawSim(this.learnedSim, r.positions);
  }

  // Throughput over wall time: (tokens, steps) counted as replies arrive, averaged over the last
  // RATE_WINDOW_MS while playing (one step timed alone overstates it: it leaves out the time
  // between slices, the copies and the drawing). -> {tokensPerSecond, msPerStep} | null
  rate(slice) {
    const now = performance.now();
    const w = this.rateWindow;
    const last = w[w.length - 1];
    w.push({ t: now, tokens: last.tokens + slice.tokens, steps: last.steps + slice.steps });
    while (w.length > 2 && now - w[1].t >= RATE_WINDOW_MS) w.shift();
    const first = w[0];
    const dt = now - first.t;
    if (dt <= 0) return null;
    return { tokensPerSecond: ((w[w.length - 1].tokens - first.tokens) * 1000) / dt, msPerStep: dt / (w[w.length - 1].steps - first.steps) };
  }

  readout(stats, rate) {
    const perS = this.state.model === 'next' ? 'tokens / s' : 'effective words / s';
    let eta = '–';
    if (stats && rate) {
      const total = this.last && this.last.estimate && this.last.estimate.totalSteps;
      eta = total
        ? `${formatNumber(Math.max(0, total - stats.totalSteps) * rate.msPerStep / 1000)} s left`
        : `${formatNumber(rate.msPerStep)} s per 1,000 steps`;
    }
    const items = stats
      ? [['step', `${stats.totalSteps}`], ['loss', Number.isFinite(stats.lastLoss) ? stats.lastLoss.toFixed(4) : '–'],
        ...this.loss.heldItem(), [perS, rate ? Math.round(rate.tokensPerSecond).toLocaleString('en') : '–'], [stats.finished ? 'finished' : 'time', stats.finished ? '–' : eta],
        ['learning rate', Number.isFinite(stats.learningRate) ? formatNumber(stats.learningRate) : '–'], ['table fingerprint', this.root.dataset.checksum]]
      : [['step', '0'], ['loss', '–'], ...this.loss.heldItem(), [perS, '–'], ['time', '–'], ['learning rate', '–'], ['table fingerprint', this.root.dataset.checksum]];
    renderStatList(this.el.readout, items);
    if (rate) this.root.dataset.tokensPerSecond = String(rate.tokensPerSecond);
  }

  consume(r) {
    for (const [x, y] of r.points) {
      this.steps.push(x);
      this.losses.push(y);
    }
    this.loss.add(r.held || []);
    this.loss.draw(this.steps, this.losses, (r.held || []).length > 0);
    this.showChecksum(r.checksum);
    const rate = r.slice && this.playing ? this.rate(r.slice) : null;
    if (rate) this.lastRate = rate; // a slice that lands after a pause keeps the last rate
    this.readout(r.stats, rate || this.lastRate);
    this.drawTables(r);
    this.trainingMap(r);
    this.root.dataset.steps = String(r.stats.totalSteps);
    this.root.dataset.lossPoints = String(this.steps.length); // for the browser tests: the curve has every step
    if (this.losses.length) this.root.dataset.firstLoss = String(this.losses[0]);
    this.root.dataset.lastLoss = String(r.stats.lastLoss);
    this.onSteps(r.stats.totalSteps, !this.playing);
    if (r.stats.finished) {
      this.pause();
      this.el.message.textContent = `Finished after ${r.stats.totalSteps} steps.`;
    } else if (this.playing && performance.now() - this.lastSave > AUTOSAVE_MS) {
      this.save();
    } else if (!this.playing) {
      this.save(); // Step, or the last slice after Pause
    }
  }

  async request(payload) {
    try {
      const map = this.choice.method() !== 'pca' ? this.choice.payload() : null;
      const r = await this.engine.request('trainStep', map ? { ...payload, map } : payload);
      this.consume(r); // the slice's steps, also those before a step that failed
      if (r.stepError) throw Object.assign(new Error(r.stepError.message), { fields: r.stepError.fields });
      return true;
    } catch (err) {
      this.pause();
      this.el.message.textContent = err.message;
      this.onError(err);
      return false;
    }
  }

  // Plays until Pause, the end of the run or step `until` (a link's step=N: then it stops there).
  async play(until = Infinity) {
    if (!this.last || this.playing) return;
    this.playing = true;
    if (this.stopLayout()) this.choice.status('');
    this.scatter.clearTrails(); // the trails of this stretch of training only
    this.onPlay();
    const gen = ++this.playGen;
    this.rateWindow = [{ t: performance.now(), tokens: 0, steps: 0 }];
    this.el.play.textContent = '❚❚ Pause';
    const at = () => Number(this.root.dataset.steps || 0);
    const replaying = until < Infinity;
    if (replaying) {
      this.el.message.textContent = `Replaying the link's run to step ${until}…`;
      this.replayCancelled = false;
    }
    while (this.playing && gen === this.playGen && at() < until && (await this.request({ budgetMs: 40, maxSteps: until - at() }))) {
      if (replaying && at() < until) this.replay.show({ id: `replay-${gen}`, done: at(), total: until, note: `Replaying the link's run: step ${at().toLocaleString('en')} of ${until.toLocaleString('en')}` });
      await new Promise((res) => requestAnimationFrame(res));
    }
    if (replaying) this.replay.clear();
    if (gen !== this.playGen || !replaying) return;
    if (this.replayCancelled) {
      this.el.message.textContent = `Replay cancelled at step ${at().toLocaleString('en')} of the link's ${until.toLocaleString('en')}; Play goes on from here.`;
      this.root.dataset.replayCancelled = String(at());
      return;
    }
    if (at() >= until) {
      this.pause();
      this.el.message.textContent = `Replayed to step ${at()}, the link's step; Play goes on from here.`;
      this.root.dataset.replayed = String(at());
    }
  }

  // Cancel of a link's replay: the run stays at the step it reached, paused.
  cancelReplay() {
    this.replayCancelled = true;
    this.pause();
  }

  pause() {
    const was = this.playing;
    this.playing = false;
    this.el.play.textContent = '▶ Play';
    if (was && this.last) {
      this.onSteps(Number(this.root.dataset.steps || 0), true);
      this.save();
      if (this.choice.method() !== 'pca') this.runLayout('previous'); // the whole run, from where training left the map
    }
  }

  async stepOnce() {
    if (!this.last) return;
    this.pause();
    await this.request({ budgetMs: 0, maxSteps: 1 });
  }

  async reset() {
    this.pause();
    try {
      const r = await this.engine.request('trainReset', {});
      await this.render({ ...r, labels: this.labels, rowLabels: this.rawRowLabels, rowOrder: this.rowOrder }, { ...this.state, step: 0 });
      this.onSteps(0, true);
    } catch (err) {
      this.el.message.textContent = err.message;
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

  // A setting that needs no new run (the compare card's text, tokenizer and steps).
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
