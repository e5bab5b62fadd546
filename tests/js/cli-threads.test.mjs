// The CLI's --threads N and EMBEDLAB_THREADS (issue 25): bad values are refused with their range,
// and a command that runs on the engine's thread pool prints the same bytes at 1, 2, 3 and 4
// threads (src/core/parallel.hpp: fixed blocks, so the results never depend on the thread count).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cli } from './cli-fixtures.mjs';
import { npyBytes, rng } from './table-files.mjs';

let dir;
let table;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-threads-'));
  // 9,000 rows: five blocks of the neighbours scan (2,048 rows each)
  const rand = rng(25);
  const t = new Float32Array(9000 * 24).map(() => rand() - 0.5);
  table = path.join(dir, 'table.npy');
  fs.writeFileSync(table, npyBytes(t, 9000, 24));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const run = (args, env = {}) => spawnSync(cli, args, { encoding: 'utf8', env: { ...process.env, ...env } });

describe('cli --threads', () => {
  it('refuses a count outside [1, 64], or not an integer, naming it; EMBEDLAB_THREADS too', () => {
    for (const [args, env, message] of [
      [['--threads', '0'], {}, 'embedlab: --threads 0 out of range [1, 64]'],
      [['--threads', '65'], {}, 'embedlab: --threads 65 out of range [1, 64]'],
      [['--threads', 'two'], {}, "embedlab: --threads: expected an integer, got 'two'"],
      [[], { EMBEDLAB_THREADS: '0' }, "embedlab: EMBEDLAB_THREADS: '0' is not an integer in [1, 64]"],
      [[], { EMBEDLAB_THREADS: 'many' }, "embedlab: EMBEDLAB_THREADS: 'many' is not an integer in [1, 64]"],
    ]) {
      const r = run(['neighbours', '--table', table, '--id', '3', ...args], env);
      assert.equal(r.status, 2, `${args.join(' ')} ${JSON.stringify(env)}: status ${r.status}`);
      assert.equal(r.stderr.trim(), message);
    }
  });

  it('neighbours: the same bytes at 1, 2, 3 and 4 threads, by flag and by EMBEDLAB_THREADS, cosine and euclidean', () => {
    for (const metric of ['cosine', 'euclidean']) {
      const args = ['neighbours', '--table', table, '--id', '17', '--k', '25', '--metric', metric];
      const one = run([...args, '--threads', '1']);
      assert.equal(one.status, 0, one.stderr);
      assert.match(one.stdout, /\d/);
      for (const n of ['2', '3', '4']) {
        const byFlag = run([...args, '--threads', n]);
        const byEnv = run(args, { EMBEDLAB_THREADS: n });
        assert.equal(byFlag.stdout, one.stdout, `${metric}, --threads ${n}`);
        assert.equal(byEnv.stdout, one.stdout, `${metric}, EMBEDLAB_THREADS=${n}`);
      }
    }
  });
});
