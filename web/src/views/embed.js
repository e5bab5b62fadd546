// Embedding a card in an article (issue 11): every card of the page gets an "Embed" button that
// shows the snippets for it: an iframe of the page in embed mode (`#…&embed=1&card=NAME`) with the
// one-line listener that lets the iframe size itself, and the <embedlab-view> element (docs/widgets.md)
// with the settings its view reads. Checkboxes in the box choose the settings the
// reader may change (`controls`, views/view-keys.js); both snippets follow them as they change.
// In embed mode the page shows only the named card of the view (and, with controls=…, fields for
// those settings above it) and posts its height to the parent page whenever it changes.
// Card names: the card's id, else its data-kind, else its heading (without the parts the page
// fills in, which have an id) as lower-case words joined by '-'. The widget uses the same names.
// Snippet text goes into read-only text areas (never HTML).
//
//   installEmbed({ state: () => state, hash: () => location.hash });   // once, in main.js
import { formatValue, paramSpec } from '../state.js';
import { VIEW_KEYS, readKeys } from './view-keys.js';

// What the host page adds once: each message {embedlab: 'height', height} resizes the iframe it came from.
export const HOST_LISTENER = "<script>addEventListener('message',e=>{if(e.data&&e.data.embedlab==='height')for(const f of document.querySelectorAll('iframe'))if(f.contentWindow===e.source)f.style.height=e.data.height+'px'})</script>";

export function cardName(card) {
  if (card.id) return card.id.slice(0, 40);
  if (card.dataset.kind) return card.dataset.kind.slice(0, 40);
  const h = card.querySelector('h3');
  let text = 'card';
  if (h) {
    const fixed = h.cloneNode(true);
    for (const filled of fixed.querySelectorAll('[id]')) filled.remove(); // "(6 × 3)": filled in by the view
    text = fixed.textContent;
  }
  return text.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'card';
}

// Cards that moved to another view (issue 21: the sqrt(D) card went from the positions view to
// the table view, where the scale is introduced): 'old view/card name' -> the view that has it
// now. A link or a widget that names the old view still shows the card (main.js, element.js).
export const MOVED_CARDS = { 'positions/why-multiply-token-vectors-by-d': 'table' };

// (view, card name) -> the view that shows that card: movedCardView('positions', 'why-multiply-token-vectors-by-d') -> 'table'
export function movedCardView(view, card) {
  return (card && MOVED_CARDS[`${view}/${card}`]) || view;
}

// The page's address for one card in embed mode: the current settings plus embed=1&card=name
// (and controls=a,b when the reader gets fields).
export function embedUrl(href, hash, name, controls = []) {
  const base = href.split('#')[0];
  const keep = String(hash).replace(/^#/, '').split('&').filter((kv) => kv && !/^(embed|card|controls)=/.test(kv));
  const extra = controls.length ? [`controls=${controls.map(encodeURIComponent).join(',')}`] : [];
  return `${base}#${[...keep, 'embed=1', `card=${encodeURIComponent(name)}`, ...extra].join('&')}`;
}

const esc = (t) => String(t).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function iframeSnippet(url, title) {
  return `<iframe src="${esc(url)}" title="${esc(title)}" style="width:100%;border:0;height:480px" loading="lazy"></iframe>\n${HOST_LISTENER}`;
}

// The <embedlab-view> snippet: the view, the values of the keys it reads (docs/widgets.md), the
// card and the controls.
export function elementSnippet(scriptUrl, state, view, card, controls = []) {
  const attrs = [`view="${view}"`];
  for (const k of VIEW_KEYS[view] || []) {
    const p = paramSpec(k);
    if (p) attrs.push(`${k}="${esc(formatValue(p, state[k]))}"`);
  }
  if (state.cmap !== paramSpec('cmap').def && readKeys(view).includes('cmap')) attrs.push(`cmap="${esc(state.cmap)}"`);
  attrs.push(`card="${esc(card)}"`);
  if (controls.length) attrs.push(`controls="${esc(controls.join(','))}"`);
  return `<script type="module" src="${esc(scriptUrl)}"></script>\n<embedlab-view ${attrs.join(' ')}></embedlab-view>`;
}

function addButton(card, ctx) {
  if (card.dataset.embedButton) return;
  card.dataset.embedButton = '1';
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'embed-button';
  b.textContent = 'Embed';
  b.setAttribute('aria-expanded', 'false');
  const box = document.createElement('div');
  box.className = 'embed-snippets';
  box.hidden = true;
  b.addEventListener('click', () => {
    const open = b.getAttribute('aria-expanded') !== 'true';
    b.setAttribute('aria-expanded', String(open));
    box.hidden = !open;
    if (open) fill(box, card, ctx);
  });
  const head = card.querySelector(':scope > .card-head');
  const title = card.querySelector('h3');
  b.setAttribute('aria-label', `Embed ${title ? title.textContent : 'this card'} in another page`);
  if (head) {
    head.append(b);
    head.after(box);
  } else if (title) {
    title.after(b, box);
  } else {
    card.prepend(b, box);
  }
}

function snippetField(label, text) {
  const wrap = document.createElement('label');
  wrap.className = 'embed-snippet';
  const span = document.createElement('span');
  span.textContent = label;
  const area = document.createElement('textarea');
  area.readOnly = true;
  area.rows = 3;
  area.spellcheck = false;
  area.value = text;
  area.addEventListener('focus', () => area.select());
  wrap.append(span, area);
  return wrap;
}

// Cards that need the page around them (they read the reader's own files): iframe only.
export const PAGE_ONLY_CARDS = ['import-card', 'custom-card'];

// The box of one card: `controls` checkboxes (none ticked at first) and the two snippets, which
// follow the checkboxes.
function fill(box, card, ctx) {
  const name = cardName(card);
  const title = card.querySelector('h3')?.textContent.trim().replace(/\s+/g, ' ') || name;
  const view = card.closest('[data-view]')?.dataset.view || ctx.state().view;
  const picks = document.createElement('fieldset');
  picks.className = 'embed-controls-picks';
  const legend = document.createElement('legend');
  legend.textContent = 'Settings the reader may change (controls):';
  picks.append(legend);
  for (const k of readKeys(view)) {
    const label = document.createElement('label');
    const cb = document.createElement('input');
    cb.type = 'checkbox';
    cb.value = k;
    label.append(cb, ` ${k}`);
    picks.append(label);
  }
  const iframe = snippetField('iframe (sizes itself once the host page has the listener on the second line)', '');
  const element = PAGE_ONLY_CARDS.includes(name) ? null
    : snippetField('custom element (the four files served from the article\'s own origin; docs/widgets.md)', '');
  const update = () => {
    const controls = [...picks.querySelectorAll('input:checked')].map((cb) => cb.value);
    iframe.querySelector('textarea').value = iframeSnippet(embedUrl(location.href, ctx.hash(), name, controls), `embedlab: ${title}`);
    if (element) element.querySelector('textarea').value = elementSnippet(new URL('embedlab-element.js', location.href).href, ctx.state(), view, name, controls);
    box.dataset.controls = controls.join(',');
  };
  picks.addEventListener('change', update);
  update();
  box.replaceChildren(picks, iframe, ...(element ? [element] : []));
  box.dataset.card = name;
}

// A card attribute's names: 'a' -> ['a']; 'a, b' -> ['a', 'b'] (a widget may show several cards
// of one view, e.g. the training card with the neighbours card); '' -> [].
export function cardNames(card) {
  return String(card || '').split(',').map((n) => n.trim()).filter(Boolean);
}

// Only the cards named `name` under container (all when none has that name; -> how many matched).
// Everything else (a view's intro, other sections) is hidden too: from each shown card up to the
// container, the siblings that hold no shown card, except beside a view section (the page's
// tabs, link messages and embed fields stay as they are). The widget (element.js) calls it on its
// shadow root's view.
export function showOnlyCardIn(container, name) {
  for (const el of container.querySelectorAll('.embed-hidden')) el.classList.remove('embed-hidden');
  const cards = [...container.querySelectorAll('article.card')];
  const wanted = cardNames(name);
  const match = cards.filter((c) => wanted.includes(cardName(c)));
  if (!match.length) return 0;
  const keep = new Set();
  for (const c of match) for (let el = c; el && el !== container; el = el.parentElement) keep.add(el);
  for (const el of keep) {
    if (el.matches('.view') || !el.parentElement) continue;
    for (const sib of el.parentElement.children) if (!keep.has(sib)) sib.classList.add('embed-hidden');
  }
  for (const c of cards) if (!keep.has(c)) c.classList.add('embed-hidden'); // other views' cards too
  return match.length;
}

// Embed mode: only the card named `card` in the shown view.
export function showOnlyCard(state) {
  return showOnlyCardIn(document.querySelector('main'), state.embed ? state.card : '');
}

// Embed mode with controls=a,b: those fields of the settings panel (which embed mode hides) move
// into a row above the card, still bound to the panel's Controls (controls.adopt); without, they
// go back. keys: the ones the view reads (view-keys.js viewControls).
const homes = new Map(); // a moved field -> the comment that marks its place in the panel
export function showEmbedControls(keys, controls) {
  const main = document.querySelector('main');
  let row = main.querySelector(':scope > form.embed-controls');
  for (const f of row ? [...row.querySelectorAll('.field')] : []) {
    if (!keys.includes(f.dataset.key)) {
      homes.get(f).replaceWith(f);
      homes.delete(f);
    }
  }
  if (!keys.length) {
    if (row) row.remove();
    return;
  }
  if (!row) {
    row = document.createElement('form');
    row.className = 'embed-controls slider-row';
    row.setAttribute('aria-label', 'Settings of this card');
    row.addEventListener('submit', (e) => e.preventDefault());
    main.querySelector('.view').before(row);
    controls.adopt(row);
  }
  for (const k of keys) {
    const f = controls.field(k);
    if (!f) continue;
    if (!homes.has(f)) {
      const mark = document.createComment(`embed controls: ${k}`);
      f.before(mark);
      homes.set(f, mark);
    }
    row.append(f);
  }
}

export function installEmbed(ctx) {
  for (const card of document.querySelectorAll('main article.card')) addButton(card, ctx);
  new MutationObserver((records) => {
    for (const r of records) {
      for (const n of r.addedNodes) {
        if (n.nodeType !== 1) continue;
        if (n.matches('article.card')) addButton(n, ctx);
        for (const c of n.querySelectorAll('article.card')) addButton(c, ctx);
      }
    }
    if (ctx.state().embed) showOnlyCard(ctx.state());
  }).observe(document.querySelector('main'), { childList: true, subtree: true });
  // in an iframe: tell the host page how tall the content is, whenever that changes
  if (window.parent !== window) {
    let last = -1;
    const post = () => {
      if (!ctx.state().embed) return;
      // the content's bottom edge (the body may be stretched to the frame's own height)
      const main = document.querySelector('main');
      const h = Math.ceil(main.getBoundingClientRect().bottom + window.scrollY + parseFloat(getComputedStyle(main).marginBottom || 0));
      if (h === last) return;
      last = h;
      window.parent.postMessage({ embedlab: 'height', height: h }, '*'); // a number only: nothing private
    };
    new ResizeObserver(post).observe(document.querySelector('main'));
    ctx.onState = post;
  }
}
