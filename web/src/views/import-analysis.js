// More views of an imported table, part of the "bring your own table" card (import-view.js):
//   - "normalise rows": a checkbox, off by default; when on, every query of the card runs on
//     the engine's unit-row copy of the table (worker: importMap/importNeighbours/... with
//     normalise: true) and every affected caption says "rows normalised to length 1";
//   - a token × token similarity heatmap for tokens the user lists (commas or spaces; GPT-2
//     words carry a leading space, which a comma list keeps: " the, of"), with the tokens named
//     on both axes, a diverging colour scale centred at 0 and its legend; at most
//     SIMILARITY_MAX_TOKENS tokens; a bad token gives its message and keeps the last heatmap;
//   - a histogram of every row's length (Table.norms) with its count, mean, median, min, max.
// Labels come from the user's file: only ever set as textContent or drawn as canvas text.
// Its elements are made here and added to the card's results (no markup in index.html).
//
//   const a = new ImportAnalysis(resultsEl, engine, {onNormalise: async (on) => {...}});
//   a.loaded(importReply);         // a new table: toggle off, default tokens, norms
//   a.neighboursShown(reply);      // the tokens default to the query and its neighbours
import { Heatmap } from '../plots/heatmap.js';
import { Legend } from '../plots/legend.js';
import { BarChart } from '../plots/bar-chart.js';
import { visibleText } from '../widgets/chips.js';
import { formatNumber, histogramBins, makeLut } from '../plots/scales.js';
import { SIMILARITY_MAX_TOKENS } from '../handlers/limits.js';

export const NORMALISED = 'rows normalised to length 1';
const CMAP = 'puor'; // diverging: 0 at the light middle
const HIST_BINS = 14;
const DEFAULT_TOKENS = 8;
// GPT-2-style defaults (leading space: words inside a sentence), used when the table has them
const WORDS = [' king', ' queen', ' man', ' woman', ' cat', ' dog', ' the', ' of'];

const make = (tag, props = {}, text = null) => {
  const e = Object.assign(document.createElement(tag), props);
  if (text !== null) e.textContent = text;
  return e;
};
// a label as shown: quoted, so a leading space is visible (" the")
export const shownLabel = (s) => JSON.stringify(visibleText(s));

export class ImportAnalysis {
  constructor(results, engine, { onNormalise = async () => {} } = {}) {
    this.engine = engine;
    this.onNormalise = onNormalise;
    this.normalise = false;
    this.edited = false; // the user typed tokens: neighbours no longer replace them
    this.toggle = make('input', { type: 'checkbox', id: 'import-normalise' });
    const tLabel = make('label', { htmlFor: 'import-normalise' });
    tLabel.append(this.toggle, ' normalise rows ', make('span', { className: 'hint' }, '(each row divided by its length, by the engine; off: the rows as stored)'));
    this.toggleNote = make('p', { className: 'caption', id: 'import-normalise-note' });
    const toggleRow = make('div', { className: 'slider-row' });
    toggleRow.append(tLabel);
    results.prepend(toggleRow, this.toggleNote);

    this.form = make('form', { className: 'slider-row', id: 'import-sim-form' });
    this.tokens = make('input', { type: 'text', id: 'import-sim-tokens', spellcheck: false, placeholder: 'tokens: " king, queen, man" or rows: 10 20 30' });
    this.tokens.setAttribute('aria-label', `tokens to compare (commas or spaces, at most ${SIMILARITY_MAX_TOKENS})`);
    this.tokens.size = 48;
    this.form.append(this.tokens, make('button', { type: 'submit', className: 'primary' }, 'Compare'));
    this.simNote = make('p', { className: 'caption', id: 'import-sim-note', role: 'status' });
    const simPlot = make('div', { className: 'plot', id: 'import-sim' });
    const simLeg = make('div');
    this.simCaption = make('p', { className: 'caption', id: 'import-sim-caption' });
    this.normsPlot = make('div', { className: 'plot', id: 'import-norms' });
    this.normsNote = make('p', { className: 'caption', id: 'import-norms-note' });
    results.append(
      make('p', { className: 'subplot-title' }, 'similarity of chosen tokens: token × token'),
      this.form, this.simNote, simPlot, simLeg, this.simCaption,
      make('p', { className: 'subplot-title' }, 'length of every row (histogram)'),
      this.normsPlot, this.normsNote,
    );
    this.simPlot = simPlot;
    this.heatmap = new Heatmap(simPlot, {
      xLabel: 'token', yLabel: 'token', square: true, maxHeight: 520, minHeight: 120, exportName: 'token-similarity',
      formatTip: (c) => `${this.simLabels[c.row]} · ${this.simLabels[c.col]}: ${formatNumber(c.value)}`,
    });
    this.simLegend = new Legend(simLeg, { caption: 'cosine similarity', width: 260 });
    this.heatmap.setLegend(this.simLegend);
    this.bars = new BarChart(this.normsPlot, { xLabel: 'number of rows', format: (v) => v.toLocaleString('en'), exportName: 'norms' });
    this.simLabels = [];

    this.toggle.addEventListener('change', () => this.setNormalise(this.toggle.checked));
    this.tokens.addEventListener('input', () => (this.edited = true));
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.similarity();
    });
  }

  // A new table is loaded (the worker starts with the rows as stored).
  loaded(r) {
    this.normalise = false;
    this.toggle.checked = false;
    this.toggleNote.textContent = '';
    this.edited = false;
    const labels = r.labels || [];
    const words = WORDS.filter((w) => labels.includes(w));
    this.tokens.value = words.length >= 4
      ? words.join(',')
      : Array.from({ length: Math.min(DEFAULT_TOKENS, r.rows) }, (_, i) => String(i)).join(' ');
    this.simNote.textContent = '';
    return Promise.all([this.similarity(), this.norms()]);
  }

  // The neighbours of a query are shown: unless the user typed a list, compare the query and
  // its neighbours (as row numbers when a label could not be typed back, e.g. it holds a comma)
  neighboursShown(r) {
    if (this.edited) return null;
    const rows = [r.query, ...r.neighbours.slice(0, DEFAULT_TOKENS - 1)];
    const typable = rows.every((x) => x.label && !x.label.includes(',') && x.label.trim() !== '' && !/^\d+$/.test(x.label.trim()));
    this.tokens.value = typable ? rows.map((x) => x.label).join(',') : rows.map((x) => x.row).join(' ');
    return this.similarity();
  }

  async setNormalise(on) {
    this.normalise = on;
    this.toggle.disabled = true;
    this.toggleNote.textContent = on ? 'normalising every row in the engine…' : '';
    try {
      await this.onNormalise(on);
      this.toggleNote.textContent = on
        ? `On: ${NORMALISED} (a unit-row copy made once by the engine; zero rows stay zero). The neighbours, the similarity heatmap and the map below use it.`
        : '';
    } catch (err) {
      this.toggleNote.textContent = err.message; // e.g. the unit rows do not fit: the rows as stored stay
      this.normalise = !on;
      this.toggle.checked = !on;
    } finally {
      this.toggle.disabled = false;
    }
    await Promise.all([this.similarity(), this.norms()]);
  }

  async similarity() {
    const root = this.simPlot;
    try {
      const r = await this.engine.request('importSimilarity', { tokens: this.tokens.value, normalise: this.normalise });
      this.simLabels = r.labels.map(shownLabel);
      const idx = Int32Array.from({ length: r.n }, (_, i) => i);
      const domain = [-1, 1];
      const lut = makeLut(CMAP);
      this.heatmap.setData(
        { data: r.data, rows: r.n, cols: r.n, rowIndex: idx, colIndex: idx, totalRows: r.n, totalCols: r.n, sampled: false, labels: this.simLabels },
        { domain, lut, label: `similarity of ${r.n} tokens, token by token` },
      );
      this.simLegend.set({ domain, lut, note: r.normalised ? 'dot product of unit rows; 0 at the centre' : '0 at the centre' });
      this.simNote.textContent = '';
      delete root.dataset.error;
      root.dataset.n = String(r.n);
      root.dataset.normalised = String(r.normalised);
      const shown = r.labels.length <= 6 ? ` (${this.simLabels.join(', ')})` : '';
      this.simCaption.textContent = r.normalised
        ? `Dot products of the ${r.n} chosen rows${shown}, ${NORMALISED} first, so each entry is their cosine (it differs from the cosine of the rows as stored by at most ${formatNumber(r.maxDiff)}, float32 rounding). Engine: Table.similarity on the unit rows.`
        : `Cosine similarity of the ${r.n} chosen rows${shown} (engine: Table.similarity); 1 on the diagonal. Rows as stored, not re-normalised. At most ${SIMILARITY_MAX_TOKENS} tokens.`;
    } catch (err) {
      // the last heatmap stays; the message names the token or the limit
      this.simNote.textContent = `${err.message}${root.dataset.n ? ' — still showing the previous tokens.' : ''}`;
      root.dataset.error = err.message;
    }
  }

  async norms() {
    try {
      const r = await this.engine.request('importNorms', {});
      const bins = histogramBins(r.norms, HIST_BINS);
      this.bars.setData(bins.map((b) => ({ label: `${formatNumber(b.x0)} – ${formatNumber(b.x1)}`, value: b.count, color: '#0072B2' })), {
        title: `histogram of the lengths of ${r.count} rows`,
      });
      const stats = `${r.count.toLocaleString('en')} rows: mean ${formatNumber(r.mean)}, median ${formatNumber(r.median)}, min ${formatNumber(r.min)}, max ${formatNumber(r.max)}` +
        `${r.zeros ? `; ${r.zeros.toLocaleString('en')} rows are all zeros` : ''}.`;
      this.normsNote.textContent = r.unit
        ? `Lengths of the rows as stored (engine: Table.norms), ${stats} With "normalise rows" on, ${NORMALISED}: every unit row has length 1 within ${formatNumber(r.unit.maxError)} (engine: Table.norms of the unit rows; zero rows stay 0), so these lengths no longer weigh in the neighbours, the similarities or the map.`
        : `Lengths of the rows as stored (engine: Table.norms), ${stats} Each bar counts the rows whose length falls in its range. Not normalised.`;
      this.normsPlot.dataset.count = String(r.count);
      this.normsPlot.dataset.binned = String(bins.reduce((a, b) => a + b.count, 0));
    } catch (err) {
      this.normsNote.textContent = err.message;
    }
  }
}
