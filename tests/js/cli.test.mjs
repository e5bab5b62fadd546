// node:test for the embedlab CLI's contract: strict parsing (flags before or after FILE, switches
// without values, no stray words, no duplicates), exit code 2 with one "embedlab: ..." line on
// stderr and nothing on stdout for every command's mistakes, files that are directories or
// missing, output files that cannot be written, and stdout that cannot be written (exit 3).
// Runs the native binary: EMBEDLAB_CLI, else build/native/embedlab.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './load-engine.mjs';
import { npyBytes } from './table-files.mjs';

const cli = process.env.EMBEDLAB_CLI || path.join(repoRoot, 'build/native/embedlab');

function run(args, options = {}) {
  return spawnSync(cli, args, { encoding: 'utf8', ...options });
}

// Runs a successful command and returns its stdout parsed as JSON.
function json(args) {
  const r = run(args);
  assert.equal(r.status, 0, `embedlab ${args.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

// Asserts exit code 2, exactly "embedlab: <message>\n" on stderr and an empty stdout.
function fails(args, message) {
  const r = run(args);
  assert.deepEqual({ status: r.status, stderr: r.stderr, stdout: r.stdout },
    { status: 2, stderr: `embedlab: ${message}\n`, stdout: '' }, `embedlab ${args.join(' ')}`);
}

// float32 (rows, cols) -> the bytes of a version 1.0 .npy file, as numpy writes it.
const npy = (rows, cols, values) => npyBytes(Float32Array.from(values), rows, cols);

let dir, corpus, table, vocab, missing;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-cli-'));
  corpus = path.join(dir, 'corpus.txt');
  fs.writeFileSync(corpus, 'the cat sat on the mat\nthe dog sat on the log\n');
  table = path.join(dir, 'table.npy');
  fs.writeFileSync(table, npy(4, 3, [1, 0, 0, 0.9, 0.1, 0, 0, 1, 0, 0, 0, 1]));
  vocab = path.join(dir, 'metadata.tsv');
  fs.writeFileSync(vocab, 'king\nqueen\nman\nwoman\n');
  missing = path.join(dir, 'missing.txt');
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const notFound = (where, p) => `${where}: cannot open '${p}': No such file or directory`;
const isDirectory = (where, p) => `${where}: '${p}' is a directory, expected a file`;

describe('every command: exit code 2, one line on stderr, nothing on stdout', () => {
  it('init', () => {
    const base = ['init', '--seed', '1', '--num-embeddings', '3', '--embedding-dim', '2'];
    assert.deepEqual(json(base).shape, [3, 2]);
    fails([...base, '--bogus'], '--bogus: is not an option of init');
    fails([...base, 'stray'], "init: unexpected argument 'stray' (init takes no FILE)");
    fails([...base, '--seed', '2'], '--seed: given twice');
    fails(['init', '--num-embeddings', '3'], '--embedding-dim: is required');
    fails(['init', '--num-embeddings', 'x', '--embedding-dim', '2'], "--num-embeddings: expected an integer, got 'x'");
    fails(['init', '--num-embeddings', '0', '--embedding-dim', '2'], '--num-embeddings 0 out of range [1, 2147483647]');
    fails(['init', '--num-embeddings', '3', '--embedding-dim'], '--embedding-dim: needs a value (D)');
  });

  it('lookup', () => {
    const base = ['lookup', '--num-embeddings', '3', '--embedding-dim', '2', '--ids', '2,0'];
    assert.deepEqual(json(base).shape, [2, 2]);
    fails([...base, '--bogus=1'], '--bogus: is not an option of lookup');
    fails([...base, 'stray'], "lookup: unexpected argument 'stray' (lookup takes no FILE)");
    fails([...base, '--ids', '1'], '--ids: given twice');
    fails(['lookup', '--num-embeddings', '3', '--embedding-dim', '2'], '--ids: is required');
    fails([...base, '--max-norm', 'big'], "--max-norm: expected a finite number, got 'big'");
    fails(['lookup', '--num-embeddings', '3', '--embedding-dim', '2', '--ids', '1,x'], "--ids: expected an integer, got 'x'");
    // an integer is -?[0-9]+, and a list has no empty item (issue 22: '+5', '' and '1,2,' were accepted)
    const lookupIds = (ids) => ['lookup', '--num-embeddings', '3', '--embedding-dim', '2', '--ids', ids];
    fails(lookupIds('+1'), "--ids: expected an integer, got '+1'");
    fails(lookupIds(''), "--ids: expected comma-separated integers, got '' (item 1 is empty)");
    fails(lookupIds('1,2,'), "--ids: expected comma-separated integers, got '1,2,' (item 3 is empty)");
    fails(lookupIds('1,,2'), "--ids: expected comma-separated integers, got '1,,2' (item 2 is empty)");
    fails(['init', '--num-embeddings', '+3', '--embedding-dim', '2'], "--num-embeddings: expected an integer, got '+3'");
    fails(['lookup', '--num-embeddings', '3', '--embedding-dim', '2', '--ids', '3'], 'lookup: token id 3 out of range [0, 3)');
  });

  it('posenc', () => {
    const base = ['posenc', '--kind', 'sinusoidal', '--positions', '3', '--dim', '4'];
    assert.deepEqual(json(base).shape, [3, 4]);
    fails([...base, '--bogus'], '--bogus: is not an option of posenc');
    fails([...base, 'stray'], "posenc: unexpected argument 'stray' (posenc takes no FILE)");
    fails([...base, '--dim=2'], '--dim: given twice');
    fails(['posenc', '--positions', '3', '--dim', '4'], '--kind: is required');
    fails([...base, '--base', '0.5'], '--base 0.5 out of range [1, 1000000000000]');
    fails([...base, '--base', 'inf'], "--base: expected a finite number, got 'inf'");
  });

  it('tokenize', () => {
    const base = ['tokenize', '--encoding', 'char', corpus];
    assert.equal(json(base).bytes, 46);
    fails([...base, '--bogus'], '--bogus: is not an option of tokenize');
    fails([...base, 'stray'], "tokenize: unexpected argument 'stray' (tokenize takes FILE)");
    fails([...base, '--encoding', 'word'], '--encoding: given twice');
    fails(['tokenize', corpus], '--encoding: is required');
    fails(['tokenize', '--encoding', 'char'], 'tokenize: missing the input FILE');
    fails([...base, '--min-count', '0'], '--min-count 0 out of range [1, 9223372036854775807]');
    fails(['tokenize', '--encoding', 'char', dir], isDirectory('tokenize', dir));
    fails(['tokenize', '--encoding', 'char', missing], notFound('tokenize', missing));
    fails(['tokenize', '--encoding', `bpe:${missing}`, corpus], notFound('--encoding', missing));
    fails(['tokenize', '--encoding', 'char', '--memory-limit', '1MiB', '/dev/zero'],
      "tokenize: file '/dev/zero' 1119744 bytes need 1.1 MiB; the limit here is 1.0 MiB");
  });

  it('tokenize --encoding bpe:FILE whose tokens double each line: the token cap, before any token is built', () => {
    // the 436-byte file (also the bpe_load fuzz regression): with 256 MiB allowed, the
    // cap on one token's length (1 MiB) stops it, not the memory plan after ~256 MiB of tokens
    const merges = path.join(dir, 'doubling.bpe');
    fs.copyFileSync(path.join(repoRoot, 'tests/fuzz/regressions/bpe_load/doubling-tokens-436-bytes'), merges);
    assert.equal(fs.statSync(merges).size, 436);
    fails(['tokenize', '--encoding', `bpe:${merges}`, '--memory-limit', '256MiB', corpus],
      'bpe load: line 24: token 276 would be 2097152 bytes long; the longest allowed is 1048576 bytes (1.0 MiB)');
  });

  it('decode', () => {
    assert.equal(json(['decode', '--encoding', 'gpt2', '--ids', '40,367']).text, 'I H');
    const base = ['decode', '--encoding', 'char', '--ids', '4', corpus];
    assert.equal(json(base).text.length, 1);
    fails([...base, '--bogus'], '--bogus: is not an option of decode');
    fails([...base, 'stray'], "decode: unexpected argument 'stray' (decode takes [FILE])");
    fails(['decode', '--encoding', 'gpt2', '--ids', '1', 'stray'], "decode: unexpected argument 'stray' (--encoding gpt2 takes no FILE)");
    fails([...base, '--ids', '5'], '--ids: given twice');
    fails(['decode', '--encoding', 'gpt2'], '--ids: is required');
    fails(['decode', '--encoding', 'char', '--ids', '4'], 'decode: --encoding char needs the corpus FILE to rebuild the vocabulary');
    fails(['decode', '--encoding', 'gpt2', '--ids', '99999999999'], '--ids 99999999999 out of range [-2147483648, 2147483647]');
    fails(['decode', '--encoding', 'char', '--ids', '4', dir], isDirectory('decode', dir));
    fails(['decode', '--encoding', 'char', '--ids', '4', missing], notFound('decode', missing));
  });

  it('bpe-train', () => {
    const out = path.join(dir, 'merges.txt');
    const base = ['bpe-train', '--vocab-size', '260', corpus, '-o', out];
    assert.equal(json(base).vocab_size, 260);
    assert.match(fs.readFileSync(out, 'utf8'), /^embedlab-bpe 1\n/);
    fails([...base, '--bogus'], '--bogus: is not an option of bpe-train');
    fails([...base, 'stray'], "bpe-train: unexpected argument 'stray' (bpe-train takes FILE)");
    fails([...base, '--out', out], '--out: given twice');
    fails(['bpe-train', '--vocab-size', '260', corpus], '--out: is required');
    fails(['bpe-train', '--vocab-size', '255', corpus, '-o', out], '--vocab-size 255 out of range [256, 1048576]');
    fails(['bpe-train', '--vocab-size', '260', dir, '-o', out], isDirectory('bpe-train', dir));
    fails(['bpe-train', '--vocab-size', '260', missing, '-o', out], notFound('bpe-train', missing));
    const nowhere = path.join(dir, 'no-such-dir', 'merges.txt');
    fails(['bpe-train', '--vocab-size', '260', corpus, '-o', nowhere], `--out: cannot write '${nowhere}': No such file or directory`);
    fails(['bpe-train', '--vocab-size', '260', corpus, '-o', dir], `--out: '${dir}' is a directory, expected a file`);
  });

  it('windows', () => {
    const base = ['windows', '--encoding', 'char', '--max-length', '4', '--stride', '4', '--batch-size', '2', corpus];
    assert.equal(json(base).samples, 11);
    fails([...base, '--bogus'], '--bogus: is not an option of windows');
    fails([...base, 'stray'], "windows: unexpected argument 'stray' (windows takes FILE)");
    fails([...base, '--stride', '2'], '--stride: given twice');
    fails(['windows', '--encoding', 'char', '--max-length', '4', '--batch-size', '2', corpus], '--stride: is required');
    fails([...base, '--limit', '-1'], '--limit -1 out of range [0, 9223372036854775807]');
    fails([...base, '--drop-last', 'maybe'], "--drop-last: expected true or false, got 'maybe'");
    fails([...base, '--drop-last'], '--drop-last: needs a value (true|false)');
    fails([...base, '--shuffle=yes'], "--shuffle: is a switch and takes no value, got 'yes'");
    fails(['windows', '--encoding', 'char', '--max-length', '4', '--stride', '4', '--batch-size', '2', dir], isDirectory('windows', dir));
    fails(['windows', '--encoding', 'char', '--max-length', '4', '--stride', '4', '--batch-size', '2', missing], notFound('windows', missing));
  });

  it('bench', () => {
    fails(['bench'], 'bench: expected lookup, table, tokenize, train, umap or tsne');
    fails(['bench', 'sort'], "bench: unknown benchmark 'sort', expected lookup, table, tokenize, train, umap or tsne");
    fails(['bench', 'tsne', '--rows', '4'], '--rows 4 out of range [5, 100000]');
    fails(['bench', 'tsne', '--theta', '-1'], '--theta -1 out of range [0, 1]');
    fails(['bench', 'lookup', '--bogus'], '--bogus: is not an option of bench lookup');
    fails(['bench', 'lookup', 'stray'], "bench lookup: unexpected argument 'stray' (bench lookup takes no FILE)");
    fails(['bench', 'lookup', '--reps', '1', '--reps', '2'], '--reps: given twice');
    fails(['bench', 'lookup', '--reps', '0'], '--reps 0 out of range [1, 1000]');
    fails(['bench', 'tokenize', corpus], '--encoding: is required');
    fails(['bench', 'tokenize', '--encoding', 'char', corpus, 'stray'], "bench tokenize: unexpected argument 'stray' (bench tokenize takes FILE)");
    fails(['bench', 'tokenize', '--encoding', 'char', dir], isDirectory('bench tokenize', dir));
    fails(['bench', 'tokenize', '--encoding', 'char', missing], notFound('bench tokenize', missing));
    fails(['bench', 'train', '--model', 'skipgram'], 'bench train: missing the input FILE');
    fails(['bench', 'train', '--model', 'next-token', corpus], `bench train: unexpected argument '${corpus}' (--model next-token takes no FILE)`);
    fails(['bench', 'train', '--model', 'next-token', '--window', '3'], '--window: is not an option of bench train --model next-token');
    fails(['bench', 'train', '--steps', 'many', '--model', 'next-token'], "--steps: expected an integer, got 'many'");
    fails(['bench', 'train', dir], isDirectory('bench train', dir));
  });

  it('train', () => {
    const base = ['train', '--model', 'next-token', '--encoding', 'char', '--seed', '1', '--steps', '2', '--context', '4',
      '--batch-size', '2', '--vector-size', '4', corpus];
    assert.equal(json(base).steps, 2);
    fails([...base, '--bogus'], '--bogus: is not an option of train');
    fails([...base, 'stray'], "train: unexpected argument 'stray' (train takes FILE)");
    fails([...base, '--seed', '2'], '--seed: given twice');
    fails(['train', '--model', 'next-token', '--encoding', 'char', corpus], '--seed: is required');
    fails([...base, '--valid-fraction', '2'], '--valid-fraction 2 out of range [0, 0.9]');
    fails([...base, '--lr', '1e'], "--lr: expected a finite number, got '1e'");
    fails([...base, '--window', '2'], '--window: is not an option of train --model next-token');
    fails(['train', '--model', 'skipgram', '--encoding', 'char', '--seed', '1', '--steps', '2', corpus],
      '--steps: is not an option of train --model skipgram');
    fails(['train', '--model', 'next-token', '--encoding', 'char', '--seed', '1', dir], isDirectory('train', dir));
    fails(['train', '--model', 'next-token', '--encoding', 'char', '--seed', '1', missing], notFound('train', missing));
    const nowhere = path.join(dir, 'no-such-dir', 't.npy');
    fails([...base, '--out', nowhere], `--out: cannot write '${nowhere}': No such file or directory`);
    fails([...base, '--out-tsv', corpus], `--out-tsv: '${corpus}' is not a directory`);
  });

  it('generate', () => {
    const state = path.join(dir, 'run.state');
    json(['train', '--model', 'next-token', '--encoding', 'word', '--seed', '1', '--steps', '3', '--context', '4',
      '--batch-size', '2', '--vector-size', '4', '--valid-fraction', '0', corpus, '--save-state', state]);
    const base = ['generate', '--state', state, '--prompt', 'the cat', '--tokens', '5', '--seed', '3'];
    const g = json(base);
    assert.deepEqual(Object.keys(g), ['text', 'ids']);
    assert.equal(g.ids.length, 5);
    assert.match(g.text, /^ \S/, 'a word vocabulary joins the continuation with a space');
    assert.deepEqual(json(base), g, 'the same seed gives the same text');
    assert.deepEqual(json([...base.slice(0, -2), '--seed', '3', '--temperature', '0']).ids.length, 5);
    fails([...base, '--bogus'], '--bogus: is not an option of generate');
    fails([...base, 'stray'], "generate: unexpected argument 'stray' (generate takes no FILE)");
    fails([...base, '--seed', '4'], '--seed: given twice');
    fails(['generate', '--state', state, '--prompt', 'the'], '--seed: is required');
    fails(['generate', '--prompt', 'the', '--seed', '1'], '--state: is required');
    fails([...base.slice(0, 5), '--seed', '1', '--tokens', '4097'], '--tokens 4097 out of range [0, 4096]');
    fails([...base, '--temperature', '-1'], 'generate: temperature must be finite and >= 0, got -1');
    fails(['generate', '--state', state, '--prompt', '', '--seed', '1'], 'generate: the prompt is empty; give at least one token');
    fails(['generate', '--state', missing, '--prompt', 'the', '--seed', '1'], notFound('--state', missing));
    fails(['generate', '--state', corpus, '--prompt', 'the', '--seed', '1'], 'checkpoint: not an embedlab checkpoint (it does not start with EMBLCKPT)');
  });

  it('neighbours', () => {
    const base = ['neighbours', '--table', table, '--id', '0', '--k', '1'];
    assert.deepEqual(json(base).neighbours.map((n) => n.id), [1]);
    fails([...base, '--bogus'], '--bogus: is not an option of neighbours');
    fails([...base, 'stray'], "neighbours: unexpected argument 'stray' (neighbours takes no FILE)");
    fails([...base, '--k', '2'], '--k: given twice');
    fails(['neighbours', '--id', '0'], '--table: is required');
    fails(['neighbours', '--table', table, '--id', '4'], '--id 4 out of range [0, 3]');
    fails(['neighbours', '--table', table], 'neighbours: give the query as --id N or as --word W (with --vocab), one of them');
    fails(['neighbours', '--table', table, '--vocab', vocab, '--id', '1', '--word', 'king'],
      'neighbours: give the query as --id N or as --word W (with --vocab), one of them');
    assert.equal(json(['neighbours', '--table', table, '--vocab', vocab, '--word', 'king', '--k', '1']).neighbours[0].label, 'queen');
    fails(['neighbours', '--table', dir, '--id', '0'], isDirectory('--table', dir));
    fails(['neighbours', '--table', missing, '--id', '0'], notFound('--table', missing));
    fails(['neighbours', '--table', corpus, '--id', '0'], `--table ${corpus}: import: cannot tell the format: not .npy `
      + "(no \\x93NUMPY magic), not safetensors (no header length and '{'), and line 1 is not a word2vec header 'N D', "
      + "a GloVe row 'word numbers', a savetxt row of numbers or a vectors.tsv row (formats read: npy, safetensors, tsv, "
      + 'word2vec-text, word2vec-binary, glove, savetxt)');
    fails(['neighbours', '--table', table, '--word', 'king', '--vocab', dir], isDirectory('--vocab', dir));
  });

  it('analogy', () => {
    const base = ['analogy', '--table', table, '--vocab', vocab, '--positive', 'king,woman', '--negative', 'man', '--k', '1'];
    assert.equal(json(base).neighbours.length, 1);
    fails([...base, '--bogus'], '--bogus: is not an option of analogy');
    fails([...base, 'stray'], "analogy: unexpected argument 'stray' (analogy takes no FILE)");
    fails([...base, '--negative', 'king'], '--negative: given twice');
    fails(['analogy', '--positive', '1'], '--table: is required');
    fails(['analogy', '--table', table, '--positive', '1', '--k', '1.5'], "--k: expected an integer, got '1.5'");
    fails(['analogy', '--table', dir, '--positive', '1'], isDirectory('--table', dir));
    fails(['analogy', '--table', table, '--vocab', missing, '--positive', 'king'], notFound('--vocab', missing));
  });

  it('pca', () => {
    const base = ['pca', '--table', table, '--k', '2'];
    assert.deepEqual(json(base).points.shape, [4, 2]);
    fails([...base, '--bogus'], '--bogus: is not an option of pca');
    fails([...base, 'stray'], "pca: unexpected argument 'stray' (pca takes no FILE)");
    fails([...base, '--k', '1'], '--k: given twice');
    fails(['pca', '--k', '2'], '--table: is required');
    fails(['pca', '--table', table, '--k', ' 2'], "--k: expected an integer, got ' 2'");
    fails(['pca', '--table', dir], isDirectory('--table', dir));
    fails(['pca', '--table', missing], notFound('--table', missing));
  });

  it('umap and bench umap', () => {
    const out = path.join(dir, 'map.npy');
    const base = ['umap', '--table', table, '--out', out, '--n-neighbors', '3', '--n-epochs', '5'];
    const r = json(base);
    assert.deepEqual([r.n, r.dim, r.n_neighbors, r.n_epochs, r.metric, r.knn], [4, 3, 3, 5, 'euclidean', 'exact']);
    assert.deepEqual(Object.keys(r.seconds), ['knn', 'graph', 'init', 'layout', 'total']);
    assert.equal(fs.statSync(out).size, 128 + 4 * 2 * 4);  // .npy header + 4 x 2 float32
    fails(['umap', '--table', table, '--out', out], 'umap: n_neighbors 15 out of range [2, 3] (n - 1 for 4 rows)');
    fails([...base, '--bogus'], '--bogus: is not an option of umap');
    fails(['umap', '--table', table, '--out', out, '--n-neighbors', '1'], '--n-neighbors 1 out of range [2, 3]');
    fails([...base, '--min-dist', '2'], '--min-dist 2 out of range [0, 1]');
    fails([...base, '--init', 'random'], "--init: unknown init 'random', expected spectral or pca");
    fails([...base, '--metric', 'manhattan'], "metric: unknown metric 'manhattan', expected cosine or euclidean");
    fails([...base, '--knn', 'annoy'], "--knn: unknown method 'annoy', expected auto, exact or nn-descent");
    fails(['umap', '--table', table], '--out: is required');
    fails(['umap', '--table', table, '--out', dir, '--n-neighbors', '3'], isDirectory('--out', dir));
    const b = json(['bench', 'umap', '--rows', '200', '--dim', '8', '--clusters', '3', '--n-epochs', '10', '--sample', '50']);
    assert.deepEqual([b.bench, b.rows, b.dim, b.metric, b.quality.sample], ['umap', 200, 8, 'cosine', 50]);
    fails(['bench', 'umap', '--rows', '200', '--clusters', '201'], '--clusters 201 out of range [1, 200]');
  });
});

describe('tsne', () => {
  it('writes the (n, 2) map and reports the phases; bad values name the limit', () => {
    const rows = 40, values = [];
    for (let i = 0; i < rows * 3; i++) values.push(((i * 7919) % 113) / 113 + (i % 3 === 0 ? Math.floor(i / 3) % 2 : 0));
    const t = path.join(dir, 'tsne.npy');
    fs.writeFileSync(t, npy(rows, 3, values));
    const out = path.join(dir, 'coords.npy');
    const base = ['tsne', '--table', t, '--perplexity', '5', '--iterations', '60', '--seed', '3', '--out', out];
    const r = json(base);
    assert.deepEqual([r.n, r.dim, r.iterations, r.exact, r.learning_rate, r.metric, r.init], [40, 3, 60, true, 200, 'euclidean', 'random']);
    assert.deepEqual(Object.keys(r.seconds), ['neighbours', 'affinities', 'layout', 'total']);
    assert.ok(Number.isFinite(r.kl) && r.kl > 0, `kl ${r.kl}`);
    const bytes = fs.readFileSync(out);
    assert.equal(bytes.length, 128 + rows * 2 * 4);
    assert.match(bytes.subarray(10, 128).toString('latin1'), /'shape': \(40, 2\)/);
    // the same seed gives the same file; a layout file continues from it
    const again = path.join(dir, 'coords2.npy');
    json([...base.slice(0, -1), again]);
    assert.ok(fs.readFileSync(again).equals(bytes));
    assert.equal(json([...base.slice(0, -1), again, '--init', out, '--learning-rate', 'auto']).learning_rate, 50);
    assert.equal(json([...base.slice(0, -1), again, '--init', 'pca', '--metric', 'cosine', '--theta', '0']).init, 'pca');
    fails(['tsne', '--table', t, '--out', out], 'tsne: perplexity 30 must be below (n - 1) / 3 = 13.00 for 40 rows');
    fails(['tsne', '--table', t], '--out: is required');
    fails(['tsne', '--out', out], '--table: is required');
    fails([...base, '--bogus'], '--bogus: is not an option of tsne');
    fails([...base, 'stray'], "tsne: unexpected argument 'stray' (tsne takes no FILE)");
    fails([...base, '--theta', '2'], 'tsne: theta 2 must be in [0, 1]');
    fails(['tsne', '--table', t, '--perplexity', '5', '--iterations', '0', '--out', out], 'tsne: iterations 0 out of range [1, 1000000000]');
    fails([...base, '--learning-rate', 'fast'], "--learning-rate: expected a finite number, got 'fast'");
    fails([...base, '--metric', 'manhattan'], "metric: unknown metric 'manhattan', expected cosine or euclidean");
    fails([...base, '--init', 'umap'], notFound('--init', 'umap'));
    fails([...base, '--init', t], `tsne: --init ${t} has shape (40, 3), expected (40, 2)`);
    fails(['tsne', '--table', missing, '--out', out], notFound('--table', missing));
    fails(['tsne', '--table', t, '--out', dir], isDirectory('--out', dir));
  });
});

describe('tables in every format: --table PATH[:TENSOR], inspect, convert', () => {
  const fixtures = path.join(repoRoot, 'tests/reference/tables');
  const model = path.join(fixtures, 'model.safetensors');
  const w2v = path.join(fixtures, 'w2v.bin');

  it('inspect lists tensors, dtypes, shapes and byte ranges', () => {
    const r = json(['inspect', '--table', model]);
    assert.equal(r.format, 'safetensors');
    assert.deepEqual(r.tensors.map((t) => [t.name, t.dtype, t.shape]).slice(0, 4),
      [['wte.weight', 'F32', [5, 4]], ['wpe.weight', 'F32', [3, 4]], ['half', 'F16', [5, 4]], ['brain', 'BF16', [5, 4]]]);
    assert.equal(r.tensors[0].end - r.tensors[0].begin, 80);
    assert.deepEqual(r.metadata, { format: 'pt', source: 'gen-table-fixtures.py' });
    assert.deepEqual(json(['inspect', '--table', w2v]).tensors[0].shape, [5, 4]);
    assert.equal(json(['inspect', '--table', path.join(fixtures, 'w_f16.npy')]).tensors[0].dtype, 'F16');
    fails(['inspect', '--table', missing], notFound('--table', missing));
    fails(['inspect', '--table', model, 'stray'], "inspect: unexpected argument 'stray' (inspect takes no FILE)");
  });

  it('--table PATH:TENSOR picks a safetensors tensor; a path with a colon still reads', () => {
    const a = json(['neighbours', '--table', `${model}:wte.weight`, '--id', '0', '--k', '4']);
    const b = json(['neighbours', '--table', w2v, '--id', '0', '--k', '4']);
    assert.deepEqual(a.neighbours, b.neighbours.map(({ id, score }) => ({ id, score })));
    assert.equal(json(['neighbours', '--table', w2v, '--word', 'cat', '--k', '1']).query.label, 'cat');
    assert.deepEqual(json(['pca', '--table', `${model}:half`, '--k', '2']).points.shape, [5, 2]);
    assert.deepEqual(json(['analogy', '--table', path.join(fixtures, 'glove.txt'), '--positive', 'the,cat', '--negative', 'sat', '--k', '1']).negative, [3]);
    const colon = path.join(dir, 'a:b.npy');
    fs.copyFileSync(table, colon);
    assert.deepEqual(json(['pca', '--table', colon]).points.shape, [4, 2]);
    fails(['pca', '--table', `${model}:nope`], `--table ${model}: read safetensors: no tensor 'nope'; the file has: `
      + 'wte.weight F32 [5, 4], wpe.weight F32 [3, 4], half F16 [5, 4], brain BF16 [5, 4], double F64 [2, 4], '
      + 'bias F32 [4], cube F32 [2, 2, 2], ints I32 [2, 2]');
    fails(['pca', '--table', `${model}:cube`], `--table ${model}: read safetensors: tensor 'cube': shape [2, 2, 2] has 3 dimensions; a table is 1-D or 2-D`);
  });

  it('convert writes .npy, .tsv + metadata.tsv, word2vec .txt and .bin that read back bit for bit', () => {
    const npyOut = path.join(dir, 'w.npy');
    json(['convert', '--table', w2v, '--out', npyOut]);
    assert.deepEqual(fs.readFileSync(npyOut), fs.readFileSync(path.join(fixtures, 'w_f32.npy')));
    const txt = path.join(dir, 'w.txt');
    const r = json(['convert', '--table', `${model}:wte.weight`, '--metadata', path.join(fixtures, 'metadata.tsv'), '-o', txt]);
    assert.deepEqual([r.format, r.rows, r.cols, r.labels], ['word2vec-text', 5, 4, true]);
    assert.equal(fs.readFileSync(txt, 'utf8'), fs.readFileSync(path.join(fixtures, 'w2v.txt'), 'utf8'));
    const tsvDir = path.join(dir, 'projector');
    fs.mkdirSync(tsvDir, { recursive: true });
    const t = json(['convert', '--table', txt, '--out', path.join(tsvDir, 'vectors.tsv')]);
    assert.deepEqual(t.files, [path.join(tsvDir, 'vectors.tsv'), path.join(tsvDir, 'metadata.tsv')]);
    const bin = path.join(dir, 'w.bin');
    json(['convert', '--table', path.join(tsvDir, 'vectors.tsv'), '--metadata', path.join(tsvDir, 'metadata.tsv'), '--out', bin]);
    assert.deepEqual(fs.readFileSync(bin), fs.readFileSync(w2v));
    const forced = path.join(dir, 'w.dat');
    json(['convert', '--table', bin, '--out', forced, '--format', 'word2vec-text']);
    assert.equal(fs.readFileSync(forced, 'utf8'), fs.readFileSync(txt, 'utf8'));
  });

  it('convert: bad input gives one line and writes nothing', () => {
    const out = path.join(dir, 'never.npy');
    fails(['convert', '--table', w2v, '--out', path.join(dir, 'x.csv')],
      `convert: cannot tell the format from '${path.join(dir, 'x.csv')}' (expected .npy, .tsv, .txt or .bin); give --format`);
    fails(['convert', '--table', w2v, '--out', out, '--format', 'csv'],
      "--format: unknown format 'csv', expected npy, tsv, word2vec-text or word2vec-binary");
    fails(['convert', '--table', w2v, '--out', out, '--metadata', vocab], `--metadata ${vocab}: read metadata: 4 rows for a table of 5 rows`);
    fails(['convert', '--table', w2v, '--out', out, '--metadata', vocab, '--vocab', vocab], 'convert: give labels as --metadata or as --vocab, not both');
    fails(['convert', '--out', out], '--table: is required');
    fails(['convert', '--table', path.join(fixtures, 'w_i32.npy'), '--out', out],
      `--table ${path.join(fixtures, 'w_i32.npy')}: read npy: dtype '<i4' is not supported (expected '<f4', '<f8' or '<f2')`);
    assert.equal(fs.existsSync(out), false);
  });
});

describe('tables read as what they are (issue 22): the format a name gives, empty tables, messages, JSON', () => {
  const le64 = (n) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    return b;
  };
  const file = (name, bytes) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, bytes);
    return p;
  };
  // stdout must be UTF-8 (a fatal decoder) and JSON
  const strictJson = (args) => {
    const r = spawnSync(cli, args);
    assert.equal(r.status, 0, `embedlab ${args.join(' ')} failed: ${r.stderr}`);
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(r.stdout));
  };

  it('a .safetensors with an absurd header length or a short header: the safetensors message, no output', () => {
    const json1 = Buffer.from('{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}');
    const absurd = file('absurd.safetensors', Buffer.concat([le64(2 ** 40), json1, Buffer.alloc(4)]));
    const out = path.join(dir, 'absurd.npy');
    const message = `--table ${absurd}: read safetensors: byte 0: the header length 1099511627776 is over the format's limit of 100000000 bytes`;
    fails(['convert', '--table', absurd, '--out', out], message);
    fails(['inspect', '--table', absurd], message);
    assert.equal(fs.existsSync(out), false);
    const short = file('short.safetensors', Buffer.concat([le64(json1.length + 100), json1, Buffer.alloc(4)]));
    fails(['inspect', '--table', short], `--table ${short}: read safetensors: the header needs ${json1.length + 108} bytes `
      + `(8 + its length ${json1.length + 100}), the file has ${json1.length + 12}: it is cut short`);
  });

  it('random bytes named .npy get the npy message; a table of 0 rows is refused before --id is checked', () => {
    const junk = file('junk.npy', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x09, 0x31, 0x0a, 0x32, 0x09, 0x33, 0x09, 0x34, 0x0a]));
    fails(['neighbours', '--table', junk, '--id', '0'], `--table ${junk}: read npy: byte 0: expected the magic \\x93NUMPY of a .npy file, got 'PK\\x03\\x04\\x091'`);
    const empty = file('empty.npy', npy(0, 4, []));
    fails(['neighbours', '--table', empty, '--id', '0'],
      `--table ${empty}: read npy: the table is 0 x 4: it has no rows; a table needs at least one row and one column`);
    const blank = file('blank.tsv', '\n\n');
    fails(['convert', '--table', blank, '--out', path.join(dir, 'blank.npy')],
      `--table ${blank}: read tsv: the table is 0 x 0: it has no rows; a table needs at least one row and one column`);
  });

  it('a BOM before word2vec text or vectors.tsv, and numpy savetxt output, read as what they are', () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const w2v = file('bom.txt', Buffer.concat([bom, Buffer.from('2 3\na 1 2 3\nb 4 5 6\n')]));
    const i = json(['inspect', '--table', w2v]);
    assert.deepEqual([i.format, i.tensors[0].shape], ['word2vec-text', [2, 3]]);
    const tsv = file('bom-vectors.tsv', Buffer.concat([bom, Buffer.from('1\t2\n3\t4\n')]));
    assert.deepEqual(json(['inspect', '--table', tsv]).tensors[0].shape, [2, 2]);
    const saved = file('saved.txt', '1.000000000000000000e+00 2.000000000000000000e+00\n3.000000000000000000e+00 4.000000000000000000e+00\n');
    const s = json(['inspect', '--table', saved]);
    assert.deepEqual([s.format, s.tensors[0].shape], ['savetxt', [2, 2]]);
  });

  it('labels and tensor names that are not UTF-8 come out as JSON (U+FFFD), as a browser decodes them', () => {
    const words = file('latin1.txt', Buffer.concat([Buffer.from('2 2\ncaf'), Buffer.from([0xe9]), Buffer.from(' 1 0\nx'),
      Buffer.from([0xff]), Buffer.from(' 0 1\n')]));
    const n = strictJson(['neighbours', '--table', words, '--id', '0', '--k', '1']);
    assert.equal(n.query.label, 'caf\ufffd');
    assert.equal(n.query.label, new TextDecoder().decode(Buffer.from([0x63, 0x61, 0x66, 0xe9])));
    const header = Buffer.concat([Buffer.from('{"w'), Buffer.from([0xc3, 0x28]), Buffer.from('":{"dtype":"F32","shape":[1,1],"data_offsets":[0,4]}}')]);
    const st = file('names.safetensors', Buffer.concat([le64(header.length), header, Buffer.alloc(4)]));
    assert.equal(strictJson(['inspect', '--table', st]).tensors[0].name, 'w\ufffd(');
  });
});

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
        if (flag !== 'memory-limit') assert.ok(line.includes(`--${flag}`), `${c} --${flag}`);
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
