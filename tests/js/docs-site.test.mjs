// The docs on the built site: scripts/build-web.mjs copies README.md and docs/*.{md,png} into the
// site, docs.html links them, and scripts/static-server.mjs serves them: every link of docs.html's
// Documentation list answers 200, the .md pages come as plain text under the page's CSP, and the
// relative links and images inside each served page resolve on the site as they do in the repo.
// It does not check the docs' text (docs-links.test.mjs) nor docs.html's examples (docs-examples.test.mjs).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './load-engine.mjs';
import { serve } from '../../scripts/static-server.mjs';
import { linkTargets } from './markdown-links.mjs';

describe('docs pages on the built site', () => {
  let site;
  let server;
  let base;
  before(async () => {
    site = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-docs-site-'));
    execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'build-web.mjs'), '--out', site], { stdio: 'pipe' });
    server = await serve(site, 0);
    base = `http://127.0.0.1:${server.address().port}/`;
  });
  after(() => {
    server?.close();
    if (site) fs.rmSync(site, { recursive: true, force: true });
  });

  it("docs.html's Documentation list links README.md and every docs page, and each answers as text under the page's CSP", async () => {
    const html = await (await fetch(`${base}docs.html`)).text();
    const list = /<section[^>]*id="doc-pages"[\s\S]*?<\/section>/.exec(html);
    assert.ok(list, 'docs.html has no section#doc-pages');
    const hrefs = [...list[0].matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
    const pages = ['README.md', ...fs.readdirSync(path.join(repoRoot, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    assert.deepEqual([...hrefs].sort(), [...pages].sort(), 'docs.html lists exactly README.md and docs/*.md');
    const pageCsp = (await fetch(`${base}docs.html`)).headers.get('content-security-policy');
    for (const href of hrefs) {
      const res = await fetch(new URL(href, `${base}docs.html`));
      assert.equal(res.status, 200, `${href} on the site`);
      assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8', `${href} content type`);
      assert.equal(res.headers.get('content-security-policy'), pageCsp, `${href} CSP`);
      assert.equal(await res.text(), fs.readFileSync(path.join(repoRoot, href), 'utf8'), `${href} is the repository's file`);
    }
  });

  it('the relative links and images inside the served pages resolve on the site', async () => {
    const broken = [];
    for (const page of ['README.md', ...fs.readdirSync(path.join(site, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]) {
      const url = new URL(page, base);
      for (const { line, target } of linkTargets(fs.readFileSync(path.join(site, page), 'utf8'))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
        const res = await fetch(new URL(target.split('#')[0], url), { method: 'HEAD' });
        if (res.status !== 200) broken.push(`${page}:${line}: ${target} -> ${res.status}`);
      }
    }
    assert.deepEqual(broken, []);
  });
});
