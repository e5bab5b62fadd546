// One positional encoding as a card of the positions view: its (T x D) table as a heatmap and
// its (T x T) position similarity under it, with the "depends only on m − n" check. Draws one
// kind of the worker's 'positions' reply (handlers/positions-handler.js), or the imported
// positions card's kind (imported-positions-card.js), which lays the same two blocks out in a
// row. It does not fetch or compute anything.
//
//   const card = new EncodingCard(holder, 'sinusoidal');      // or (holder, name, {title, text})
//   card.render(kind, state, 'cos');
import { Heatmap } from '../plots/heatmap.js';
import { Legend } from '../plots/legend.js';
import { colorDomain, colormap, formatNumber, makeLut, scaleRange, similarityScale } from '../plots/scales.js';
import { summarize } from '../arrays.js';

const INFO = {
  sinusoidal: {
    title: 'Sinusoidal (Vaswani et al. 2017)',
    text: 'Fixed, not trained: PE[p, 2i] = sin(p·w_i), PE[p, 2i+1] = cos(p·w_i) with w_i = base^(-2i/D), base 10000 unless the subtitle below names another (the link key sinusoidal.base). Left columns oscillate fast, right columns slowly.',
  },
  learned: {
    title: 'Learned absolute (GPT-2)',
    text: 'A second nn.Embedding(T, D) indexed by position, random until trained: manual_seed(seed); nn.Embedding(T, D). Position T and beyond do not exist.',
  },
  rope: {
    title: 'Rotary, RoPE (Su et al. 2021)',
    text: 'Rotates each pair (x_2i, x_2i+1) of a query or key by p·θ_i. Shown: the rotation applied to (1, 0, 1, 0, …), i.e. the pairs (cos pθ_i, sin pθ_i): the sinusoidal frequencies, but multiplied into q and k instead of added to the token vector.',
  },
};

export class EncodingCard {
  // info: {title, text} (default: the built-in kind's)
  constructor(parent, name, info = INFO[name]) {
    this.card = document.createElement('article');
    this.card.className = 'card';
    this.card.dataset.kind = name;
    const h = document.createElement('h3');
    h.textContent = info.title;
    const p = document.createElement('p');
    p.className = 'explain';
    p.textContent = info.text;
    const t1 = document.createElement('p');
    t1.className = 'subplot-title';
    t1.textContent = 'table: position × dimension';
    this.t1 = t1;
    const plot1 = document.createElement('div');
    plot1.className = 'plot';
    const leg1 = document.createElement('div');
    this.t2 = document.createElement('p');
    this.t2.className = 'subplot-title';
    const plot2 = document.createElement('div');
    plot2.className = 'plot';
    plot2.dataset.plot = 'similarity';
    const leg2 = document.createElement('div');
    this.check = document.createElement('p');
    this.check.className = 'check-line';
    // the table and the similarity as two blocks of `body` (stacked here; side by side in the imported card)
    this.tableBlock = document.createElement('div');
    this.tableBlock.append(t1, plot1, leg1);
    this.simBlock = document.createElement('div');
    this.simBlock.append(this.t2, plot2, leg2, this.check);
    this.body = document.createElement('div');
    this.body.append(this.tableBlock, this.simBlock);
    this.card.append(h, p, this.body);
    parent.append(this.card);
    this.table = new Heatmap(plot1, { xLabel: 'dimension', yLabel: 'position', maxHeight: 260, minHeight: 120, exportName: 'table' });
    this.tableLegend = new Legend(leg1, { caption: 'encoding value', width: 240 });
    this.table.setLegend(this.tableLegend);
    this.sim = new Heatmap(plot2, { xLabel: 'position n', yLabel: 'position m', square: true, maxHeight: 300, exportName: 'similarity' });
    this.simLegend = new Legend(leg2, { caption: 'similarity', width: 240 });
    this.sim.setLegend(this.simLegend);
  }

  render(kind, state, simName) {
    // the parameter values it was drawn with ('base 500'), when the kind has any
    const params = Object.entries(kind.params || {});
    this.t1.textContent = `table: position × dimension${params.map(([k, v]) => `, ${k.replace(/_/g, ' ')} ${formatNumber(v)}`).join('')}`;
    this.card.dataset.params = JSON.stringify(kind.params || {});
    const lut = makeLut(state.cmap);
    const diverging = colormap(state.cmap).diverging;
    const tStats = summarize(kind.table.data);
    const tDomain = colorDomain(tStats, state.cmap);
    this.table.setData(kind.table, { domain: tDomain, lut });
    this.tableLegend.set({ domain: tDomain, lut, note: diverging ? 'symmetric about 0' : 'min to max' });
    const sStats = summarize(kind.similarity.data);
    // a scale that shows the structure (cosines of 0.4 to 1 get the whole colour map), its range stated
    const sc = similarityScale(sStats, state.cmap);
    const sLut = makeLut(sc.name);
    const what = simName === 'cos' ? 'cosine' : 'dot product';
    this.sim.setData(kind.similarity, { domain: sc.domain, lut: sLut });
    this.simLegend.set({ domain: sc.domain, lut: sLut, note: `${what}, ${sc.fitted ? 'fitted to this matrix' : colormap(sc.name).diverging ? 'symmetric about 0' : 'min to max'}` });
    this.t2.textContent = `${simName === 'cos' ? 'cosine similarity' : 'dot product'}: position m vs position n; colour: ${scaleRange(sc, what)}`;
    this.sim.root.dataset.domain = sc.domain.join(' ');
    const sampled = kind.table.sampled || kind.similarity.sampled
      ? ` Drawn downsampled (every cell shown is a real value)${kind.toeplitz === null ? '' : `; the check covers all ${kind.similarity.totalRows} × ${kind.similarity.totalRows} pairs`}.`
      : '';
    if (kind.toeplitz === null) {
      this.check.textContent = `Distance check skipped.${sampled}`;
    } else {
      const flat = kind.toeplitz < 1e-4 * Math.max(1, sStats.absMax);
      this.check.textContent =
        (flat
          ? `Depends only on m − n: yes (largest change along a diagonal ${formatNumber(kind.toeplitz)}).`
          : `Depends only on m − n: no (values change by up to ${formatNumber(kind.toeplitz)} along a diagonal).`) + sampled;
    }
  }
}

