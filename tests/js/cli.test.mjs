// node:test for the embedlab CLI's contract, command by command: exit code 2 with one
// "embedlab: ..." line on stderr and nothing on stdout for every command's mistakes, files that are
// directories or missing; and tsne's map. Tables in every format: cli-tables.test.mjs; parsing and
// output: cli-parsing.test.mjs. Runs the native binary: EMBEDLAB_CLI, else build/native/embedlab.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './load-engine.mjs';
import { run, json, fails, npy, dir, corpus, table, vocab, missing, notFound, isDirectory } from './cli-fixtures.mjs';

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
