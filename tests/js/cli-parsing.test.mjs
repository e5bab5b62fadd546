// node:test for the embedlab CLI's parsing (flags before or after FILE, switches without values,
// no stray words, no duplicates, --memory-limit) and output (stdout that cannot be written: exit 3;
// no file on a wrong flag; --help and the usage). Runs the native binary: EMBEDLAB_CLI, else
// build/native/embedlab (cli-fixtures.mjs).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { cli, run, json, fails, dir, corpus, table, vocab, missing } from './cli-fixtures.mjs';

describe('parsing', () => {
  it('takes flags before or after FILE, and --name=value like --name value', () => {
    const before = json(['tokenize', '--encoding', 'word', '--lowercase', corpus]);
    assert.deepEqual(json(['tokenize', corpus, '--encoding', 'word', '--lowercase']), before);
    assert.deepEqual(json(['tokenize', '--lowercase', corpus, '--encoding=word']), before);
    assert.deepEqual(json(['tokenize', '--encoding', 'word', '--lowercase', '--', corpus]), before);
  });

  it('does not let a switch swallow FILE: train ... --scale FILE', () => {
    const s = json(['train', '--model', 'next-token', '--encoding', 'char', '--seed', '1', '--steps', '2', '--context', '4',
      '--batch-size', '2', '--vector-size', '4', '--scale', corpus]);
    assert.equal(s.settings.scale, true);
    assert.equal(s.steps, 2);
  });

  it('rejects a value on a switch, true or false alike', () => {
    const base = ['lookup', '--num-embeddings', '3', '--embedding-dim', '2', '--ids', '1'];
    fails([...base, '--scale=false'], "--scale: is a switch and takes no value, got 'false'");
    fails([...base, '--scale=true'], "--scale: is a switch and takes no value, got 'true'");
    assert.notDeepEqual(json([...base, '--scale']).data, json(base).data);
  });

  it('keeps windows --drop-last a valued flag', () => {
    const base = ['windows', '--encoding', 'char', '--max-length', '4', '--stride', '4', '--batch-size', '2', corpus];
    assert.equal(json([...base, '--drop-last', 'false']).batches, 6);
    assert.equal(json([...base, '--drop-last=true']).batches, 5);
  });

  it('reads a negative number as a value, and a --word as a missing value', () => {
    assert.deepEqual(json(['init', '--num-embeddings', '3', '--embedding-dim', '2', '--padding-idx', '-1']).data.slice(4), [0, 0]);
    fails(['init', '--num-embeddings', '--embedding-dim', '2'], '--num-embeddings: needs a value (V)');
    fails(['init', '-x'], '-x: is not an option of init');
  });

  it('prints numbers as written in range messages', () => {
    fails(['lookup', '--num-embeddings', '3', '--embedding-dim', '2', '--ids', '1', '--max-norm', '-0.5'],
      '--max-norm -0.5 out of range [0, 3.4e+38]');
    fails(['train', '--model', 'next-token', '--encoding', 'char', '--seed', '1', '--valid-fraction', '0.95', corpus],
      '--valid-fraction 0.95 out of range [0, 0.9]');
    fails(['init', '--seed', '99999999999999999999', '--num-embeddings', '1', '--embedding-dim', '1'],
      '--seed 99999999999999999999 out of range [0, 9223372036854775807]');
  });

  it('applies --memory-limit and EMBEDLAB_MEMORY_LIMIT before anything is allocated', () => {
    // (lookup: init would refuse to print 10^10 values first, tests/js/cli-output.test.mjs)
    fails(['lookup', '--num-embeddings', '100000', '--embedding-dim', '100000', '--ids', '1', '--memory-limit', '1GiB'],
      'Embedding: table 100000 x 100000 float32 need 37.3 GiB; the limit here is 1.0 GiB');
    fails(['init', '--num-embeddings', '1', '--embedding-dim', '1', '--memory-limit', 'lots'],
      "--memory-limit: expected a size such as 512MiB or 8GiB, got 'lots'");
    const r = run(['tokenize', '--encoding', 'char', corpus], { env: { ...process.env, EMBEDLAB_MEMORY_LIMIT: '16' } });
    assert.deepEqual({ status: r.status, stderr: r.stderr, stdout: r.stdout },
      { status: 2, stderr: `embedlab: tokenize: file '${corpus}' 46 bytes need 46 B; the limit here is 16 B\n`, stdout: '' });
    // the flag wins over the environment
    const flag = run(['tokenize', '--encoding', 'char', '--memory-limit', '1MiB', corpus], { env: { ...process.env, EMBEDLAB_MEMORY_LIMIT: '16' } });
    assert.equal(flag.status, 0, flag.stderr);
  });
});

describe('output', () => {
  it('exits 3 with a message when stdout cannot be written (> /dev/full)', () => {
    const full = fs.openSync('/dev/full', 'w');
    try {
      for (const args of [['init', '--num-embeddings', '2', '--embedding-dim', '2'], ['--help']]) {
        const r = run(args, { stdio: ['ignore', full, 'pipe'] });
        assert.equal(r.status, 3, `embedlab ${args.join(' ')}`);
        assert.equal(r.stderr, 'embedlab: cannot write the output: No space left on device\n');
      }
    } finally {
      fs.closeSync(full);
    }
  });

  it('writes no output file when a flag is wrong', () => {
    const out = path.join(dir, 'never.txt');
    fails(['bpe-train', '--vocab-size', '260', corpus, '-o', out, '--scale'], '--scale: is not an option of bpe-train');
    assert.equal(fs.existsSync(out), false);
  });

  it('lists every command and every flag in --help, generated from the declarations', () => {
    const r = run(['--help']);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /^  embedlab kinds$/m, 'kinds');
    for (const c of ['init', 'lookup', 'posenc', 'tokenize', 'decode', 'bpe-train', 'windows', 'bench lookup',
      'bench tokenize', 'bench train', 'train', 'generate', 'neighbours', 'analogy', 'pca', 'inspect', 'convert', 'umap', 'bench umap', 'tsne', 'bench tsne']) {
      assert.match(r.stdout, new RegExp(`^  embedlab ${c} `, 'm'), c);
      // each flag the command's help lists appears in the overview and is accepted by the parser
      const help = run([...c.split(' '), '--help']);
      assert.equal(help.status, 0, c);
      const line = r.stdout.split('\n').find((l) => l.startsWith(`  embedlab ${c} `));
      for (const [, flag] of help.stdout.matchAll(/^ {2}(?:-o, )?--([a-z0-9-]+)/gm)) {
        if (flag !== 'memory-limit' && flag !== 'threads') assert.ok(line.includes(`--${flag}`), `${c} --${flag}`); // global flags: listed once
        const bad = run([...c.split(' '), `--${flag}`, `--${flag}`]);
        assert.doesNotMatch(bad.stderr, /is not an option/, `${c} --${flag}`);
      }
    }
    assert.match(r.stdout, /--memory-limit SIZE/);
    assert.match(r.stdout, /Exit codes: 0 success; 2 bad input/);
  });

  it('prints the usage on stderr for an unknown command', () => {
    const r = run(['frobnicate']);
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^embedlab: unknown command 'frobnicate'\nusage: embedlab <command>/);
  });
});
