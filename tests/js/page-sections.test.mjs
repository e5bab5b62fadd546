// scripts/page-sections.mjs: the view sections and settings fields of web/index.html that the
// <embedlab-view> widget reuses (one source of truth for the page and the widgets).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './load-engine.mjs';
import { pageSections } from '../../scripts/page-sections.mjs';
import { PARAMS } from '../../web/src/state.js';

const html = fs.readFileSync(path.join(repoRoot, 'web', 'index.html'), 'utf8');

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
