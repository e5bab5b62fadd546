// The positions view's card "RoPE past its training length": what each rotation kind of the
// engine's registry (RoPE and its scalings) does to the frequencies, drawn from the worker's
// 'ropeScalings' reply (handlers/rope-scalings-handler.js). Three charts: each pair's
// wavelength 2π/θ_i against its index with T and the evaluation lengths 2T, 4T, 8T marked; the
// ratio θ_i(kind) / θ_i(RoPE), which shows which pairs a scaling interpolates, leaves alone, puts
// on a ramp or leaves unrotated; and q·k of a real pair against m − n out to 8T, with T marked.
// Every caption is computed from the reply. It names no kind: the kinds, their labels and
// one-line help come from the registry, their colours from plots/kind-colours.js by registry index.
// It draws only; the numbers are the engine's.
//
//   const card = new RopeScalingsCard(holder);
//   card.render(reply);            // reply: ropeScalings, or {error, fields} when it failed
//   card.fieldErrors();            // [[payload argument, message]] of kinds the engine refused
// Data attributes for tests: data-kinds (drawn kinds), data-failed, data-T, data-D,
// data-interpolated / data-ramp / data-alone / data-unrotated ({kind: pair count}),
// data-ratios ({kind: [ratio per pair]}), data-attention-scales ({kind: scale}), data-params,
// data-renders; each chart's container has data-part="wavelength" | "ratio" | "qk".
import { LineChart } from '../plots/line-chart.js';
import { kindColour } from '../plots/kind-colours.js';
import { formatNumber } from '../plots/scales.js';

const CLASSES = [
  ['alone', 'left alone (ratio 1)'],
  ['ramp', 'between 1 and 1/factor'],
  ['interpolated', 'interpolated (ratio 1/factor)'],
  ['unrotated', 'not rotated (ratio 0)'],
];

// [0, 1, 2, 5, 7, 8] -> '0–2, 5, 7–8'
export function indexRanges(idx) {
  const out = [];
  for (let i = 0; i < idx.length; i++) {
    let j = i;
    while (j + 1 < idx.length && idx[j + 1] === idx[j] + 1) j++;
    out.push(j > i ? `${idx[i]}–${idx[j]}` : String(idx[i]));
    i = j;
  }
  return out.join(', ');
}

// (3, 'pair') -> '3 pairs'; (1, 'pair') -> '1 pair'
const count = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
// pair indices -> 'pair 3' | 'pairs 0–2, 5'
const pairsText = (idx) => `${idx.length === 1 ? 'pair' : 'pairs'} ${indexRanges(idx)}`;

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

export class RopeScalingsCard {
  constructor(holder) {
    this.card = el('article', 'card rope-scalings');
    this.card.id = 'rope-scalings'; // the card's name in links and widgets (embed.js cardName): card=rope-scalings
    const intro = el('p', 'explain',
      'A model trained on windows of T tokens has only seen the angles p·θ_i of positions p < T. Each pair i of query and key dimensions turns at its ' +
      'own frequency θ_i; a pair whose wavelength 2π/θ_i is longer than T never completes a turn inside the trained context, so past T it meets angles it ' +
      'never saw. The scalings below change the frequencies (or the positions fed in) so that longer windows stay closer to the trained angles.');
    this.help = el('ul', 'kind-help rope-scalings-help');
    this.error = el('p', 'rope-scalings-error');
    this.error.setAttribute('role', 'alert');
    this.error.hidden = true;
    const part = (name, title) => {
      const t = el('p', 'subplot-title', title);
      const plot = el('div', 'plot');
      plot.dataset.part = name;
      const caption = el('p', 'caption');
      this.card.append(t, plot, caption);
      return { plot, caption, chart: null, key: '' };
    };
    this.card.append(el('h3', '', 'RoPE past its training length: four scalings'), intro, this.help, this.error);
    this.wave = part('wavelength', 'each pair\'s wavelength 2π/θ_i against its index i (log scale); dotted: T and the evaluation lengths');
    this.ratio = part('ratio', 'which pairs each scaling changes: θ_i(kind) / θ_i(RoPE at the same base)');
    this.qk = part('qk', 'q·k against the distance m − n, rotated by the engine with each kind (times its attention scale)');
    holder.append(this.card);
    this.failed = [];
  }

  // [[payload argument, message]]: the fields of the kinds the engine refused (rope-ntk at D < 4)
  fieldErrors() {
    return this.failed.flatMap((k) => k.fields.map((f) => [f, k.error]));
  }

  // one chart of `part`: rebuilt when its series (labels, colours) change
  chart(part, series, opts, data) {
    const key = JSON.stringify(series.map((s) => [s.label, s.stroke, s.dash, s.width, s.points]));
    if (!part.chart || key !== part.key) {
      if (!part.chart) part.chart = new LineChart(part.plot, { series, height: 260, ...opts });
      else part.chart.setSeries(series);
      part.key = key;
    }
    if (opts.xMarks) part.chart.setMarks(opts.xMarks);
    part.chart.setData(data);
  }

  // a failed request ({error, fields}: page fields): the message in the card and on those
  // fields; the last charts stay
  showError(r) {
    this.failed = [{ error: r.error, fields: r.fields }];
    this.error.hidden = false;
    this.error.textContent = `Not drawn: ${r.error}`;
    this.card.dataset.failed = 'all';
  }

  render(r) {
    if (r.error) {
      this.showError(r);
      return;
    }
    const ok = r.kinds.filter((k) => !k.error);
    this.failed = r.kinds.filter((k) => k.error);
    const { T, D } = r;
    const pairs = D / 2;
    const colour = (k) => kindColour(k.index);
    this.renderHelp(r.kinds);
    this.error.hidden = !this.failed.length;
    this.error.textContent = this.failed.map((k) => `${k.label} is not drawn: ${k.error}`).join(' ');

    const idx = Array.from({ length: pairs }, (_, i) => i);
    // wider lines first, so a kind whose curve lies on another's still shows at its edges
    // (a few pairs: their points drawn, a single pair has no line)
    const kindSeries = ok.map((k, n) => ({ label: k.label, stroke: colour(k), width: Math.max(1.2, 4 - 0.7 * n), dash: n % 2 ? [7, 4] : undefined, points: pairs <= 4 }));
    const refs = r.lengths.map((L, n) => ({ label: n ? `${L / T}T = ${L}` : `T = ${L}`, stroke: '#3b4450', width: 1, dash: [2, 3] }));
    this.chart(this.wave, [...kindSeries, ...refs], { xLabel: 'pair index i', yLabel: 'wavelength 2π/θ_i (positions)', logY: true, exportName: 'rope-wavelengths' },
      [idx, ...ok.map((k) => k.wavelength), ...r.lengths.map((L) => idx.map(() => L))]);
    this.chart(this.ratio, kindSeries, { xLabel: 'pair index i', yLabel: 'θ_i / θ_i of RoPE', exportName: 'rope-frequency-ratio' },
      [idx, ...ok.map((k) => k.ratio)]);
    this.chart(this.qk, kindSeries.map((q) => ({ ...q, points: false })), { xLabel: 'distance m − n', yLabel: 'q·k after rotation', exportName: 'rope-scalings-qk', xMarks: [{ x: T, label: `T = ${T}` }] },
      [Array.from(r.distances), ...ok.map((k) => Array.from(k.qk))]);

    this.wave.caption.textContent = this.waveText(ok, T, pairs);
    this.ratio.caption.textContent = this.ratioText(ok, pairs);
    this.qk.caption.textContent = this.qkText(ok, r);

    const per = (f) => JSON.stringify(Object.fromEntries(ok.map((k) => [k.name, f(k)])));
    Object.assign(this.card.dataset, {
      kinds: ok.map((k) => k.name).join(','), failed: this.failed.map((k) => k.name).join(','), T: String(T), D: String(D),
      interpolated: per((k) => k.pairs.interpolated.length), ramp: per((k) => k.pairs.ramp.length),
      alone: per((k) => k.pairs.alone.length), unrotated: per((k) => k.pairs.unrotated.length),
      ratios: per((k) => k.ratio), attentionScales: per((k) => k.attentionScale), params: per((k) => k.params),
      renders: String(Number(this.card.dataset.renders || 0) + 1),
    });
  }

  // each kind's one-line help from the registry, after a swatch of its colour
  renderHelp(kinds) {
    this.help.replaceChildren(...kinds.map((k) => {
      const li = el('li');
      li.dataset.kind = k.name;
      const swatch = el('span', 'kind-swatch');
      swatch.style.background = kindColour(k.index); // a line's colour, not text: no contrast rule to meet
      swatch.setAttribute('aria-hidden', 'true');
      li.append(swatch, el('strong', 'kind-name', `${k.label}: `), document.createTextNode(k.description));
      return li;
    }));
  }

  waveText(ok, T, pairs) {
    const plain = ok.find((k) => k.pairs.alone.length === pairs) || ok[0];
    if (!plain) return '';
    const parts = ok.map((k) => `${k.label} ${k.longerThanT}`);
    const unrot = ok.filter((k) => k.pairs.unrotated.length);
    return `Of the ${count(pairs, 'pair')} (D = ${pairs * 2}), ${plain.longerThanT} ${plain.longerThanT === 1 ? 'has' : 'have'} a wavelength longer than T = ${T} for ${plain.label}: they never complete a turn inside the trained context. ` +
      `Pairs longer than T per kind: ${parts.join(', ')}. ` +
      (unrot.length ? unrot.map((k) => `${k.label}'s unrotated ${pairsText(k.pairs.unrotated)} ${k.pairs.unrotated.length === 1 ? 'has' : 'have'} no wavelength and ${k.pairs.unrotated.length === 1 ? 'is' : 'are'} left out of its line.`).join(' ') : '');
  }

  ratioText(ok, pairs) {
    return ok.map((k) => {
      const cls = CLASSES.filter(([c]) => k.pairs[c].length).map(([c, text]) =>
        (k.pairs[c].length === pairs && pairs > 1 ? `all ${pairs} pairs ${text}` : `${pairsText(k.pairs[c])} ${text}`));
      const f = k.params.factor !== undefined ? ` (factor ${formatNumber(k.params.factor)})` : '';
      const scale = k.attentionScale !== 1 ? `; attention logits × ${formatNumber(k.attentionScale)}` : '';
      return `${k.label}${f}: ${cls.join(', ')}${scale}.`;
    }).join(' ');
  }

  // how far each kind's q·k leaves the range it takes over the trained distances 0..T−1
  qkText(ok, r) {
    const { T } = r;
    const L = r.distances.length;
    const parts = ok.map((k) => {
      let lo = Infinity;
      let hi = -Infinity;
      for (let d = 0; d < T; d++) {
        lo = Math.min(lo, k.qk[d]);
        hi = Math.max(hi, k.qk[d]);
      }
      let out = 0;
      for (let d = T; d < L; d++) if (k.qk[d] < lo || k.qk[d] > hi) out++;
      return `${k.label} ${Math.round((100 * out) / (L - T))}%`;
    });
    const scaled = ok.filter((k) => k.attentionScale !== 1);
    return `Left of the dashed line the distances were seen in training. Share of the distances T..${L - 1} where q·k leaves the range it took over 0..${T - 1}: ${parts.join(', ')}. ` +
      `At m − n = 0 there is no rotation: q·k = ${formatNumber(r.qkPlain)}` +
      (scaled.length ? `, times the attention scale (${scaled.map((k) => `${k.label} ${formatNumber(k.attentionScale)}`).join(', ')}).` : '.');
  }
}
