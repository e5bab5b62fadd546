// Checks the hand-written web/embedlab.d.ts against the built module: every public name the
// runtime exports is declared, and every declared name still exists.
//   runtime side: the module's own keys (the M.* names src/bindings/api/*.post.js sets), minus
//     names starting with '_' and Emscripten's own (the `Module["name"] =` assignments in
//     build/wasm/embedlab.js, plus the factory options we pass); for each class (a JS `class`),
//     its prototype methods and getters, and its static methods.
//   declared side: the members of `interface EmbedlabModule`; for each member typed `typeof C`,
//     the instance and static members of `declare class C` (constructors aside).
// Names whose declaration carries a JSDoc `@internal` tag are skipped on both sides.
// Does not compare signatures: docs-types.test.mjs type-checks the examples against the d.ts.
// Wasm: EMBEDLAB_WASM_DIR (default build/wasm).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { loadEngine, repoRoot } from './load-engine.mjs';

const dtsPath = path.join(repoRoot, 'web', 'embedlab.d.ts');
const wasmDir = process.env.EMBEDLAB_WASM_DIR || path.join(repoRoot, 'build', 'wasm');

const isClass = (v) => typeof v === 'function' && /^class\b/.test(Function.prototype.toString.call(v));
const publicName = (n) => !n.startsWith('_') && n !== 'constructor';

/** Emscripten's names on the module: what its own code assigns as Module["name"]. */
export function emscriptenNames(js) {
  return new Set([...js.matchAll(/Module\["([A-Za-z0-9_$]+)"\]\s*=/g)].map((m) => m[1]));
}

/** runtime module M -> { module: Set of names, classes: Map name -> { instance: Set, statics: Set } }. */
export function runtimeApi(M, internals) {
  const api = { module: new Set(), classes: new Map() };
  for (const name of Object.keys(M)) {
    if (!publicName(name) || internals.has(name)) continue;
    api.module.add(name);
    const v = M[name];
    if (!isClass(v)) continue;
    const instance = new Set(Object.getOwnPropertyNames(v.prototype).filter(publicName));
    const statics = new Set(Object.getOwnPropertyNames(v).filter((n) => publicName(n) && !['length', 'name', 'prototype'].includes(n)));
    api.classes.set(name, { instance, statics });
  }
  return api;
}

const internalTag = (node) => ts.getJSDocTags(node).some((t) => t.tagName.text === 'internal');
const memberName = (m) => (m.name && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)) ? m.name.text : null);
const isStatic = (m) => (ts.getCombinedModifierFlags(m) & ts.ModifierFlags.Static) !== 0;

/** d.ts text -> the same shape as runtimeApi, from EmbedlabModule and the classes it names. */
export function declaredApi(text) {
  const sf = ts.createSourceFile('embedlab.d.ts', text, ts.ScriptTarget.Latest, true);
  const classes = new Map();
  let moduleIface = null;
  for (const s of sf.statements) {
    if (ts.isClassDeclaration(s) && s.name) classes.set(s.name.text, s);
    if (ts.isInterfaceDeclaration(s) && s.name.text === 'EmbedlabModule') moduleIface = s;
  }
  assert.ok(moduleIface, 'embedlab.d.ts declares no interface EmbedlabModule');
  const api = { module: new Set(), classes: new Map() };
  for (const m of moduleIface.members) {
    const name = memberName(m);
    if (!name || internalTag(m)) continue;
    api.module.add(name);
    const t = m.type;
    if (!t || !ts.isTypeQueryNode(t)) continue;           // `Embedding: typeof Embedding`
    const cls = classes.get(t.exprName.getText(sf));
    assert.ok(cls, `EmbedlabModule.${name} is typeof ${t.exprName.getText(sf)}, which embedlab.d.ts does not declare as a class`);
    const entry = { instance: new Set(), statics: new Set() };
    for (const cm of cls.members) {
      const n = memberName(cm);
      if (!n || ts.isConstructorDeclaration(cm) || internalTag(cm)) continue;
      (isStatic(cm) ? entry.statics : entry.instance).add(n);
    }
    api.classes.set(name, entry);
  }
  return api;
}

/** runtime, declared -> list of lines naming each difference ([] when they agree). */
export function compareApi(runtime, declared) {
  const out = [];
  const diff = (where, have, want) => {
    for (const n of have) if (!want.has(n)) out.push(`${where}${n}: exported by the module, missing from embedlab.d.ts`);
    for (const n of want) if (!have.has(n)) out.push(`${where}${n}: declared in embedlab.d.ts, not exported by the module`);
  };
  diff('M.', runtime.module, declared.module);
  for (const [name, rc] of runtime.classes) {
    const dc = declared.classes.get(name);
    if (!dc) {
      if (declared.module.has(name)) out.push(`M.${name}: a class at runtime, not declared as \`typeof ${name}\``);
      continue;
    }
    diff(`M.${name}.prototype.`, rc.instance, dc.instance);
    diff(`M.${name}.`, rc.statics, dc.statics);
  }
  for (const name of declared.classes.keys()) {
    if (runtime.module.has(name) && !runtime.classes.has(name)) out.push(`M.${name}: declared as a class, not a class at runtime`);
  }
  return out;
}

describe('embedlab.d.ts against the built module', () => {
  let runtime;
  let declared;
  before(async () => {
    const M = await loadEngine(wasmDir);
    const internals = emscriptenNames(fs.readFileSync(path.join(wasmDir, 'embedlab.js'), 'utf8'));
    internals.add('wasmBinary');                            // the factory option loadEngine passes
    runtime = runtimeApi(M, internals);
    declared = declaredApi(fs.readFileSync(dtsPath, 'utf8'));
  });

  it('lists a real API on both sides', () => {
    for (const api of [runtime, declared]) {
      assert.ok(api.module.has('pca') && api.module.has('Embedding'), [...api.module].join(' '));
      assert.ok(api.classes.get('Embedding').instance.has('forward'));
      assert.ok(api.classes.get('Embedding').statics.has('fromPretrained'));
    }
    assert.ok(!runtime.module.has('HEAPF32') && !runtime.module.has('run'), 'Emscripten names leaked into the runtime list');
  });

  it('declares every exported name, and nothing that is gone', () => {
    const problems = compareApi(runtime, declared);
    assert.deepEqual(problems, [], `embedlab.d.ts and the module disagree:\n  ${problems.join('\n  ')}`);
  });

  it('names a name dropped from the declarations, or declared but absent', () => {
    const text = fs.readFileSync(dtsPath, 'utf8');
    const dropped = text.replace(/^\s*pca\(table: Floats[^\n]*\n/m, '').replace(/^\s*oneHotForward\(ids: Ids\)[^\n]*\n/m, '');
    assert.notEqual(dropped, text);
    const invented = text.replace('export interface EmbedlabModule {', 'export interface EmbedlabModule {\n  gone(): void;');
    const a = compareApi(runtime, declaredApi(dropped));
    assert.ok(a.includes('M.pca: exported by the module, missing from embedlab.d.ts'), a.join('\n'));
    assert.ok(a.includes('M.Embedding.prototype.oneHotForward: exported by the module, missing from embedlab.d.ts'), a.join('\n'));
    const b = compareApi(runtime, declaredApi(invented));
    assert.ok(b.includes('M.gone: declared in embedlab.d.ts, not exported by the module'), b.join('\n'));
  });
});
