// The "Download the table" row of a card (issue 10): buttons for the Embedding Projector's
// files (vectors.tsv, metadata.tsv when the table has labels, projector_config.json naming
// them), every table format the engine writes (.npy, word2vec text and binary: M.tableFormats(),
// listed by the worker at ready), and CSV of the 2-D map or a 3-D PCA. Every file's bytes
// come from the worker (handlers/table-exports.js: the engine's writers); only
// projector_config.json is written here (file-names.js projectorConfig), because it names the
// files as the page saves them. File names: plot-export.js exportFileName (the page's namer).
//
//   const ex = new TableExports(container, engine, {request: 'importExport', element: card, drawn: () => ({method, points})});
//   drawn(): the card's 2-D map as drawn ({method: 'pca' | a map registry name, points} | null): "CSV 2-D"
//   saves those coordinates, named after the method (…-<method>2.csv), never a map the card does not show
//   await ex.save('npy');          // one file; 'projector' saves the three Projector files
import { downloadBytes } from '../download.js';
import { projectorConfig } from '../file-names.js';
import { exportFileName } from '../plots/plot-export.js';

// format -> [button text, what (file-name part), extension, MIME type]; the engine's table
// formats are added at ready (addTableFormats) from its registry (M.tableFormats()).
const FILES = {
  tsv: ['vectors.tsv', 'vectors', 'tsv', 'text/tab-separated-values'],
  metadata: ['metadata.tsv', 'metadata', 'tsv', 'text/tab-separated-values'],
  csv2: ['CSV 2-D map', 'pca2', 'csv', 'text/csv'],
  csv3: ['CSV 3-D PCA', 'pca3', 'csv', 'text/csv'],
};
// The page's words for the table formats it knows: [button text, what, MIME type, title]. A
// format the registry gains later gets its label, its name and a generic title.
const TABLE_TEXT = {
  npy: ['.npy', 'table', 'application/octet-stream', 'the table as a float32 .npy file (numpy.load)'],
  'word2vec-text': ['word2vec .txt', 'word2vec', 'text/plain', 'word2vec text format (gensim KeyedVectors.load_word2vec_format)'],
  'word2vec-binary': ['word2vec .bin', 'word2vec', 'application/octet-stream', 'word2vec binary format (binary=True)'],
};
// [format, button text, title]: before and after the engine's table formats (vectors.tsv is
// one of the Projector files, not a button of its own)
const BUTTONS_BEFORE = [
  ['projector', 'Projector files', 'vectors.tsv, metadata.tsv and projector_config.json for projector.tensorflow.org'],
];
const BUTTONS_AFTER = [
  ['csv2', 'CSV 2-D', 'row, label, x, y of the map as drawn'],
  ['csv3', 'CSV 3-D', 'row, label, x, y, z: the first three principal components'],
];
// tableFormats (M.tableFormats()) -> the [format, button text, title] of each writable one but tsv
// (FILES gets their files).
function tableButtons(tableFormats) {
  return tableFormats.filter((f) => f.canWrite && f.name !== 'tsv').map((f) => {
    const [text, what, type, title] = TABLE_TEXT[f.name] || [f.label, f.name, 'application/octet-stream', `the table as ${f.label}`];
    FILES[f.name] = [text, what, f.outExtension, type];
    return [f.name, text, title];
  });
}

export class TableExports {
  constructor(container, engine, { request, element = container, label = 'Download the table', drawn = () => null }) {
    this.engine = engine;
    this.drawn = drawn;
    this.request = request;
    this.element = element;
    this.root = document.createElement('div');
    this.root.className = 'table-exports slider-row';
    this.root.setAttribute('role', 'group');
    this.root.setAttribute('aria-label', label);
    const lead = document.createElement('span');
    lead.className = 'table-exports-label';
    lead.textContent = `${label}:`;
    this.root.append(lead);
    const button = ([format, text, title]) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.format = format;
      b.textContent = text;
      b.title = title;
      b.setAttribute('aria-label', `${label} as ${text}: ${title}`);
      b.addEventListener('click', () => this.save(format));
      return b;
    };
    this.root.append(...BUTTONS_BEFORE.map(button));
    const after = BUTTONS_AFTER.map(button);
    this.root.append(...after);
    // the engine's table formats, between, once the worker has listed them (no engine: none)
    engine.ready.then((info) => after[0].before(...tableButtons(info.tableFormats).map(button)), () => {});
    this.note = document.createElement('span');
    this.note.className = 'caption';
    this.note.setAttribute('role', 'status');
    this.root.append(this.note);
    container.append(this.root);
  }

  // format -> {name, reply} after fetching the bytes and saving them
  async fetch(format) {
    const map = format === 'csv2' ? this.drawn() : null;
    // as a Float32Array (the worker checks the type and length)
    const payload = map ? { format, map: map.method, points: Float32Array.from(map.points) } : { format };
    const r = await this.engine.request(this.request, payload);
    const [, base, ext, type] = FILES[format];
    const what = format === 'csv2' ? `${r.map || 'pca'}2` : base;
    const name = exportFileName({ name: what, element: this.element }, ext, { step: r.step });
    downloadBytes(r.bytes, name, type);
    return { name, r };
  }

  // format: a key of FILES or 'projector'; shows what was saved (or the engine's message).
  async save(format) {
    try {
      const saved = format === 'projector' ? await this.saveProjector() : [await this.fetch(format)];
      const r = saved[0].r;
      this.note.textContent = `Saved ${saved.map((s) => s.name).join(', ')} (${r.rows.toLocaleString('en')} rows × ${r.dim.toLocaleString('en')}${r.step !== undefined ? `, step ${r.step}` : ''}).`;
      this.root.dataset.saved = saved.map((s) => s.name).join(' ');
      return saved;
    } catch (err) {
      this.note.textContent = err.message;
      this.root.dataset.error = err.message;
      return [];
    }
  }

  // vectors.tsv, metadata.tsv (if the table has labels) and the config naming both
  async saveProjector() {
    const vectors = await this.fetch('tsv');
    const saved = [vectors];
    let metadata = null;
    try {
      metadata = await this.fetch('metadata');
      saved.push(metadata);
    } catch (err) {
      if (!/has no labels/.test(err.message)) throw err;
    }
    const { r } = vectors;
    const configName = exportFileName({ name: 'projector_config', element: this.element }, 'json', { step: r.step });
    const text = projectorConfig({
      tensorName: vectors.name.replace(/-vectors\.tsv$/, ''), rows: r.rows, dim: r.dim,
      tensorPath: vectors.name, metadataPath: metadata && metadata.name,
    });
    downloadBytes(text, configName, 'application/json');
    saved.push({ name: configName, r });
    return saved;
  }
}
