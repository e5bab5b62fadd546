// Type-checks docs.html's examples and page script against the hand-written web/embedlab.d.ts
// (tsc --noEmit -p web/tsconfig.docs.json), and checks that the check is real: a copy of the
// examples with a misspelt method and a wrong argument type must fail.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './load-engine.mjs';

const tsc = path.join(repoRoot, 'node_modules', '.bin', 'tsc');

function typeCheck(project) {
  const r = spawnSync(tsc, ['--noEmit', '--pretty', 'false', '-p', project], { encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('embedlab.d.ts', () => {
  it('the examples and docs/page.js type-check against it', () => {
    assert.ok(fs.existsSync(tsc), `${tsc} missing. HINT: npm ci`);
    const { status, out } = typeCheck(path.join(repoRoot, 'web', 'tsconfig.docs.json'));
    assert.equal(status, 0, out);
  });

  it('a type error in a copy of the examples is caught', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-tsc-'));
    try {
      fs.mkdirSync(path.join(dir, 'docs'));
      fs.copyFileSync(path.join(repoRoot, 'web', 'embedlab.d.ts'), path.join(dir, 'embedlab.d.ts'));
      fs.copyFileSync(path.join(repoRoot, 'web', 'tsconfig.docs.json'), path.join(dir, 'tsconfig.json'));
      const src = fs.readFileSync(path.join(repoRoot, 'web', 'docs', 'examples.js'), 'utf8');
      const broken = src
        .replace('emb.forward([2, 4, 2])', 'emb.forwad([2, 4, 2])')
        .replace("{ maxLength: 4, stride: 4, batchSize: 4 }", "{ maxLength: '4', stride: 4, batchSize: 4 }");
      assert.notEqual(broken, src);
      fs.writeFileSync(path.join(dir, 'docs', 'examples.js'), broken);
      fs.writeFileSync(path.join(dir, 'docs', 'page.js'), '// @ts-check\n');
      const { status, out } = typeCheck(dir);
      assert.notEqual(status, 0, 'tsc accepted the broken copy');
      assert.match(out, /error TS2551: Property 'forwad' does not exist on type 'Embedding'/);
      assert.match(out, /error TS2322: Type 'string' is not assignable to type 'number'/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
