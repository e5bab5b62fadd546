// `embedlab tokenize --encoding gpt2 --threads N` (issue 25): the long text is encoded in chunks on
// the thread pool (src/tokenizer/gpt2.cpp), and the CLI prints the same bytes at 1, 2, 3 and 4
// threads, with and without --allow-special, as it does without the flag.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cli } from './cli-fixtures.mjs';

const shakespeare = new URL('../../web/corpora/tinyshakespeare.txt', import.meta.url).pathname;
const run = (args) => spawnSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 26 });

describe('cli tokenize --threads', () => {
  it('tinyshakespeare (1.1 MB, about 34 chunks): the same bytes at 1, 2, 3 and 4 threads', () => {
    const one = run(['tokenize', '--encoding', 'gpt2', shakespeare, '--threads', '1']);
    assert.equal(one.status, 0, one.stderr);
    assert.equal(JSON.parse(one.stdout).tokens, 338025);
    for (const n of ['2', '3', '4']) {
      const r = run(['tokenize', '--encoding', 'gpt2', shakespeare, '--threads', n]);
      assert.equal(r.stdout, one.stdout, `--threads ${n}`);
    }
  });

  it('special tokens between long runs, whitespace runs and Unicode: the same bytes at 1 to 4 threads', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-tokenize-threads-'));
    try {
      const unit = `To be, or not to be: that's the question.<|endoftext|>${' '.repeat(3000)}\n\nЖили-были 中文 café 😀 ${'y'.repeat(20000)} `;
      const file = path.join(dir, 'mix.txt');
      fs.writeFileSync(file, unit.repeat(12));
      for (const special of [[], ['--allow-special']]) {
        const args = ['tokenize', '--encoding', 'gpt2', ...special, file];
        const one = run([...args, '--threads', '1']);
        assert.equal(one.status, 0, one.stderr);
        for (const n of ['2', '3', '4']) assert.equal(run([...args, '--threads', n]).stdout, one.stdout, `${special} --threads ${n}`);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
