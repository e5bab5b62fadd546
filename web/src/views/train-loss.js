// The training view's loss chart (issue 21). A next-token run draws its training loss, its
// held-out loss (the last tenth of the text, never trained on, evaluated by the worker at step 0
// and after every 50th step: handlers/train-handler.js) and chance, ln V for the V rows of the
// output layer, with the V in the label; under the chart a note says what is held out and what
// chance means, and the verdict of memorisation.js in words ("Learning: …", or "The model is
// memorising this text: …" in a warning box). word2vec has no held-out next-token loss: only its
// training loss is drawn, and the note says why (no line is faked). It does no engine call.
//
// For tests, #train-loss carries data-series ("training loss|held-out loss|chance ln 69 = 4.23"),
// data-held-out (the last evaluation), data-chance, data-vocab, data-held-points, data-verdict
// (memorisation.js state) and data-memorising ("true" | "false").
//
//   const loss = new TrainLoss(root);            // root holds #train-loss, #train-loss-title, -note, #train-verdict
//   loss.start(reply.heldOut, savedHeld, state, reply.remapped);   // a new run (or a restored one)
//   loss.add(stepReply.held);  loss.draw(steps, losses, true);     // after each slice
import { LossChart } from '../plots/loss-chart.js';
import { memorisationVerdict, verdictText } from '../memorisation.js';

const CHANCE_COLOR = '#3b4450'; // the compare card's chance line
const EMPTY = 'No steps yet: press ▶ Play or Step, and the loss of every step is drawn here as the table trains.';

export class TrainLoss {
  constructor(root) {
    const $ = (id) => root.querySelector(`#${id}`);
    this.el = { title: $('train-loss-title'), note: $('train-loss-note'), verdict: $('train-verdict') };
    this.chart = new LossChart($('train-loss'), { series: ['training loss'], empty: EMPTY });
    this.held = []; // [[step, held-out loss]...]
    this.heldOut = null; // the run's held-out part (trainStart reply heldOut), null for word2vec
    this.model = 'next';
  }

  setLog(on) {
    this.chart.setLog(on);
  }

  // A run at its start: heldOut (trainStart reply; null for word2vec), saved (the restored run's
  // held-out points, or null), state (model, tEnc), remapped (GPT-2 rows, or null).
  start(heldOut, saved, state, remapped) {
    this.model = state.model;
    this.heldOut = state.model === 'next' ? heldOut || null : null;
    this.held = saved ? saved.map(([x, y]) => [x, y]) : (this.heldOut && this.heldOut.points) || [];
    const h = this.heldOut;
    const lines = [{ label: 'training loss' }];
    if (h) {
      if (h.points) lines.push({ label: 'held-out loss', color: 3, dash: [6, 3], points: true, width: 2 });
      lines.push({ label: `chance ln ${h.vocab.toLocaleString('en')} = ${h.chance.toFixed(2)}`, color: CHANCE_COLOR, dash: [2, 4], width: 1.4, value: () => h.chance.toFixed(4) });
    }
    this.chart.setSeries(lines);
    this.el.title.textContent = h ? 'training loss per step, held-out loss and chance' : 'training loss per step (word2vec)';
    this.el.note.textContent = this.noteText(h, remapped && state.tEnc === 'gpt2');
  }

  noteText(h, gpt2) {
    const fmt = (n) => n.toLocaleString('en');
    if (!h) {
      return 'word2vec’s loss is gensim’s negative-sampling loss on the training words (each true pair against sampled ones). ' +
        'It has no held-out next-token loss and no ln V chance level, so neither is drawn: whether the vectors mean something shows in the nearest neighbours below.';
    }
    const chance = `Chance: ln V = ln ${fmt(h.vocab)} = ${h.chance.toFixed(2)}, the loss of a uniform guess over the ${fmt(h.vocab)} rows of the output layer` +
      (gpt2 ? ' (the GPT-2 ids that occur in the text, not all 50,257).' : '.');
    if (!h.points) return `No held-out line: ${h.reason}; training uses the first ${fmt(h.trainTokens)} tokens. ${chance}`;
    const part = h.evaluated < h.tokens ? ` on its first ${fmt(h.evaluated)} tokens, to keep each evaluation short` : '';
    return `Held out: the last tenth of the text (${fmt(h.tokens)} tokens, never trained on; the CLI's --valid-fraction 0.1), ` +
      `evaluated at step 0 and after every ${h.every}th step${part}. Training uses the first ${fmt(h.trainTokens)} tokens. ${chance}`;
  }

  // held: [[step, loss]...] of a trainStep reply
  add(held) {
    for (const p of held) this.held.push(p);
  }

  // The held-out loss in the readout (next-token runs with a held-out part): [[name, value]] or [].
  heldItem() {
    if (!this.heldOut || !this.heldOut.points) return [];
    const last = this.held[this.held.length - 1];
    return [['held-out loss', last ? `${last[1].toFixed(4)} (step ${last[0]})` : '–']];
  }

  // Draws the lines of steps and losses (the training curve, equal lengths); verdict: also judge
  // the run again (after new held-out points). Sets the data attributes of the header.
  // plot false (the chart is off screen): the verdict and the attributes only, no lines.
  draw(steps, losses, verdict, plot = true) {
    const h = this.heldOut;
    const el = this.chart.parent;
    if (!h) {
      if (plot) this.chart.setData([steps, losses]);
      for (const k of ['heldOut', 'chance', 'vocab', 'heldPoints', 'verdict', 'memorising']) delete el.dataset[k];
      this.el.verdict.hidden = true;
      return;
    }
    if (plot) this.plot(steps, losses);
    el.dataset.chance = String(h.chance);
    el.dataset.vocab = String(h.vocab);
    el.dataset.heldPoints = String(this.held.length);
    const last = this.held[this.held.length - 1];
    if (last) el.dataset.heldOut = String(last[1]);
    else delete el.dataset.heldOut;
    if (!verdict) return;
    const v = memorisationVerdict(steps.map((x, i) => [x, losses[i]]), this.held, h.chance);
    el.dataset.verdict = v.state;
    el.dataset.memorising = String(v.state === 'memorising');
    const text = h.points ? verdictText(v, h.vocab) : '';
    this.el.verdict.textContent = text;
    this.el.verdict.hidden = !text;
    this.el.verdict.classList.toggle('memorising', v.state === 'memorising');
  }

  // The chart's lines (a next-token run): training loss, held-out loss at its steps, chance.
  plot(steps, losses) {
    const h = this.heldOut;
    const xs = [];
    const cols = h.points ? [[], []] : [[]];
    const heldAt = new Map(this.held);
    if (steps.length) {
      if (h.points && heldAt.has(0) && steps[0] > 0) { // the held-out loss before training
        xs.push(0);
        cols[0].push(null);
        cols[1].push(heldAt.get(0));
      }
      for (let i = 0; i < steps.length; i++) {
        xs.push(steps[i]);
        cols[0].push(losses[i]);
        if (h.points) cols[1].push(heldAt.has(steps[i]) ? heldAt.get(steps[i]) : null);
      }
    }
    this.chart.setData([xs, ...cols, xs.map(() => h.chance)]);
  }
}
