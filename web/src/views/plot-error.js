// The engine's message where the failed plot would be. A view's plot area (an element with
// data-plot-area in index.html) gets a box with the message over its last good plot, which
// stays drawn underneath (dimmed), or in place of the plot when nothing was drawn yet. The
// same message also appears under the field that caused it (main.js, Controls.setError).
// Text only, never HTML: messages quote user input.
//
//   const e = new PlotError(document.querySelector('#view-positions [data-plot-area]'));
//   e.show('positions: similarity matrix 65536 x 65536 float32 need 16.0 GiB; ...', {field: 'T', kept: true});
//   e.clear();

export class PlotError {
  constructor(area) {
    this.area = area;
    this.box = document.createElement('div');
    this.box.className = 'plot-error';
    this.box.setAttribute('role', 'alert');
    this.box.hidden = true;
    this.message = document.createElement('p');
    this.message.className = 'plot-error-message';
    this.note = document.createElement('p');
    this.note.className = 'plot-error-note';
    this.box.append(this.message, this.note);
    area.prepend(this.box);
  }

  // message: the engine's text; field: the label of the field it concerns (or null);
  // kept: whether the last good plot is still drawn under the box.
  show(message, { field = null, kept = false } = {}) {
    this.message.textContent = message;
    const fix = field ? `Change ${field} to draw again. ` : '';
    this.note.textContent = fix + (kept ? 'Underneath: the last plot that worked.' : 'Nothing drawn yet.');
    this.box.hidden = false;
    this.area.classList.add('has-error');
    this.area.classList.toggle('kept', kept);
  }

  clear() {
    this.box.hidden = true;
    this.message.textContent = '';
    this.note.textContent = '';
    this.area.classList.remove('has-error', 'kept');
  }

  get text() {
    return this.box.hidden ? '' : this.message.textContent;
  }
}
