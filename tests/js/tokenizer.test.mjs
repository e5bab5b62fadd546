// node:test for the wasm module's tokenizer/windows/BPE API: tiktoken's ids, round trips, the
// sliding-window reference numbers, BPE training identical to the native CLI, clear errors.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEngine, repoRoot } from './load-engine.mjs';

const require = createRequire(import.meta.url);
const reference = JSON.parse(fs.readFileSync(path.join(repoRoot, 'tests/reference/gpt2_the_verdict.json'), 'utf8'));
const verdict = fs.readFileSync(path.join(repoRoot, 'web/corpora/the-verdict.txt'), 'utf8');
const cli = process.env.EMBEDLAB_NATIVE_CLI || path.join(repoRoot, 'build/native/embedlab');

// A small deterministic generator (LCG) for property tests.
function lcg(seed) {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

let M;
before(async () => { M = await loadEngine(); });

describe('Tokenizer.gpt2', () => {
  it('encodes the-verdict to the reference 5145 ids and decodes them back', () => {
    const tok = M.Tokenizer.gpt2();
    const ids = tok.encode(verdict);
    assert.ok(ids instanceof Int32Array);
    assert.equal(ids.length, 5145);
    assert.deepEqual(Array.from(ids), reference.ids);
    assert.equal(tok.decode(ids), verdict);
    assert.equal(tok.vocabSize, 50257);
    tok.delete();
  });

  it('gives the same ids as npm tiktoken on 300 random Unicode strings', () => {
    const enc = require(path.join(repoRoot, 'node_modules/tiktoken')).get_encoding('gpt2');
    const tok = M.Tokenizer.gpt2();
    const pool = [' ', '  ', '\n', '\n\n', '\t', "'s", "'ll", "'S", 'don\'t', 'Hello', ' world', '123', '!?', 'é', '日本語',
      '٣', '²', 'Ⅻ', '\u00a0', '\u0085', '\u2003', '\u3000', '\u200b', '\ufeff', '😀', 'a\u0301', '\x1c', '\r\n', '---', '_'];
    const rnd = lcg(42);
    for (let t = 0; t < 300; t++) {
      let s = '';
      for (let i = 1 + rnd(30); i > 0; i--) s += rnd(4) ? pool[rnd(pool.length)] : String.fromCodePoint(0x20 + rnd(0x2fe0));
      s = s.replace(/[\ud800-\udfff]/g, 'x');
      assert.deepEqual(Array.from(tok.encode(s)), Array.from(enc.encode_ordinary(s)), JSON.stringify(s));
      assert.equal(tok.decode(tok.encode(s)), s);
    }
    tok.delete();
  });

  it('round-trips raw bytes and shows partial UTF-8 tokens as U+FFFD', () => {
    const tok = M.Tokenizer.gpt2();
    const rnd = lcg(7);
    for (let t = 0; t < 200; t++) {
      const bytes = Uint8Array.from({ length: rnd(40) }, () => rnd(256));
      const ids = tok.encode(bytes);
      const back = ids.length ? Buffer.concat(Array.from(ids, (id) => Buffer.from(tok.tokenBytes(id)))) : Buffer.alloc(0);
      assert.deepEqual(new Uint8Array(back), bytes);
    }
    assert.equal(tok.decode(tok.encode(new Uint8Array([0x61, 0xff, 0x62]))), 'a\ufffdb');
    assert.deepEqual(tok.tokenStrings([15496, 995]), ['Hello', ' world']);
    tok.delete();
  });

  it('keeps U+FEFF at the start, in the middle and alone: text crosses the boundary as bytes', () => {
    // Emscripten's UTF8ToString (a TextDecoder for > 16 bytes) used to drop a leading BOM.
    const enc = require(path.join(repoRoot, 'node_modules/tiktoken')).get_encoding('gpt2');
    const tok = M.Tokenizer.gpt2();
    const bom = '\ufeff';
    for (const s of [bom + 'a'.repeat(14), bom, bom + bom + ' and more than sixteen bytes', 'a'.repeat(20) + bom + 'b', 'x' + bom, bom + bom]) {
      const ids = tok.encode(s);
      assert.deepEqual(Array.from(ids), Array.from(enc.encode_ordinary(s)), JSON.stringify(s));
      assert.equal(tok.decode(ids), s, JSON.stringify(s));
    }
    assert.deepEqual(Array.from(tok.encode(bom)), [171, 119, 123]);  // EF BB BF, one byte token each
    assert.equal(tok.decode([171, 119, 123, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64]), bom + 'a'.repeat(14));
    assert.deepEqual(Array.from(tok.tokenBytes(171)), [0xef]);
    tok.delete();
  });

  it('turns lone surrogates into U+FFFD as before, wherever they are', () => {
    const enc = require(path.join(repoRoot, 'node_modules/tiktoken')).get_encoding('gpt2');
    const tok = M.Tokenizer.gpt2();
    for (const [s, wellFormed] of [['\ud800', '\ufffd'], ['\udc00x', '\ufffdx'], ['\ufeff\ud800', '\ufeff\ufffd'], ['a'.repeat(20) + '\udbff', 'a'.repeat(20) + '\ufffd']]) {
      const ids = tok.encode(s);
      assert.deepEqual(Array.from(ids), Array.from(enc.encode_ordinary(wellFormed)), JSON.stringify(s));
      assert.equal(tok.decode(ids), wellFormed);
    }
    tok.delete();
  });

  it('maps <|endoftext|> to 50256 only with allowSpecial', () => {
    const tok = M.Tokenizer.gpt2();
    assert.deepEqual(Array.from(tok.encode('<|endoftext|>')), [27, 91, 437, 1659, 5239, 91, 29]);
    assert.deepEqual(Array.from(tok.encode('Hello<|endoftext|>', { allowSpecial: true })), [15496, 50256]);
    assert.equal(tok.encode('').length, 0);
    // A lone surrogate is U+FFFD, as tiktoken's TextEncoder makes it: [64, 4210, 65].
    assert.deepEqual(Array.from(tok.encode('a\ud800b')), [64, 4210, 65]);
    tok.delete();
  });

  it('refuses ids outside the vocabulary with the C++ message', () => {
    const tok = M.Tokenizer.gpt2();
    assert.throws(() => tok.decode([1, 50257]), { message: 'decode: token id 50257 out of range [0, 50257)' });
    assert.throws(() => tok.decode([1.5]), { message: 'decode: token id 1.5 at index 0 is not an integer' });
    tok.delete();
  });
});

describe('Tokenizer.fromCorpus', () => {
  it('builds whitespace, word and char vocabularies with specials first and counts per id', () => {
    const ws = M.Tokenizer.fromCorpus('whitespace', 'the cat the hat');
    assert.equal(ws.vocabSize, 7);
    assert.deepEqual(Array.from(ws.encode('the dog hat')), [4, 1, 6]);
    assert.deepEqual(Array.from(ws.counts()), [0, 0, 0, 0, 2, 1, 1]);
    assert.deepEqual(ws.tokenStrings([0, 1, 2, 3]), ['<pad>', '<unk>', '<sos>', '<eos>']);
    ws.delete();
    const word = M.Tokenizer.fromCorpus('word', "Don't stop!", { lowercase: true });
    assert.equal(word.decode(word.encode("don't")), "don ' t");
    word.delete();
    const ch = M.Tokenizer.fromCorpus('char', 'héllo 😀');
    assert.equal(ch.decode(ch.encode('hé 😀')), 'hé 😀');
    const g = M.Tokenizer.gpt2();
    assert.equal(g.counts(), null);
    g.delete();
  });

  it('keeps U+FEFF in corpus tokens, token strings and decoded text', () => {
    const ws = M.Tokenizer.fromCorpus('whitespace', '\ufeffhello world \ufeffhello \ufeff');
    const strings = ws.tokenStrings(Array.from({ length: ws.vocabSize }, (_, i) => i));
    assert.ok(strings.includes('\ufeffhello') && strings.includes('\ufeff'), JSON.stringify(strings));
    assert.equal(ws.tokenString(strings.indexOf('\ufeffhello')), '\ufeffhello');
    assert.equal(ws.decode(ws.encode('\ufeffhello world')), '\ufeffhello world');
    ws.delete();
    const ch = M.Tokenizer.fromCorpus('char', '\ufeffab');
    assert.equal(ch.decode(ch.encode('\ufeffba\ufeff')), '\ufeffba\ufeff');
    ch.delete();
  });

  it('fails with clear messages on a bad kind or option', () => {
    assert.throws(() => M.Tokenizer.fromCorpus('\ufeffword', 'a'), { message: "vocab: unknown kind '\ufeffword', expected whitespace, word or char" });
    assert.throws(() => M.Tokenizer.fromCorpus('bytes', 'a'), { message: "vocab: unknown kind 'bytes', expected whitespace, word or char" });
    assert.throws(() => M.Tokenizer.fromCorpus('word', 'a', { minCount: 0 }), { message: 'Tokenizer.fromCorpus: minCount 0 must be an integer in [1, 2147483647]' });
    assert.throws(() => M.Tokenizer.fromCorpus('word', 'a', { lower: true }), { message: "Tokenizer.fromCorpus: unknown option 'lower', expected lowercase, minCount, maxSize" });
  });
});

describe('slidingWindows', () => {
  it('reproduces create_dataloader_v1 on the-verdict (1286 samples, 321 batches, 5136 tokens)', () => {
    const sw = reference.sliding_window;
    const ds = M.slidingWindows(reference.ids, { maxLength: 4, stride: 4, batchSize: 4 });
    assert.equal(ds.numSamples, 1286);
    assert.equal(ds.numBatches, 321);
    assert.equal(ds.inputTokens, 5136);
    assert.deepEqual(Array.from(ds.batch(0).inputs), sw.first_batch_inputs.flat());
    assert.deepEqual(Array.from(ds.batch(0).targets), sw.first_batch_targets.flat());
    assert.deepEqual(Array.from(ds.batch(320).inputs), sw.last_full_batch_inputs.flat());
    const flat = [];
    for (let b = 0; b < ds.numBatches; b++) flat.push(...ds.batch(b).inputs);
    const where = flat.flatMap((id, i) => (id === 40 ? [i] : []));
    assert.equal(where.length, 29);
    assert.deepEqual(where.slice(0, 5), [0, 379, 736, 882, 895]);
  });

  it('counts len(range(0, n - L, stride)) samples for many (L, stride)', () => {
    const ids = Int32Array.from({ length: 60 }, (_, i) => i);
    for (let L = 1; L <= 10; L++) {
      for (let s = 1; s <= 10; s++) {
        let expected = 0;
        for (let i = 0; i < 60 - L; i += s) expected++;
        const ds = M.slidingWindows(ids, { maxLength: L, stride: s, batchSize: 3, dropLast: false });
        assert.equal(ds.numSamples, expected, `L=${L} stride=${s}`);
        assert.equal(ds.numBatches, Math.ceil(expected / 3));
      }
    }
  });

  it('shuffles reproducibly with a seed', () => {
    const ids = Int32Array.from({ length: 100 }, (_, i) => i);
    const a = M.slidingWindows(ids, { maxLength: 4, stride: 2, batchSize: 4, shuffle: true, seed: 5 });
    const b = M.slidingWindows(ids, { maxLength: 4, stride: 2, batchSize: 4, shuffle: true, seed: 5 });
    const c = M.slidingWindows(ids, { maxLength: 4, stride: 2, batchSize: 4, shuffle: true, seed: 6 });
    assert.deepEqual(a.starts, b.starts);
    assert.notDeepEqual(a.starts, c.starts);
  });

  it('explains a stream shorter than one window and a bad stride', () => {
    assert.throws(() => M.slidingWindows([1, 2, 3], { maxLength: 4, stride: 1, batchSize: 1 }),
      { message: 'windows: 3 tokens make no window of max_length 4: need at least 5 tokens (max_length + 1, for the shifted target)' });
    assert.throws(() => M.slidingWindows([1, 2, 3], { maxLength: 1, stride: 0, batchSize: 1 }),
      { message: 'windows: stride must be >= 1, got 0' });
  });

  it('lists skip-gram pairs', () => {
    assert.deepEqual(Array.from(M.skipgramPairs([5, 6, 7], 1)), [5, 6, 6, 5, 6, 7, 7, 6]);
  });
});

describe('BpeTrainer', () => {
  it('steps through merges: aa, ab (tie rule), aaab', () => {
    const tr = new M.BpeTrainer('aaabdaaabac', 259);
    assert.equal(tr.tokenCount, 11);
    assert.deepEqual(tr.step(1), [{ left: 97, right: 97, id: 256, count: 4, token: 'aa', tokens: 9 }]);
    const rest = tr.step(10);
    assert.deepEqual(rest.map((m) => m.token), ['ab', 'aaab']);
    assert.deepEqual(rest.map((m) => m.tokens), [7, 5]);
    assert.equal(tr.done, true);
    const tok = tr.tokenizer();
    assert.deepEqual(Array.from(tok.encode('aaabdaaabac')), [258, 100, 258, 97, 99]);
    tok.delete();
    tr.delete();
  });

  it('trains the same merge file as the native CLI', () => {
    const tr = new M.BpeTrainer(verdict, 400);
    while (!tr.done) tr.step(25);
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-')), 'verdict.bpe');
    execFileSync(cli, ['bpe-train', '--vocab-size', '400', path.join(repoRoot, 'web/corpora/the-verdict.txt'), '-o', out]);
    assert.equal(tr.save(), fs.readFileSync(out, 'utf8'));
    const tok = M.Tokenizer.fromBpe(tr.save());
    assert.equal(tok.vocabSize, 400);
    assert.equal(tok.decode(tok.encode(verdict)), verdict);
    tok.delete();
    tr.delete();
  });

  it('refuses a vocabulary below 256 and a malformed merge file', () => {
    assert.throws(() => new M.BpeTrainer('abc', 100), { message: 'bpe train: vocab_size must be >= 256, got 100' });
    assert.throws(() => M.Tokenizer.fromBpe('nope'), { message: "bpe load: line 1: expected 'embedlab-bpe 1', got 'nope'" });
    assert.throws(() => M.Tokenizer.fromBpe('\ufeffnope'), { message: "bpe load: line 1: expected 'embedlab-bpe 1', got '\ufeffnope'" });
    assert.throws(() => new M.BpeTrainer('abc', 300).step(1.5), { message: 'BpeTrainer.step: n 1.5 must be an integer in [0, 2147483647]' });
  });

  it('returns merged tokens made of U+FEFF exactly, however long', () => {
    // 24 BOMs in a row: merges build tokens of 2, 4, 8 ... BOMs (6 bytes and up: > 16 bytes).
    const bom = '\ufeff';
    const tr = new M.BpeTrainer(bom.repeat(24), 270);
    const merges = tr.step(20);
    const tokens = merges.map((m) => m.token);
    for (const n of [1, 2, 4, 8]) assert.ok(tokens.includes(bom.repeat(n)), JSON.stringify(tokens));
    const tok = tr.tokenizer();
    assert.equal(tok.decode(tok.encode(bom.repeat(24))), bom.repeat(24));
    assert.deepEqual(merges.map((m) => tok.tokenString(m.id)), tokens);
    tok.delete();
    tr.delete();
  });
});

describe('Tokenizer.make, sentences and window samples: the engine path shared with the CLI', () => {
  it('makes every kind through the engine factory, with the options that apply', () => {
    const gpt2 = M.Tokenizer.make('gpt2');
    assert.deepEqual([...gpt2.encode('Hello world')], [15496, 995]);
    const word = M.Tokenizer.make('word', 'The cat. the CAT', { lowercase: true });
    assert.equal(word.kind, 'word');
    assert.deepEqual(word.tokenStrings([4, 5, 6]), ['the', 'cat', '.']);
    const trained = M.Tokenizer.make('bpe', verdict, { vocabSize: 300 });
    const tr = new M.BpeTrainer(verdict, 300);
    while (!tr.done) tr.step(64);
    const loaded = M.Tokenizer.make('bpe', null, { merges: tr.save() });
    tr.delete();
    assert.equal(trained.vocabSize, 300);
    assert.deepEqual([...trained.encode(verdict)], [...loaded.encode(verdict)]);
    for (const t of [gpt2, word, trained, loaded]) t.delete();
    assert.throws(() => M.Tokenizer.make('gpt2', '', { lowercase: true }),
      { message: 'tokenizer: lowercase, min_count and max_size apply to whitespace, word and char, not gpt2' });
    assert.throws(() => M.Tokenizer.make('bpe', verdict), { message: "tokenizer: bpe needs merges (a merge file's text) or vocab_size (to train on the corpus)" });
    assert.throws(() => M.Tokenizer.make('bytes', ''), { message: "tokenizer: unknown kind 'bytes', expected gpt2, whitespace, word, char or bpe" });
    assert.throws(() => M.Tokenizer.make('word', '', { lower: true }),
      { message: "Tokenizer.make: unknown option 'lower', expected lowercase, minCount, maxSize, vocabSize, merges" });
    assert.throws(() => M.Tokenizer.make('bpe', 'abc', { vocabSize: 100 }), { message: 'bpe train: vocab_size must be >= 256, got 100' });
  });

  it('splits sentences by the engine rule: one per line, CRLF as LF, blank lines skipped', () => {
    const text = 'the cat\r\n\n \t\nthe hat';
    const tok = M.Tokenizer.make('whitespace', text);
    const s = M.sentences(tok, text);
    assert.deepEqual([...s.ids], [4, 5, 4, 6]);
    assert.ok(s.sentenceStarts instanceof Float64Array);
    assert.deepEqual([...s.sentenceStarts], [0, 2, 4]);
    assert.equal(tok.sentences('').ids.length, 0);
    assert.throws(() => M.sentences({}, text), { message: 'sentences: tokenizer must be an M.Tokenizer, got [object Object]' });
    tok.delete();
  });

  it('cuts any run of samples in the engine, batches included', () => {
    const ids = Int32Array.from({ length: 20 }, (_, i) => i);
    const ds = M.slidingWindows(ids, { maxLength: 4, stride: 3, batchSize: 4 });
    assert.deepEqual([ds.numSamples, ds.numBatches, ds.inputTokens], [6, 1, 16]);
    const w = ds.samples(1, 2, 2);
    assert.equal(w.rows, 2);
    assert.deepEqual([...w.starts], [3, 6]);
    assert.deepEqual([...w.inputs], [3, 4, 6, 7]);
    assert.deepEqual([...w.targets], [4, 5, 7, 8]);
    assert.deepEqual([...ds.samples(5, 10).inputs], [15, 16, 17, 18]); // the dropped last sample too
    assert.deepEqual([...ds.batch(0).inputs], [...ds.samples(0, 4).inputs]);
    assert.throws(() => ds.samples(7, 1), { message: 'windows samples: first sample 7 out of range [0, 7)' });
    assert.throws(() => ds.samples(0, 1, 0), { message: 'slidingWindows.samples: maxIds 0 must be an integer in [1, 2147483647]' });
  });
});

describe('projectorTsv and npyBytes: the table writers of the CLI', () => {
  it('formats values as %.9g, escapes labels and writes .npy bytes', () => {
    const t = Float32Array.of(0.5, -1e-5, 3, 1 / 3);
    const { vectors, metadata } = M.projectorTsv(t, 2, 2, ['a\tb', '']);
    assert.equal(vectors, '0.5\t-9.99999975e-06\n3\t0.333333343\n');
    assert.equal(metadata, 'a\\tb\n\n');
    const npy = M.npyBytes(t, 2, 2);
    assert.ok(npy instanceof Uint8Array);
    assert.equal(new TextDecoder().decode(npy.subarray(1, 6)), 'NUMPY');
    assert.deepEqual([...new Float32Array(npy.slice(npy.length - 16).buffer)], [...t]);
    assert.throws(() => M.projectorTsv(t, 2, 2, ['a']), { message: 'projectorTsv: got 1 labels for 2 rows' });
    assert.throws(() => M.npyBytes(t, 3, 2), { message: 'write_npy: table of 4 values is not 3 x 2' });
  });
});
