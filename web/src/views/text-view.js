// View 3: text -> tokens. The corpus (built-in or the user's own text) is tokenized in the
// worker; this view shows the counts and a window of CHIP_WINDOW tokens as chips, paged with
// a slider, so a 1 MB text (338k GPT-2 tokens) never puts more than a few hundred chips in
// the DOM. The user's text is sent to the worker only (setText) and rendered as text.
//
//   const view = new TextView(root, engine, {onCustomText: () => ..., onPosition: (at) => ...});
//   await view.render(tokenizeReply, state);   // then fetches the chip slice at state.at
import { renderStatList } from './stat-list.js';
import { ChipStrip } from '../plots/chips.js';
import { formatNumber } from '../plots/scales.js';

export const TEXT_KEYS = ['corpus', 'enc', 'lower', 'bpeV'];
const CHIP_WINDOW = 400;
const MAX_UPLOAD_BYTES = 32 * 1024 * 1024;

const ENC_NOTES = {
  gpt2: 'GPT-2 byte-level BPE: the same ids as tiktoken\'s "gpt2" encoding (50,257 ids; a leading space belongs to the token).',
  whitespace: 'Words split on whitespace exactly like Python\'s str.split(); the vocabulary is built from this text (<pad>=0, <unk>=1, <sos>=2, <eos>=3, then by frequency).',
  word: 'Words with punctuation split off (\\w+ | [^\\w\\s]); the vocabulary is built from this text, specials first, then by frequency.',
  char: 'One token per character; the vocabulary is the characters of this text, specials first.',
  bpe: 'A byte-level BPE trained on this text up to the chosen vocabulary size (256 byte tokens + merges), see the BPE tab.',
};

export class TextView {
  static payload(state) {
    return { corpus: state.corpus, enc: state.enc, lower: state.lower, bpeV: state.bpeV };
  }

  constructor(root, engine, { onCustomText, onPosition }) {
    this.root = root;
    this.engine = engine;
    this.onPosition = onPosition;
    const $ = (id) => root.querySelector(`#${id}`);
    this.el = {
      stale: $('text-stale'), stats: $('text-stats'), note: $('text-note'), pos: $('chips-pos'), range: $('chips-range'),
      textarea: $('custom-text'), file: $('custom-file'), use: $('use-text'), customCaption: $('custom-caption'),
    };
    this.chips = new ChipStrip($('chips-holder'));
    this.total = 0;
    this.at = 0;
    this.last = null;
    let timer = null;
    this.el.pos.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.goTo(Number(this.el.pos.value)), 60);
    });
    $('chips-prev').addEventListener('click', () => this.goTo(this.at - CHIP_WINDOW));
    $('chips-next').addEventListener('click', () => this.goTo(this.at + CHIP_WINDOW));
    this.el.file.addEventListener('change', () => this.readFile());
    this.el.use.addEventListener('click', async () => {
      const text = this.el.textarea.value;
      try {
        const r = await engine.request('setText', { text });
        this.el.customCaption.textContent = `${r.chars} characters, ${r.bytes} bytes.`;
        onCustomText(text);
      } catch (err) {
        this.el.customCaption.textContent = err.message;
      }
    });
  }

  async readFile() {
    const f = this.el.file.files[0];
    if (!f) return;
    if (f.size > MAX_UPLOAD_BYTES) {
      this.el.customCaption.textContent = `${f.name} has ${f.size} bytes; this page takes at most ${MAX_UPLOAD_BYTES}.`;
      return;
    }
    this.el.textarea.value = await f.text();
    this.el.use.click();
  }

  // The text came from the link: show it in the box.
  showCustomText(text, note) {
    this.el.textarea.value = text;
    this.el.customCaption.textContent = note;
  }

  setStale(text) {
    this.el.stale.textContent = text || '';
    this.el.stale.hidden = !text;
  }

  async render(r, state) {
    this.last = r;
    this.total = r.tokens;
    const rows = [
      ['characters', r.chars.toLocaleString('en')],
      ['words (whitespace)', r.words.toLocaleString('en')],
      ['UTF-8 bytes', r.bytes.toLocaleString('en')],
      ['tokens', r.tokens.toLocaleString('en')],
      ['distinct ids', r.distinct.toLocaleString('en')],
      ['vocabulary size V', r.vocabSize.toLocaleString('en')],
      ['bytes per token', r.tokens ? formatNumber(r.bytes / r.tokens) : '–'],
      ['tokenize time', `${formatNumber(r.ms)} ms`],
    ];
    renderStatList(this.el.stats, rows);
    this.el.note.textContent = `${ENC_NOTES[r.enc]} The embedding table for this vocabulary would have ${r.vocabSize.toLocaleString('en')} rows.`;
    this.el.pos.max = String(Math.max(0, r.tokens - 1));
    await this.goTo(state.at, true);
    this.root.dataset.renders = String(Number(this.root.dataset.renders || 0) + 1);
  }

  async goTo(at, quiet = false) {
    const start = Math.max(0, Math.min(Number.isFinite(at) ? at : 0, Math.max(0, this.total - 1)));
    const slice = await this.engine.latest('tokenSlice', 'tokenSlice', { start, count: CHIP_WINDOW });
    if (!slice) return;
    this.at = slice.start;
    this.el.pos.value = String(slice.start);
    this.chips.render(slice);
    const end = slice.start + slice.ids.length;
    this.el.range.textContent = slice.total
      ? `tokens ${slice.start.toLocaleString('en')}–${(end - 1).toLocaleString('en')} of ${slice.total.toLocaleString('en')} (only this window is drawn)`
      : 'no tokens: the text is empty';
    if (!quiet) this.onPosition(slice.start);
  }

  recolor() {}
}
