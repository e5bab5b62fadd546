// The "Sample text" box under the training chart: continues a prompt with the next-token
// model as it is now (playing, paused or finished), through the worker's trainSample (the
// engine's M.generate on the run's checkpoint bytes, so `embedlab generate --state` on the
// autosaved run prints the same text for the same prompt, tokens, temperature and seed).
//
// The output is text (textContent, never HTML): the prompt in its own span (styled apart), then
// the continuation. The card exposes what it drew for tests and scripts:
//   data-sample-state  idle | sampling | done | failed | unavailable
//   data-sample-text   the continuation;  data-sample-ids  the generated token ids, comma-separated
//   data-sample-step   the training step it was sampled at
// Word2vec runs have no next-token head: the form is disabled and says so. A failure is shown
// under the field it concerns (prompt, tokens, temperature, seed), else next to the button.
// "Download the run's state" saves the run's checkpoint (trainState), the file the CLI reads.
//
//   const box = new SampleBox(card, engine);
//   box.setModel('next', state);   // on each new run (TrainView.render); state: the page state (file names)
import { downloadBytes } from '../download.js';
import { fileName } from '../file-names.js';

const FIELDS = ['prompt', 'tokens', 'temperature', 'seed'];

// Which field an engine message concerns ('generate: tokens 5000 out of range ...' -> 'tokens').
export function sampleField(message) {
  const text = String(message);
  if (/\bprompt\b/.test(text)) return 'prompt';
  if (/\btokens\b/.test(text)) return 'tokens';
  if (/\btemperature\b/.test(text)) return 'temperature';
  if (/\bseed\b/.test(text)) return 'seed';
  return null;
}

export class SampleBox {
  constructor(card, engine) {
    this.card = card;
    this.engine = engine;
    const $ = (id) => card.querySelector(`#${id}`);
    this.form = $('sample-form');
    this.inputs = Object.fromEntries(FIELDS.map((k) => [k, $(`sample-${k}`)]));
    this.button = $('sample-button');
    this.stateButton = $('sample-state');
    this.note = $('sample-note');
    this.output = $('sample-output');
    this.promptSpan = this.output.querySelector('.sample-prompt-text');
    this.textSpan = this.output.querySelector('.sample-continuation');
    this.gen = 0;
    this.card.dataset.sampleState = 'idle';
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.sample();
    });
    this.stateButton.addEventListener('click', () => this.downloadState());
  }

  // The run's checkpoint as a file, with the command that samples the same text from it.
  async downloadState() {
    try {
      const r = await this.engine.request('trainState', {});
      const name = fileName(this.state || {}, { subject: 'train', step: r.step, what: 'state', ext: 'bin' });
      downloadBytes(r.bytes, name);
      const v = (k) => this.inputs[k].value.trim();
      this.note.textContent = `Saved ${name} (step ${r.step}): embedlab generate --state ${name} --prompt ${JSON.stringify(this.inputs.prompt.value)} ` +
        `--tokens ${v('tokens')} --temperature ${v('temperature')} --seed ${v('seed')} prints what Sample shows.`;
    } catch (err) {
      this.note.textContent = err.message;
    }
  }

  // model: the run's model ('next', 'skipgram', 'cbow'); a new run clears the last sample.
  setModel(model, state = null) {
    this.gen++;
    this.state = state;
    const ok = model === 'next';
    for (const el of [...Object.values(this.inputs), this.button, this.stateButton]) el.disabled = !ok;
    this.clearErrors();
    this.promptSpan.textContent = '';
    this.textSpan.textContent = '';
    this.output.hidden = true;
    delete this.card.dataset.sampleText;
    delete this.card.dataset.sampleIds;
    delete this.card.dataset.sampleStep;
    this.card.dataset.sampleState = ok ? 'idle' : 'unavailable';
    this.note.textContent = ok
      ? 'Sample continues the prompt with the model as it is now, while training or after it.'
      : 'Sampling needs the next-token model: word2vec learns word vectors but has no head that scores the next token. Choose model: next-token in the settings.';
  }

  clearErrors() {
    for (const k of FIELDS) this.setError(k, '');
  }

  setError(key, message) {
    const field = this.inputs[key].closest('.field');
    field.querySelector('.field-error').textContent = message;
    field.classList.toggle('has-error', !!message);
    this.inputs[key].setAttribute('aria-invalid', message ? 'true' : 'false');
  }

  // The form's values; a value that is not a number is named here, as the engine would.
  values() {
    const out = { prompt: this.inputs.prompt.value };
    for (const k of ['tokens', 'temperature', 'seed']) {
      const raw = this.inputs[k].value.trim();
      const v = raw === '' ? NaN : Number(raw);
      if (Number.isNaN(v) && !/^nan$/i.test(raw)) throw Object.assign(new Error(`generate: ${k} "${raw}" is not a number`), { field: k });
      out[k] = v;
    }
    return out;
  }

  async sample() {
    const gen = ++this.gen;
    this.clearErrors();
    this.card.dataset.sampleState = 'sampling';
    this.note.textContent = 'Sampling…';
    try {
      const r = await this.engine.request('trainSample', this.values());
      if (gen !== this.gen) return;
      this.promptSpan.textContent = r.prompt;
      this.textSpan.textContent = r.text;
      this.output.hidden = false;
      this.card.dataset.sampleText = r.text;
      this.card.dataset.sampleIds = Array.from(r.ids).join(',');
      this.card.dataset.sampleStep = String(r.step);
      this.card.dataset.sampleState = 'done';
      const t = this.inputs.temperature.value.trim();
      this.note.textContent = `${r.ids.length} tokens sampled at training step ${r.step} (temperature ${t}, seed ${this.inputs.seed.value.trim()}); the prompt is shaded.`;
    } catch (err) {
      if (gen !== this.gen) return;
      this.card.dataset.sampleState = 'failed';
      const field = err.field || sampleField(err.message);
      if (field) {
        this.setError(field, err.message);
        this.note.textContent = '';
      } else {
        this.note.textContent = err.message;
      }
    }
  }
}
