// Runs the JS example of docs/js-api.md (scripts/example-api.mjs) and checks what it prints, so the
// documented example keeps working.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './load-engine.mjs';

describe('docs/js-api.md example', () => {
  it('prints the torch numbers, identical one-hot bits, GPT-2 ids and the error message', () => {
    const out = execFileSync(process.execPath, [path.join(repoRoot, 'scripts/example-api.mjs')], { encoding: 'utf8' });
    const lines = Object.fromEntries(out.trim().split('\n').map((l) => [l.slice(0, 16).trim(), l.slice(16).trim()]));
    // LLMs-from-scratch embeddings-and-linear-layers: manual_seed(123); nn.Embedding(4, 5).weight[0]
    assert.equal(lines['W[0]'], '0.3374 -0.1778 -0.3035 -0.5880 1.5810');
    assert.equal(lines['same bits'], 'true');
    assert.equal(lines['sinusoidal[1]'], '0.8415 0.5403 0.0998 0.9950 0.0100 0.9999 0.0010 1.0000');
    assert.equal(lines['gpt2 ids'], '15496 995');
    assert.equal(lines.error, 'lookup: token id 4 out of range [0, 4)');
  });
});
