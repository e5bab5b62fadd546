// The engine's layers (README "Folder map", docs/development.md "Layout"): a file may include its own folder, a folder of its own
// layer, or a layer below; never a layer above. The folder graph must also have no cycle, so two
// folders of one layer cannot include each other.
//
//   core (errors, sizes, rng, detmath, clock, files)
//   kernels (SIMD kernels and their scalar twins)
//   embed, tokenizer, data
//   train, analysis (PCA, neighbours, analogies), maps (kNN, UMAP, t-SNE)
//   io (readers and writers of tables), bench
//   cli, bindings (entry points; also a map algorithm's NAME_cli.cpp and NAME_bindings.cpp)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = new URL('../../src/', import.meta.url).pathname;
export const LAYERS = [['core'], ['kernels'], ['embed', 'tokenizer', 'data'], ['train', 'analysis', 'maps'], ['io', 'bench'], ['cli', 'bindings']];
const rank = new Map(LAYERS.flatMap((folders, r) => folders.map((f) => [f, r])));

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : /\.(cpp|hpp)$/.test(name) ? [p] : [];
  });
}

// The folder whose layer a file takes: its top folder under src/, except the entry-point glue a
// map algorithm keeps in its own folder (src/maps/NAME/NAME_cli.cpp, NAME_bindings.cpp), which
// belongs to the CLI and the bindings (CMakeLists.txt builds it into those, not into the core).
export function layerFolder(rel) {
  const role = rel.match(/_(cli|bindings)\.cpp$/);
  return role ? role[1] : rel.split('/')[0];
}

// [{file, from, to}] for every #include "folder/..." in src/ (the top folder of each side).
function includes() {
  const out = [];
  for (const file of walk(SRC)) {
    const rel = relative(SRC, file);
    const from = layerFolder(rel);
    for (const m of readFileSync(file, 'utf8').matchAll(/^#include "([^"]+)"/gm)) {
      const target = m[1];
      if (!target.includes('/')) continue; // generated headers (build/generated)
      out.push({ file: rel, from, to: target.split('/')[0], target });
    }
  }
  return out;
}

test('every folder under src/ has a layer', () => {
  const folders = readdirSync(SRC).filter((n) => statSync(join(SRC, n)).isDirectory());
  for (const f of folders) assert.ok(rank.has(f), `src/${f} has no layer in tests/js/layers.test.mjs (and the README folder map, docs/development.md Layout)`);
});

test('no file includes a layer above its own', () => {
  const bad = includes().filter((i) => rank.has(i.from) && rank.has(i.to) && rank.get(i.to) > rank.get(i.from))
    .map((i) => `src/${i.file} (${i.from}, layer ${rank.get(i.from)}) includes ${i.target} (${i.to}, layer ${rank.get(i.to)})`);
  assert.deepEqual(bad, []);
});

test('the folder include graph has no cycle', () => {
  const edges = new Map();
  for (const i of includes()) {
    if (i.from === i.to) continue;
    if (!edges.has(i.from)) edges.set(i.from, new Set());
    edges.get(i.from).add(i.to);
  }
  // depth-first search for a back edge; report the cycle's folders
  const state = new Map();
  const stack = [];
  const cycles = [];
  const visit = (f) => {
    state.set(f, 'open');
    stack.push(f);
    for (const g of edges.get(f) || []) {
      if (state.get(g) === 'open') cycles.push([...stack.slice(stack.indexOf(g)), g].join(' -> '));
      else if (!state.has(g)) visit(g);
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of edges.keys()) if (!state.has(f)) visit(f);
  assert.deepEqual(cycles, []);
});

test('every quoted include names a file under src/ or a generated header', () => {
  const missing = includes().filter((i) => {
    try { return !statSync(join(SRC, i.target)).isFile(); } catch { return true; }
  }).map((i) => `src/${i.file}: ${i.target}`);
  assert.deepEqual(missing, []);
});

test("a map algorithm's CLI and bindings files take the entry points' layer; its other files stay in maps", () => {
  assert.equal(layerFolder('maps/tsne/tsne_cli.cpp'), 'cli');
  assert.equal(layerFolder('maps/umap/umap_bindings.cpp'), 'bindings');
  assert.equal(layerFolder('maps/tsne/tsne.cpp'), 'maps');
  assert.equal(layerFolder('maps/umap/umap_bench.hpp'), 'maps');
  // so an engine file of the folder that included the CLI would still be a layer violation
  assert.ok(rank.get(layerFolder('maps/tsne/tsne.cpp')) < rank.get('cli'));
});
