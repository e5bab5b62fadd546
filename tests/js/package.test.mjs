// The built site as a package: scripts/build-web.mjs writes OUT/package.json (name 'embedlab',
// exports '.' -> createEmbedlab), so `import { createEmbedlab } from 'embedlab'` works in Node
// and in a bundler (esbuild, platform browser), and TypeScript finds the types. The site is built
// into a temp dir, and 'embedlab' resolves through a temp node_modules/embedlab symlink to it.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './load-engine.mjs';

const ENTRY = `import { createEmbedlab } from 'embedlab';
const M = await createEmbedlab();
M.manualSeed(123);
const emb = new M.Embedding(4, 5);
console.log(Array.from(emb.weight().subarray(0, 5), (v) => v.toFixed(4)).join(' '));
`;
let tmp, site, app;

describe('build/web as the package embedlab', () => {
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-pkg-'));
    site = path.join(tmp, 'site');
    app = path.join(tmp, 'app');
    execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'build-web.mjs'), '--out', site], { stdio: 'pipe' });
    fs.mkdirSync(path.join(app, 'node_modules'), { recursive: true });
    fs.symlinkSync(site, path.join(app, 'node_modules', 'embedlab'), 'dir');
    fs.writeFileSync(path.join(app, 'entry.mjs'), ENTRY);
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('package.json names the package, an ES module, its entries and types', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(site, 'package.json'), 'utf8'));
    assert.equal(pkg.name, 'embedlab');
    assert.equal(pkg.type, 'module');
    assert.deepEqual(pkg.exports['.'], { types: './embedlab.d.ts', node: './embedlab-node.js', default: './embedlab-browser.js' });
    assert.equal(pkg.exports['./embedlab.d.ts'], './embedlab.d.ts');
    for (const f of ['embedlab.d.ts', 'embedlab-node.js', 'embedlab-browser.js', 'embedlab.js', 'embedlab.wasm']) {
      assert.ok(fs.existsSync(path.join(site, f)), `${f} missing from the site`);
    }
  });

  it('imports and runs in Node (torch.manual_seed(123); nn.Embedding(4, 5).weight[0])', () => {
    const out = execFileSync(process.execPath, [path.join(app, 'entry.mjs')], { cwd: app, encoding: 'utf8' });
    assert.equal(out.trim(), '0.3374 -0.1778 -0.3035 -0.5880 1.5810');
  });

  it('bundles with esbuild for browsers, the module inlined and the .wasm fetched beside the bundle', async () => {
    const esbuild = await import('esbuild');
    const outfile = path.join(app, 'dist', 'bundle.js');
    const r = await esbuild.build({
      entryPoints: [path.join(app, 'entry.mjs')], absWorkingDir: app, bundle: true, format: 'esm',
      platform: 'browser', target: 'es2022', outfile, logLevel: 'silent', metafile: true,
    });
    assert.deepEqual(r.errors, []);
    const inputs = Object.keys(r.metafile.inputs).map((p) => path.basename(p));
    assert.ok(inputs.includes('embedlab-browser.js') && inputs.includes('embedlab.js'), inputs.join(' '));
    assert.ok(!inputs.includes('embedlab-node.js'), 'the Node entry was bundled for a browser');
    assert.match(fs.readFileSync(outfile, 'utf8'), /new URL\("embedlab\.wasm", import\.meta\.url\)/);
  });

  it('TypeScript resolves the types of the package', () => {
    fs.writeFileSync(path.join(app, 'use.ts'), `import { createEmbedlab, type EmbedlabModule } from 'embedlab';
const M: EmbedlabModule = await createEmbedlab();
const out: Float32Array = new M.Embedding(4, 5).forward([1, 2]);
// @ts-expect-error: forward takes ids, not a string
new M.Embedding(4, 5).forward('1');
export { out };
`);
    fs.writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'esnext', moduleResolution: 'bundler', types: [] },
      files: ['use.ts'],
    }));
    const tsc = path.join(repoRoot, 'node_modules', '.bin', 'tsc');
    const r = spawnSync(tsc, ['--pretty', 'false', '-p', app], { cwd: app, encoding: 'utf8' });
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  });
});
