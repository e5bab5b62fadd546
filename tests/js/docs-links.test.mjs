// The docs hold together: every relative link and image in README.md, docs/*.md (and web/README.md) names a file
// that exists, every #anchor into a .md file names one of its headings (GitHub's slug rules), the
// README stays a front door (at most 200 lines, the two commands within its first 40, the test
// command the one .ci/run runs), and docs.html lists every docs page.
// It does not check links to other sites (nothing is fetched) nor the built site (docs-site.test.mjs).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './load-engine.mjs';
import { brokenLinks, linkTargets } from './markdown-links.mjs';

const docFiles = () => ['README.md', ...fs.readdirSync(path.join(repoRoot, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const linkedFiles = () => [...docFiles(), 'web/README.md'];

describe('docs links', () => {
  it('the checker finds a broken link, a missing image and a wrong anchor, and passes good ones', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-docs-links-'));
    try {
      fs.mkdirSync(path.join(dir, 'docs'));
      fs.writeFileSync(path.join(dir, 'docs', 'a.md'), '# A page\n\n## Saved work (autosave)\n\n## Widgets: `<embedlab-view>` in an article\n');
      fs.writeFileSync(path.join(dir, 'docs', 'pic.png'), '');
      fs.writeFileSync(path.join(dir, 'README.md'), [
        'Good: [a](docs/a.md), [b](docs/a.md#saved-work-autosave), [c](docs/a.md#widgets-embedlab-view-in-an-article),',
        '![p](docs/pic.png), [web](https://example.com/x.md), `[code](missing.md)`',
        '```', '[fenced](missing.md)', '```',
        'Bad: [d](docs/missing.md) ![q](docs/nope.png)',
        '[e](docs/a.md#saved-work) [f](../outside.md)',
      ].join('\n'));
      const problems = brokenLinks(dir, 'README.md');
      assert.deepEqual(problems.map((p) => p.split(': ')[0] + ': ' + p.split(': ')[1]), [
        'README.md:6: docs/missing.md', 'README.md:6: docs/nope.png', 'README.md:7: docs/a.md#saved-work', 'README.md:7: ../outside.md',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('every relative link and image in README.md and docs/*.md resolves, anchors included', () => {
    const files = docFiles();
    assert.ok(files.length > 5, `expected the docs pages, found ${files.join(' ')}`);
    const problems = linkedFiles().flatMap((f) => brokenLinks(repoRoot, f));
    assert.deepEqual(problems, []);
  });

  it('every docs page is reachable from the README', () => {
    const linked = new Set(linkTargets(fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8')).map((l) => l.target.split('#')[0]));
    const missing = docFiles().filter((f) => f !== 'README.md' && !linked.has(f));
    assert.deepEqual(missing, [], 'docs pages the README does not link');
  });

  it('the README is a front door: at most 200 lines, the two commands within the first 40', () => {
    const lines = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8').replace(/\n$/, '').split('\n');
    assert.ok(lines.length <= 200, `README.md has ${lines.length} lines (at most 200)`);
    const first = lines.slice(0, 40);
    assert.ok(first.some((l) => /^scripts\/serve\b/.test(l)), 'scripts/serve (build + serve on 127.0.0.1) is not in the first 40 lines');
    assert.ok(first.some((l) => /^scripts\/test\b/.test(l)), 'scripts/test (every test) is not in the first 40 lines');
    assert.match(fs.readFileSync(path.join(repoRoot, '.ci', 'run'), 'utf8'), /^bash scripts\/test$/m, '.ci/run no longer runs the README\'s test command');
  });

  it('docs.html links README.md and every docs page', () => {
    const html = fs.readFileSync(path.join(repoRoot, 'web', 'docs.html'), 'utf8');
    const hrefs = new Set([...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]));
    const missing = docFiles().filter((f) => !hrefs.has(f));
    assert.deepEqual(missing, [], 'pages docs.html does not link');
  });
});
