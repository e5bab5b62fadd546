// One engine path: word2vec trained on the same text and seed through the CLI
// (`embedlab train --model skipgram ... --out table.npy --out-tsv DIR`) and through the page's
// worker code (makeTextPipeline + makeTrainHandlers over the wasm module in Node: setText,
// trainStart, trainStep until finished, trainExport) gives the same table bit for bit and the
// same Projector files byte for byte.
// The text has blank lines, whitespace-only lines and CRLF lines, where the CLI and the page
// used to split sentences differently (src/data/sentences.hpp is now the one rule).
// Native CLI: EMBEDLAB_CLI (default build/native/embedlab); wasm: EMBEDLAB_WASM_DIR (build/wasm).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEngine, repoRoot } from './load-engine.mjs';
import { makeDispatcher } from '../../web/src/protocol.js';
import { makeTextPipeline } from '../../web/src/handlers/text-handler.js';
import { makeTrainHandlers } from '../../web/src/handlers/train-handler.js';

const cli = process.env.EMBEDLAB_CLI || path.join(repoRoot, 'build/native/embedlab');

// 48 lines of words drawn by a fixed LCG from a small vocabulary, with blank lines,
// whitespace-only lines (spaces, tabs, U+3000) and CRLF endings mixed in.
function corpusText() {
  const words = ['the', 'cat', 'dog', 'sat', 'on', 'mat', 'log', 'and', 'saw', 'a', 'King', 'queen'];
  let s = 12345;
  const next = (n) => ((s = (s * 1103515245 + 12345) % 2147483648) % n);
  const lines = [];
  for (let i = 0; i < 48; i++) {
    const n = 3 + next(6);
    const line = Array.from({ length: n }, () => words[next(words.length)]).join(' ');
    lines.push(i % 3 === 0 ? `${line}\r` : line);
    if (i % 7 === 0) lines.push('');
    if (i % 5 === 0) lines.push(' \t  ');
    if (i % 11 === 0) lines.push('\u3000 \r');
  }
  return `${lines.join('\n')}\n`;
}
const TEXT = corpusText();

// The CLI's run of `train --model model ...flags`: {npy (bytes), vectors, metadata (text)}.
function cliRun(model, flags) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedlab-same-path-'));
  const file = path.join(dir, 'text.txt');
  fs.writeFileSync(file, TEXT);
  execFileSync(cli, ['train', '--model', model, ...flags, file, '--out', path.join(dir, 'table.npy'), '--out-tsv', path.join(dir, 'tsv')],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const read = (p) => fs.readFileSync(path.join(dir, p));
  const out = { npy: new Uint8Array(read('table.npy')), vectors: read('tsv/vectors.tsv').toString('utf8'), metadata: read('tsv/metadata.tsv').toString('utf8') };
  fs.rmSync(dir, { recursive: true, force: true });
  return out;
}

describe('the CLI and the page train word2vec on one engine path', () => {
  let T;
  before(async () => {
    const M = await loadEngine();
    const text = makeTextPipeline(M, async () => { throw new Error('no corpora in this test'); });
    T = makeDispatcher({ ...text.handlers, ...makeTrainHandlers(M, text.ensureTokens) });
    const r = await T({ id: 1, type: 'setText', payload: { text: TEXT } });
    assert.equal(r.ok, true, r.message);
  });

  // The page's run with the page's payload names; flags are the same settings for the CLI.
  async function pageRun(p) {
    const start = await T({ id: 2, type: 'trainStart', payload: { corpus: 'custom', bpeV: 300, pos: 'none', ctx: 8, tB: 2, opt: 'sgd', lr: 0.1, ...p } });
    assert.equal(start.ok, true, start.message);
    for (;;) {
      const s = await T({ id: 3, type: 'trainStep', payload: { budgetMs: 1000 } });
      assert.equal(s.ok, true, s.message);
      if (s.result.stats.finished) break;
    }
    const e = await T({ id: 4, type: 'trainExport', payload: {} });
    assert.equal(e.ok, true, e.message);
    // the page's download buttons (trainExport {format}, through a Table and export_table)
    const files = {};
    for (const format of ['npy', 'tsv', 'metadata']) {
      const f = await T({ id: 5, type: 'trainExport', payload: { format } });
      assert.equal(f.ok, true, f.message);
      files[format] = f.result.bytes;
    }
    return { ...e.result, files };
  }

  const cases = [
    { name: 'char vocabulary (spaces, tabs and \\r are tokens), skip-gram',
      page: { enc: 'char', lower: false, model: 'skipgram', tD: 8, win: 2, minc: 1, ep: 2, alpha: 0.025, seed: 7 },
      flags: ['--encoding', 'char', '--vector-size', '8', '--window', '2', '--min-count', '1', '--epochs', '2', '--alpha', '0.025', '--seed', '7'] },
    { name: 'lower-cased whitespace vocabulary, CBOW',
      page: { enc: 'whitespace', lower: true, model: 'cbow', tD: 6, win: 3, minc: 2, ep: 3, alpha: 0.05, seed: 11 },
      flags: ['--encoding', 'whitespace', '--lowercase', '--vector-size', '6', '--window', '3', '--min-count', '2', '--epochs', '3', '--alpha', '0.05', '--seed', '11'] },
  ];

  for (const c of cases) {
    it(`gives the same table and Projector files: ${c.name}`, async () => {
      const page = await pageRun(c.page);
      const native = cliRun(c.page.model, c.flags);
      assert.ok(page.npy instanceof Uint8Array, 'trainExport returns the .npy bytes');
      assert.equal(page.npy.length, native.npy.length);
      assert.ok(Buffer.from(page.npy).equals(Buffer.from(native.npy)), 'the .npy bytes (header and float32 table) are identical');
      assert.equal(page.vectors, native.vectors);
      assert.equal(page.metadata, native.metadata);
      assert.ok(Buffer.from(page.files.npy).equals(Buffer.from(native.npy)), 'the downloaded .npy differs from the CLI\'s');
      assert.equal(new TextDecoder().decode(page.files.tsv), native.vectors);
      assert.equal(new TextDecoder().decode(page.files.metadata), native.metadata);
      assert.equal(page.rows, native.vectors.split('\n').length - 1);
    });
  }
});
