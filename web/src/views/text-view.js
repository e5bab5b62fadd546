// View 3: text -> tokens. The corpus (built-in or the user's own text) is tokenized in the
// worker; this view shows the counts and a window of CHIP_WINDOW tokens as chips, paged with
// a slider, so a 1 MB text (338k GPT-2 tokens) never puts more than a few hundred chips in
// the DOM. The user's text is sent to the worker only (setText) and rendered as text.
// Big texts never pass through the main thread as a string: a chosen or dropped file goes to
// the worker as a File (the worker reads its bytes), a paste of more than MAX_MIRROR_CHARS goes
// straight to the worker, and the text box then shows a summary instead of megabytes.
// Clicking a chip shows the token's row of nn.Embedding(V, D) (V = the tokenizer's vocabulary,
// seed and D of the table view), by lookup and one-hot x W, and its nearest rows.
//
//   const view = new TextView(root, engine, {onCustomText: (setTextReply) => ..., onPosition: (at) => ...,
//                                            tableSettings: () => ({seed, D, scale, enc}), onOpenRow: ({V, id}) => ...});
//   await view.render(tokenizeReply, state);   // then fetches the chip slice at state.at
//   await view.nextRender();                   // resolves after the next render (or 3 s)
import { renderStatList } from './stat-list.js';
import { ChipStrip, visibleText } from '../widgets/chips.js';
import { formatNumber } from '../plots/scales.js';
import { formatBytes } from '../handlers/limits.js';
import { echo } from '../state.js';
import { TEXT_KEYS, textPayload } from './request-keys.js';

export { TEXT_KEYS }; // request-keys.js: read before this module loads
const CHIP_WINDOW = 400;
const MAX_UPLOAD_BYTES = 32 * 1024 * 1024;
export const MAX_MIRROR_CHARS = 100_000; // longer texts are summarised, not put in the text box
const ROW_DIMS = 64; // dimensions listed in the token card
const PREVIEW_BYTES = 256 * 1024; // a custom text bigger than this shows chips of its head first

const ENC_NOTES = {
  gpt2: 'GPT-2 byte-level BPE: the same ids as tiktoken\'s "gpt2" encoding (50,257 ids; a leading space belongs to the token).',
  whitespace: 'Words split on whitespace exactly like Python\'s str.split(); the vocabulary is built from this text (<pad>=0, <unk>=1, <sos>=2, <eos>=3, then by frequency).',
  word: 'Words with punctuation split off (\\w+ | [^\\w\\s]); the vocabulary is built from this text, specials first, then by frequency.',
  char: 'One token per character; the vocabulary is the characters of this text, specials first.',
  bpe: 'A byte-level BPE trained on this text up to the chosen vocabulary size (256 byte tokens + merges), see the BPE tab.',
};

export class TextView {
  static payload(state) {
    return textPayload(state);
  }

  // engine -> state -> Promise<tokenize reply | null> (null: a newer request is on its way)
  static fetch(engine) {
    return (state) => engine.latest('text', 'tokenize', TextView.payload(state));
  }

  constructor(root, engine, { onCustomText, onPosition, tableSettings, onOpenRow, onPickToken = () => {} }) {
    this.root = root;
    this.onPickToken = onPickToken;
    this.engine = engine;
    this.onPosition = onPosition;
    this.onCustomText = onCustomText;
    this.tableSettings = tableSettings;
    const $ = (id) => root.querySelector(`#${id}`);
    this.el = {
      stale: $('text-stale'), stats: $('text-stats'), note: $('text-note'), pos: $('chips-pos'), range: $('chips-range'),
      textarea: $('custom-text'), file: $('custom-file'), use: $('use-text'), customCaption: $('custom-caption'),
      summary: $('custom-summary'), card: $('custom-card'),
      tokenCard: $('token-card'), tokenTitle: $('token-title'), tokenIdentical: $('token-identical'), tokenExplain: $('token-explain'),
      tokenRow: $('token-row').querySelector('tbody'), tokenNn: $('token-nn').querySelector('tbody'), tokenNote: $('token-note'),
    };
    this.chips = new ChipStrip($('chips-holder'), { onPick: (at, id) => this.pickToken(at, id) });
    this.chips.pickedAt = null;
    this.waiters = [];
    this.picked = null;
    $('token-open').addEventListener('click', () => {
      if (this.picked) onOpenRow({ V: this.picked.V, id: this.picked.id });
    });
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
    this.el.file.addEventListener('change', () => this.loadFile(this.el.file.files[0]));
    this.el.use.addEventListener('click', () => this.sendText({ text: this.el.textarea.value }));
    // a big paste goes to the worker, not into the box (a text box holding megabytes freezes the page)
    this.el.textarea.addEventListener('paste', (e) => {
      const text = e.clipboardData && e.clipboardData.getData('text/plain');
      if (!text || text.length <= MAX_MIRROR_CHARS) return;
      e.preventDefault();
      this.sendText({ text, name: 'pasted text' });
    });
    const card = this.el.card;
    card.addEventListener('dragover', (e) => {
      if (![...e.dataTransfer.types].includes('Files')) return;
      e.preventDefault();
      card.classList.add('drop-over');
    });
    card.addEventListener('dragleave', () => card.classList.remove('drop-over'));
    card.addEventListener('drop', (e) => {
      card.classList.remove('drop-over');
      if (!e.dataTransfer.files.length) return;
      e.preventDefault();
      this.loadFile(e.dataTransfer.files[0]);
    });
  }

  // A chosen or dropped file: the File goes to the worker, which reads its bytes.
  loadFile(f) {
    if (!f) return;
    if (f.size > MAX_UPLOAD_BYTES) {
      this.el.customCaption.textContent = `${echo(f.name, 80)}: ${formatBytes(f.size)} (${f.size.toLocaleString('en')} bytes); this page takes at most ${formatBytes(MAX_UPLOAD_BYTES)}.`;
      return;
    }
    this.el.customCaption.textContent = `reading ${echo(f.name, 80)} (${formatBytes(f.size)}) in the worker…`;
    this.sendText({ file: f, name: f.name });
  }

  async sendText(payload) {
    try {
      const r = await this.engine.request('setText', payload);
      if (r.bytes > PREVIEW_BYTES && this.tableSettings().enc === 'gpt2') this.preview(); // queued before the full tokenize
      if (payload.text !== undefined && payload.text.length <= MAX_MIRROR_CHARS && !payload.name) this.showSummary(null);
      else this.showSummary(r);
      this.el.customCaption.textContent = `${r.chars.toLocaleString('en')} characters, ${formatBytes(r.bytes)}.`;
      this.onCustomText(r);
    } catch (err) {
      this.el.customCaption.textContent = err.message;
    }
  }

  // First chips of a big text from its head (GPT-2 ids need no vocabulary), until the full reply.
  async preview() {
    const gen = (this.previewGen = (this.previewGen || 0) + 1);
    const renders = this.root.dataset.renders;
    try {
      const slice = await this.engine.request('previewSlice', { count: CHIP_WINDOW });
      if (gen !== this.previewGen || this.root.dataset.renders !== renders) return; // the full text is drawn already
      this.chips.render(slice);
      this.el.range.textContent = `tokens 0–${slice.ids.length - 1} of a long text: counting the rest in the worker…`;
    } catch {
      // the full tokenize reply follows and shows any error
    }
  }

  // reply of setText (or null: the box shows the text itself) -> the summary line under the box.
  showSummary(r) {
    const el = this.el.summary;
    el.hidden = !r;
    if (!r) return;
    this.el.textarea.value = '';
    this.el.textarea.placeholder = 'Paste text here… (the text in use is summarised below)';
    const head = r.head.length < r.chars ? `${r.head.trimEnd()}…` : r.head;
    el.textContent = `In use: ${r.name || 'your text'}, ${r.chars.toLocaleString('en')} characters, ${formatBytes(r.bytes)}; ` +
      `held by the worker, not copied into the box. It begins: “${head}”`;
  }

  // The text came from the link or this browser's storage: show it in the box, or a summary when long.
  showCustomText(r, note) {
    if (r.text !== undefined && r.text.length <= MAX_MIRROR_CHARS) {
      this.el.textarea.value = r.text;
      this.showSummary(null);
    } else {
      this.showSummary(r);
    }
    this.el.customCaption.textContent = note;
  }

  // Says where the custom text is kept (the link, this browser's storage, this tab).
  setKeepNote(text) {
    this.el.customCaption.textContent = text;
  }

  nextRender(timeoutMs = 3000) {
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      setTimeout(resolve, timeoutMs);
    });
  }

  // A chip was clicked (or the link's pick=N): its row of the table for this vocabulary, two ways,
  // and its neighbours. quiet: from the link, not reported back.
  async pickToken(at, id, quiet = false) {
    if (!quiet) this.onPickToken(at);
    const t = this.tableSettings();
    const card = this.el.tokenCard;
    try {
      const r = await this.engine.latest('tokenRow', 'tokenRow', { id, seed: t.seed, D: t.D, scale: t.scale, k: 8, ...this.textSettings });
      if (!r) return;
      this.picked = r;
      card.hidden = false;
      this.renderToken(r, at);
      card.scrollIntoView({ block: 'nearest' });
    } catch (err) {
      card.hidden = false;
      this.picked = null;
      this.el.tokenNote.textContent = err.message;
    }
  }

  renderToken(r, at) {
    const el = this.el;
    el.tokenTitle.textContent = `${r.id} “${visibleText(r.token)}”`;
    el.tokenIdentical.textContent = r.identical ? 'lookup = one-hot × W: identical bits' : 'lookup ≠ one-hot × W';
    el.tokenIdentical.className = `badge ${r.identical ? 'yes' : 'no'}`;
    el.tokenExplain.textContent =
      `Token #${at.toLocaleString('en')} of the text has id ${r.id}, so it selects row ${r.id} of the embedding table ` +
      `torch.manual_seed(${r.seed}); nn.Embedding(${r.V.toLocaleString('en')}, ${r.D})` +
      `${r.scaleFactor !== 1 ? ` (× √${r.D})` : ''}: one row per id of this tokenizer; seed and D come from the table view's settings. ` +
      'This table is untrained, so its nearest rows are random neighbours; after training (Train tab) similar tokens move together.';
    const rows = [];
    const n = Math.min(r.D, ROW_DIMS);
    for (let d = 0; d < n; d++) rows.push([String(d), r.row[d].toFixed(6), r.oneHot[d].toFixed(6)]);
    fillRows(el.tokenRow, rows);
    fillRows(el.tokenNn, r.neighbours.map((x, i) => [String(i + 1), String(x.id), JSON.stringify(visibleText(x.token)), x.score.toFixed(4)]));
    el.tokenNote.textContent = (n < r.D ? `First ${n} of ${r.D} dimensions listed. ` : '') +
      `Opens the table view with V = ${r.V.toLocaleString('en')} and the picked row ${r.id}; its hover then names each row's token.`;
  }

  setStale(text) {
    this.el.stale.textContent = text || '';
    this.el.stale.hidden = !text;
  }

  async render(r, state) {
    this.last = r;
    this.textSettings = TextView.payload(state); // slices name their text (the worker may hold another view's tokens)
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
    await this.pickFromLink(state.pick, r.tokens);
    this.root.dataset.renders = String(Number(this.root.dataset.renders || 0) + 1);
    for (const w of this.waiters.splice(0)) w();
  }

  // The link's picked token (pick=N, a token position): its chip marked and its card shown.
  // Past the end of this text: nothing is picked and the link drops it.
  async pickFromLink(at, total) {
    if (at === null || at === undefined) {
      this.chips.setPicked(null);
      return;
    }
    if (at >= total) {
      this.chips.setPicked(null);
      this.el.tokenCard.hidden = true;
      this.onPickToken(null);
      return;
    }
    try {
      const one = await this.engine.request('tokenSlice', { start: at, count: 1, ...this.textSettings });
      this.chips.setPicked(at);
      await this.pickToken(at, one.ids[0], true);
    } catch (err) {
      this.el.tokenNote.textContent = err.message;
    }
  }

  async goTo(at, quiet = false) {
    const start = Math.max(0, Math.min(Number.isFinite(at) ? at : 0, Math.max(0, this.total - 1)));
    const slice = await this.engine.latest('tokenSlice', 'tokenSlice', { start, count: CHIP_WINDOW, ...this.textSettings });
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

// tbody, rows of cell texts -> the rows, set as text.
function fillRows(tbody, rows) {
  tbody.replaceChildren(...rows.map((cells) => {
    const tr = document.createElement('tr');
    for (const text of cells) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.append(td);
    }
    return tr;
  }));
}
