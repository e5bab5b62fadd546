// Token chips: each token drawn as a small coloured box with its text and id, and a shared
// hover tooltip with the position, id and raw bytes. Used by the text and windows views.
// Text always goes in through textContent (user text is never parsed as HTML). Whitespace is
// made visible: a newline shows as ↵, a tab as ⇥, and spaces keep their width (white-space: pre).
//
//   const chips = new ChipStrip(container);
//   chips.render({start, ids, strings, bytes, offsets});   // a tokenSlice reply
//
// It draws only what it is given (a window of a few hundred tokens); paging is the view's job.

// Light, distinguishable backgrounds (from ColorBrewer Pastel1/Set3, dark text on all) so
// neighbouring tokens differ; the id sets the colour, so equal ids look equal.
export const CHIP_COLORS = ['#fbe1b6', '#cfe3f5', '#dcefd0', '#f3d3e6', '#e6dcf5', '#fff2b3', '#d6efe9', '#f5d9cc'];

export function chipColor(id) {
  return CHIP_COLORS[((id * 2654435761) >>> 0) % CHIP_COLORS.length];
}

// Display text of a token: control characters made visible.
export function visibleText(s) {
  return s.replace(/\n/g, '↵').replace(/\t/g, '⇥').replace(/\r/g, '␍');
}

export function hexBytes(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
}

export function makeChip(id, text, extraClass = '') {
  const chip = document.createElement('span');
  chip.className = `chip ${extraClass}`.trim();
  chip.style.background = chipColor(id);
  const t = document.createElement('span');
  t.className = 'chip-text';
  t.textContent = visibleText(text) || '∅';
  const n = document.createElement('span');
  n.className = 'chip-id';
  n.textContent = String(id);
  chip.append(t, n);
  return chip;
}

export class ChipStrip {
  constructor(container) {
    this.box = document.createElement('div');
    this.box.className = 'chips';
    this.tip = document.createElement('div');
    this.tip.className = 'tooltip';
    this.tip.hidden = true;
    container.append(this.box, this.tip);
    container.style.position = 'relative';
    this.container = container;
    this.slice = null;
    this.box.addEventListener('mouseover', (e) => this.onHover(e));
    this.box.addEventListener('mouseleave', () => (this.tip.hidden = true));
  }

  render(slice) {
    this.slice = slice;
    const frag = document.createDocumentFragment();
    for (let i = 0; i < slice.ids.length; i++) {
      const chip = makeChip(slice.ids[i], slice.strings[i]);
      chip.dataset.i = String(i);
      frag.append(chip);
    }
    this.box.replaceChildren(frag);
  }

  onHover(e) {
    const chip = e.target.closest('.chip');
    if (!chip || !this.slice) return;
    const i = Number(chip.dataset.i);
    const s = this.slice;
    const bytes = s.bytes.subarray(s.offsets[i], s.offsets[i + 1]);
    this.tip.textContent = `token #${s.start + i} · id ${s.ids[i]} · bytes ${hexBytes(bytes)} · ${JSON.stringify(s.strings[i])}`;
    this.tip.hidden = false;
    const c = this.container.getBoundingClientRect();
    const r = chip.getBoundingClientRect();
    this.tip.style.left = `${Math.max(0, Math.min(r.left - c.left, c.width - this.tip.offsetWidth - 4))}px`;
    this.tip.style.top = `${r.bottom - c.top + 4}px`;
  }
}
