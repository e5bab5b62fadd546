// The settings panel: fills the form from the state, turns edits into typed values and shows
// messages under the control they concern. It knows nothing about the engine: main.js
// decides what to recompute. Text fields are parsed loosely (any integer goes through), so
// out-of-range values reach the engine and its own message is shown (D = 0 -> "Embedding:
// embeddingDim 0 must be ..."); only text that is not a number at all is refused here.
//
//   const controls = new Controls(document.getElementById('controls'), (key, value) => ...);
//   controls.fill(state); controls.setError('D', 'Embedding: ...'); controls.clearErrors(['V', 'D']);
//
// On small screens (style.css, max-width 820px) the form is a drawer: the button with
// aria-controls="<form id>" opens and closes it (aria-expanded) and says how many fields show
// an error while it is closed.
import { paramSpec, parseKindList } from '../state.js';

const DEBOUNCE_MS = 180;

// Parses what the user typed for `key` -> {ok, value} | {ok: false, message}.
export function parseField(key, raw) {
  const p = paramSpec(key);
  const s = String(raw).trim();
  if (p.kind === 'optint' && (s === '' || s === 'none')) return { ok: true, value: null };
  if (p.kind === 'int' || p.kind === 'optint') {
    if (!/^[-+]?\d+$/.test(s)) return { ok: false, message: `${key}: "${s}" is not an integer` };
    const v = Number(s);
    if (!Number.isSafeInteger(v)) return { ok: false, message: `${key}: ${s} is too large for this page` };
    return { ok: true, value: v };
  }
  if (p.kind === 'num' || p.kind === 'real') {
    // NaN and Infinity go through on purpose: the engine names them ("learning rate must be finite")
    if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$|^nan$|^[-+]?inf(inity)?$/i.test(s)) return { ok: false, message: `${key}: "${s}" is not a number` };
    const v = /^nan$/i.test(s) ? NaN : /inf/i.test(s) ? (s.startsWith('-') ? -Infinity : Infinity) : Number(s);
    return { ok: true, value: v };
  }
  if (p.kind === 'kinds') {
    const { value, bad } = parseKindList(p, s);
    return bad.length ? { ok: false, message: `${key}: ${bad[0].reason}` } : { ok: true, value };
  }
  return { ok: true, value: s };
}

export class Controls {
  constructor(form, onChange) {
    this.form = form;
    this.forms = [form]; // the panel, and rows that took some of its fields (adopt)
    this.onChange = onChange;
    this.timers = new Map();
    for (const field of form.querySelectorAll('.field')) this.bind(field);
    form.addEventListener('submit', (e) => e.preventDefault());
    this.drawer = form.id ? document.querySelector(`button[aria-controls="${form.id}"]`) : null;
    if (this.drawer) this.drawer.addEventListener('click', () => this.openDrawer(this.drawer.getAttribute('aria-expanded') !== 'true'));
  }

  // Opens (true) or closes the settings drawer of small screens; on wide screens it is always open.
  openDrawer(open) {
    if (!this.drawer) return;
    this.drawer.setAttribute('aria-expanded', String(open));
    this.drawer.closest('.panel').classList.toggle('open', open);
    this.updateDrawer();
  }

  // The drawer button: "Settings", or "Settings · 1 error" when a visible field shows one.
  updateDrawer() {
    if (!this.drawer) return;
    const n = [...this.form.querySelectorAll('.field.has-error')].filter((f) => !f.closest('[hidden]')).length;
    this.drawer.textContent = n ? `Settings · ${n} error${n > 1 ? 's' : ''}` : 'Settings';
    this.drawer.classList.toggle('has-error', n > 0);
  }

  // Listens to one .field (also for fields added later, such as the positional parameters).
  bind(field) {
    const key = field.dataset.key;
    const input = field.querySelector('input, select');
    if (input.type === 'checkbox') {
      input.addEventListener('change', () => this.emit(key, input.checked));
    } else if (input.tagName === 'SELECT') {
      input.addEventListener('change', () => this.emit(key, input.value));
    } else {
      input.addEventListener('input', () => this.debounced(key, input));
      input.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          this.flush(key, input);
        }
      });
    }
  }

  // Another form that holds some of the bound fields (embed mode's row above the card, embed.js).
  adopt(form) {
    if (!this.forms.includes(form)) this.forms.push(form);
  }

  // every .field of the panel and of the adopted rows
  fields() {
    return this.forms.flatMap((f) => [...f.querySelectorAll('.field')]);
  }

  field(key) {
    return this.fields().find((f) => f.dataset.key === key) || null;
  }

  debounced(key, input) {
    clearTimeout(this.timers.get(key));
    this.timers.set(key, setTimeout(() => this.flush(key, input), DEBOUNCE_MS));
  }

  flush(key, input) {
    clearTimeout(this.timers.get(key));
    const r = parseField(key, input.value);
    if (!r.ok) {
      this.setError(key, r.message);
      return;
    }
    this.setError(key, '');
    this.emit(key, r.value);
  }

  emit(key, value) {
    this.onChange(key, value);
  }

  fill(state) {
    for (const field of this.fields()) {
      const key = field.dataset.key;
      const input = field.querySelector('input, select');
      const v = state[key];
      if (input.type === 'checkbox') input.checked = !!v;
      else if (input.getRootNode().activeElement !== input) input.value = v === null || v === undefined ? '' : String(v);
    }
  }

  // Shows message (text, never HTML) under the control; '' clears it.
  setError(key, message) {
    const field = this.field(key);
    if (!field) return;
    field.querySelector('.field-error').textContent = message;
    field.classList.toggle('has-error', !!message);
    this.updateDrawer();
  }

  // The visible name of a field ("T", "width", "learning rate") for messages; the key if none.
  label(key) {
    const label = this.field(key) && this.field(key).querySelector('label');
    const text = label && [...label.childNodes].find((n) => n.nodeType === 3 && n.textContent.trim());
    return text ? text.textContent.trim() : key;
  }

  clearErrors(keys) {
    for (const k of keys) this.setError(k, '');
  }

  // Training fields that apply to one model only (data-models="next" / "skipgram cbow"), and
  // parameters that apply to one positional kind only (data-pos="rope").
  showFieldsForModel(model, pos) {
    for (const f of this.fields().filter((x) => x.dataset.models)) {
      f.hidden = !f.dataset.models.split(' ').includes(model) || (f.dataset.pos !== undefined && f.dataset.pos !== pos);
    }
  }

  // Shows only the controls that matter for a view (data-views="table positions" on a group or
  // on a field: the BPE view has no use for the tokenizer and lower-case fields of its group).
  showGroupsFor(view) {
    for (const g of this.form.querySelectorAll('.group[data-views], .field[data-views]')) {
      g.hidden = !g.dataset.views.split(' ').includes(view);
    }
    this.updateDrawer();
  }
}
