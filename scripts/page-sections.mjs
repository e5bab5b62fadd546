// The page's markup, assembled and cut at build time (scripts/build-web.mjs).
//
// Assembled: web/index.html holds the page around one marker line, <!-- embedlab:view-sections …
// -->, and each view's <section class="view" id="view-NAME"> is its own file, web/sections/NAME.html;
// assemblePage puts the sections in at the marker, in the order of the view registry
// (web/src/views/registry.js), one blank line apart. readPage(root) does it from the files.
//
// Cut: the markup that the <embedlab-view> widget reuses (web/src/element.js), cut out of the
// assembled page so the page and the widgets have one source of truth: each view's
// <section class="view" id="view-NAME"> and each settings field <div class="field" data-key="KEY">.
// scripts/build-web.mjs bundles the result into embedlab-element.js as the module
// 'embedlab:page-sections' ({views: {name: html}, fields: {key: html}}); the element parses it with a
// <template> (static markup of our own page, never user text). Pure string work: tested in Node
// (tests/js/page-sections.test.mjs). It does not check that the markup is valid HTML.
//
//   const html = await readPage(repoRoot);   // or assemblePage(indexHtml, [{name, section, html}, …])
//   pageSections(html)
//     -> {views: {table: '<section class="view" id="view-table" …>…</section>', …},
//         fields: {seed: '<div class="field" data-key="seed">…</div>', …}}

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const MARKER = /^[ \t]*<!-- embedlab:view-sections\b[^\n]*-->\n/m;

// index.html's text, [{name, section (its id), html (the file's text)}] in the registry's order ->
// the page. Each file must be exactly that view's section; the marker must be there once.
export function assemblePage(index, parts) {
  const found = index.match(new RegExp(MARKER.source, 'gm')) || [];
  if (found.length !== 1) throw new Error(`page-sections: web/index.html must hold the marker line <!-- embedlab:view-sections … --> once (found ${found.length})`);
  for (const p of parts) {
    const html = p.html.trim();
    if (!html.startsWith(`<section class="view" id="${p.section}"`)) throw new Error(`page-sections: web/sections/${p.name}.html must start with <section class="view" id="${p.section}"`);
    if (matchingEnd(html, 'section', 0) !== html.length) throw new Error(`page-sections: web/sections/${p.name}.html must hold its <section> and nothing after it`);
  }
  const body = parts.map((p) => p.html.replace(/\n*$/, '\n')).join('\n');
  return index.replace(MARKER, () => body);
}

// The repo's page, assembled from web/index.html and web/sections/*.html in the view registry's
// order. A section file that no view names, or a view without its file, is an error.
export async function readPage(root) {
  const { VIEWS } = await import(pathToFileURL(path.join(root, 'web', 'src', 'views', 'registry.js')).href);
  const dir = path.join(root, 'web', 'sections');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.html')).sort();
  const orphans = files.filter((f) => !VIEWS.some((v) => `${v.name}.html` === f));
  if (orphans.length) throw new Error(`page-sections: web/sections/${orphans.join(', ')} belong${orphans.length === 1 ? 's' : ''} to no view of web/src/views/registry.js`);
  const parts = VIEWS.map((v) => {
    const file = path.join(dir, `${v.name}.html`);
    if (!fs.existsSync(file)) throw new Error(`page-sections: the view '${v.name}' (web/src/views/registry.js) has no web/sections/${v.name}.html`);
    return { name: v.name, section: v.section, html: fs.readFileSync(file, 'utf8') };
  });
  return assemblePage(fs.readFileSync(path.join(root, 'web', 'index.html'), 'utf8'), parts);
}

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
