// The docs hold together: every relative link and image in README.md, docs/*.md (and web/README.md) names a file
// that exists, every #anchor into a .md file names one of its headings (GitHub's slug rules), the
// README stays a front door (at most 200 lines, the two commands within its first 40, the test
// command the one .ci/run runs), and docs.html lists every docs page.
// It does not check links to other sites (nothing is fetched) nor the built site (docs-site.test.mjs).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './load-engine.mjs';

// Markdown text with fenced code blocks and inline code spans blanked out (links inside code are
// examples, not links). Line structure is kept so messages can name line numbers.
export function withoutCode(md) {
  let fenced = false;
  return md.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) { fenced = !fenced; return ''; }
    return fenced ? '' : line.replace(/`+[^`]*`+/g, '');
  }).join('\n');
}

// GitHub's heading anchors: lower case, punctuation dropped (letters, digits, spaces, '-' and '_'
// kept), spaces to '-'; a repeated slug gets -1, -2, ... . E.g. "Widgets: `<embedlab-view>` in an
// article" -> "widgets-embedlab-view-in-an-article".
export function headingSlugs(md) {
  const seen = new Map();
  const slugs = new Set();
  let fenced = false;
  for (const line of md.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) { fenced = !fenced; continue; }
    const m = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const text = m[1].replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]*>/g, (t) => t.replace(/[<>]/g, ''));
    const base = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    slugs.add(n === 0 ? base : `${base}-${n}`);
  }
  return slugs;
}

// Every link target of a Markdown text: [text](target), ![alt](target), <a href>, <img src>.
// -> [{line, target}]
export function linkTargets(md) {
  const out = [];
  withoutCode(md).split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push({ line: i + 1, target: m[1] });
    for (const m of line.matchAll(/<(?:a|img)\s[^>]*?(?:href|src)="([^"]+)"/g)) out.push({ line: i + 1, target: m[1] });
  });
  return out;
}

// Problems with the relative links of file (a path under root) -> ['README.md:12: ...', ...]
export function brokenLinks(root, file) {
  const md = fs.readFileSync(path.join(root, file), 'utf8');
  const problems = [];
  for (const { line, target } of linkTargets(md)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:: another site, not checked here
    const [rawPath, anchor] = target.split('#');
    const linked = rawPath === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(rawPath)));
    const where = `${file}:${line}: ${target}`;
    if (linked.startsWith('..') || path.isAbsolute(linked)) { problems.push(`${where}: points outside the repository`); continue; }
    if (!fs.existsSync(path.join(root, linked))) { problems.push(`${where}: ${linked} does not exist`); continue; }
    if (anchor !== undefined && linked.endsWith('.md')) {
      const slugs = headingSlugs(fs.readFileSync(path.join(root, linked), 'utf8'));
      if (!slugs.has(anchor)) problems.push(`${where}: ${linked} has no heading #${anchor} (it has ${[...slugs].join(', ')})`);
    }
  }
  return problems;
}

const docFiles = () => ['README.md', ...fs.readdirSync(path.join(repoRoot, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const linkedFiles = () => [...docFiles(), 'web/README.md'];

describe('docs links', () => {
  it('the checker finds a broken link, a missing image and a wrong anchor, and passes good ones', () => {
    const dir = fs.mkdtempSync(path.join(repoRoot, 'build', 'docs-links-'));
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
