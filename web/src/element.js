// <embedlab-view>: one embedlab plot as a custom element for articles (README "Widgets").
// Built by scripts/build-web.mjs into build/web/embedlab-element.js (an ES module); the
// worker.js, embedlab.js and embedlab.wasm beside it do the work.
//
//   <script type="module" src="embedlab-element.js"></script>
//   <embedlab-view view="positions" seed="42" pd="64" T="128" card="sinusoidal"></embedlab-view>
//
// Attributes are the URL hash keys and values of the page (state.js): the element builds a
// hash from them and parses it with parseHash, so the validation and the defaults are the
// page's. HTML lowercases attribute names; they are matched to the keys case-insensitively
// (T="128" is t="128" is the key T). Values the parser rejects are listed under the plot as
// ignored, as the page lists a link's. `card` (sinusoidal | learned | rope) picks one card.
//
// What it does not do (yet): only the positions view's encoding cards (table heatmap and
// position similarity); no settings panel, no attention-bias, RoPE-demo or √D panels.
//
// All elements of a page share one EngineClient (one worker, one wasm instance), created when
// the first element scrolls within 200 px of the viewport. Each element starts then (its
// data-started attribute is set), re-renders when an attribute changes, and after each render
// dispatches `embedlab-change` with detail {state, ignored}. Styles live in a shadow root
// (the site's style.css, bundled as text); the host's font is inherited.
import { EngineClient } from './engine-client.js';
import { PARAMS, describeIgnored, parseHash, setPositionalKinds } from './state.js';
import { EncodingCard } from './views/encoding-card.js';
import siteCss from '../style.css';

const CARDS = ['sinusoidal', 'learned', 'rope'];
const VIEWS = ['positions']; // the views an element can show so far
const CONTROLLABLE = ['seed', 'T', 'pd', 'sim', 'cmap']; // the settings the positions cards read: `controls` may offer these

// The one engine of the page: {engine, ready (a Promise of the worker's ready info)}.
let shared = null;
let workersCreated = 0;
function sharedEngine() {
  if (!shared) {
    const engine = new EngineClient(new URL('./worker.js', import.meta.url));
    workersCreated++;
    const ready = engine.ready.then((info) => {
      setPositionalKinds(info.positionalKinds); // the pos values and '<kind>.<param>' keys parse from here on
      return info;
    });
    shared = { engine, ready };
  }
  return shared;
}

let sheet = null;
function styleSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    // the site's variables live on :root; inside the shadow root they go on the host, whose
    // font and colour come from the article (the rules after the site's win)
    sheet.replaceSync(`${siteCss.replaceAll(':root', ':host')}
:host { display: block; font: inherit; color: inherit; background: none; }
:host([hidden]) { display: none; }
.embedlab-cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(280px, 1fr)); gap: 12px; }
.embedlab-cards .card { margin-bottom: 0; }
.embedlab-status { font-size: 13px; color: var(--muted); margin: 4px 0; }
.embedlab-status:empty { display: none; }
.embedlab-controls:empty { display: none; }
.embedlab-controls { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: center; margin: 0 0 6px; font-size: 13px; }
.embedlab-controls input { width: 6em; }
.embedlab-error { color: var(--bad); }`);
  }
  return sheet;
}

// lowercased attribute name -> hash key ('t' -> 'T', 'rope.base' -> 'rope.base')
function keyOf(attr) {
  const p = PARAMS.find((q) => q.key.toLowerCase() === attr);
  return p ? p.key : null;
}

let elementCount = 0;

export class EmbedlabView extends HTMLElement {
  static get observedAttributes() {
    return [...PARAMS.map((p) => p.key.toLowerCase()), 'card', 'controls'];
  }

  // Worker instances created on this page (the test reads it: one for any number of elements).
  static get workersCreated() {
    return workersCreated;
  }

  constructor() {
    super();
    this.key = `element-${++elementCount}`; // the engine's latest() key of this element
    this.started = false;
    this.cards = new Map(); // kind name -> EncodingCard
    this.pending = false;
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [styleSheet()];
    this.holder = document.createElement('div');
    this.holder.className = 'embedlab-cards';
    this.status = document.createElement('p');
    this.status.className = 'embedlab-status';
    this.status.setAttribute('role', 'status');
    this.notes = document.createElement('div');
    this.notes.className = 'embedlab-status';
    // `controls`: the settings the reader may change, as fields that set the attributes
    this.controlsRow = document.createElement('form');
    this.controlsRow.className = 'embedlab-controls slider-row';
    this.controlsRow.addEventListener('submit', (e) => e.preventDefault());
    root.append(this.controlsRow, this.status, this.holder, this.notes);
    this.status.textContent = 'embedlab: waiting to scroll into view';
  }

  connectedCallback() {
    if (this.started || this.observer) return;
    this.observer = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      this.observer.disconnect();
      this.observer = null;
      this.started = true;
      this.dataset.started = '1';
      this.update();
    }, { rootMargin: '200px' });
    this.observer.observe(this);
  }

  disconnectedCallback() {
    if (this.observer) this.observer.disconnect();
    this.observer = null;
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (!this.started || oldValue === newValue) return;
    if (this.pending) return; // several attributes set in one task: one render
    this.pending = true;
    queueMicrotask(() => {
      this.pending = false;
      this.update();
    });
  }

  // The attributes as a hash -> {state, ignored}, parsed by the page's parser (state.js).
  readState() {
    const parts = [];
    const ignored = [];
    for (const { name, value } of this.attributes) {
      if (name === 'card' || name === 'controls' || name === 'id' || name === 'class' || name === 'style' || name === 'hidden' ||
        name.startsWith('data-') || name.startsWith('aria-')) continue;
      const key = keyOf(name);
      if (!key) ignored.push({ key: name, value, reason: `unknown setting '${name}'` });
      else parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(value)}`);
    }
    if (!this.hasAttribute('view')) parts.unshift('view=positions'); // the element's one view
    const r = parseHash(parts.join('&'));
    r.ignored.unshift(...ignored);
    return r;
  }

  async update() {
    const { engine, ready } = sharedEngine();
    try {
      if (!this.holder.childElementCount) this.status.textContent = 'embedlab: loading the engine…';
      await ready;
      const { state, ignored } = this.readState();
      const card = this.getAttribute('card');
      if (card !== null && !CARDS.includes(card)) ignored.push({ key: 'card', value: card, reason: `card must be one of ${CARDS.join(', ')}` });
      const shown = card !== null && CARDS.includes(card) ? [card] : CARDS;
      if (!VIEWS.includes(state.view)) throw new Error(`view=${state.view} is not available as a widget yet (only ${VIEWS.join(', ')})`);
      this.status.textContent = this.holder.childElementCount ? '' : 'embedlab: computing…';
      const payload = { seed: state.seed, T: state.T, D: state.pd, sim: state.sim, maxSide: 384 };
      const r = await engine.latest(this.key, 'positions', payload, { D: 'pd' });
      if (r === null) return; // a newer update of this element is on its way
      for (const [name, c] of this.cards) {
        if (!shown.includes(name)) {
          c.card.remove();
          this.cards.delete(name);
        }
      }
      for (const kind of r.kinds) {
        if (!shown.includes(kind.name)) continue;
        if (!this.cards.has(kind.name)) this.cards.set(kind.name, new EncodingCard(this.holder, kind.name));
        this.cards.get(kind.name).render(kind, state, r.sim);
      }
      for (const name of shown) this.holder.append(this.cards.get(name).card); // keep the attribute's order
      this.showControls(state, ignored);
      this.status.textContent = '';
      this.status.classList.remove('embedlab-error');
      this.showIgnored(ignored);
      this.dataset.renders = String(Number(this.dataset.renders || 0) + 1);
      this.dispatchEvent(new CustomEvent('embedlab-change', { detail: { state, ignored }, bubbles: true, composed: true }));
    } catch (err) {
      if (err.cancelled) return;
      this.status.textContent = `embedlab: ${err.message}`;
      this.status.classList.add('embedlab-error');
    }
  }

  // One field per key of `controls` (comma-separated URL keys, e.g. "T,pd"); a change sets the
  // attribute, which re-renders. Keys the cards do not read are listed as ignored.
  showControls(state, ignored) {
    const want = (this.getAttribute('controls') || '').split(',').map((k) => k.trim()).filter(Boolean);
    const keys = [];
    for (const k of want) {
      if (CONTROLLABLE.includes(k)) keys.push(k);
      else ignored.push({ key: 'controls', value: k, reason: `a widget of this view offers ${CONTROLLABLE.join(', ')}` });
    }
    const sig = keys.join(',');
    if (this.controlsRow.dataset.keys !== sig) {
      this.controlsRow.dataset.keys = sig;
      this.controlsRow.replaceChildren(...keys.map((k) => this.controlField(k)));
    }
    for (const k of keys) {
      const f = this.controlsRow.querySelector(`[name="${k}"]`);
      if (f && this.shadowRoot.activeElement !== f) f.value = String(state[k]);
    }
  }

  controlField(key) {
    const p = PARAMS.find((q) => q.key === key);
    const id = `${this.key}-${key}`;
    const label = document.createElement('label');
    label.htmlFor = id;
    label.textContent = key;
    let input;
    if (p.kind === 'enum') {
      input = document.createElement('select');
      input.append(...p.values.map((v) => new Option(v, v)));
    } else {
      input = document.createElement('input');
      input.type = 'number';
      input.min = String(p.min);
      input.max = String(p.max);
      input.step = '1';
    }
    input.id = id;
    input.name = key;
    input.addEventListener('change', () => this.setAttribute(key, input.value));
    const wrap = document.createElement('span');
    wrap.append(label, ' ', input);
    return wrap;
  }

  showIgnored(items) {
    this.notes.replaceChildren();
    for (const item of items) {
      const p = document.createElement('p');
      p.textContent = `Attribute ${describeIgnored(item)}.`;
      this.notes.append(p);
    }
  }
}

if (!customElements.get('embedlab-view')) customElements.define('embedlab-view', EmbedlabView);
