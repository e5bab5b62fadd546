// Summarises build/bench/results.jsonl as ratios measured in the same run.
// Usage: node scripts/bench-report.mjs build/bench/results.jsonl
import fs from 'node:fs';

const file = process.argv[2] || 'build/bench/results.jsonl';
const rows = Object.fromEntries(fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean)
  .map((l) => JSON.parse(l)).map((r) => [r.name, r.result]));
const fmt = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
const lines = [];
const check = (label, value, target) =>
  lines.push(`${label.padEnd(46)} ${fmt(value).padStart(7)}   target >= ${target}   ${value >= target ? 'ok' : 'MISSED'}`);

const n = rows['lookup.native'], w = rows['lookup.wasm'], t = rows['lookup.torch'];
if (n) {
  lines.push(`lookup native: ${fmt(n.median_ms, 3)} ms, ${fmt(n.gb_per_s)} GB/s (${n.isa}); memcpy ${fmt(n.memcpy_gb_per_s)} GB/s; sparse backward ${fmt(n.backward_ms, 3)} ms`);
  check('lookup native / memcpy (same run)', n.gb_per_s / n.memcpy_gb_per_s, 0.7);
}
if (w) {
  lines.push(`lookup wasm:   ${fmt(w.median_ms, 3)} ms, ${fmt(w.gb_per_s)} GB/s (${w.isa}); memcpy in wasm ${fmt(w.memcpy_gb_per_s)} GB/s; sparse backward ${fmt(w.backward_ms, 3)} ms`);
  if (n) check('lookup wasm / native', w.gb_per_s / n.gb_per_s, 0.6);
}
if (t) {
  lines.push(`lookup torch:  ${fmt(t.median_ms, 3)} ms, ${fmt(t.gb_per_s)} GB/s (${t.peer}, 1 thread); backward ${fmt(t.backward_ms, 3)} ms`);
  if (n) lines.push(`lookup native speed-up over torch: ${fmt(t.median_ms / n.median_ms)}x forward, ${fmt(t.backward_ms / n.backward_ms)}x backward`);
}
const tk = rows.tokenize;
if (tk) {
  lines.push(`tokenize GPT-2, ${tk.file} (${tk.bytes} bytes, ${tk.tokens} tokens): tiktoken ${tk.tiktoken.version} ${fmt(tk.tiktoken.mb_per_s)} MB/s, ` +
    `wasm ${fmt(tk.wasm.mb_per_s)} MB/s (${fmt(tk.wasm.js_api_mb_per_s)} through the JS API), native ${fmt(tk.native.mb_per_s)} MB/s`);
  check('tokenize native / tiktoken', tk.native.ratio_to_tiktoken, 2);
  check('tokenize wasm / tiktoken', tk.wasm.ratio_to_tiktoken, 1);
}
const wn = rows['train.word2vec.native'], ww = rows['train.word2vec.wasm'], wg = rows['train.word2vec.gensim'];
if (wn && wg) {
  lines.push(`word2vec skip-gram, tinyshakespeare (vocab ${wn.vocab}): effective words/s native ${fmt(wn.effective_words_per_s, 0)}, ` +
    `wasm ${ww ? fmt(ww.effective_words_per_s, 0) : 'n/a'}, ${wg.peer} ${fmt(wg.effective_words_per_s, 0)} ` +
    `(raw words/s ${fmt(wn.raw_words_per_s, 0)} / ${ww ? fmt(ww.raw_words_per_s, 0) : 'n/a'} / ${fmt(wg.raw_words_per_s, 0)})`);
  check('word2vec native / gensim (effective words/s)', wn.effective_words_per_s / wg.effective_words_per_s, 1.5);
  if (ww) check('word2vec wasm / gensim (effective words/s)', ww.effective_words_per_s / wg.effective_words_per_s, 1);
}
const nn = rows['train.next_token.native'], nw = rows['train.next_token.wasm'];
const nt = rows['train.next_token.torch'], nf = rows['train.next_token.tfjs_wasm'];
if (nn) {
  lines.push(`next-token V=${nn.V} D=${nn.D} T=${nn.T} B=${nn.B} ${nn.optimizer}: tokens/s native ${fmt(nn.tokens_per_s, 0)}, ` +
    `wasm ${nw ? fmt(nw.tokens_per_s, 0) : 'n/a'}, torch ${nt ? fmt(nt.tokens_per_s, 0) : 'n/a'}, tfjs-backend-wasm ${nf ? fmt(nf.tokens_per_s, 0) : 'n/a'}`);
  if (nt) check('next-token native / torch 1 thread', nn.tokens_per_s / nt.tokens_per_s, 1);
  if (nf) check('next-token native / tfjs-backend-wasm', nn.tokens_per_s / nf.tokens_per_s, 20);
  if (nf && nw) check('next-token wasm / tfjs-backend-wasm', nw.tokens_per_s / nf.tokens_per_s, 20);
}
const tn = rows['table.native'], tw = rows['table.wasm'], ts = rows['table.sklearn'];
if (tn) {
  // a top-10 query reads the table once; a copy reads and writes it once: bytes / ms / 1e6 = GB/s
  const bytes = tn.rows * tn.dim * 4;
  const gbps = (ms, times = 1) => (times * bytes) / ms / 1e6;
  for (const [name, r] of [['native', tn], ['wasm', tw]]) {
    if (!r) continue;
    lines.push(`table ${name.padEnd(6)} ${r.rows} x ${r.dim}: top-10 cosine ${fmt(r.neighbours_ms, 2)} ms (${fmt(gbps(r.neighbours_ms))} GB/s read; ` +
      `memcpy ${fmt(gbps(r.memcpy_ms, 2))} GB/s), PCA to 3 ${fmt(r.pca_ms, 0)} ms (${r.pca_solver}), import .npy ${fmt(r.import_ms, 1)} ms`);
  }
  if (ts) lines.push(`table ${ts.peer}: top-10 cosine ${fmt(ts.neighbours_ms, 2)} ms (numpy), PCA to 3 ${fmt(ts.pca_ms, 0)} ms (randomized)`);
  if (tw) {
    check('table neighbours wasm <= 30 ms: 30 / wasm ms', 30 / tw.neighbours_ms, 1);
    check('table PCA wasm <= 1.5 s: 1500 / wasm ms', 1500 / tw.pca_ms, 1);
    if (ts) check('table PCA sklearn / wasm', ts.pca_ms / tw.pca_ms, 1);
    check('table neighbours native speed-up over wasm', tw.neighbours_ms / tn.neighbours_ms, 1.5);
    check('table PCA native speed-up over wasm', tw.pca_ms / tn.pca_ms, 1.5);
    check('table neighbours native read / memcpy GB/s', gbps(tn.neighbours_ms) / gbps(tn.memcpy_ms, 2), 0.7);
  }
}
const pi = rows['page.import'];
if (pi) {
  lines.push(`page import of GPT-2's wte (${pi.file_mb} MB file) in Chromium: shown in ${pi.shown_ms} ms (File.slice ${fmt(pi.worker.read_ms, 0)} ms, ` +
    `engine ${fmt(pi.worker.engine_ms, 0)} ms, labels ${fmt(pi.worker.labels_ms, 0)} ms); PCA map ${pi.map_ms} ms in the worker`);
  check('page import <= 1 s: 1000 / shown ms', 1000 / pi.shown_ms, 1);
  check('page PCA map <= 1.5 s: 1500 / worker ms', 1500 / pi.map_ms, 1);
}
const pb = rows['page.budgets'];
if (pb) {
  lines.push(`page budgets in Chromium (${pb.cpus} CPUs; load average ${pb.loadavg_before.join(' ')} before, ${pb.loadavg_after.join(' ')} after):`);
  for (const f of pb.figures) {
    if (f.value === null) {
      lines.push(`  ${f.name.padEnd(44)} FAILED: ${f.detail.error}`);
      continue;
    }
    const verdict = f.budget === null ? 'information' : `budget <= ${f.budget} ${f.unit}   ${f.ok ? 'ok' : 'MISSED'}`;
    lines.push(`  ${f.name.padEnd(44)} ${fmt(f.value, 1).padStart(7)} ${f.unit.padEnd(3)}  ${verdict}   (load ${fmt(f.loadavg)})`);
  }
}
const un = rows['umap.native'], uw = rows['umap.wasm'], ua = rows['umap.atlas'], uj = rows['umap.umap_js'];
const umapLine = (name, r) => {
  if (!r) return;
  if (r.skipped) return lines.push(`umap ${name}: skipped (${r.skipped})`);
  const s = r.seconds, q = r.quality;
  const phases = s.knn !== undefined ? ` (knn ${fmt(s.knn)}, graph ${fmt(s.graph)}, init ${fmt(s.init)}, layout ${fmt(s.layout)})` : '';
  lines.push(`umap ${name.padEnd(8)} ${r.rows} x ${r.dim}: ${fmt(s.total)} s${phases}; neighbours kept ${fmt(q.neighbours_kept, 4)}, same label ${fmt(q.label_share, 4)}`);
};
umapLine('native', un);
umapLine('wasm', uw);
umapLine('atlas', ua);
umapLine('umap-js', uj);
if (uw && !uw.skipped) {
  for (const [name, p] of [['umap-js', uj], ['atlas', ua]]) {
    if (!p || p.skipped) continue;
    check(`umap wasm speed-up over ${name}`, p.seconds.total / uw.seconds.total, 5);
    // one seed's score moves by about +-0.001 (1%): these two ratios are for information; the
    // umap-seeds section compares means over ten seeds
    lines.push(`umap wasm / ${name}, one seed: neighbours kept ${fmt(uw.quality.neighbours_kept / p.quality.neighbours_kept)}, ` +
      `same label ${fmt(uw.quality.label_share / p.quality.label_share)} (noise ~0.01; see umap-seeds)`);
  }
  if (un) check('umap native speed-up over wasm', uw.seconds.total / un.seconds.total, 1.5);
}
// umap-seeds: mean +- sd over the seeds each implementation ran
const seedStats = (impl, key) => {
  const v = Object.entries(rows).filter(([k, r]) => k.startsWith(`umap_seeds.${impl}.`) && r && !r.skipped)
    .map(([, r]) => r.quality[key]);
  if (!v.length) return null;
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  const sd = v.length > 1 ? Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / (v.length - 1)) : 0;
  return { n: v.length, mean, sd, min: Math.min(...v), max: Math.max(...v) };
};
for (const key of ['neighbours_kept', 'label_share']) {
  const ours = seedStats('wasm', key), atlas = seedStats('atlas', key);
  for (const [name, st] of [['wasm', ours], ['atlas', atlas]]) {
    if (st) lines.push(`umap seeds ${name.padEnd(5)} ${key.padEnd(15)} mean ${fmt(st.mean, 5)} +- ${fmt(st.sd, 5)} (${fmt(st.min, 4)}-${fmt(st.max, 4)}, ${st.n} seeds)`);
  }
  if (ours && atlas) check(`umap wasm / atlas ${key}, mean of seeds`, ours.mean / atlas.mean, 1);
}
const ln = rows['umap_large.native'], lw = rows['umap_large.wasm'];
umapLine('native', ln);
umapLine('wasm', lw);
if (lw) check('umap 50257 x 768 wasm <= 60 s: 60 / wasm s', 60 / lw.seconds.total, 1);
const sn = rows['tsne.native'], sw = rows['tsne.wasm'], ss = rows['tsne.sklearn'];
for (const [name, r] of [['native', sn], ['wasm', sw]]) {
  if (!r) continue;
  lines.push(`tsne ${name.padEnd(6)} ${r.rows} x ${r.dim}, ${r.iterations} iterations: ${fmt(r.seconds.total, 1)} s, CPU ${fmt(r.cpu_seconds, 1)} s (neighbours ${fmt(r.seconds.neighbours)}, ` +
    `affinities ${fmt(r.seconds.affinities)}, layout ${fmt(r.seconds.layout)}), KL ${fmt(r.kl, 3)}, 10-NN label agreement ${fmt(r.label_agreement_10nn, 3)}`);
}
if (ss) lines.push(`tsne ${ss.peer} (barnes_hut, n_jobs=1): ${fmt(ss.seconds, 1)} s, CPU ${fmt(ss.cpu_seconds, 1)} s, KL ${fmt(ss.kl, 3)}, 10-NN label agreement ${fmt(ss.label_agreement_10nn, 3)}`);
if (sw) check('tsne wasm <= 20 s: 20 / wasm s', 20 / sw.seconds.total, 1);
if (sn) check('tsne native <= 20 s: 20 / native s', 20 / sn.seconds.total, 1);
if (sw && ss) check('tsne sklearn s / wasm s', ss.seconds / sw.seconds.total, 1);
console.log('\n== summary\n' + lines.join('\n'));
