// The table view's "Why multiply token vectors by √D?" card (issue 21: it sits where the √d_model
// scale is introduced, after the lookup cards): histograms of the lengths of 2,000 token rows of
// the table's width D, drawn from the table's seed, as torch draws them (N(0, 1)) and as the
// Transformer initialises them (std 1/√D), before and after × √D, against the length of a
// sinusoidal position row; and the picked token's own row length. Draws the worker's 'scaleDemo'
// reply (handlers/table-handler.js) next to the 'table' reply; it asks the engine nothing itself.
// A failure of the demo (a width the page cannot copy) is said in the card's caption: the table
// cards above still draw.
//
//   const card = new ScaleCard(rootOfTheTableView);
//   card.render(scaleReply | {error}, tableReply);
import { LengthStrips } from '../plots/length-strips.js';
import { formatNumber } from '../plots/scales.js';

const LABELS = {
  normal: 'N(0, 1) rows (nn.Embedding)',
  normalScaled: 'N(0, 1) rows × √D',
  small: 'std 1/√D rows (Transformer init)',
  smallScaled: 'std 1/√D rows × √D',
};

// lengths (float32) -> their median
const median = (a) => Float32Array.from(a).sort()[a.length >> 1];

// The stored length of the picked row of a 'table' reply (its row is the lookup, × √D when on).
export function storedRowLength(t) {
  let sq = 0;
  for (const v of t.row) sq += v * v;
  return Math.sqrt(sq) / t.scaleFactor;
}

// The caption of the card: sc the 'scaleDemo' reply, t the 'table' reply (picked row, scale).
export function scaleNote(sc, t) {
  const m = Object.fromEntries(sc.groups.map((g) => [g.key, median(g.lengths)]));
  const pe = sc.peD === sc.D
    ? `D = ${sc.D}: a sinusoidal row has length ${formatNumber(sc.peLength)} (√(D/2)). `
    : `D = ${sc.D}: sinusoidal rows need an even width, so the reference is a row of width D + 1 = ${sc.peD}, of length ${formatNumber(sc.peLength)} (√(${sc.peD}/2)). `;
  const stored = storedRowLength(t);
  const picked = t.D === sc.D
    ? `The picked token ${t.tok}'s stored row has length ${formatNumber(stored)} (≈ √D = ${formatNumber(Math.sqrt(sc.D))} for N(0, 1) entries)` +
      (t.scaleFactor !== 1 ? `, and its lookup ${formatNumber(stored * t.scaleFactor)} with × √D on. ` : '; × √D is off, so its lookup has that length too. ')
    : '';
  return pe + picked +
    `Rows initialised with std 1/√D have length ≈ ${formatNumber(m.small)}, so without scaling the position signal would swamp them; ` +
    `× √D brings them to ≈ ${formatNumber(m.smallScaled)}, the same order as the positions. ` +
    `With torch's default N(0, 1) rows (the notebooks) the factor goes the other way: ≈ ${formatNumber(m.normal)} becomes ≈ ${formatNumber(m.normalScaled)}. ` +
    'All lengths come from the engine (Embedding.forward with scale on).';
}

export class ScaleCard {
  constructor(root) {
    this.plot = root.querySelector('#scale-plot');
    this.note = root.querySelector('#scale-note');
    this.strips = new LengthStrips(this.plot);
  }

  render(sc, t) {
    if (!sc) return;
    if (sc.error) {
      this.note.textContent = `The lengths could not be computed: ${sc.error}`;
      this.plot.dataset.error = '1';
      return;
    }
    delete this.plot.dataset.error;
    this.strips.setData({
      groups: sc.groups.map((g) => ({ label: LABELS[g.key], lengths: g.lengths })),
      reference: { value: sc.peLength, label: `sinusoidal rows √(${sc.peD}/2)` },
    });
    this.note.textContent = scaleNote(sc, t);
  }
}
