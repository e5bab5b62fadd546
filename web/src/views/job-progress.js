// A long engine job's progress in a view's plot area: what the worker is doing, a progress
// bar, the share done, the time so far and a Cancel button. main.js makes one per view and
// feeds it the engine client's onJob events (engine-client.js); the worker only sends progress
// for jobs that run longer than PROGRESS_DELAY_MS (protocol.js), so quick answers show nothing.
// Cancel asks the worker to stop that request; the plot underneath stays as it was.
// Text only (notes may quote user input).
//
//   const jp = new JobProgress(area, (id) => engine.cancel(id));
//   jp.show({id: 7, done: 4096, total: 8192, note: 'distance check: RoPE'});
//   jp.end(7);                // the request settled: hide (unless it shows the cancelled note)
//   jp.cancelled();           // the request was cancelled: say so until the next job or draw
//   jp.clear();

export class JobProgress {
  constructor(area, onCancel) {
    this.onCancel = onCancel;
    this.box = document.createElement('div');
    this.box.className = 'job-progress';
    this.box.setAttribute('role', 'status');
    this.box.hidden = true;
    this.note = document.createElement('span');
    this.note.className = 'job-note';
    this.bar = document.createElement('progress');
    this.bar.max = 1;
    this.bar.value = 0;
    this.bar.setAttribute('aria-label', 'engine job progress');
    this.pct = document.createElement('span');
    this.pct.className = 'job-pct';
    this.button = document.createElement('button');
    this.button.type = 'button';
    this.button.className = 'job-cancel';
    this.button.textContent = 'Cancel';
    this.button.addEventListener('click', () => {
      if (this.id === null) return;
      this.button.disabled = true;
      this.note.textContent = `${this.note.textContent} (cancelling…)`;
      this.onCancel(this.id);
    });
    this.box.append(this.note, this.bar, this.pct, this.button);
    area.prepend(this.box);
    this.id = null;
    this.started = 0;
    this.first = null;
    this.last = null; // the last progress shown: {done, total}
  }

  // p: {id, done, total, note} from the worker
  show(p) {
    const frac = p.total > 0 ? Math.max(0, Math.min(1, p.done / p.total)) : 0;
    if (this.id !== p.id) {
      this.id = p.id;
      this.started = performance.now();
      this.first = { t: this.started, frac }; // the rate is measured from the first message on
      this.button.disabled = false;
    }
    this.last = { done: p.done, total: p.total, frac };
    this.box.classList.remove('cancelled');
    this.bar.hidden = false;
    this.button.hidden = false;
    this.bar.value = frac;
    this.note.textContent = p.note || 'engine working';
    const now = performance.now();
    const rate = (frac - this.first.frac) / Math.max(1, now - this.first.t); // per ms
    const left = rate > 0 && now - this.first.t > 500 ? ` · about ${Math.ceil((1 - frac) / rate / 1000)} s left` : '';
    this.pct.textContent = `${Math.floor(frac * 100)} %${left}`;
    this.box.hidden = false;
    this.box.dataset.state = 'running';
  }

  // Request id settled: hide the bar unless the cancelled note is up.
  end(id) {
    if (this.id !== id || this.box.dataset.state === 'cancelled') return;
    this.box.hidden = true; // this.last stays for cancelled(), which comes right after a cancel
    this.box.dataset.state = '';
  }

  // The job was cancelled: the plot shows the last settings that finished.
  cancelled() {
    const at = this.last ? ` at ${Math.floor(this.last.frac * 100)} %` : '';
    const secs = this.started ? ` after ${((performance.now() - this.started) / 1000).toFixed(1)} s` : '';
    this.note.textContent = `Cancelled${at}${secs}. The plots show the last settings that finished; change a setting to compute again.`;
    this.pct.textContent = '';
    this.bar.hidden = true;
    this.button.hidden = true;
    this.box.classList.add('cancelled');
    this.box.hidden = false;
    this.box.dataset.state = 'cancelled';
    this.id = null;
  }

  clear() {
    this.box.hidden = true;
    this.box.dataset.state = '';
    this.box.classList.remove('cancelled');
    this.id = null;
    this.last = null;
    this.started = 0;
  }
}
