// The map selector of a card (issue 12): PCA and the algorithms of the worker's map registry
// (handlers/map-algorithms.js, sent with the ready message) as a labelled radio group, the page
// parameters of the chosen algorithm (fields built from the registry: type, default, range, help),
// Run and Cancel, and a progress line with a bar. It names no algorithm and owns no engine
// request: the view asks the worker (layout-handler.js) and calls progress()/status().
// Values are the URL keys of state.js (`<prefix>map`, then `<prefix><mapParamKey>`), so a link
// reproduces the choice; a field's id is `<idPrefix>-<key without the prefix>`.
//
//   useMapAlgorithms(list);           // once, the worker's ready message: every choice is built
//   const mc = new MapChoice(container, {prefix: 't', idPrefix: 'train-map', onChange: (key, value) => ..., onRun, onCancel});
//   mc.set(state);                    // the link's values
//   mc.method();                      // 'pca' | a registry name
//   mc.payload();                     // {method, <option>: value...} for layoutStart
//   mc.running(true); mc.progress({phase: 'epoch', done: 120, total: 500}); mc.status('Cancelled at …');
//   mc.progress({preparing: true, phase: 'knn', progress: 0.4});   // "<label>: finding neighbours… 40%"
import { formatNumber } from '../plots/scales.js';
import { mapFields } from '../state.js';

// name -> label of every map the page can draw ('pca' and the registry's: useMapAlgorithms)
export const METHOD_NAMES = { pca: 'PCA' };
// the engine's construction phases (layout-handler.js layoutStep while preparing) -> what the line says
export const PHASE_NAMES = {
  knn: 'finding neighbours', neighbours: 'finding neighbours', graph: 'building the neighbour graph',
  affinities: 'calibrating affinities', init: 'initial layout',
};

let algorithms = []; // the registry's page metadata
const choices = new Set(); // the MapChoice objects, rebuilt by useMapAlgorithms

// list (the worker's ready message, mapAlgorithms) -> the labels and every choice's controls
export function useMapAlgorithms(list) {
  algorithms = list;
  for (const a of list) METHOD_NAMES[a.name] = a.label;
  for (const c of choices) c.build();
}

// name -> the registry's page metadata of that algorithm (undefined for pca)
export const mapAlgorithmInfo = (name) => algorithms.find((a) => a.name === name);

// {phase, progress} of a construction step -> "finding neighbours… 40%" (no share for the init: one unit)
export function preparingText(p) {
  const name = PHASE_NAMES[p.phase] ?? p.phase;
  return p.phase === 'init' ? `${name}…` : `${name}… ${Math.floor(100 * (p.progress ?? 0))}%`;
}

// a reply's readout ({name, value} | null) -> ", KL 1.23" (digits after the point) or ''
export function readoutText(r, digits = 2) {
  return r && r.value != null && Number.isFinite(r.value) ? `, ${r.name} ${r.value.toFixed(digits)}` : '';
}

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'attrs') for (const [a, x] of Object.entries(v)) e.setAttribute(a, x);
    else e[k] = v;
  }
  e.append(...children);
  return e;
}

export class MapChoice {
  constructor(container, { prefix, idPrefix, onChange = () => {}, onRun = () => {}, onCancel = () => {} }) {
    this.prefix = prefix;
    this.idPrefix = idPrefix;
    this.onChange = onChange;
    const id = (x) => `${idPrefix}-${x}`;
    this.box = el('div', { className: 'map-choice' });
    this.group = el('fieldset', { className: 'map-methods' });
    this.options = el('span', { className: 'map-options' });
    this.run = el('button', { type: 'button', className: 'primary', id: id('run'), textContent: 'Run' });
    this.cancel = el('button', { type: 'button', id: id('cancel'), textContent: 'Cancel', disabled: true });
    this.run.addEventListener('click', () => onRun());
    this.cancel.addEventListener('click', () => onCancel());
    this.bar = el('progress', { max: 1, value: 0, hidden: true, attrs: { 'aria-label': 'map progress' } });
    this.line = el('span', { className: 'caption map-progress', id: id('progress'), attrs: { role: 'status' } });
    this.box.append(el('div', { className: 'slider-row' }, this.group, this.options, this.run, this.cancel), el('div', { className: 'slider-row' }, this.bar, this.line));
    container.append(this.box);
    this.values = { map: 'pca' };
    choices.add(this);
    this.build();
  }

  // the radios and the parameter fields of the registry (useMapAlgorithms); values kept
  build() {
    const id = (x) => `${this.idPrefix}-${x}`;
    this.group.replaceChildren(el('legend', { textContent: 'map' }));
    this.radios = {};
    for (const [m, name] of Object.entries(METHOD_NAMES)) {
      const r = el('input', { type: 'radio', name: id('method'), value: m, id: id(m) });
      r.addEventListener('change', () => r.checked && this.changed('map', m));
      this.radios[m] = r;
      this.group.append(el('label', { htmlFor: id(m) }, r, ` ${name}`));
    }
    this.fields = {};
    this.options.replaceChildren();
    // numbers first, then choices (the metric select after n_neighbors, min_dist, perplexity)
    const fields = mapFields(algorithms).sort((x, y) => (x.param.type === 'choice') - (y.param.type === 'choice'));
    for (const { suffix: k, param: q, methods } of fields) {
      let input;
      if (q.type === 'choice') {
        input = el('select', { id: id(k) }, ...q.choices.map((c) => new Option(c, c)));
        input.addEventListener('change', () => this.changed(k, input.value));
      } else {
        input = el('input', { type: 'number', id: id(k), attrs: { min: String(q.min), max: String(q.max), step: String(q.step ?? (q.type === 'int' ? 1 : 'any')) } });
        input.addEventListener('change', () => {
          const v = Number(input.value);
          if (input.value.trim() !== '' && Number.isFinite(v)) this.changed(k, v);
        });
      }
      if (q.help) input.title = q.help;
      if (!(k in this.values)) this.values[k] = q.default;
      this.fields[k] = { input, param: q, methods };
      const wrap = el('span', { className: 'map-option' }, el('label', { htmlFor: id(k), textContent: q.name }), ' ', input);
      wrap.dataset.key = k;
      this.options.append(wrap);
    }
    this.show();
  }

  changed(key, value) {
    this.values[key] = value;
    this.show();
    this.onChange(`${this.prefix}${key}`, value, key);
  }

  // state (URL keys with this prefix) -> the controls
  set(state) {
    for (const k of Object.keys(this.values)) {
      const v = state[`${this.prefix}${k}`];
      if (v !== undefined) this.values[k] = v;
    }
    this.show();
  }

  show() {
    const m = this.values.map;
    for (const [k, r] of Object.entries(this.radios)) r.checked = k === m;
    for (const [k, f] of Object.entries(this.fields)) f.input.value = String(this.values[k]);
    for (const wrap of this.options.children) wrap.hidden = !this.fields[wrap.dataset.key].methods.includes(m);
    this.run.hidden = m === 'pca';
    this.cancel.hidden = m === 'pca';
    this.box.dataset.method = m;
  }

  method() {
    return this.values.map;
  }

  // the chosen algorithm's page parameters: [{name, option, type, value}]
  params(m = this.values.map) {
    return Object.entries(this.fields).filter(([, f]) => f.methods.includes(m)).map(([k, f]) => ({ ...f.param, value: this.values[k] }));
  }

  // the engine's options of the chosen method (layout-handler.js layoutOptions)
  payload() {
    const out = { method: this.values.map };
    for (const q of this.params()) out[q.option] = q.value;
    return out;
  }

  running(on) {
    this.run.disabled = on;
    this.cancel.disabled = !on;
    this.box.dataset.running = String(on);
    if (!on) this.bar.hidden = true;
  }

  // {phase (the stepName), done, total, readout?, ms?} -> "<label> epoch 120 / 500" on the line and the bar;
  // {preparing: true, phase: 'knn' | ..., progress} -> "<label>: finding neighbours… 40%", the bar at the phase's share
  progress(p, method = this.values.map) {
    this.bar.hidden = false;
    if (p.preparing) {
      this.bar.value = p.progress ?? 0;
      this.status(`${METHOD_NAMES[method]}: ${preparingText(p)}`);
      this.box.dataset.phase = p.phase;
      return;
    }
    this.box.dataset.phase = p.phase;
    this.bar.value = p.total > 0 ? p.done / p.total : 0;
    const secs = p.ms != null ? ` (${formatNumber(p.ms / 1000)} s of engine time)` : '';
    this.status(`${METHOD_NAMES[method]} ${p.phase} ${p.done} / ${p.total}${readoutText(p.readout)}${secs}`);
    this.box.dataset.done = String(p.done);
  }

  // (a live region: the same text is not set again, so it is not read out again)
  status(text) {
    if (this.line.textContent !== text) this.line.textContent = text;
  }
}
