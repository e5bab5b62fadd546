// node:test for the page's map list (web/src/handlers/map-algorithms.js: the engine's registry
// M.mapAlgorithms() and the page's additions) and what is generated from it: the URL keys of the
// map choices (state.js setMapAlgorithms, one rule that reproduces the keys links carry since
// issue 12), the metadata the worker sends at ready, and the worker's layout handler, which runs
// every entry of the list through M.MapRun with no branch on its name.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './load-engine.mjs';
import { mapAlgorithm, mapAlgorithms, pageMetadata } from '../../web/src/handlers/map-algorithms.js';
import { makeLayoutHandlers } from '../../web/src/handlers/layout-handler.js';
import { DEFAULTS, PARAMS, mapFields, mapParamKey, parseHash, serializeHash, setMapAlgorithms } from '../../web/src/state.js';

// The map keys of links made before the registry: key, kind, default, range or values.
const OLD_KEYS = (p) => [
  { key: `${p}map`, kind: 'enum', def: 'pca', values: ['pca', 'umap', 'tsne'] },
  { key: `${p}nn`, kind: 'int', def: 15, min: 2, max: 200 },
  { key: `${p}md`, kind: 'real', def: 0.1, min: 0, max: 1 },
  { key: `${p}metric`, kind: 'enum', def: 'euclidean', values: ['euclidean', 'cosine'] },
  { key: `${p}perp`, kind: 'real', def: 30, min: 1, max: 1000 },
];

const M = await loadEngine();
const MAP_ALGORITHMS = mapAlgorithms(M);

describe('map registry -> URL keys', () => {
  before(() => setMapAlgorithms(pageMetadata(MAP_ALGORITHMS)));

  it('the key rule: initials of several words, the name of one word, or a declared older key', () => {
    assert.equal(mapParamKey({ name: 'n_neighbors' }), 'nn');
    assert.equal(mapParamKey({ name: 'min_dist' }), 'md');
    assert.equal(mapParamKey({ name: 'metric' }), 'metric');
    assert.equal(mapParamKey({ name: 'perplexity', key: 'perp' }), 'perp');
  });

  it('reproduces every map key of older links, in their order, with the same kind, default and range', () => {
    for (const p of ['i', 't']) {
      const keys = PARAMS.filter((q) => q.key.startsWith(`${p}`) && OLD_KEYS(p).some((o) => o.key === q.key));
      assert.deepEqual(keys.map(({ key, kind, def, min, max, values }) => JSON.parse(JSON.stringify({ key, kind, def, min, max, values }))), OLD_KEYS(p));
      const at = PARAMS.findIndex((q) => q.key === `${p}map`);
      assert.deepEqual(PARAMS.slice(at, at + 5).map((q) => q.key), OLD_KEYS(p).map((o) => o.key));
    }
  });

  it('a link with map keys reads and writes back the same', () => {
    const hash = 'imap=tsne&imetric=cosine&iperp=12&tmap=umap&tnn=7&tmd=0.25'; // in PARAMS order
    const { state, ignored } = parseHash(`#${hash}`);
    assert.deepEqual(ignored, []);
    assert.deepEqual([state.imap, state.iperp, state.imetric, state.tmap, state.tnn, state.tmd], ['tsne', 12, 'cosine', 'umap', 7, 0.25]);
    assert.equal(state.inn, DEFAULTS.inn);
    assert.equal(serializeHash(state), hash);
  });

  it('a shared parameter is one key; two defaults under one key are refused', () => {
    const metric = mapFields(pageMetadata(MAP_ALGORITHMS)).find((f) => f.suffix === 'metric');
    assert.deepEqual(metric.methods, MAP_ALGORITHMS.map((a) => a.name));
    const clash = [{ name: 'a', params: [{ name: 'k', page: true, default: 1 }] }, { name: 'b', params: [{ name: 'k', page: true, default: 2 }] }];
    assert.throws(() => mapFields(clash), { message: 'map parameter k: key k has two defaults (1, 2)' });
  });

  it('the metadata the worker sends is plain data (structured clone), without the worker-only functions', () => {
    const meta = structuredClone(pageMetadata(MAP_ALGORITHMS));
    assert.deepEqual(meta.map((a) => a.name), MAP_ALGORITHMS.map((a) => a.name));
    for (const a of meta) assert.equal('rowsLimit' in a || 'live' in a || 'binding' in a, false);
  });

  it('an unknown method is refused with the choices; the base map (PCA) is not in the list', () => {
    assert.throws(() => mapAlgorithm('isomap', MAP_ALGORITHMS), { message: 'map: method "isomap" is not one of umap, tsne' });
    assert.deepEqual(M.mapAlgorithms().map((a) => a.name), ['umap', 'tsne', 'pca']);
  });

  it('an engine algorithm the page adds nothing to is offered with the engine\'s label, description and defaults, no fields', () => {
    const extra = { ...M.mapAlgorithms()[0], name: 'other', label: 'Other', description: 'another map' };
    const [a] = mapAlgorithms({ mapAlgorithms: () => [extra] });
    assert.deepEqual([a.name, a.label, a.description, a.rowsLimit, a.readout], ['other', 'Other', 'another map', null, null]);
    assert.equal(a.params.some((q) => q.page), false);
    assert.deepEqual(a.live, { first: {}, next: {} });
  });
});

describe('map registry -> the layout handler', () => {
  it('every algorithm of the list runs to its end through the one code path, clamped by its rows limit', () => {
    const layout = makeLayoutHandlers(M);
    assert.deepEqual(layout.mapNames, ['pca', ...MAP_ALGORITHMS.map((a) => a.name)]);
    const rows = 60, cols = 4;
    const data = Float32Array.from({ length: rows * cols }, (_, i) => ((i * 7919) % 101) / 101 + (Math.floor(i / cols) % 3) * 4);
    layout.addSource('import', () => ({ data, rows, cols }));
    for (const a of MAP_ALGORITHMS) {
      const option = a.params.find((q) => q.name === a.rowsLimit.param).option;
      const s = layout.handlers.layoutStart({ source: 'import', method: a.name, [option]: 1000, clamp: true, ...a.live.next });
      assert.equal(s.rows, rows);
      assert.ok(s.clamp && s.clamp.used < 1000, `${a.name}: the rows limit clamps ${a.rowsLimit.param}`);
      let p;
      do p = layout.handlers.layoutStep({ source: 'import', budgetMs: 1000 }); while (!p.finished);
      assert.equal(p.phase, a.stepName);
      assert.equal(p.done, s.total);
      assert.equal(p.points.length, rows * 2);
      if (a.readout) assert.ok(p.readout.name === a.readout.name && Number.isFinite(p.readout.value), `${a.name}: readout ${JSON.stringify(p.readout)}`);
      else assert.equal(p.readout, null);
      assert.equal(layout.coordinatesOf('import', a.name).length, rows * 2);
      assert.deepEqual(layout.handlers.layoutStop({ source: 'import' }), { stopped: true });
    }
    assert.equal(layout.openRuns(), 0);
  });
});
