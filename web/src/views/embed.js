// Embedding a card in an article (issue 11): every card of the page gets an "Embed" button that
// shows the snippets for it, an iframe of the page in embed mode (`#…&embed=1&card=NAME`) with the
// one-line listener that lets the iframe size itself, and, for the positions view's encoding
// cards, the <embedlab-view> element (README "Widgets"). In embed mode the page shows only the
// named card of the view and posts its height to the parent page whenever it changes.
// Card names: the card's id, else its data-kind, else its heading as lower-case words joined by '-'.
// Snippet text goes into read-only text areas (never HTML).
//
//   installEmbed({ state: () => state, hash: () => location.hash });   // once, in main.js
const ELEMENT_CARDS = new Set(['sinusoidal', 'learned', 'rope']);
// What the host page adds once: each message {embedlab: 'height', height} resizes the iframe it came from.
export const HOST_LISTENER = "<script>addEventListener('message',e=>{if(e.data&&e.data.embedlab==='height')for(const f of document.querySelectorAll('iframe'))if(f.contentWindow===e.source)f.style.height=e.data.height+'px'})</script>";

export function cardName(card) {
  if (card.id) return card.id.slice(0, 40);
  if (card.dataset.kind) return card.dataset.kind.slice(0, 40);
  const h = card.querySelector('h3');
  return (h ? h.textContent : 'card').toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'card';
}

// The page's address for one card in embed mode: the current settings plus embed=1&card=name.
export function embedUrl(href, hash, name) {
  const base = href.split('#')[0];
  const keep = String(hash).replace(/^#/, '').split('&').filter((kv) => kv && !/^(embed|card)=/.test(kv));
  return `${base}#${[...keep, 'embed=1', `card=${encodeURIComponent(name)}`].join('&')}`;
}

export function iframeSnippet(url, title) {
  const esc = (t) => String(t).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<iframe src="${esc(url)}" title="${esc(title)}" style="width:100%;border:0;height:480px" loading="lazy"></iframe>\n${HOST_LISTENER}`;
}

// The <embedlab-view> snippet: the state's keys the element reads (README "Widgets").
export function elementSnippet(scriptUrl, state, kind) {
  return `<script type="module" src="${scriptUrl}"></script>\n` +
    `<embedlab-view view="positions" seed="${state.seed}" pd="${state.pd}" T="${state.T}" sim="${state.sim}" card="${kind}"></embedlab-view>`;
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

function fill(box, card, ctx) {
  const name = cardName(card);
  const title = card.querySelector('h3')?.textContent || name;
  const url = embedUrl(location.href, ctx.hash(), name);
  const parts = [snippetField('iframe (sizes itself once the host page has the listener on the second line)', iframeSnippet(url, `embedlab: ${title}`))];
  if (ELEMENT_CARDS.has(card.dataset.kind) && card.closest('#view-positions')) {
    parts.push(snippetField('custom element (the four files served from the article\'s own origin; README "Widgets")',
      elementSnippet(new URL('embedlab-element.js', location.href).href, ctx.state(), card.dataset.kind)));
  }
  box.replaceChildren(...parts);
  box.dataset.card = name;
}

// Embed mode: only the card named `card` in the shown view (all when none has that name).
// Everything else in the view (its intro, other sections) is hidden too: from each shown card up
// to its view, the siblings that hold no shown card.
export function showOnlyCard(state) {
  for (const el of document.querySelectorAll('main .embed-hidden')) el.classList.remove('embed-hidden');
  const cards = [...document.querySelectorAll('main article.card')];
  const match = state.embed && state.card ? cards.filter((c) => cardName(c) === state.card) : [];
  if (!match.length) return 0;
  const keep = new Set();
  for (const c of match) for (let el = c; el && !el.matches('main'); el = el.parentElement) keep.add(el);
  for (const el of keep) {
    if (el.matches('.view, main')) continue;
    for (const sib of el.parentElement.children) if (!keep.has(sib)) sib.classList.add('embed-hidden');
  }
  for (const c of cards) if (!keep.has(c)) c.classList.add('embed-hidden'); // other views' cards too
  return match.length;
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
