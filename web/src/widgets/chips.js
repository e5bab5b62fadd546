// Token chips: each token drawn as a small coloured box with its text and id, and a shared
// hover tooltip with the position, id and raw bytes. Used by the text and windows views.
// Text always goes in through textContent (user text is never parsed as HTML). Whitespace is
// made visible: a newline shows as ↵, a tab as ⇥, a token's leading spaces as a muted · each
// (GPT-2 keeps the space before a word in the word's token: " the"; screen readers hear
// "space + the"), and other spaces keep their width (white-space: pre).
// Characters that change the reading order or draw nothing (bidi controls, zero-width
// characters, the soft hyphen, U+FEFF) are shown as marks: "evil" after U+202E reads
// "⟨RLO⟩evil", never "live" (Unicode TR9; the list follows CVE-2021-42574 "Trojan Source").
//
//   const chips = new ChipStrip(container, {onPick: (position, id) => ...});   // onPick: a chip was clicked
//   chips.render({start, ids, strings, bytes, offsets});   // a tokenSlice reply
// With onPick the strip is a listbox for the keyboard too: Tab focuses it, the arrow keys move
// a current chip (aria-activedescendant; left/right along the text, up/down to the line above or
// below, Home/End), which shows its tooltip, and Enter or Space picks it as a click does.
//
// It draws only what it is given (a window of a few hundred tokens); paging is the view's job.

// Light, distinguishable backgrounds (from ColorBrewer Pastel1/Set3, dark text on all) so
// neighbouring tokens differ; the id sets the colour, so equal ids look equal.
const FIRST = 100; // chips drawn at once
let strips = 0; // ChipStrips made (unique ids for their chips)
const CHUNK = 50; // chips added per frame after them

export const CHIP_COLORS = ['#fbe1b6', '#cfe3f5', '#dcefd0', '#f3d3e6', '#e6dcf5', '#fff2b3', '#d6efe9', '#f5d9cc'];

export function chipColor(id) {
  return CHIP_COLORS[((id * 2654435761) >>> 0) % CHIP_COLORS.length];
}

// Invisible and reordering characters -> the mark drawn in their place.
export const INVISIBLE_MARKS = {
  '\u00AD': 'SHY', '\u034F': 'CGJ', '\u061C': 'ALM', '\u115F': 'HF', '\u1160': 'HJF', '\u180E': 'MVS',
  '\u200B': 'ZWSP', '\u200C': 'ZWNJ', '\u200D': 'ZWJ', '\u200E': 'LRM', '\u200F': 'RLM',
  '\u202A': 'LRE', '\u202B': 'RLE', '\u202C': 'PDF', '\u202D': 'LRO', '\u202E': 'RLO',
  '\u2060': 'WJ', '\u2061': 'FA', '\u2062': 'IT', '\u2063': 'IS', '\u2064': 'IP',
  '\u2066': 'LRI', '\u2067': 'RLI', '\u2068': 'FSI', '\u2069': 'PDI', '\u3164': 'HF', '\uFEFF': 'BOM',
  '\uFFA0': 'HWHF',
};
const INVISIBLE = new RegExp(`[${Object.keys(INVISIBLE_MARKS).join('')}\\u{E0000}-\\u{E007F}\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]`, 'gu');

function markOf(c) {
  if (INVISIBLE_MARKS[c]) return `⟨${INVISIBLE_MARKS[c]}⟩`;
  const cp = c.codePointAt(0);
  return `⟨U+${cp.toString(16).toUpperCase().padStart(4, '0')}⟩`; // tags, C0/C1 controls
}

// Display text of a token: control, bidi and invisible characters made visible (variation
// selectors stay: they only pick an emoji's presentation).
//   visibleText('a\nb')        -> 'a↵b'
//   visibleText('\u202Eevil')   -> '⟨RLO⟩evil'
export function visibleText(s) {
  return s
    .replace(/\n/g, '↵')
    .replace(/\t/g, '⇥')
    .replace(/\r/g, '␍')
    .replace(INVISIBLE, markOf);
}

// A token's leading spaces, drawn as SPACE_MARK in chips (makeChip) rather than as blank width:
//   leadingSpaces(' the') -> {count: 1, rest: 'the'};  leadingSpaces('  ') -> {count: 2, rest: ''}
//   leadingSpaces('the ') -> {count: 0, rest: 'the '}
export const SPACE_MARK = '·';
export function leadingSpaces(s) {
  const m = /^ +/.exec(s);
  const count = m ? m[0].length : 0;
  return { count, rest: s.slice(count) };
}

// What a chip says to a screen reader before its text: '' | 'space + ' | '3 spaces + '
export function spokenLead(count) {
  return count === 0 ? '' : count === 1 ? 'space + ' : `${count} spaces + `;
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
  const { count, rest } = leadingSpaces(text);
  if (count) {
    const said = document.createElement('span');
    said.className = 'sr-only';
    said.textContent = spokenLead(count);
    chip.append(said);
    const mark = document.createElement('span');
    mark.className = 'chip-space';
    mark.setAttribute('aria-hidden', 'true');
    mark.textContent = SPACE_MARK.repeat(count);
    t.append(mark);
  }
  t.append(visibleText(rest) || (count ? '' : '∅'));
  const n = document.createElement('span');
  n.className = 'chip-id';
  n.textContent = String(id);
  chip.append(t, n);
  return chip;
}

export class ChipStrip {
  constructor(container, { onPick = null } = {}) {
    this.box = document.createElement('div');
    this.box.className = 'chips';
    // a scroll region: keyboard users reach it with Tab and scroll it with the arrow keys
    this.box.tabIndex = 0;
    this.box.setAttribute('aria-label', 'tokens of the text as chips: token text above its id');
    this.tip = document.createElement('div');
    this.tip.className = 'tooltip';
    this.tip.hidden = true;
    container.append(this.box, this.tip);
    container.style.position = 'relative';
    this.container = container;
    this.slice = null;
    this.box.addEventListener('mouseover', (e) => this.onHover(e));
    this.box.addEventListener('mouseleave', () => (this.tip.hidden = true));
    this.onPick = onPick;
    this.uid = ++strips;
    this.current = -1; // the chip the keyboard is on (index into the slice), -1: none yet
    if (onPick) {
      this.box.setAttribute('role', 'listbox');
      this.box.setAttribute('aria-label', 'tokens of the text as chips: token text above its id; arrow keys move, Enter picks a token and shows its row');
      this.box.addEventListener('click', (e) => {
        const chip = e.target.closest('.chip');
        if (chip && this.slice) this.pick(Number(chip.dataset.i));
      });
      this.box.addEventListener('keydown', (e) => this.onKey(e));
      this.box.addEventListener('blur', () => (this.tip.hidden = true));
    }
  }

  // chip i of the slice picked (click, Enter or Space)
  pick(i) {
    this.setCurrent(i);
    this.setPicked(this.slice.start + i);
    this.onPick(this.slice.start + i, this.slice.ids[i]);
  }

  onKey(e) {
    if (!this.slice) return;
    const chips = this.box.querySelectorAll('.chip');
    if (!chips.length) return;
    const i = this.current < 0 ? -1 : this.current;
    let to;
    if (e.key === 'ArrowRight') to = i + 1;
    else if (e.key === 'ArrowLeft') to = i < 0 ? 0 : i - 1;
    else if (e.key === 'Home') to = 0;
    else if (e.key === 'End') to = chips.length - 1;
    else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') to = i < 0 ? 0 : lineNeighbour(chips, i, e.key === 'ArrowDown' ? 1 : -1);
    else if ((e.key === 'Enter' || e.key === ' ') && i >= 0) {
      e.preventDefault();
      this.pick(i);
      return;
    } else return;
    e.preventDefault();
    this.setCurrent(Math.max(0, Math.min(chips.length - 1, to)));
  }

  // The keyboard's current chip: marked, announced (aria-activedescendant), scrolled to, its tooltip shown.
  setCurrent(i) {
    const old = this.box.querySelector('.chip.current');
    if (old) old.classList.remove('current');
    this.current = i;
    const chip = i >= 0 ? this.box.querySelector(`.chip[data-i="${i}"]`) : null;
    if (!chip) {
      this.box.removeAttribute('aria-activedescendant');
      return;
    }
    chip.classList.add('current');
    this.box.setAttribute('aria-activedescendant', chip.id);
    chip.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    this.showTip(chip);
  }

  // Marks the chip of token position `at` as picked (null: none); it stays marked when its slice is drawn again.
  setPicked(at) {
    this.pickedAt = at;
    for (const c of this.box.querySelectorAll('.chip.picked')) {
      c.classList.remove('picked');
      if (this.onPick) c.setAttribute('aria-selected', 'false');
    }
    const i = this.slice && at !== null ? at - this.slice.start : -1;
    const chip = i >= 0 ? this.box.querySelector(`.chip[data-i="${i}"]`) : null;
    if (chip) {
      chip.classList.add('picked');
      if (this.onPick) chip.setAttribute('aria-selected', 'true');
    }
  }

  // Draws the slice FIRST chips at once, then CHUNK per frame, so no frame spends more than a few ms on layout
  // and paint (400 chips at once: 35-75 ms of main thread on a busy machine).
  render(slice) {
    if (this.slice && slice.start !== this.slice.start) this.current = -1; // another window of the text
    this.slice = slice;
    if (this.onPick) this.box.removeAttribute('aria-activedescendant');
    const gen = (this.gen = (this.gen || 0) + 1);
    const make = (from, n) => {
      const frag = document.createDocumentFragment();
      for (let i = from; i < Math.min(slice.ids.length, from + n); i++) {
        const chip = makeChip(slice.ids[i], slice.strings[i]);
        chip.dataset.i = String(i);
        if (slice.start + i === this.pickedAt) chip.classList.add('picked');
        if (this.onPick) {
          chip.id = `chip-${this.uid}-${i}`;
          chip.setAttribute('role', 'option');
          chip.setAttribute('aria-selected', String(slice.start + i === this.pickedAt));
        }
        if (i === this.current) chip.classList.add('current');
        frag.append(chip);
      }
      return frag;
    };
    this.box.replaceChildren(make(0, FIRST));
    const more = (from) => {
      if (gen !== this.gen || from >= slice.ids.length) return;
      this.box.append(make(from, CHUNK));
      requestAnimationFrame(() => more(from + CHUNK));
    };
    requestAnimationFrame(() => more(FIRST));
  }

  onHover(e) {
    const chip = e.target.closest('.chip');
    if (chip && this.slice) this.showTip(chip);
  }

  showTip(chip) {
    const i = Number(chip.dataset.i);
    const s = this.slice;
    const bytes = s.bytes.subarray(s.offsets[i], s.offsets[i + 1]);
    this.tip.textContent = `token #${s.start + i} · id ${s.ids[i]} · bytes ${hexBytes(bytes)} · ${JSON.stringify(visibleText(s.strings[i]))}`;
    this.tip.hidden = false;
    const c = this.container.getBoundingClientRect();
    const r = chip.getBoundingClientRect();
    this.tip.style.left = `${Math.max(0, Math.min(r.left - c.left, c.width - this.tip.offsetWidth - 4))}px`;
    this.tip.style.top = `${r.bottom - c.top + 4}px`;
  }
}

// The chip on the line above (dir -1) or below (1) chip i whose centre is nearest horizontally;
// i itself on the first or last line.
function lineNeighbour(chips, i, dir) {
  const r = chips[i].getBoundingClientRect();
  const cx = r.left + r.width / 2;
  let best = i;
  let lineTop = null;
  let bd = Infinity;
  for (let k = i + dir; k >= 0 && k < chips.length; k += dir) {
    const q = chips[k].getBoundingClientRect();
    const beyond = dir > 0 ? q.top >= r.bottom - 1 : q.bottom <= r.top + 1;
    if (!beyond) continue;
    if (lineTop === null) lineTop = q.top;
    else if (Math.abs(q.top - lineTop) > 1) break; // past that line
    const d = Math.abs(q.left + q.width / 2 - cx);
    if (d < bd) [bd, best] = [d, k];
  }
  return best;
}
