// scripts/page-sections.mjs: the page assembled from web/index.html and web/sections/*.html in
// the view registry's order, and the view sections and settings fields of it that the
// <embedlab-view> widget reuses (one source of truth for the page and the widgets).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './load-engine.mjs';
import { assemblePage, pageSections, readPage } from '../../scripts/page-sections.mjs';
import { VIEWS } from '../../web/src/views/registry.js';
import { PARAMS } from '../../web/src/state.js';

const html = await readPage(repoRoot);

describe('page-sections', () => {
  it('cuts out one section per tab of the page, whole (nested elements included)', () => {
    const { views } = pageSections(html);
    const tabs = [...html.matchAll(/data-view="([a-z]+)">/g)].map((m) => m[1]);
    assert.deepEqual(Object.keys(views).sort(), [...tabs].sort());
    for (const [name, s] of Object.entries(views)) {
      assert.ok(s.startsWith(`<section class="view" id="view-${name}"`), name);
      assert.ok(s.endsWith('</section>'), name);
      assert.equal((s.match(/<article\b/g) || []).length, (s.match(/<\/article>/g) || []).length, `${name}: articles balanced`);
      assert.ok(!/<script|\sstyle=|\son[a-z]+=/i.test(s), `${name}: no script, inline style or handler`);
    }
    assert.ok(views.table.includes('id="import-card"') && views.train.includes('id="extrapolation-card"'));
    assert.ok(!views.table.includes('view-positions'), 'the table section stops at its own end');
  });

  it('cuts out the settings field of every key the panel has', () => {
    const { fields } = pageSections(html);
    for (const key of ['seed', 'V', 'D', 'pad', 'scale', 'tok', 'T', 'pd', 'sim', 'corpus', 'enc', 'lower', 'bpeV', 'L', 'stride', 'B',
      'model', 'pos', 'tD', 'ctx', 'tB', 'opt', 'lr', 'alpha', 'win', 'minc', 'ep', 'logy', 'cmp', 'cmpCorpus', 'cmpEnc', 'cmap']) {
      assert.ok(fields[key], key);
      assert.ok(PARAMS.some((p) => p.key === key), `${key} is a URL key`);
      assert.match(fields[key], new RegExp(`^<div class="field[^"]*" data-key="${key}"[\\s\\S]*name="${key}"[\\s\\S]*</div>$`));
      assert.equal((fields[key].match(/<div\b/g) || []).length, (fields[key].match(/<\/div>/g) || []).length, key);
    }
  });

  it('says what is wrong with markup it cannot cut', () => {
    assert.throws(() => pageSections('<p>no views</p>'), /no <section class="view"/);
    assert.throws(() => pageSections('<section class="view" id="view-a"><p>'), /<section> at offset 0 is never closed/);
    assert.throws(() => pageSections('<section class="view" id="view-a"></section><section class="view" id="view-a"></section>'), /two <section> elements named 'a'/);
  });
});

describe('the page assembled from its parts', () => {
  const index = fs.readFileSync(path.join(repoRoot, 'web', 'index.html'), 'utf8');

  it('puts one section per view of the registry at the marker, in the registry\'s order, with the tabs in that order', () => {
    assert.ok(!/<section class="view"/.test(index), 'web/index.html holds no view section itself');
    const sections = [...html.matchAll(/<section class="view" id="([a-z0-9-]+)" data-view="([a-z0-9-]+)"/g)].map((m) => [m[1], m[2]]);
    assert.deepEqual(sections, VIEWS.map((v) => [v.section, v.name]));
    const tabs = [...html.matchAll(/role="tab" id="tab-[a-z0-9-]+" aria-controls="([a-z0-9-]+)"[^>]* data-view="([a-z0-9-]+)"/g)].map((m) => [m[1], m[2]]);
    assert.deepEqual(tabs, sections);
    assert.ok(!html.includes('embedlab:view-sections'), 'the marker is replaced');
    assert.equal((html.match(/http-equiv="Content-Security-Policy"/g) || []).length, 1, 'one CSP meta tag, from web/index.html');
    // the page around the sections is web/index.html's, unchanged
    const [before, after] = index.split(/^[ \t]*<!-- embedlab:view-sections\b.*\n/m);
    assert.ok(html.startsWith(before) && html.endsWith(after));
  });

  it('says what is wrong with parts it cannot assemble', () => {
    const page = 'top\n  <!-- embedlab:view-sections here -->\nbottom\n';
    const a = { name: 'a', section: 'view-a', html: '<section class="view" id="view-a"><p>a</p></section>\n' };
    const b = { name: 'b', section: 'view-b', html: '<section class="view" id="view-b"></section>' };
    assert.equal(assemblePage(page, [a, b]), 'top\n<section class="view" id="view-a"><p>a</p></section>\n\n<section class="view" id="view-b"></section>\nbottom\n');
    assert.throws(() => assemblePage('no marker', [a]), /marker line <!-- embedlab:view-sections … --> once \(found 0\)/);
    assert.throws(() => assemblePage(`${page}${page}`, [a]), /once \(found 2\)/);
    assert.throws(() => assemblePage(page, [{ ...a, section: 'view-z' }]), /web\/sections\/a.html must start with <section class="view" id="view-z"/);
    assert.throws(() => assemblePage(page, [{ ...a, html: `${a.html}<p>stray</p>` }]), /web\/sections\/a.html must hold its <section> and nothing after it/);
  });
});
