// The "learned (imported)" card of the positions view: GPT-2's own position table (wpe), read
// from the file the user picked in the table view's "bring your own table" card, drawn with
// the same EncodingCard as the built-in kinds (position × dimension heatmap, position ×
// position similarity, the distance check), and beside them the PCA of its rows as a curve
// from position 0 to T − 1 (points joined in order, coloured by position). Draws the worker's
// 'importedPositions' reply (handlers/positions-handler.js); hidden while there is none. The file
// and tensor names come from the user: set as textContent only.
//
//   const card = new ImportedPositionsCard(holder);
//   card.render(reply, state);      // reply: {file, tensor, T, D, sim, kind, pca, ms} | {none: true}
import { EncodingCard } from './encoding-card.js';
import { Scatter } from '../plots/scatter.js';
import { Legend } from '../plots/legend.js';
import { formatNumber, makeLut } from '../plots/scales.js';

const PATH_LUT = 'viridis'; // sequential: position 0 dark, the last position light

export class ImportedPositionsCard {
  constructor(holder) {
    this.enc = new EncodingCard(holder, 'imported', {
      title: 'Learned (imported): GPT-2\'s own positions',
      text: '',
    });
    const card = this.enc.card;
    card.classList.add('imported-positions');
    card.id = 'positions-imported';
    card.hidden = true;
    this.explain = card.querySelector('.explain');
    this.enc.body.className = 'imported-grid';
    const block = document.createElement('div');
    const title = document.createElement('p');
    title.className = 'subplot-title';
    title.textContent = 'PCA of the rows: position 0 → T − 1 joined in order';
    const plot = document.createElement('div');
    plot.className = 'plot imported-pca';
    const leg = document.createElement('div');
    this.pcaNote = document.createElement('p');
    this.pcaNote.className = 'check-line';
    block.append(title, plot, leg, this.pcaNote);
    this.enc.body.append(block);
    this.scatter = new Scatter(plot, { labelled: 9, height: 300, exportName: 'positions-pca2' });
    this.legend = new Legend(leg, { caption: 'position', width: 240 });
    this.caption = document.createElement('p');
    this.caption.className = 'caption';
    this.caption.id = 'positions-imported-caption';
    card.append(this.caption);
  }

  // The worker could not draw the imported table: say so, keep what was drawn last.
  showError(message) {
    if (this.enc.card.hidden) return;
    this.caption.textContent = `The imported positions could not be redrawn: ${message}`;
  }

  render(r, state) {
    const card = this.enc.card;
    if (!r || r.none) {
      card.hidden = true;
      return;
    }
    card.hidden = false;
    this.explain.textContent =
      `From your file ${r.file}, tensor ${r.tensor} (${r.T.toLocaleString('en')} positions × ${r.D.toLocaleString('en')}): the position table GPT-2 learned in its training, as stored in the file. ` +
      'Nothing is trained or initialised here; the engine only reads the values. Learned positions have no formula: any structure below was found by training.';
    this.enc.render(r.kind, state, r.sim);
    if (r.pca) {
      const T = r.T;
      const last = T - 1;
      // label every eighth of the way (0, 128, ..., 1023 for GPT-2): the curve's direction
      const order = Int32Array.from(new Set(Array.from({ length: 9 }, (_, i) => Math.min(last, Math.round((i * T) / 8)))));
      const labels = Array.from({ length: T }, (_, p) => `${p}`);
      this.scatter.setData({ points: r.pca.points, labels, explained: r.pca.explained, order, frozen: false, path: makeLut(PATH_LUT) });
      this.legend.set({ domain: [0, last], lut: makeLut(PATH_LUT), note: 'colour of each point and segment' });
      const kept = 100 * (r.pca.explained[0] + r.pca.explained[1]);
      this.pcaNote.textContent = `Each point is one position's row projected on the table's two main directions (engine PCA); neighbouring positions are joined. The two directions keep ${kept.toFixed(1)}% of the variance.`;
    } else {
      this.pcaNote.textContent = 'Too few positions or dimensions for a 2-D PCA.';
    }
    const ms = r.ms;
    this.caption.textContent =
      `Read from ${r.file} (${r.tensor}) by the worker; computed by the engine in ${formatNumber(ms.total / 1000)} s ` +
      `(similarity of the drawn ${r.kind.similarity.rows} × ${r.kind.similarity.rows} positions ${formatNumber(ms.similarity)} ms, ` +
      `distance check over all ${r.T.toLocaleString('en')} × ${r.T.toLocaleString('en')} pairs ${formatNumber(ms.distanceCheck)} ms, PCA ${formatNumber(ms.pca)} ms). ` +
      'The seed, T and D settings do not apply to it: it is the file\'s table.';
    card.dataset.file = r.file;
    card.dataset.toeplitz = String(r.kind.toeplitz);
  }
}
