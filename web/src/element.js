// <embedlab-view>: one view of the page (or one card of it) as a custom element for articles
// (docs/widgets.md). Built by scripts/build-web.mjs into build/web/embedlab-element.js (an ES
// module); the worker.js, embedlab.js and embedlab.wasm beside it do the work.
//
//   <script type="module" src="embedlab-element.js"></script>
//   <embedlab-view view="table" seed="42" V="50" D="16" card="embedding-table-w" controls="V,D"></embedlab-view>
//
// view: table | positions | text | windows | bpe | train (default positions; the views of
// views/registry.js marked widget). The widget shows the
// page's own view: the same view code (views/*.js, mounted by element-views.js) on a copy of the
// view's section of index.html (cut out at build time, scripts/page-sections.mjs), in a shadow
// root with the site's style.css. Attributes are the URL hash keys and values of the page
// (state.js): the element builds a hash from them and parses it with parseHash, so the
// validation and the defaults are the page's. HTML lowercases attribute names; they are matched
// to the keys case-insensitively (T="128" is t="128" is the key T). Values the parser rejects are
// listed once at the top of the widget as ignored, as the page lists a link's, and each new list
// goes to console.warn too (the article's author sees it in the console).
//   card="NAME"     only that card of the view (names as the page's Embed button gives them,
//                   embed.js cardName), or "NAME1,NAME2" for several cards of the view (one run:
//                   the training card beside its neighbours card); an unknown name is listed as
//                   ignored with the view's names, and the view's first card is shown (not the
//                   whole view: a typo must not make the widget thousands of pixels tall).
//   controls="a,b"  fields for exactly those settings (the page's own fields, bound by the page's
//                   Controls); a field sets its attribute. Keys the view does not read are listed
//                   as ignored with the keys it reads (views/view-keys.js).
// Widgets have no text box and no file input: corpus=custom, txt and txtdb are listed as ignored,
// and the cards that read the reader's files are left out (element-views.js).
//
// All elements of a page share one EngineClient (one worker, one wasm instance), created when
// the first element scrolls within 200 px of the viewport. Each element starts then (its
// data-started attribute is set) and talks to the worker through its own scope (engine-client.js:
// its requests never supersede another widget's; its training run, comparison and BPE are its
// own in the worker). Attribute changes are seen by a MutationObserver, not observedAttributes:
// the positional parameters' keys ('rope.base', 't5.num_buckets') come from the engine's registry
// after define(), so no list fixed at define() can name them. It re-renders once per task when attributes change (several set together:
// one render; a change of colour map or log axis only redraws), and after each render dispatches
// `embedlab-change` with detail {state, ignored}. Training: one widget plays at a time (Play in
// one pauses the others, which keep their run and go on from their step), and a widget pauses
// when it scrolls out of view. The host's font is inherited; the element is as tall as its content.
import { EngineClient } from './engine-client.js';
import { failedField } from './error-target.js';
import { PARAMS, echo, ignoredLines, formatValue, paramSpec, parseHash, setMapAlgorithms, setPositionalKinds } from './state.js';
import { useMapAlgorithms } from './views/map-choice.js';
import { Controls } from './views/controls.js';
import { PlotError } from './views/plot-error.js';
import { JobProgress } from './views/job-progress.js';
import { cardName, cardNames, movedCardView, showOnlyCardIn } from './views/embed.js';
import { VIEW_KEYS, viewControls } from './views/view-keys.js';
import { buildPositionFields } from './views/position-fields.js';
import { LEFT_OUT_CARDS, WIDGET_VIEWS } from './element-views.js';
import { VIEW_BY_NAME, addPositionalKeys } from './views/registry.js';
import sections from 'embedlab:page-sections';
import siteCss from '../style.css';
import uplotCss from 'uplot/dist/uPlot.min.css'; // the loss and line charts' own rules (the page links uplot.css)

const DEFAULT_VIEW = 'positions'; // what an element without `view` shows (the first widget's view)
const OWN_ATTRIBUTES = new Set(['view', 'card', 'id', 'class', 'style', 'hidden', 'title', 'lang', 'dir', 'tabindex', 'role']);

// The one engine of the page: {engine, ready (a Promise of the worker's ready info)}.
let shared = null;
let workersCreated = 0;
const elements = new Set(); // connected elements (job progress routing, one training at a time)
// The worker's script: worker.js beside this module. A module worker must come from the page's
// own origin, so on another site's page (an article loading this file from our host) it is a
// same-origin blob: module whose one line imports ours; that import, embedlab.js, the wasm and
// the corpora are then fetched with CORS (the host sends Access-Control-Allow-Origin,
// docs/widgets.md). The article's own CSP must allow blob: workers (worker-src blob:) if it has one.
export function workerUrl(base = import.meta.url, pageOrigin = location.origin) {
  const url = new URL('./worker.js', base);
  if (url.origin === pageOrigin) return url;
  const source = `import ${JSON.stringify(url.href)};\n`;
  return URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
}

function sharedEngine() {
  if (!shared) {
    const url = workerUrl();
    const site = new URL('./', import.meta.url).origin;
    // on another site's page the usual cause of a failure is that page's CSP: say what it must allow
    const why = (err) => (url instanceof URL ? err : new Error(`cannot start the engine worker (${err.message}). ` +
      `On this page the widget's worker comes from ${site}: this page's Content-Security-Policy must allow ` +
      `worker-src blob: ${site} (and script-src ${site} 'wasm-unsafe-eval', connect-src ${site}); see embedlab's docs/widgets.md`));
    let engine;
    try {
      engine = new EngineClient(url);
    } catch (err) {
      // every widget says why, once, and stays put
      const ready = Promise.reject(why(err));
      ready.catch(() => {});
      shared = { engine: null, ready };
      return shared;
    }
    workersCreated++;
    const ready = engine.ready.then((info) => {
      // the pos values and '<kind>.<param>' keys parse from here on; training reads the latter
      // (the positions view draws its kinds with them too: positions-view.js)
      addPositionalKeys(setPositionalKinds(info.positionalKinds));
      setMapAlgorithms(info.mapAlgorithms); // the map keys and the train card's map choice
      useMapAlgorithms(info.mapAlgorithms);
      return info;
    }, (err) => {
      throw why(err);
    });
    // a long job's progress goes to the widget whose scope asked (latest() keys are 'element-N:…')
    engine.onJob = (e) => {
      for (const el of elements) if (el.progress && (e.phase === 'end' || (e.key && e.key.startsWith(`${el.key}:`)))) el.onJob(e);
    };
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
    sheet.replaceSync(`${uplotCss}
${siteCss.replaceAll(':root', ':host')}
:host { display: block; font: inherit; color: inherit; background: none; }
/* until the first render the cards are laid out but not shown and the status line takes no
   space: the widget appears whole, nothing inside it moves while it computes (no layout shift) */
:host { position: relative; }
:host(:not([data-renders])) .embedlab-cards { visibility: hidden; }
:host(:not([data-renders])) p.embedlab-status { position: absolute; top: 0; left: 0; right: 0; }
/* a dark widget on a light article: the view's own text (intros, fields) sits on the widget's
   dark background, not on the article's, so it keeps its contrast */
:host([theme=dark]) { background: var(--bg); color: var(--ink); border-radius: 8px; padding: 8px; }
@media (prefers-color-scheme: dark) {
  :host(:not([theme=light]):not([theme=dark])) { background: var(--bg); color: var(--ink); border-radius: 8px; padding: 8px; }
}
:host([hidden]) { display: none; }
.view > .card:last-child, .view > :last-child { margin-bottom: 0; }
.view .explain.wide { max-width: none; }
.embedlab-status, .embedlab-notes { font-size: 13px; color: var(--muted); margin: 4px 0; }
.embedlab-status:empty, .embedlab-notes:empty { display: none; }
.embedlab-controls:empty { display: none; }
.embedlab-controls { gap: 4px 16px; align-items: flex-start; margin: 0 0 8px; font-size: 13px; }
.embedlab-controls .field { margin-bottom: 0; min-width: 8em; max-width: 18em; }
.embedlab-error { color: var(--bad); }`);
  }
  return sheet;
}

// lowercased attribute name -> hash key ('t' -> 'T', 'rope.base' -> 'rope.base')
function keyOf(attr) {
  const p = PARAMS.find((q) => q.key.toLowerCase() === attr);
  return p ? p.key : null;
}

// static markup of our own page (build time), never user text -> a fragment
function parseMarkup(html) {
  const t = document.createElement('template');
  t.innerHTML = html;
  return t.content;
}

let elementCount = 0;

// an attribute whose change re-renders (the element's own data-* and the host's aria-*, id,
// class... do not)
const rendersOn = (name) => name === 'view' || name === 'card' || !(OWN_ATTRIBUTES.has(name) || name.startsWith('data-') || name.startsWith('aria-'));

export class EmbedlabView extends HTMLElement {

  // Worker instances created on this page (the test reads it: one for any number of elements).
  static get workersCreated() {
    return workersCreated;
  }

  constructor() {
    super();
    this.key = `element-${++elementCount}`; // this element's scope on the shared engine
    this.started = false;
    this.widget = null; // {name, section, view, fetch, engine, error}
    this.pending = false;
    this.lastState = null;
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [styleSheet()];
    this.holder = document.createElement('div');
    this.holder.className = 'embedlab-cards';
    this.status = document.createElement('p');
    this.status.className = 'embedlab-status';
    this.status.setAttribute('role', 'status');
    this.notes = document.createElement('div');
    this.notes.className = 'embedlab-notes'; // above the view (the status line keeps .embedlab-status)
    // `controls`: the settings the reader may change, as the page's fields
    this.controlsRow = document.createElement('form');
    this.controlsRow.className = 'embedlab-controls slider-row';
    this.controlsRow.setAttribute('aria-label', 'Settings of this figure');
    this.controlsRow.addEventListener('submit', (e) => e.preventDefault());
    this.controls = null;
    // the ignored-attribute notes at the top, once for the widget (not under its last card)
    root.append(this.notes, this.controlsRow, this.status, this.holder);
    this.status.textContent = 'embedlab: waiting to scroll into view';
    this.warned = ''; // the ignored list last sent to console.warn
    // every attribute, including keys that exist only once the engine is ready ('rope.base')
    this.attributeWatch = new MutationObserver((records) => {
      if (records.some((r) => rendersOn(r.attributeName) && r.oldValue !== this.getAttribute(r.attributeName))) this.attributesChanged();
    });
    this.attributeWatch.observe(this, { attributes: true, attributeOldValue: true });
  }

  connectedCallback() {
    elements.add(this);
    if (this.observer) return;
    // starts near the viewport; afterwards pauses training when out of view
    this.observer = new IntersectionObserver((entries) => {
      const visible = entries.some((e) => e.isIntersecting);
      if (!visible) {
        if (this.started) this.pauseTraining();
        return;
      }
      if (this.started) return;
      this.started = true;
      this.dataset.started = '1';
      this.update();
    }, { rootMargin: '200px' });
    this.observer.observe(this);
    if (this.started && !this.widget) this.update(); // back on the page after a removal
  }

  disconnectedCallback() {
    elements.delete(this);
    if (this.observer) this.observer.disconnect();
    this.observer = null;
    this.unmount(); // frees its training run in the worker
  }

  attributesChanged() {
    if (!this.started) return;
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
      if (OWN_ATTRIBUTES.has(name) || name.startsWith('data-') || name.startsWith('aria-')) continue;
      const key = keyOf(name);
      if (!key) ignored.push({ key: name, value, reason: `unknown setting '${echo(name)}'` });
      else parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(value)}`);
    }
    parts.unshift(`view=${encodeURIComponent(this.getAttribute('view') ?? DEFAULT_VIEW)}`);
    const r = parseHash(parts.join('&'));
    r.ignored.unshift(...ignored);
    for (const key of ['txt', 'txtdb']) {
      if (!r.state[key]) continue;
      r.ignored.push({ key, value: r.state[key], reason: 'a widget has no text of its own: the built-in corpora only' });
      r.state[key] = '';
    }
    for (const key of ['corpus', 'tCorpus', 'cmpCorpus']) {
      if (r.state[key] !== 'custom') continue;
      r.ignored.push({ key, value: 'custom', reason: 'a widget has no text box: the built-in corpora only' });
      r.state[key] = paramSpec(key).def;
    }
    return r;
  }

  // The view's section, its view object and its error and progress boxes, in the shadow root.
  // -> false when a newer mount started while this one loaded the view's code (that one wins)
  async mount(name, kinds) {
    this.unmount();
    const token = {};
    this.mounting = token;
    const frag = parseMarkup(sections.views[name]);
    const section = frag.querySelector('section.view');
    section.hidden = false;
    this.holder.replaceChildren(section);
    const host = {
      state: () => this.lastState,
      set: (key, value) => this.setAttribute(key, formatValue(paramSpec(key), value)),
      kinds,
      onError: (err) => this.showFailure(err),
      onPlay: () => {
        for (const el of elements) if (el !== this) el.pauseTraining(); // one widget trains at a time
      },
    };
    const engine = sharedEngine().engine.scope(this.key);
    const { view, fetch } = await WIDGET_VIEWS[name].make(section, engine, host);
    if (this.mounting !== token) return false;
    for (const c of section.querySelectorAll('article.card')) if (LEFT_OUT_CARDS.includes(cardName(c))) c.remove();
    const area = section.querySelector('[data-plot-area]');
    this.widget = { name, section, view, fetch, engine, error: new PlotError(area) };
    this.progress = new JobProgress(area, (id) => engine.cancel(id));
    return true;
  }

  unmount() {
    this.mounting = null; // a mount still loading its view's code does not finish
    if (!this.widget) return;
    this.pauseTraining();
    const drop = VIEW_BY_NAME[this.widget.name].drop;
    if (drop && shared) drop(this.widget.engine);
    this.widget = null;
    this.progress = null;
    this.lastState = null;
  }

  pauseTraining() {
    if (this.widget && this.widget.view.pause) this.widget.view.pause();
  }

  onJob(e) {
    if (e.phase === 'end') this.progress.end(e.id);
    else this.progress.show(e);
  }

  // Did a key the view asks the engine about change since the last render? (else: redraw only)
  needsFetch(state) {
    const prev = this.lastState;
    if (!prev || !this.widget.view.last) return true;
    return [...VIEW_KEYS[this.widget.name], 'step'].some((k) => prev[k] !== state[k]);
  }

  async update() {
    try {
      const { ready } = sharedEngine();
      if (!this.widget) this.status.textContent = 'embedlab: loading the engine…';
      const info = await ready;
      const { state, ignored } = this.readState();
      state.view = movedCardView(state.view, this.getAttribute('card')); // a card that moved: its new view
      if (!WIDGET_VIEWS[state.view]) throw new Error(`view=${state.view} cannot be shown as a widget`);
      if (!this.widget || this.widget.name !== state.view) {
        if (!(await this.mount(state.view, info.positionalKinds))) return; // a newer update mounted
        // only the named card from the start: while it computes, the widget is never taller than
        // that card (an article reserving the card's height does not shift); notes come after the render
        this.showCard(state.view, []);
      }
      const w = this.widget;
      const shown = viewControls(state.view, state.controls);
      ignored.push(...shown.ignored);
      this.showControls(shown.keys, info.positionalKinds);
      if (this.needsFetch(state)) {
        this.status.textContent = w.view.last ? '' : 'embedlab: computing…';
        const r = await w.fetch(state);
        if (r === null || this.widget !== w) return; // a newer update of this element is on its way
        this.lastState = state;
        await w.view.render(r, state);
      } else {
        // a display key (redrawn) or one read on demand (the compare card's: told, as the page does)
        const prev = this.lastState;
        this.lastState = state;
        if (w.view.setting) for (const k of Object.keys(state)) if (prev[k] !== state[k]) w.view.setting(k, state[k]);
        w.view.recolor(state);
      }
      w.view.setStale('');
      w.error.clear();
      this.progress.clear();
      if (this.controls) {
        this.controls.clearErrors(shown.keys);
        this.controls.fill(state);
      }
      this.showCard(state.view, ignored);
      this.status.textContent = '';
      this.status.classList.remove('embedlab-error');
      this.showIgnored(ignored);
      this.dataset.renders = String(Number(this.dataset.renders || 0) + 1);
      this.dispatchEvent(new CustomEvent('embedlab-change', { detail: { state, ignored }, bubbles: true, composed: true }));
    } catch (err) {
      if (err.cancelled) {
        if (this.progress) this.progress.cancelled();
        return;
      }
      this.showFailure(err);
    }
  }

  // An engine failure: its message in the plot area over the last good plot (which stays) and
  // under the field it concerns when the reader has that field; a failure before any view, in the status line.
  showFailure(err) {
    const w = this.widget;
    if (!w) {
      this.status.textContent = `embedlab: ${err.message}`;
      this.status.classList.add('embedlab-error');
      return;
    }
    if (this.progress) this.progress.clear();
    const key = failedField(err, VIEW_KEYS[w.name], null);
    const field = this.controls && this.controls.field(key);
    if (field) this.controls.setError(key, err.message);
    const kept = !!w.view.last;
    w.error.show(err.message, { field: field ? this.controls.label(key) : key ? `${key} (attribute)` : null, kept });
    if (kept) w.view.setStale('showing the last good plot');
    this.status.textContent = '';
  }

  // card="NAME": only that card (hidden the page's way, embed.js); unknown: all, and listed.
  showCard(view, ignored) {
    const card = this.getAttribute('card');
    const section = this.widget.section;
    const names = [...new Set([...section.querySelectorAll('article.card')].map(cardName))];
    const matched = card ? showOnlyCardIn(section, card) : showOnlyCardIn(section, '');
    const unknown = cardNames(card).filter((n) => !names.includes(n));
    if (card !== null && !matched) {
      if (names.length) showOnlyCardIn(section, names[0]);
      ignored.push({ key: 'card', value: card, reason: `the ${view} view has no card named '${echo(card)}' (its cards: ${names.join(', ')}); showing its first card` });
    } else if (unknown.length) {
      ignored.push({ key: 'card', value: unknown.join(','), reason: `the ${view} view has no card named '${unknown.map((n) => echo(n)).join("', '")}' (its cards: ${names.join(', ')})` });
    }
  }

  // One field per key of `controls` that the view reads: the page's own field markup (index.html,
  // via scripts/page-sections.mjs), bound by the page's Controls; a change sets the attribute.
  showControls(keys, kinds) {
    const sig = keys.join(',');
    if (this.controlsRow.dataset.keys === sig) return;
    this.controlsRow.dataset.keys = sig;
    const form = this.controlsRow;
    form.replaceChildren();
    const posKeys = keys.filter((k) => k === 'pos' || paramSpec(k).posKind);
    if (posKeys.length) {
      // the pos select's options and the parameter fields come from the engine's registry
      const scratch = document.createElement('form');
      scratch.append(parseMarkup(sections.fields.pos));
      buildPositionFields(scratch, kinds);
      for (const f of [...scratch.querySelectorAll('.field')]) if (!keys.includes(f.dataset.key)) f.remove();
      this.builtFields = new Map([...scratch.querySelectorAll('.field')].map((f) => [f.dataset.key, f]));
    }
    for (const k of keys) {
      const f = this.builtFields && this.builtFields.get(k);
      if (f) form.append(f);
      else if (sections.fields[k]) form.append(parseMarkup(sections.fields[k]));
    }
    for (const f of form.querySelectorAll('.field')) {
      f.removeAttribute('data-views'); // the page hides fields per view and model; here the author chose them
      f.removeAttribute('data-models');
      f.hidden = false;
      const hint = f.querySelector('#pos-help');
      if (hint) hint.remove();
    }
    this.controls = keys.length ? new Controls(form, (key, value) => this.setAttribute(key, formatValue(paramSpec(key), value))) : null;
  }

  // The ignored attributes above the view, and on the console when the list changed since the
  // last render (not once per render: a playing train widget renders on every update).
  showIgnored(items) {
    this.notes.replaceChildren();
    const lines = ignoredLines(items, (t) => `Attribute ${t}.`);
    for (const line of lines) {
      const p = document.createElement('p');
      p.textContent = line;
      this.notes.append(p);
    }
    const said = lines.join('\n');
    if (said && said !== this.warned) {
      const where = this.id ? `#${this.id}` : this.key;
      console.warn(`<embedlab-view> ${where}: ${lines.length} attribute${lines.length === 1 ? '' : 's'} ignored:\n${said}`);
    }
    this.warned = said;
  }
}

if (!customElements.get('embedlab-view')) customElements.define('embedlab-view', EmbedlabView);
