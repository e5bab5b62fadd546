// The one reading of build/bench/results.jsonl: parses it strictly and turns it into sections of
// figures and checks (ratios measured in the same run, each beside its target). scripts/bench-report.mjs
// prints them as text, scripts/bench-docs.mjs writes them into docs/benchmarks.md.
// It does not: run anything, time anything, or read files (callers pass the text).
//
// results.jsonl: one JSON object per line, {"name": "<prefix>.<what>", "result": {...}}, as
// scripts/bench's record() writes them; "run.<section>" rows carry the section's date, machine
// and load average (scripts/bench-docs.mjs --machine).
//
//   const rows = parseResults(text, 'build/bench/results.jsonl');   // throws naming the bad line
//   for (const s of summarise(rows)) s.items   // [{kind: 'line', text} | {kind: 'check', ...} | ...]

// scripts/bench's sections in its order; a row "umap_large.wasm" belongs to "umap-large".
export const SECTIONS = ['lookup', 'tokenize', 'train', 'table', 'page', 'umap', 'umap-seeds', 'umap-large', 'tsne', 'threads'];

// The section of a row name: "run.<section>" -> section, else the part before the first dot with
// "_" read as "-" ("tokenize" alone is the tokenize section).
export function sectionOf(name) {
  if (name.startsWith('run.')) return name.slice(4);
  return name.split('.')[0].replace(/_/g, '-');
}

// text of results.jsonl -> {name: result} in file order (a later row of the same name wins).
// Fails on a line that is not JSON or not {"name": string, "result": object}, naming the file,
// the line number and the start of the line.
export function parseResults(text, file = 'results.jsonl') {
  const rows = {};
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    const where = `${file} line ${i + 1}`;
    const head = line.length > 60 ? `${line.slice(0, 60)}…` : line;
    let row;
    try {
      row = JSON.parse(line);
    } catch (e) {
      throw new Error(`${where} is not JSON (${e.message}): ${head}`);
    }
    if (!row || typeof row !== 'object' || typeof row.name !== 'string' || !row.name) {
      throw new Error(`${where} has no "name" string (expected {"name": "section.what", "result": {...}}): ${head}`);
    }
    if (!/^[a-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(row.name)) {
      throw new Error(`${where}: name "${row.name}" is not "section.what" (letters, digits, '_' and '-' between dots): ${head}`);
    }
    if (!row.result || typeof row.result !== 'object' || Array.isArray(row.result)) {
      throw new Error(`${where} ("${row.name}") has no "result" object (expected {"name": "section.what", "result": {...}}): ${head}`);
    }
    rows[row.name] = row.result;
  });
  return rows;
}

export const fmt = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');

// rows -> [{section, items}] in SECTIONS order, then any other section by name; only sections
// with rows. items: {kind: 'line', text}, {kind: 'check', label, value, target, ok} (ok: value >=
// target), or {kind: 'budget', name, value, unit, budget, bound ('max': value <= budget, 'min': value >= budget), ok, loadavg, error} (page budgets).
export function summarise(rows) {
  const names = Object.keys(rows);
  const present = [...new Set(names.map(sectionOf))];
  const order = [...SECTIONS.filter((s) => present.includes(s)), ...present.filter((s) => !SECTIONS.includes(s)).sort()];
  return order.map((section) => {
    const items = [];
    const line = (text) => items.push({ kind: 'line', text });
    const check = (label, value, target) => items.push({ kind: 'check', label, value, target, ok: value >= target });
    const own = Object.fromEntries(names.filter((n) => sectionOf(n) === section && !n.startsWith('run.')).map((n) => [n, rows[n]]));
    (SUMMARIES[section] || generic)(own, line, check, items);
    return { section, run: rows[`run.${section}`] || null, items };
  });
}

// A section this file does not know: each row's top-level numbers.
function generic(own, line) {
  for (const [name, r] of Object.entries(own)) {
    const nums = Object.entries(r).filter(([, v]) => typeof v === 'number').map(([k, v]) => `${k} ${v}`);
    line(`${name}: ${nums.join(', ') || JSON.stringify(r)}`);
  }
}

const umapLine = (line, name, r) => {
  if (!r) return;
  if (r.skipped) return line(`umap ${name}: skipped (${r.skipped})`);
  const s = r.seconds, q = r.quality;
  const phases = s.knn !== undefined ? ` (knn ${fmt(s.knn)}, graph ${fmt(s.graph)}, init ${fmt(s.init)}, layout ${fmt(s.layout)})` : '';
  line(`umap ${name.padEnd(8)} ${r.rows} x ${r.dim}: ${fmt(s.total)} s${phases}; neighbours kept ${fmt(q.neighbours_kept, 4)}, same label ${fmt(q.label_share, 4)}`);
};

const SUMMARIES = {
  lookup(rows, line, check) {
    const n = rows['lookup.native'], w = rows['lookup.wasm'], t = rows['lookup.torch'];
    if (n) {
      line(`lookup native: ${fmt(n.median_ms, 3)} ms, ${fmt(n.gb_per_s)} GB/s (${n.isa}); memcpy ${fmt(n.memcpy_gb_per_s)} GB/s; sparse backward ${fmt(n.backward_ms, 3)} ms`);
      check('lookup native / memcpy (same run)', n.gb_per_s / n.memcpy_gb_per_s, 0.7);
    }
    if (w) {
      line(`lookup wasm:   ${fmt(w.median_ms, 3)} ms, ${fmt(w.gb_per_s)} GB/s (${w.isa}); memcpy in wasm ${fmt(w.memcpy_gb_per_s)} GB/s; sparse backward ${fmt(w.backward_ms, 3)} ms`);
      if (n) check('lookup wasm / native', w.gb_per_s / n.gb_per_s, 0.6);
    }
    if (t) {
      line(`lookup torch:  ${fmt(t.median_ms, 3)} ms, ${fmt(t.gb_per_s)} GB/s (${t.peer}, 1 thread); backward ${fmt(t.backward_ms, 3)} ms`);
      if (n) line(`lookup native speed-up over torch: ${fmt(t.median_ms / n.median_ms)}x forward, ${fmt(t.backward_ms / n.backward_ms)}x backward`);
    }
  },
  tokenize(rows, line, check) {
    const tk = rows.tokenize;
    if (tk) {
      line(`tokenize GPT-2, ${tk.file} (${tk.bytes} bytes, ${tk.tokens} tokens): tiktoken ${tk.tiktoken.version} ${fmt(tk.tiktoken.mb_per_s)} MB/s, ` +
        `wasm ${fmt(tk.wasm.mb_per_s)} MB/s (${fmt(tk.wasm.js_api_mb_per_s)} through the JS API), native ${fmt(tk.native.mb_per_s)} MB/s`);
      check('tokenize native / tiktoken', tk.native.ratio_to_tiktoken, 2);
      check('tokenize wasm / tiktoken', tk.wasm.ratio_to_tiktoken, 1);
    }
    const bt = rows['tokenize.bpe-train'];
    if (bt) {
      for (const [size, r] of Object.entries(bt)) {
        if (r && typeof r === 'object') {
          line(`BPE training on ${size} of ${bt.text}: ${r.merges} merges, train ${fmt(r.train_ms, 0)} ms (bpe-train ${fmt(r.bpe_train_s)} s wall, tokenize ${fmt(r.tokenize_s)} s)`);
        }
      }
    }
  },
  train(rows, line, check) {
    const wn = rows['train.word2vec.native'], ww = rows['train.word2vec.wasm'], wg = rows['train.word2vec.gensim'];
    if (wn && wg) {
      line(`word2vec skip-gram, tinyshakespeare (vocab ${wn.vocab}): effective words/s native ${fmt(wn.effective_words_per_s, 0)}, ` +
        `wasm ${ww ? fmt(ww.effective_words_per_s, 0) : 'n/a'}, ${wg.peer} ${fmt(wg.effective_words_per_s, 0)} ` +
        `(raw words/s ${fmt(wn.raw_words_per_s, 0)} / ${ww ? fmt(ww.raw_words_per_s, 0) : 'n/a'} / ${fmt(wg.raw_words_per_s, 0)})`);
      check('word2vec native / gensim (effective words/s)', wn.effective_words_per_s / wg.effective_words_per_s, 1.5);
      if (ww) check('word2vec wasm / gensim (effective words/s)', ww.effective_words_per_s / wg.effective_words_per_s, 1);
    }
    const nn = rows['train.next_token.native'], nw = rows['train.next_token.wasm'];
    const nt = rows['train.next_token.torch'], nf = rows['train.next_token.tfjs_wasm'];
    if (nn) {
      line(`next-token V=${nn.V} D=${nn.D} T=${nn.T} B=${nn.B} ${nn.optimizer}: tokens/s native ${fmt(nn.tokens_per_s, 0)}, ` +
        `wasm ${nw ? fmt(nw.tokens_per_s, 0) : 'n/a'}, torch ${nt ? fmt(nt.tokens_per_s, 0) : 'n/a'}, tfjs-backend-wasm ${nf ? fmt(nf.tokens_per_s, 0) : 'n/a'}`);
      if (nt) check('next-token native / torch 1 thread', nn.tokens_per_s / nt.tokens_per_s, 1);
      if (nf) check('next-token native / tfjs-backend-wasm', nn.tokens_per_s / nf.tokens_per_s, 20);
      if (nf && nw) check('next-token wasm / tfjs-backend-wasm', nw.tokens_per_s / nf.tokens_per_s, 20);
    }
  },
  table(rows, line, check) {
    const tn = rows['table.native'], tw = rows['table.wasm'], ts = rows['table.sklearn'];
    if (!tn) return;
    // a top-10 query reads the table once; a copy reads and writes it once: bytes / ms / 1e6 = GB/s
    const bytes = tn.rows * tn.dim * 4;
    const gbps = (ms, times = 1) => (times * bytes) / ms / 1e6;
    for (const [name, r] of [['native', tn], ['wasm', tw]]) {
      if (!r) continue;
      line(`table ${name.padEnd(6)} ${r.rows} x ${r.dim}: top-10 cosine ${fmt(r.neighbours_ms, 2)} ms (${fmt(gbps(r.neighbours_ms))} GB/s read; ` +
        `memcpy ${fmt(gbps(r.memcpy_ms, 2))} GB/s), PCA to 3 ${fmt(r.pca_ms, 0)} ms (${r.pca_solver}), import .npy ${fmt(r.import_ms, 1)} ms`);
    }
    if (ts) line(`table ${ts.peer}: top-10 cosine ${fmt(ts.neighbours_ms, 2)} ms (numpy), PCA to 3 ${fmt(ts.pca_ms, 0)} ms (randomized)`);
    if (tw) {
      check('table neighbours wasm <= 30 ms: 30 / wasm ms', 30 / tw.neighbours_ms, 1);
      check('table PCA wasm <= 1.5 s: 1500 / wasm ms', 1500 / tw.pca_ms, 1);
      if (ts) check('table PCA sklearn / wasm', ts.pca_ms / tw.pca_ms, 1);
      check('table neighbours native speed-up over wasm', tw.neighbours_ms / tn.neighbours_ms, 1.5);
      check('table PCA native speed-up over wasm', tw.pca_ms / tn.pca_ms, 1.5);
      check('table neighbours native read / memcpy GB/s', gbps(tn.neighbours_ms) / gbps(tn.memcpy_ms, 2), 0.7);
    }
  },
  page(rows, line, check, items) {
    const pi = rows['page.import'];
    if (pi) {
      line(`page import of GPT-2's wte (${pi.file_mb} MB file) in Chromium: shown in ${pi.shown_ms} ms (File.slice ${fmt(pi.worker.read_ms, 0)} ms, ` +
        `engine ${fmt(pi.worker.engine_ms, 0)} ms, labels ${fmt(pi.worker.labels_ms, 0)} ms); PCA map ${pi.map_ms} ms in the worker`);
      check('page import <= 1 s: 1000 / shown ms', 1000 / pi.shown_ms, 1);
      check('page PCA map <= 1.5 s: 1500 / worker ms', 1500 / pi.map_ms, 1);
    }
    const pb = rows['page.budgets'];
    if (pb) {
      line(`page budgets in Chromium (${pb.cpus} CPUs; load average ${pb.loadavg_before.join(' ')} before, ${pb.loadavg_after.join(' ')} after):`);
      for (const f of pb.figures) {
        items.push({ kind: 'budget', name: f.name, value: f.value, unit: f.unit, budget: f.budget, bound: f.bound ?? 'max', ok: f.ok, loadavg: f.loadavg,
          error: f.value === null ? f.detail.error : null });
      }
    }
  },
  umap(rows, line, check) {
    const un = rows['umap.native'], uw = rows['umap.wasm'], ua = rows['umap.atlas'], uj = rows['umap.umap_js'];
    umapLine(line, 'native', un);
    umapLine(line, 'wasm', uw);
    umapLine(line, 'atlas', ua);
    umapLine(line, 'umap-js', uj);
    if (uw && !uw.skipped) {
      for (const [name, p] of [['umap-js', uj], ['atlas', ua]]) {
        if (!p || p.skipped) continue;
        check(`umap wasm speed-up over ${name}`, p.seconds.total / uw.seconds.total, 5);
        // one seed's score moves by about +-0.001 (1%): these two ratios are for information; the
        // umap-seeds section compares means over ten seeds
        line(`umap wasm / ${name}, one seed: neighbours kept ${fmt(uw.quality.neighbours_kept / p.quality.neighbours_kept)}, ` +
          `same label ${fmt(uw.quality.label_share / p.quality.label_share)} (noise ~0.01; see umap-seeds)`);
      }
      if (un) check('umap native speed-up over wasm', uw.seconds.total / un.seconds.total, 1.5);
    }
  },
  'umap-seeds'(rows, line, check) {
    // mean +- sd over the seeds each implementation ran
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
        if (st) line(`umap seeds ${name.padEnd(5)} ${key.padEnd(15)} mean ${fmt(st.mean, 5)} +- ${fmt(st.sd, 5)} (${fmt(st.min, 4)}-${fmt(st.max, 4)}, ${st.n} seeds)`);
      }
      if (ours && atlas) check(`umap wasm / atlas ${key}, mean of seeds`, ours.mean / atlas.mean, 1);
    }
  },
  'umap-large'(rows, line, check) {
    const ln = rows['umap_large.native'], lw = rows['umap_large.wasm'];
    umapLine(line, 'native', ln);
    umapLine(line, 'wasm', lw);
    if (lw) check('umap 50257 x 768 wasm <= 60 s: 60 / wasm s', 60 / lw.seconds.total, 1);
  },
  tsne(rows, line, check) {
    const sn = rows['tsne.native'], sw = rows['tsne.wasm'], ss = rows['tsne.sklearn'];
    for (const [name, r] of [['native', sn], ['wasm', sw]]) {
      if (!r) continue;
      line(`tsne ${name.padEnd(6)} ${r.rows} x ${r.dim}, ${r.iterations} iterations: ${fmt(r.seconds.total, 1)} s, CPU ${fmt(r.cpu_seconds, 1)} s (neighbours ${fmt(r.seconds.neighbours)}, ` +
        `affinities ${fmt(r.seconds.affinities)}, layout ${fmt(r.seconds.layout)}), KL ${fmt(r.kl, 3)}, 10-NN label agreement ${fmt(r.label_agreement_10nn, 3)}`);
    }
    if (ss) line(`tsne ${ss.peer} (barnes_hut, n_jobs=1): ${fmt(ss.seconds, 1)} s, CPU ${fmt(ss.cpu_seconds, 1)} s, KL ${fmt(ss.kl, 3)}, 10-NN label agreement ${fmt(ss.label_agreement_10nn, 3)}`);
    if (sw) check('tsne wasm <= 20 s: 20 / wasm s', 20 / sw.seconds.total, 1);
    if (sn) check('tsne native <= 20 s: 20 / native s', 20 / sn.seconds.total, 1);
    if (sw && ss) check('tsne sklearn s / wasm s', ss.seconds / sw.seconds.total, 1);
  },
  // scripts/bench-threads.mjs rows: threads.<work>.<native|wasm>, and threads.peer.<name>
  threads(rows, line, check) {
    for (const [name, r] of Object.entries(rows)) {
      if (name.startsWith('threads.peer.') || !r.seconds) continue;
      const s = Object.entries(r.seconds).map(([n, t]) => `${n}: ${fmt(t, 3)}`).join(', ');
      const same = r.identical === null ? 'no hash' : r.identical ? 'same bits' : '**bits differ**';
      line(`${r.work} ${r.build}: s at ${s} threads; ${same}; serial fraction ${fmt(r.serial_fraction)}, 8 cores ${fmt(r.projected_8)}x; load ${r.loadavg?.[0]}`);
      check(`${r.work} ${r.build}: 2 threads vs 1`, r.ratio_2v1, r.target);
    }
    const p = (k) => rows[`threads.peer.${k}`];
    if (p('torch_next_token')) line(`peer torch next-token, set_num_threads(2): ${fmt(p('torch_next_token').tokens_per_s, 0)} tokens/s`);
    if (p('gensim_word2vec')) line(`peer ${p('gensim_word2vec').peer}: ${fmt(p('gensim_word2vec').effective_words_per_s, 0)} effective words/s (embedlab's word2vec: one thread, docs/training.md)`);
    if (p('sklearn_tsne')) line(`peer ${p('sklearn_tsne').peer} t-SNE n_jobs=2, ${p('sklearn_tsne').iterations} iterations: ${fmt(p('sklearn_tsne').seconds)} s`);
    if (p('sklearn_pca')) line(`peer ${p('sklearn_pca').peer} PCA 50257 x 768 -> 3, OpenBLAS 2 threads: ${fmt(p('sklearn_pca').pca_ms / 1000)} s`);
  },
};
