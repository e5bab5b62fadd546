// The run of the training view, split out of train-view.js: Play / Pause / Step / Reset, the
// loop of trainStep slices (play: at most one request in flight, a frame between slices), a
// link's replay to step N with its progress and Cancel, the readout (step, loss, tokens / s over
// RATE_WINDOW_MS of wall time, time left, fingerprint) and the autosave to this browser
// (save: trainSave, at most every AUTOSAVE_MS while playing, and on pause).
//
// Not here: what a slice computes (handlers/train-handler.js), the loss chart (train-loss.js),
// the map (train-map.js). These are methods of TrainView (train-view.js copies them onto its
// prototype), so `this` is the view: this.el, this.loss, this.replay, this.steps, this.losses,
// this.playGen and this.autosave come from its constructor and render().
//
//   view.play();            // until Pause or the end of the run
//   view.play(state.step);  // a link's step: replay to it and stop there
import { renderStatList } from './stat-list.js';
import { FRAME_PARTS } from '../handlers/train-frame.js';
import { formatNumber } from '../plots/scales.js';

const RATE_WINDOW_MS = 2000; // tokens / s: the average over this much wall time
const AUTOSAVE_MS = 2000; // while playing, the run is autosaved at most this often
// Engine time of one trainStep slice while playing. Each slice costs the page a frame of its own
// (the reply, the plots' draws, Chromium's commit and a software composite): on the 2-core
// machine, with the worker training on one core, 40 ms slices left the page at the edge of its
// budget of 55 frames per second with every plot on screen, 80 ms slices clear of it (scripts/bench
// page, train_frames_per_s: docs/benchmarks.md). The plots update ~12 times a second; Pause takes
// effect within one slice.
const SLICE_MS = 80;

export class TrainRunMethods {
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
    const tokens = w[w.length - 1].tokens - first.tokens, steps = w[w.length - 1].steps - first.steps;
    // what the rate is made of, for tests: replies in the window, its steps, tokens and milliseconds
    this.root.dataset.rateWindow = `${w.length - 1},${steps},${tokens},${dt}`;
    return { tokensPerSecond: (tokens * 1000) / dt, msPerStep: dt / steps };
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

  // The cost of a slice, for the page benchmark (scripts/bench-page.mjs): data-slice-worker-ms
  // (the worker's time for it) and data-slice-main-ms (this thread's: consume() plus the plot
  // draws it scheduled, which run in the next animation frame; animation-frame callbacks run in
  // the order they were asked for, so the two marks bracket those draws). -> end(): call after consume's work
  sliceTimer(r) {
    const t0 = performance.now();
    let drawFrom = 0;
    requestAnimationFrame(() => (drawFrom = performance.now()));
    if (r.slice && Number.isFinite(r.slice.ms)) this.root.dataset.sliceWorkerMs = r.slice.ms.toFixed(2);
    return () => {
      const sync = performance.now() - t0;
      requestAnimationFrame(() => (this.root.dataset.sliceMainMs = (sync + performance.now() - drawFrom).toFixed(2)));
    };
  }

  // A trainStep reply; show: the parts it was asked for (the plots on screen then): the others
  // are stale until they are on screen again (PlotVisibility, catchUp).
  consume(r, show = FRAME_PARTS) {
    const timed = this.sliceTimer(r);
    for (const [x, y] of r.points) {
      this.steps.push(x);
      this.losses.push(y);
    }
    const step = r.stats.totalSteps;
    this.loss.add(r.held || []);
    const lossOn = this.vis.visible('loss'); // off screen: the verdict and readout only, no lines
    this.loss.draw(this.steps, this.losses, (r.held || []).length > 0, lossOn);
    if (lossOn) this.drew('loss', step);
    else this.vis.skipped('loss');
    this.showChecksum(r.checksum);
    const rate = r.slice && this.playing ? this.rate(r.slice) : null;
    if (rate) this.lastRate = rate; // a slice that lands after a pause keeps the last rate
    this.readout(r.stats, rate || this.lastRate);
    for (const part of FRAME_PARTS) if (!show.includes(part)) this.vis.skipped(part);
    this.drawTables(r, step);
    this.trainingMap(r);
    this.root.dataset.steps = String(r.stats.totalSteps);
    this.root.dataset.lossPoints = String(this.steps.length); // for the browser tests: the curve has every step
    if (this.losses.length) this.root.dataset.firstLoss = String(this.losses[0]);
    this.root.dataset.lastLoss = String(r.stats.lastLoss);
    this.onSteps(r.stats.totalSteps, !this.playing);
    timed();
    // paused with plots that came on screen while the last slices were under way: catch them up
    if (!this.playing && this.vis.stale().length) this.catchUp(this.vis.stale());
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
      const show = this.vis.shown().filter((n) => FRAME_PARTS.includes(n)); // only the plots on screen
      const r = await this.engine.request('trainStep', { ...payload, show, ...(map ? { map } : {}) });
      this.consume(r, show); // the slice's steps, also those before a step that failed
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
    while (this.playing && gen === this.playGen && at() < until && (await this.request({ budgetMs: SLICE_MS, maxSteps: until - at() }))) {
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
}
