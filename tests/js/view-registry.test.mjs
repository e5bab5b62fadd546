// web/src/views/registry.js: the one list of the page's views, which the page (main.js), the
// widget (element-views.js) and the settings lists (view-keys.js) all read. The browser tests
// (page, widget-attributes, embed, learn) check that each view works; this checks the list.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { VIEWS, VIEW_BY_NAME, addPositionalKeys } from '../../web/src/views/registry.js';
import { VIEW_KEYS, readKeys } from '../../web/src/views/view-keys.js';
import { WIDGET_VIEWS } from '../../web/src/element-views.js';
import { TRAIN_KEYS } from '../../web/src/views/train-view.js';
import { POSITION_KEYS } from '../../web/src/views/positions-view.js';
import { TABLE_KEYS } from '../../web/src/views/table-view.js';
import { paramSpec } from '../../web/src/state.js';

describe('the view registry', () => {
  it('lists each view once, with the link\'s view values in the same order', () => {
    const names = VIEWS.map((v) => v.name);
    assert.deepEqual(names, ['table', 'text', 'bpe', 'windows', 'positions', 'train']);
    assert.deepEqual(paramSpec('view').values, names);
    assert.equal(new Set(names).size, names.length);
    for (const v of VIEWS) {
      assert.equal(v.section, `view-${v.name}`);
      assert.equal(VIEW_BY_NAME[v.name], v);
      assert.equal(typeof v.create, 'function', v.name);
      assert.equal(typeof v.fetch, 'function', v.name);
      for (const k of [...v.keys, ...v.reads]) assert.ok(paramSpec(k), `${v.name}: ${k} is a URL key`);
    }
  });

  it('is where the settings lists and the widget\'s views come from', () => {
    assert.deepEqual(Object.keys(VIEW_KEYS), VIEWS.map((v) => v.name));
    for (const v of VIEWS) {
      assert.equal(VIEW_KEYS[v.name], v.keys, `${v.name}: the same array`);
      assert.deepEqual(readKeys(v.name), [...v.keys, ...v.reads]);
    }
    assert.equal(VIEW_BY_NAME.train.keys, TRAIN_KEYS);
    assert.deepEqual(readKeys('train').slice(-8), ['cmap', 'logy', 'cmp', 'cmpCorpus', 'cmpEnc', 'cmpKinds', 'cmpFactor', 'cmpFt']);
    assert.deepEqual(Object.keys(WIDGET_VIEWS), VIEWS.filter((v) => v.widget).map((v) => v.name));
    for (const w of Object.values(WIDGET_VIEWS)) assert.equal(typeof w.make, 'function');
  });

  it('gives the positional parameters\' keys to the views that read them, and only to those', () => {
    const before = TABLE_KEYS.length;
    addPositionalKeys(['rope.base']);
    assert.ok(TRAIN_KEYS.includes('rope.base') && POSITION_KEYS.includes('rope.base'));
    assert.ok(readKeys('positions').includes('rope.base'));
    assert.equal(TABLE_KEYS.length, before);
    assert.deepEqual(VIEWS.filter((v) => v.keys.includes('rope.base')).map((v) => v.name), ['positions', 'train']);
  });
});
