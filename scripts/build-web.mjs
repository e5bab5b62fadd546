#!/usr/bin/env node
// Assembles the static site: node scripts/build-web.mjs [--wasm-dir DIR] [--out DIR]
//
//   web/index.html + web/sections/*.html -> OUT/index.html (the view sections put in at the marker,
//                                       in the view registry's order: scripts/page-sections.mjs;
//                                       at the preload marker, a <link rel="modulepreload"> for
//                                       each chunk app.js imports statically and for the default
//                                       view's code (its chunk, views/NAME-view.js, and its static
//                                       chunks), read from esbuild's metafile, so the browser
//                                       fetches them beside app.js)
//   web/src/engine-boot.js           -> OUT/ (index.html starts the worker with it, ahead of app.js; it
//                                       preloads the versioned wasm of the build the worker will pick,
//                                       so the worker's fetch of the same URL is served from the HTTP
//                                       cache: the versions are written over its @...@ marks)
//   web/style.css                    -> OUT/
//   web/docs.html, web/docs.css, web/docs/*.js -> OUT/ (the API examples page; its scripts copied
//                                       as written, since the page shows their source)
//   web/learn.{html,css,js}          -> OUT/ (the interactive article: <embedlab-view> widgets, copied as written)
//   README.md, docs/*.{md,png}       -> OUT/README.md, OUT/docs/ (the project's docs, linked from docs.html;
//                                       served as text, their relative links resolve on the site as in the repo)
//   web/embedlab.d.ts, web/package/*.js -> OUT/, and OUT/package.json: the site is also the npm-style
//                                       package 'embedlab' (import { createEmbedlab } from 'embedlab')
//   node_modules/uplot/dist/uPlot.min.css -> OUT/uplot.css (the loss chart's stylesheet)
//   web/corpora/*                    -> OUT/corpora/
//   WASM_DIR/embedlab.{js,wasm}      -> OUT/ (the single-thread build)
//   WASM_DIR/embedlab-mt.{js,wasm,worker.js,worker.cjs} -> OUT/ (the threaded build: worker.js
//                                       picks it when cross-origin isolated, embedlab-node.js always)
//   web/src/main.js   (esbuild)      -> OUT/app.js     (ESM, npm libraries bundled in; modules loaded
//                                       with import() go to OUT/chunks/, e.g. the point map and each view's code)
//   web/src/worker.js (esbuild)      -> OUT/worker.js  (ESM, './embedlab.js' and './embedlab-mt.js' left external;
//                                       EMBEDLAB_WASM_MT_VERSION likewise for embedlab-mt.wasm;
//                                       EMBEDLAB_WASM_VERSION = the wasm's content version, so the
//                                       worker fetches embedlab.wasm?v=<sha256 prefix>: a new wasm
//                                       is a new URL, never a stale cached one)
//   web/src/plots/scatter-worker.js  -> OUT/scatter-worker.js (ESM: the point map's drawing worker)
//   web/src/element.js (esbuild)     -> OUT/embedlab-element.js (ESM: the <embedlab-view> widget;
//                                       web/style.css bundled in as text for its shadow root, and
//                                       the page's view sections and settings fields as the
//                                       module 'embedlab:page-sections' (scripts/page-sections.mjs))
//   tests/browser/article{,-iframe}.{html,css,js} -> OUT/ (test pages: an article with widgets of every view; one with an embedded card)
//
// Defaults: WASM_DIR = build/wasm, OUT = build/web (relative to the repo root). Nothing is
// fetched from a CDN or another origin at run time: every library is in app.js/worker.js.
// It does not build the wasm module (scripts/build does) and does not serve the site.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pageSections, readPage } from './page-sections.mjs';
import { contentVersion } from './static-server.mjs';
import { paramSpec } from '../web/src/state.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  const opts = { wasmDir: path.join(root, 'build', 'wasm'), out: path.join(root, 'build', 'web') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) fail(`${a} needs a value`, `node scripts/build-web.mjs ${a} DIR`);
      return path.resolve(argv[++i]);
    };
    if (a === '--wasm-dir') opts.wasmDir = next();
    else if (a === '--out') opts.out = next();
    else if (a === '-h' || a === '--help') {
      console.log('usage: node scripts/build-web.mjs [--wasm-dir DIR] [--out DIR]');
      process.exit(0);
    } else fail(`unknown argument '${a}'`, 'usage: node scripts/build-web.mjs [--wasm-dir DIR] [--out DIR]');
  }
  return opts;
}

function fail(message, hint) {
  console.error(`build-web: ${message}`);
  if (hint) console.error(`---> HINT: ${hint}`);
  process.exit(2);
}

// esbuild plugin: import sections from 'embedlab:page-sections' -> {views, fields} cut out of the
// assembled page (web/index.html + web/sections/*.html)
const pageSectionsPlugin = {
  name: 'page-sections',
  setup(b) {
    const index = path.join(root, 'web', 'index.html');
    b.onResolve({ filter: /^embedlab:page-sections$/ }, () => ({ path: index, namespace: 'page-sections' }));
    b.onLoad({ filter: /.*/, namespace: 'page-sections' }, async () => ({
      contents: `export default ${JSON.stringify(pageSections(await readPage(root)))};`,
      loader: 'js',
      watchFiles: [index, ...fs.readdirSync(path.join(root, 'web', 'sections')).map((f) => path.join(root, 'web', 'sections', f))],
    }));
  },
};

// <!-- embedlab:preload … --> in web/index.html: replaced by the preload links (withPreloads)
const PRELOAD_MARKER = /^([ \t]*)<!-- embedlab:preload\b[^\n]*-->\n/m;

// esbuild metafile, the entry's output path -> the chunks it loads before it runs: its static
// imports (import-statement, not dynamic-import) and theirs, in first-seen order, as paths
// relative to the output directory (e.g. ['chunks/chunk-ABC.js'])
export function staticChunks(metafile, entryOut, outDir) {
  const seen = [];
  const visit = (out) => {
    for (const imp of metafile.outputs[out].imports) {
      if (imp.kind !== 'import-statement' || imp.external || seen.includes(imp.path)) continue;
      seen.push(imp.path);
      visit(imp.path);
    }
  };
  visit(entryOut);
  return seen.map((p) => path.relative(outDir, path.resolve(root, p)).split(path.sep).join('/'));
}

// esbuild metafile, the module (repo-relative path) -> the output path of the chunk holding it
// as an entry point (a dynamically imported module), or null
export function chunkOf(metafile, module) {
  const found = Object.entries(metafile.outputs).find(([out, o]) => o.entryPoint === module && out.endsWith('.js'));
  return found ? found[0] : null;
}

// engine-boot.js with each @NAME@ mark replaced by its value (the wasm builds' content versions);
// a mark that is missing, or left over, fails the build.
function writeEngineBoot(from, to, values) {
  let text = fs.readFileSync(from, 'utf8');
  for (const [name, value] of Object.entries(values)) {
    if (!text.includes(`@${name}@`)) fail(`web/src/engine-boot.js has no @${name}@ mark`, 'put back the preload of the wasm builds');
    text = text.replaceAll(`@${name}@`, value);
  }
  const left = text.match(/@EMBEDLAB_[A-Z_]+@/);
  if (left) fail(`web/src/engine-boot.js: ${left[0]} has no value`, 'give it one in scripts/build-web.mjs writeEngineBoot');
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.writeFileSync(to, text);
}

// the assembled page, the chunk paths -> the page with their modulepreload links at the marker
// (the wasm's preload is engine-boot.js's: only it knows which build the worker will pick)
function withPreloads(page, chunks) {
  if (!PRELOAD_MARKER.test(page)) fail('web/index.html has no <!-- embedlab:preload --> marker line', 'put it back after the app.js script tag');
  return page.replace(PRELOAD_MARKER, (_, indent) => chunks.map((c) => `${indent}<link rel="modulepreload" href="${c}">\n`).join(''));
}

// The two builds of the engine (scripts/build wasm makes both).
const SINGLE_THREAD_FILES = ['embedlab.js', 'embedlab.wasm'];
const THREADED_FILES = ['embedlab-mt.js', 'embedlab-mt.wasm', 'embedlab-mt.worker.js', 'embedlab-mt.worker.cjs'];

function rel(p) {
  return path.relative(root, p) || '.';
}

function copy(from, to) {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
  console.log(`copied  ${rel(from)} -> ${rel(to)} (${fs.statSync(to).size} bytes)`);
}

// OUT/package.json: `name: embedlab`, an ES module whose "." is createEmbedlab (Node: reads the
// .wasm beside it; elsewhere: embedlab.js fetches it), with the hand-written types.
function writePackageJson(out) {
  const { version, license, description } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const pkg = {
    name: 'embedlab',
    version,
    description,
    license,
    type: 'module',
    types: './embedlab.d.ts',
    exports: {
      '.': { types: './embedlab.d.ts', node: './embedlab-node.js', default: './embedlab-browser.js' },
      './embedlab.d.ts': './embedlab.d.ts',
      './embedlab.js': './embedlab.js',
      './embedlab.wasm': './embedlab.wasm',
      './embedlab-mt.js': './embedlab-mt.js',
      './embedlab-mt.wasm': './embedlab-mt.wasm',
    },
    // subtle: embedlab.js calls require('fs') / require('path') on its Node branch only; this tells
    // bundlers targeting browsers to leave them out (esbuild otherwise fails: cannot resolve "fs")
    // (the threaded embedlab-mt.js also names perf_hooks, os and worker_threads on that branch)
    browser: { fs: false, path: false, perf_hooks: false, os: false, worker_threads: false },
    sideEffects: false,
  };
  const to = path.join(out, 'package.json');
  fs.writeFileSync(to, `${JSON.stringify(pkg, null, 2)}\n`);
  console.log(`wrote   ${rel(to)} (package '${pkg.name}' ${version})`);
}

async function main() {
  const { wasmDir, out } = parseArgs(process.argv.slice(2));
  for (const f of [...SINGLE_THREAD_FILES, ...THREADED_FILES]) {
    if (!fs.existsSync(path.join(wasmDir, f))) {
      fail(`${rel(path.join(wasmDir, f))} not found`, 'build the wasm module first (bash scripts/build), or pass --wasm-dir DIR');
    }
  }
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    fail('esbuild is not installed', 'run npm ci in the repo root');
  }
  fs.mkdirSync(out, { recursive: true });

  let page;
  try {
    page = await readPage(root);
  } catch (err) {
    fail(err.message, 'each view of web/src/views/registry.js has its section in web/sections/NAME.html');
  }
  copy(path.join(root, 'web', 'style.css'), path.join(out, 'style.css'));
  for (const f of ['docs.html', 'docs.css', 'learn.html', 'learn.css', 'learn.js', 'embedlab.d.ts']) copy(path.join(root, 'web', f), path.join(out, f));
  for (const f of fs.readdirSync(path.join(root, 'web', 'docs')).sort()) copy(path.join(root, 'web', 'docs', f), path.join(out, 'docs', f));
  copy(path.join(root, 'README.md'), path.join(out, 'README.md'));
  for (const f of fs.readdirSync(path.join(root, 'docs')).sort()) {
    if (!/\.(md|png)$/.test(f)) continue;
    if (fs.existsSync(path.join(root, 'web', 'docs', f))) fail(`docs/${f} and web/docs/${f} would both be OUT/docs/${f}`, 'rename one of them');
    copy(path.join(root, 'docs', f), path.join(out, 'docs', f));
  }
  for (const f of fs.readdirSync(path.join(root, 'web', 'package')).sort()) copy(path.join(root, 'web', 'package', f), path.join(out, f));
  writePackageJson(out);
  copy(path.join(root, 'node_modules', 'uplot', 'dist', 'uPlot.min.css'), path.join(out, 'uplot.css'));
  const corpora = path.join(root, 'web', 'corpora');
  for (const f of fs.readdirSync(corpora).sort()) copy(path.join(corpora, f), path.join(out, 'corpora', f));
  copy(path.join(wasmDir, 'embedlab.js'), path.join(out, 'embedlab.js'));
  for (const f of ['article.html', 'article.css', 'article-iframe.html', 'article-iframe.js']) copy(path.join(root, 'tests', 'browser', f), path.join(out, f));
  copy(path.join(wasmDir, 'embedlab.wasm'), path.join(out, 'embedlab.wasm'));
  for (const f of THREADED_FILES) copy(path.join(wasmDir, f), path.join(out, f));
  const wasmVersion = contentVersion(fs.readFileSync(path.join(out, 'embedlab.wasm')));
  const wasmMtVersion = contentVersion(fs.readFileSync(path.join(out, 'embedlab-mt.wasm')));
  writeEngineBoot(path.join(root, 'web', 'src', 'engine-boot.js'), path.join(out, 'engine-boot.js'), { EMBEDLAB_WASM_VERSION: wasmVersion, EMBEDLAB_WASM_MT_VERSION: wasmMtVersion });

  const common = {
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true, // with source maps next to the bundles
    sourcemap: true,
    legalComments: 'eof',
    logLevel: 'warning',
    metafile: true,
  };
  fs.rmSync(path.join(out, 'chunks'), { recursive: true, force: true }); // hashed names: drop the old ones
  const entries = [
    { entry: 'web/src/main.js', outfile: 'app.js', external: ['./engine-boot.js'], split: true },
    { entry: 'web/src/worker.js', outfile: 'worker.js', external: ['./embedlab.js', './embedlab-mt.js'],
      define: { EMBEDLAB_WASM_VERSION: JSON.stringify(wasmVersion), EMBEDLAB_WASM_MT_VERSION: JSON.stringify(wasmMtVersion) } },
    { entry: 'web/src/plots/scatter-worker.js', outfile: 'scatter-worker.js', external: [] },
    { entry: 'web/src/element.js', outfile: 'embedlab-element.js', external: [], loader: { '.css': 'text' }, plugins: [pageSectionsPlugin] },
  ];
  for (const e of entries) {
    const outfile = path.join(out, e.outfile);
    const t0 = Date.now();
    const where = e.split
      ? { splitting: true, outdir: out, entryNames: path.basename(e.outfile, '.js'), chunkNames: 'chunks/[name]-[hash]' }
      : { outfile };
    const r = await esbuild.build({ ...common, entryPoints: [path.join(root, e.entry)], ...where, external: e.external, loader: e.loader, define: e.define, plugins: e.plugins || [] });
    const chunks = Object.keys(r.metafile.outputs).filter((o) => o.includes('/chunks/') && o.endsWith('.js'));
    const inputs = Object.keys(r.metafile.inputs);
    const libs = [...new Set(inputs.filter((p) => p.includes('node_modules/')).map((p) => p.split('node_modules/')[1].split('/')[0]))];
    console.log(
      `bundled ${e.entry} -> ${rel(outfile)} (${fs.statSync(outfile).size} bytes, ${inputs.length} modules` +
        `${libs.length ? `, npm: ${libs.sort().join(' ')}` : ''}${e.external.length ? `, external: ${e.external.join(' ')}` : ''}, ${Date.now() - t0} ms)`,
    );
    const preloaded = e.split ? staticChunks(r.metafile, rel(outfile), out) : [];
    if (e.outfile === 'app.js') {
      // the default view's code: the page draws it first unless the link names another view
      const first = `web/src/views/${paramSpec('view').def}-view.js`;
      const chunk = chunkOf(r.metafile, first);
      if (!chunk) fail(`${first} is not a chunk of its own in the build`, 'views/registry.js imports each view module with import() only');
      const own = path.relative(out, path.resolve(root, chunk)).split(path.sep).join('/');
      for (const c of [own, ...staticChunks(r.metafile, chunk, out)]) if (!preloaded.includes(c)) preloaded.push(c);
    }
    for (const c of chunks) {
      const early = preloaded.includes(path.relative(out, path.resolve(root, c)).split(path.sep).join('/'));
      console.log(`        chunk ${rel(path.resolve(c))} (${fs.statSync(path.resolve(c)).size} bytes, ${early ? 'modulepreload in index.html' : 'loaded on demand'})`);
    }
    if (e.outfile === 'app.js') {
      fs.writeFileSync(path.join(out, 'index.html'), withPreloads(page, preloaded));
      console.log(`wrote   ${rel(path.join(out, 'index.html'))} (web/index.html + web/sections/*.html, the wasm's preload, ${preloaded.length} modulepreload links)`);
    }
    if (e.define) console.log(`        defined ${Object.entries(e.define).map(([k, v]) => `${k} = ${v}`).join(', ')}`);
  }
  console.log(`site ready in ${rel(out)}: serve it with node scripts/static-server.mjs ${rel(out)} 8000 (or scripts/serve)`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main().catch((err) => fail(err.message));
