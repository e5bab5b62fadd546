// The page's markup that the <embedlab-view> widget reuses (web/src/element.js), cut out of
// web/index.html at build time so the page and the widgets have one source of truth: each view's
// <section class="view" id="view-NAME"> and each settings field <div class="field" data-key="KEY">.
// scripts/build-web.mjs bundles the result into embedlab-element.js as the module
// 'embedlab:page-sections' ({views: {name: html}, fields: {key: html}}); the element parses it with a
// <template> (static markup of our own page, never user text). Pure string work: tested in Node
// (tests/js/page-sections.test.mjs). It does not check that the markup is valid HTML.
//
//   pageSections(fs.readFileSync('web/index.html', 'utf8'))
//     -> {views: {table: '<section class="view" id="view-table" …>…</section>', …},
//         fields: {seed: '<div class="field" data-key="seed">…</div>', …}}

// html, index of an opening <tag …> -> index just past its matching </tag> (same-name nesting counted)
function matchingEnd(html, tag, start) {
  const re = new RegExp(`<(/?)${tag}\\b[^>]*>`, 'gi');
  re.lastIndex = start;
  let depth = 0;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    depth += m[1] ? -1 : 1;
    if (depth === 0) return re.lastIndex;
  }
  throw new Error(`page-sections: <${tag}> at offset ${start} is never closed`);
}

// every element <tag …> whose opening tag matches `open` (a regex with one group: the name) -> {name: outer html}
function cut(html, tag, open) {
  const out = {};
  const re = new RegExp(open.source, 'gi');
  for (let m = re.exec(html); m; m = re.exec(html)) {
    if (out[m[1]] !== undefined) throw new Error(`page-sections: two <${tag}> elements named '${m[1]}'`);
    out[m[1]] = html.slice(m.index, matchingEnd(html, tag, m.index));
  }
  return out;
}

export function pageSections(html) {
  const views = cut(html, 'section', /<section class="view" id="view-([a-z0-9-]+)"[^>]*>/);
  const fields = cut(html, 'div', /<div class="field[^"]*" data-key="([A-Za-z0-9.]+)"[^>]*>/);
  if (!Object.keys(views).length) throw new Error('page-sections: no <section class="view" id="view-…"> in the page');
  return { views, fields };
}
