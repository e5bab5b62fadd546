// View 2: sinusoidal, learned and RoPE positional encodings, one card each: the (T x D)
// table as a heatmap and the (T x T) position similarity under it, with the "depends only on
// distance" check. Draws the worker's 'positions' reply (engine/positions-handler.js).
//
//   const view = new PositionsView(document.getElementById('view-positions'));
//   view.render(reply, state);
import { Heatmap } from '../plots/heatmap.js';
import { Legend } from '../plots/legend.js';
import { colorDomain, colormap, formatNumber, makeLut } from '../plots/scales.js';
import { summarize } from '../arrays.js';
import { LengthStrips } from '../plots/length-strips.js';

const SCALE_LABELS = {
  normal: 'N(0, 1) rows (nn.Embedding)',
  normalScaled: 'N(0, 1) rows × √D',
  small: 'std 1/√D rows (Transformer init)',
  smallScaled: 'std 1/√D rows × √D',
};

export const POSITION_KEYS = ['seed', 'T', 'pd', 'sim'];

const INFO = {
  sinusoidal: {
    title: 'Sinusoidal (Vaswani et al. 2017)',
    text: 'Fixed, not trained: PE[p, 2i] = sin(p·w_i), PE[p, 2i+1] = cos(p·w_i) with w_i = 10000^(-2i/D). Left columns oscillate fast, right columns slowly.',
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

class EncodingCard {
  constructor(parent, name) {
    const info = INFO[name];
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
    const plot1 = document.createElement('div');
    plot1.className = 'plot';
    const leg1 = document.createElement('div');
    this.t2 = document.createElement('p');
    this.t2.className = 'subplot-title';
    const plot2 = document.createElement('div');
    plot2.className = 'plot';
    const leg2 = document.createElement('div');
    this.check = document.createElement('p');
    this.check.className = 'check-line';
    this.card.append(h, p, t1, plot1, leg1, this.t2, plot2, leg2, this.check);
    parent.append(this.card);
    this.table = new Heatmap(plot1, { xLabel: 'dimension', yLabel: 'position', maxHeight: 260, minHeight: 120 });
    this.tableLegend = new Legend(leg1, { caption: 'encoding value', width: 240 });
    this.sim = new Heatmap(plot2, { xLabel: 'position n', yLabel: 'position m', square: true, maxHeight: 300 });
    this.simLegend = new Legend(leg2, { caption: 'similarity', width: 240 });
  }

  render(kind, state, simName) {
    const lut = makeLut(state.cmap);
    const diverging = colormap(state.cmap).diverging;
    const tStats = summarize(kind.table.data);
    const tDomain = colorDomain(tStats, state.cmap);
    this.table.setData(kind.table, { domain: tDomain, lut });
    this.tableLegend.set({ domain: tDomain, lut, note: diverging ? 'symmetric about 0' : 'min to max' });
    const sStats = summarize(kind.similarity.data);
    // cosine lives in [-1, 1]: keep that fixed scale so the three cards compare directly
    const sDomain = simName === 'cos' && diverging ? [-1, 1] : colorDomain(sStats, state.cmap);
    this.sim.setData(kind.similarity, { domain: sDomain, lut });
    this.simLegend.set({ domain: sDomain, lut, note: simName === 'cos' ? 'cosine' : 'dot product' });
    this.t2.textContent = `${simName === 'cos' ? 'cosine similarity' : 'dot product'}: position m vs position n`;
    const sampled = kind.table.sampled || kind.similarity.sampled ? ' Drawn downsampled (every cell shown is a real value).' : '';
    if (kind.toeplitz === null) {
      this.check.textContent = `Distance check skipped for T > 2048.${sampled}`;
    } else {
      const flat = kind.toeplitz < 1e-4 * Math.max(1, sStats.absMax);
      this.check.textContent =
        (flat
          ? `Depends only on m − n: yes (largest change along a diagonal ${formatNumber(kind.toeplitz)}).`
          : `Depends only on m − n: no (values change by up to ${formatNumber(kind.toeplitz)} along a diagonal).`) + sampled;
    }
  }
}

export class PositionsView {
  static payload(state) {
    return { seed: state.seed, T: state.T, D: state.pd, sim: state.sim, maxSide: 384 };
  }

  // payload argument -> page field, where the names differ (a failure blamed on D is shown on pd)
  static FIELDS = { D: 'pd' };

  // engine -> state -> Promise<reply | null>: the encodings, then the sqrt(D) demonstration.
  static fetch(engine) {
    return async (state) => {
      const p = PositionsView.payload(state);
      const f = PositionsView.FIELDS;
      const [r, scale] = await Promise.all([engine.latest('positions', 'positions', p, f), engine.request('scaleDemo', p, f)]);
      return r && { ...r, scale };
    };
  }

  constructor(root) {
    this.root = root;
    this.stale = root.querySelector('#positions-stale');
    const holder = root.querySelector('#positions-cards');
    this.cards = Object.fromEntries(['sinusoidal', 'learned', 'rope'].map((n) => [n, new EncodingCard(holder, n)]));
    this.strips = new LengthStrips(root.querySelector('#scale-plot'));
    this.scaleNote = root.querySelector('#scale-note');
    this.last = null;
  }

  setStale(text) {
    this.stale.textContent = text || '';
    this.stale.hidden = !text;
  }

  render(r, state) {
    this.last = r;
    this.root.dataset.renders = String(Number(this.root.dataset.renders || 0) + 1);
    for (const kind of r.kinds) this.cards[kind.name].render(kind, state, r.sim);
    if (r.scale) this.renderScale(r.scale);
  }

  renderScale(sc) {
    const med = (a) => Float32Array.from(a).sort()[a.length >> 1];
    this.strips.setData({
      groups: sc.groups.map((g) => ({ label: SCALE_LABELS[g.key], lengths: g.lengths })),
      reference: { value: sc.peLength, label: 'sinusoidal rows √(D/2)' },
    });
    const m = Object.fromEntries(sc.groups.map((g) => [g.key, med(g.lengths)]));
    this.scaleNote.textContent =
      `D = ${sc.D}: a sinusoidal row has length ${formatNumber(sc.peLength)}. Rows initialised with std 1/√D have length ≈ ${formatNumber(m.small)}, ` +
      `so without scaling the position signal would swamp them; × √D brings them to ≈ ${formatNumber(m.smallScaled)}, the same order as the positions. ` +
      `With torch's default N(0, 1) rows (the seed notebooks) the factor goes the other way: ≈ ${formatNumber(m.normal)} becomes ≈ ${formatNumber(m.normalScaled)}. ` +
      'All lengths come from the engine (Embedding.forward with scale on).';
  }

  recolor(state) {
    if (this.last) this.render(this.last, state);
  }
}
