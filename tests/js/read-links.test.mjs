// The page follows the notebooks' order (issue 21): the tabs of the page and the `view` values
// of the link are in that order, and every view links its section of learn.html (views/read-links.js).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { readPage } from '../../scripts/page-sections.mjs';
import { READ_LINKS, readLink } from '../../web/src/views/read-links.js';
import { paramSpec } from '../../web/src/state.js';

const NOTEBOOK_ORDER = ['table', 'text', 'bpe', 'windows', 'positions', 'train'];
// the page as built: web/index.html with its view sections (web/sections/*.html) put in
const html = await readPage(fileURLToPath(new URL('../..', import.meta.url)));

describe('the notebooks\' order', () => {
  it('the tabs, the view sections and the link\'s view values run table, text, BPE, windows, positions, train', () => {
    const tabs = [...html.matchAll(/role="tab" id="tab-(\w+)"/g)].map((m) => m[1]);
    const sections = [...html.matchAll(/<section class="view" id="view-(\w+)"/g)].map((m) => m[1]);
    assert.deepEqual(tabs, NOTEBOOK_ORDER);
    assert.deepEqual(sections, NOTEBOOK_ORDER);
    assert.deepEqual(paramSpec('view').values, NOTEBOOK_ORDER);
    assert.equal(paramSpec('view').def, 'table');
  });

  it('the √D card sits in the table view, after the lookup card', () => {
    const table = html.slice(html.indexOf('<section class="view" id="view-table"'), html.indexOf('<section class="view" id="view-text"'));
    const lookup = table.indexOf('<h3>Lookup = one-hot × W');
    const scale = table.indexOf('<h3>Why multiply token vectors by √D?</h3>');
    assert.ok(lookup > 0 && scale > lookup, `lookup at ${lookup}, √D card at ${scale}`);
    assert.equal((html.match(/id="scale-plot"/g) || []).length, 1);
  });
});

describe('read links to learn.html', () => {
  it('every view links its section by a relative address', () => {
    assert.deepEqual(Object.keys(READ_LINKS).sort(), [...NOTEBOOK_ORDER].sort());
    assert.deepEqual(readLink('table'), { href: 'learn.html#table', text: 'Read: A table of vectors →' });
    assert.equal(readLink('bpe').href, 'learn.html#text');
    assert.equal(readLink('windows').href, 'learn.html#text');
    assert.equal(readLink('positions').href, 'learn.html#why-positions');
    assert.equal(readLink('train').href, 'learn.html#training');
    assert.equal(readLink('nope'), null);
  });

  it('the header links the article', () => {
    assert.match(html, /<a class="docs-link" href="learn.html">Learn<\/a>/);
  });
});
