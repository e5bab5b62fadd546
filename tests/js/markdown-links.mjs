// Links in Markdown, for the docs tests: the link targets of a page (code blocks and code spans left
// out), GitHub's heading anchors, and the relative links of a page that name no file or no heading.
// It reads files only; it fetches nothing and does not check links to other sites.
import fs from 'node:fs';
import path from 'node:path';

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
