// The map card of the training view (issue 12), split out of train-view.js: PCA (refitted, or
// on frozen axes with trails) or a map of the worker's registry (map-choice.js). While playing, each map update of a
// trainStep is a slice of the slot's live run in the worker (trainingMap); paused or finished,
// the whole run is drawn frame by frame (runLayout: layoutStart / layoutStep), with progress and
// Cancel (cancelLayout). The map's note says how the picture was made; data-map-state,
// data-map-error, data-map-clamp, data-map-frames and data-map-method are for the tests.
//
// Not here: the map's choice widget (map-choice.js), the worker's runs (handlers/layout-handler.js),
// the scatter drawing (plots/). These are methods of TrainView (train-view.js copies them onto
// its prototype), so `this` is the view: this.scatter, this.choice, this.mapNote, this.freeze,
// this.mapTitle, this.freezeRow, this.layoutGen, this.rowLabels, this.rowOrder and this.state
// come from its constructor and render().
//
//   mixMethods(TrainView, TrainMapMethods);   // train-view.js
//   view.drawMap(trainStartReply.map, 0); view.runLayout(null);
import { TRAIL_ROWS } from '../plots/scatter.js';
import { formatNumber } from '../plots/scales.js';
import { METHOD_NAMES, preparingText, readoutText } from './map-choice.js';

const LAYOUT_STEP_MS = 35; // engine time of one frame of a registry map's run

export class TrainMapMethods {
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
    this.drew('map', step);
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
    this.drew('map', step);
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
}
