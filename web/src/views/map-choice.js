// The map selector of a card (issue 12): PCA | UMAP | t-SNE as a labelled radio group, the key
// options of the chosen method (UMAP: n_neighbors, min_dist, metric; t-SNE: perplexity,
// metric; the engine's defaults), Run and Cancel, and a progress line with a bar. It owns no
// engine request: the view asks the worker (layout-handler.js) and calls progress()/status().
// Values are the URL keys of state.js (`<prefix>map`, `nn`, `md`, `metric`, `perp`), so a link
// reproduces the choice.
//
//   const mc = new MapChoice(container, {prefix: 't', idPrefix: 'train-map', onChange: (key, value) => ..., onRun, onCancel});
//   mc.set(state);                    // the link's values
//   mc.method();                      // 'pca' | 'umap' | 'tsne'
//   mc.payload();                     // {method, nNeighbors, minDist, metric, perplexity} for layoutStart
//   mc.running(true); mc.progress({phase: 'epoch', done: 120, total: 500}); mc.status('Cancelled at …');
//   mc.progress({preparing: true, phase: 'knn', progress: 0.4});   // "UMAP: finding neighbours… 40%"
import { formatNumber } from '../plots/scales.js';

export const METHOD_NAMES = { pca: 'PCA', umap: 'UMAP', tsne: 't-SNE' };
// the engine's construction phases (layout-handler.js layoutStep while preparing) -> what the line says
export const PHASE_NAMES = {
  knn: 'finding neighbours', neighbours: 'finding neighbours', graph: 'building the neighbour graph',
  affinities: 'calibrating affinities', init: 'initial layout',
};

// {phase, progress} of a construction step -> "finding neighbours… 40%" (no share for the init: one unit)
export function preparingText(p) {
  const name = PHASE_NAMES[p.phase] ?? p.phase;
  return p.phase === 'init' ? `${name}…` : `${name}… ${Math.floor(100 * (p.progress ?? 0))}%`;
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
    this.onChange = onChange;
    const id = (x) => `${idPrefix}-${x}`;
    this.box = el('div', { className: 'map-choice' });
    const group = el('fieldset', { className: 'map-methods' }, el('legend', { textContent: 'map' }));
    this.radios = {};
    for (const [m, name] of Object.entries(METHOD_NAMES)) {
      const r = el('input', { type: 'radio', name: id('method'), value: m, id: id(m) });
      r.addEventListener('change', () => r.checked && this.changed('map', m));
      this.radios[m] = r;
      group.append(el('label', { htmlFor: id(m) }, r, ` ${name}`));
    }
    const num = (key, label, attrs) => {
      const input = el('input', { type: 'number', id: id(key), attrs });
      input.addEventListener('change', () => {
        const v = Number(input.value);
        if (input.value.trim() !== '' && Number.isFinite(v)) this.changed(key, v);
      });
      return [el('label', { htmlFor: id(key), textContent: label }), input];
    };
    this.fields = {
      nn: num('nn', 'n_neighbors', { min: '2', max: '200', step: '1' }),
      md: num('md', 'min_dist', { min: '0', max: '1', step: '0.05' }),
      perp: num('perp', 'perplexity', { min: '1', max: '1000', step: '1' }),
    };
    const metric = el('select', { id: id('metric') }, new Option('euclidean', 'euclidean'), new Option('cosine', 'cosine'));
    metric.addEventListener('change', () => this.changed('metric', metric.value));
    this.fields.metric = [el('label', { htmlFor: id('metric'), textContent: 'metric' }), metric];
    this.options = el('span', { className: 'map-options' });
    for (const [k, [label, input]] of Object.entries(this.fields)) {
      const wrap = el('span', { className: 'map-option' }, label, ' ', input);
      wrap.dataset.key = k;
      this.options.append(wrap);
    }
    this.run = el('button', { type: 'button', className: 'primary', id: id('run'), textContent: 'Run' });
    this.cancel = el('button', { type: 'button', id: id('cancel'), textContent: 'Cancel', disabled: true });
    this.run.addEventListener('click', () => onRun());
    this.cancel.addEventListener('click', () => onCancel());
    this.bar = el('progress', { max: 1, value: 0, hidden: true, attrs: { 'aria-label': 'map progress' } });
    this.line = el('span', { className: 'caption map-progress', id: id('progress'), attrs: { role: 'status' } });
    this.box.append(el('div', { className: 'slider-row' }, group, this.options, this.run, this.cancel), el('div', { className: 'slider-row' }, this.bar, this.line));
    container.append(this.box);
    this.values = { map: 'pca', nn: 15, md: 0.1, metric: 'euclidean', perp: 30 };
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
    for (const k of ['nn', 'md', 'perp']) this.fields[k][1].value = String(this.values[k]);
    this.fields.metric[1].value = this.values.metric;
    for (const wrap of this.options.children) {
      const k = wrap.dataset.key;
      wrap.hidden = m === 'pca' || (m === 'umap' ? k === 'perp' : k === 'nn' || k === 'md');
    }
    this.run.hidden = m === 'pca';
    this.cancel.hidden = m === 'pca';
    this.box.dataset.method = m;
  }

  method() {
    return this.values.map;
  }

  // the engine's options of the chosen method (layout-handler.js layoutOptions)
  payload() {
    const v = this.values;
    return v.map === 'umap'
      ? { method: 'umap', nNeighbors: v.nn, minDist: v.md, metric: v.metric }
      : { method: v.map, perplexity: v.perp, metric: v.metric };
  }

  running(on) {
    this.run.disabled = on;
    this.cancel.disabled = !on;
    this.box.dataset.running = String(on);
    if (!on) this.bar.hidden = true;
  }

  // {phase: 'epoch' | 'iteration', done, total, kl?, ms?} -> "UMAP epoch 120 / 500" on the line and the bar;
  // {preparing: true, phase: 'knn' | ..., progress} -> "UMAP: finding neighbours… 40%", the bar at the phase's share
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
    const kl = p.kl != null && Number.isFinite(p.kl) ? `, KL ${p.kl.toFixed(2)}` : '';
    const secs = p.ms != null ? ` (${formatNumber(p.ms / 1000)} s of engine time)` : '';
    this.status(`${METHOD_NAMES[method]} ${p.phase} ${p.done} / ${p.total}${kl}${secs}`);
    this.box.dataset.done = String(p.done);
  }

  // (a live region: the same text is not set again, so it is not read out again)
  status(text) {
    if (this.line.textContent !== text) this.line.textContent = text;
  }
}
