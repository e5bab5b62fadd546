// The "Why positions?" card, first card of the positions view (index.html .why-card): draws
// the worker's 'whyPositions' reply (handlers/why-positions-handler.js). Three parts: a strip of
// the 5,145 token positions of The Verdict with a tick at each occurrence of token 40 ("I")
// and whether its rows are identical; " dog bites man" / " man bites dog" as GPT-2 ids (the
// same ids sorted, the same sum of rows, different once position rows are added); the shapes
// of token rows + position rows for the first batch and their first values, printed with
// torch's 4 decimals. It computes nothing; every number is the engine's.
// The card exposes what it shows as data attributes (data-count, data-positions, data-same,
// data-shape, data-same-set) for tests and for articles that read a widget.
//
//   const card = new WhyPositionsCard(root.querySelector('.why-card'));
//   card.render(reply);
const SVG = 'http://www.w3.org/2000/svg';
const STRIP_W = 600;
const STRIP_H = 44;

// torch's print of a float32: 4 decimals, a space before positives in a row
export const torch4 = (v) => v.toFixed(4);
const rowText = (a, from, n = 3) => Array.from(a.subarray(from * n, from * n + n), torch4).join(', ');
const quoted = (s) => `"${s.replace(/ /g, '␣')}"`;

function cell(tag, text, cls) {
  const c = document.createElement(tag);
  c.textContent = text;
  if (cls) c.className = cls;
  return c;
}

export class WhyPositionsCard {
  constructor(card) {
    this.card = card;
    this.strip = card.querySelector('#why-strip');
    this.tokenNote = card.querySelector('#why-token');
    this.phrases = card.querySelector('#why-phrases tbody');
    this.orderNote = card.querySelector('#why-order');
    this.shapes = card.querySelector('#why-shapes');
    this.sums = card.querySelector('#why-sum tbody');
    this.note = card.querySelector('#why-note');
  }

  render(r) {
    const d = this.card.dataset;
    const t = r.token;
    d.count = String(t.count);
    d.positions = Array.from(t.positions).join(',');
    d.same = String(t.same);
    d.sameSet = String(r.sameSet);
    d.shape = r.shape.join(',');
    this.drawStrip(r);
    const shown = Array.from(t.positions.subarray(0, 5)).join(', ');
    this.tokenNote.textContent =
      `Token ${t.id} (${quoted(t.string)}) occurs ${t.count} times in the ${r.flatTokens.toLocaleString('en-US')} ids of the batches (${r.tokens.toLocaleString('en-US')} GPT-2 tokens of The Verdict cut into windows of 4), at positions ${shown}, …. ` +
      (t.same ? `The lookup gives it the very same row at all ${t.count} positions (bit for bit): the table cannot tell where a token stands.`
        : 'Its rows differ between positions: this should not happen with a plain lookup.');
    this.phrases.replaceChildren(...r.phrases.map((p) => {
      const tr = document.createElement('tr');
      const toks = Array.from(p.ids, (id, i) => `${quoted(p.strings[i])} ${id}`).join(', ');
      tr.append(cell('td', quoted(p.text), 'why-text'), cell('td', toks), cell('td', `[${Array.from(p.sorted).join(', ')}]`));
      return tr;
    }));
    this.orderNote.textContent =
      `${r.sameSet ? 'The same ids in another order' : 'Different ids'}: the lookup returns ${r.sameRows ? 'the same set of rows, bit for bit' : 'different rows'}, only shuffled. ` +
      'Attention without positions sees only such a set, so both sentences look alike to it. ' +
      `With the position rows added (pos[0], pos[1], pos[2]), the two sets of rows ${r.differWithPositions ? 'differ' : 'are still the same'}. (A leading space makes both words the same GPT-2 tokens, ␣dog and ␣man.)`;
    const [B, T, D] = r.shape;
    this.shapes.textContent =
      `inputs (${B}, ${T}) ids → tok(inputs) (${B}, ${T}, ${D}) + pos(arange(${T})) (${T}, ${D}) → input embeddings (${B}, ${T}, ${D})`;
    const w = r.windows;
    this.sums.replaceChildren(...Array.from({ length: T }, (_, p) => {
      const tr = document.createElement('tr');
      tr.append(cell('td', String(p)), cell('td', `${w.first[p]} ${quoted(w.firstStrings[p])}`),
        cell('td', rowText(r.tokFirst, p)), cell('td', rowText(r.posRows, p)), cell('td', rowText(r.sumFirst, p)));
      return tr;
    }));
    this.note.textContent =
      `max_length ${w.maxLength}, stride ${w.stride}, batch ${w.batchSize}: ${w.numSamples.toLocaleString('en-US')} windows, ${w.numBatches} full batches, ` +
      `${w.inputTokens.toLocaleString('en-US')} input ids; each batch gives input embeddings of shape (${B}, ${T}, ${D}). ` +
      `The rows are the first window's (first 3 of ${D} values). As in torch, tok.weight[0, :3] = ${rowText(r.tokRow0, 0)}.`;
  }

  // positions 0..tokens-1 along the strip; a tick at each occurrence of the token
  drawStrip(r) {
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', `0 0 ${STRIP_W} ${STRIP_H}`);
    svg.setAttribute('class', 'why-strip-svg');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', `positions of token ${r.token.id} among ${r.flatTokens} ids: ${Array.from(r.token.positions).join(', ')}`);
    const line = document.createElementNS(SVG, 'rect');
    line.setAttribute('x', '0');
    line.setAttribute('y', String(STRIP_H / 2 - 1));
    line.setAttribute('width', String(STRIP_W));
    line.setAttribute('height', '2');
    line.setAttribute('class', 'why-axis');
    svg.append(line);
    for (const p of r.token.positions) {
      const tick = document.createElementNS(SVG, 'rect');
      tick.setAttribute('x', String((p / r.flatTokens) * (STRIP_W - 2)));
      tick.setAttribute('y', '6');
      tick.setAttribute('width', '2');
      tick.setAttribute('height', String(STRIP_H - 18));
      tick.setAttribute('class', 'why-tick');
      svg.append(tick);
    }
    for (const [x, label, anchor] of [[0, '0', 'start'], [STRIP_W, String(r.flatTokens), 'end']]) {
      const tx = document.createElementNS(SVG, 'text');
      tx.setAttribute('x', String(x));
      tx.setAttribute('y', String(STRIP_H - 1));
      tx.setAttribute('text-anchor', anchor);
      tx.setAttribute('class', 'why-label');
      tx.textContent = label;
      svg.append(tx);
    }
    this.strip.replaceChildren(svg);
  }
}
