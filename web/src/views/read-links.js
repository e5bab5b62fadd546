// "Read: <section> →" links from each view of the page to its section of the article learn.html
// (issue 21): the first card of every view gets one short link under its heading. The article
// follows the notebooks' order, as the tabs do; several views share a section (text, BPE and
// windows are all "From text to ids to windows").
// Only the page installs them (main.js). The <embedlab-view> widget never does: its files are
// copied to the article's own site, where no learn.html sits beside them, and an article that
// embeds a widget is the reading already. The page in embed mode (embed=1, an iframe in someone
// else's article) hides them the same way (style.css `body.embed .read-link`).
//
//   installReadLinks(document.querySelector('main'));   // once, after the views made their cards

// view -> [section id of learn.html, its title]
export const READ_LINKS = {
  table: ['table', 'A table of vectors'],
  text: ['text', 'From text to ids to windows'],
  bpe: ['text', 'From text to ids to windows'],
  windows: ['text', 'From text to ids to windows'],
  positions: ['why-positions', 'Why positions'], // its first card is "Why positions?"
  train: ['training', 'Tables learn'],
};

// view -> the link's relative address and text
export function readLink(view) {
  const entry = READ_LINKS[view];
  if (!entry) return null;
  return { href: `learn.html#${entry[0]}`, text: `Read: ${entry[1]} →` };
}

// One link per view section under root, in its first card, after the card's heading.
// -> the number of links added.
export function installReadLinks(root) {
  let added = 0;
  for (const section of root.querySelectorAll('section.view[data-view]')) {
    const link = readLink(section.dataset.view);
    const card = section.querySelector('article.card');
    if (!link || !card || card.querySelector('.read-link')) continue;
    const p = document.createElement('p');
    p.className = 'read-link';
    const a = document.createElement('a');
    a.href = link.href;
    a.textContent = link.text;
    p.append(a);
    const head = card.querySelector(':scope > .card-head') || card.querySelector(':scope > h3');
    if (head) head.after(p);
    else card.prepend(p);
    added++;
  }
  return added;
}
