// Worker-side handlers for "bring your own table" (issue 10): a file the user picks is read here,
// in the worker, into a resident engine table (M.Table), which then answers every query in place.
//
//   importTable {file: File, metadata?: File, tensor?: name}
//     -> {rows, dim, format, tensor, recognised, tensors: [names of the 2-D tensors] (safetensors),
//         labels (rows) | null, ms, timings: {read_ms (File.slice), engine_ms (decoding into the
//         engine), metadata_ms, labels_ms, total_ms},
//         metadata: {header: [names], columns: [[string per row] per column]} | null (a
//         Projector metadata.tsv with a header; the map can be coloured by a column)}
//     or {needTensor: true, tensors} when a safetensors file has several 2-D tensors and none is
//     a GPT-2 token table (the page then asks which one)
//   importNeighbours {query: 'token' | 'row number', k = 10, normalise = false}
//     -> {query: {row, label}, neighbours: [{row, label, cosine, euclidean, map}], normalised}: the
//        cosine ranking with each neighbour's euclidean distance and its distance on the 2-D map
//        beside it (the map distance shows what PCA keeps and what it loses)
//   importMap {normalise}  -> {points (rows * 2), explained [2], normalised, ms}: the PCA map of the
//        rows as stored or of the unit rows, computed on first use (importTable replies before it,
//        so a big table is usable while its map is computed); normalise false also frees the
//        unit-row table
//   importSimilarity {tokens: 'a, b, c' | 'a b c' | row numbers, normalise = false}
//     -> {rows: Int32Array (n), labels [n], data (n * n), n, normalised, maxDiff}: cosine
//        similarities of the chosen rows (Table.similarity); normalised: dot products of the unit
//        rows instead, and maxDiff = max |dot - cosine| over the n * n pairs. At most
//        SIMILARITY_MAX_TOKENS tokens.
//   importNorms {} -> {norms (rows), count, mean, median, min, max, zeros, unit: {min, max, maxError} | null}:
//        every row's length as stored (Table.norms); unit: the lengths of the unit rows, when
//        they exist (the page's "normalise rows" is on)
//   importExport {format, points?, map?} -> {bytes, rows, dim, map}: a file of the loaded table
//        (table-exports.js); 'csv2' holds the map the page draws (points, map: its method), or
//        the PCA map when none is sent
//   (the registry's maps of the loaded table: layout-handler.js, source 'import'; importNeighbours
//    {map: a registry name} measures the map distance on the last frame of that map)
//
// "Normalise rows" (off unless asked): the unit rows are a second resident table made once by
// the engine (Table.normalised(): each row divided by its length, zero rows stay zero), with its
// own PCA map; every query with normalise: true runs on it. No JS loop normalises anything.
// A safetensors file with a GPT-2 position table (wpe.weight) also hands that tensor, read on its
// own (File.slice of its byte range), to the ImportedPositions store for the positions view.
//
// A safetensors file is never read whole: the header (File.slice(0, 8 + N)), then only the
// chosen tensor's byte range. Nothing half-loaded replaces the current table: the new one is
// built and labelled first, and the old one is freed only then (its PCA map comes after, importMap).
import { drawnMap, exportTableFile } from './table-exports.js';
import { ImportedPositions, POSITION_TENSOR } from './imported-positions.js';
import { SIMILARITY_MAX_TOKENS } from './limits.js';

const SAFETENSORS_MAX_HEADER = 100 * 1024 * 1024; // the format's own limit on the JSON header

async function slice(file, begin, end) {
  return new Uint8Array(await file.slice(begin, end).arrayBuffer());
}

// A safetensors file starts with an 8-byte little-endian header length (within the format's
// limit) and then '{'; it is read in slices. A length past the file's end is read that way too,
// so the engine names the file cut short. Anything else (a .safetensors with an absurd length
// included) goes whole to Table.fromBytes with its name, whose extension picks the format.
async function isSafetensors(file) {
  if (file.size < 10) return false;
  const head = await slice(file, 0, 9);
  const n = Number(new DataView(head.buffer).getBigUint64(0, true));
  return head[8] === 0x7b && n > 1 && n <= SAFETENSORS_MAX_HEADER;
}

// The first LISTED names of a list, and how many more: a header may hold a million tensors.
const LISTED = 20;
const someOf = (names) => names.slice(0, LISTED).join(', ') + (names.length > LISTED ? ` and ${names.length - LISTED} more` : '');

// positions: the store the positions handler reads (worker.js shares one between both)
// layout (optional): makeLayoutHandlers(M)'s object: the resident table is its 'import' source,
// and a run on it is dropped when the table (or its unit rows) goes
export function makeImportHandlers(M, positions = new ImportedPositions(), layout = null) {
  let current = null; // {table, points, explained, unit: {table, points, explained} | null}
  if (layout) layout.addSource('import', ({ normalise = false }) => ({ table: tableFor(normalise, 'map').table }));
  const layoutGone = () => layout && layout.dropSource('import');

  // -> {table, tensors, positions, positionsError, ms: {read, engine}}: the file's bytes
  // (File.slice) and the engine's decoding timed apart
  async function readTable(file, tensor) {
    const ms = { read: 0, engine: 0 };
    const read = async (b, e) => {
      const t = performance.now();
      const bytes = await slice(file, b, e);
      ms.read += performance.now() - t;
      return bytes;
    };
    const engine = (f) => {
      const t = performance.now();
      const out = f();
      ms.engine += performance.now() - t;
      return out;
    };
    if (!(await isSafetensors(file))) {
      const bytes = await read(0, file.size);
      return { table: engine(() => M.Table.fromBytes(bytes, { name: file.name })), ms };
    }
    const size = M.Table.safetensorsHeaderSize(await slice(file, 0, 8));
    const all = M.Table.safetensorsHeader(await slice(file, 0, size), { fileSize: file.size });
    const twoD = all.filter((t) => t.shape.length === 2 || t.shape.length === 1);
    const names = twoD.map((t) => t.name);
    let pick = tensor ? all.find((t) => t.name === tensor) : twoD.find((t) => /(^|\.)wte\.weight$/.test(t.name));
    if (!pick && !tensor && twoD.length === 1) [pick] = twoD;
    if (!pick) {
      if (tensor) throw new Error(`import: no tensor '${tensor}' in ${file.name}; it has ${someOf(names)}`);
      return { needTensor: true, tensors: names };
    }
    const bytes = await read(pick.begin, pick.end);
    const table = engine(() => M.Table.fromTensor(bytes, { dtype: pick.dtype, shape: pick.shape, name: pick.name }));
    // GPT-2's learned positions as well (only their byte range), for the positions view; a
    // position table that cannot be read is reported, it does not stop the import
    const wpe = all.find((x) => x.shape.length === 2 && POSITION_TENSOR.test(x.name));
    let pos = null;
    let positionsError = null;
    if (wpe) {
      try {
        const b = wpe === pick ? bytes : await read(wpe.begin, wpe.end);
        pos = engine(() => M.Table.fromTensor(b, { dtype: wpe.dtype, shape: wpe.shape, name: wpe.name }));
      } catch (err) {
        positionsError = `${wpe.name}: ${err.message}`;
      }
    }
    return { table, tensors: names, positions: pos, positionsError, ms };
  }

  async function importTable({ file, metadata, tensor }) {
    if (!file || typeof file.slice !== 'function') throw new Error('import: choose a table file first');
    const t0 = performance.now();
    const r = await readTable(file, tensor);
    if (r.needTensor) return r;
    const t = r.table;
    const timings = { read_ms: r.ms.read, engine_ms: r.ms.engine, metadata_ms: 0, labels_ms: 0 };
    let labels;
    let meta;
    try {
      if (metadata) {
        const tm = performance.now();
        const text = new TextDecoder().decode(await slice(metadata, 0, metadata.size));
        // a Projector metadata.tsv has tabs (or is one column); a vocabulary file is one token a line
        if (text.includes('\t')) t.attachMetadata(text);
        else t.attachVocab(text);
        timings.metadata_ms = performance.now() - tm;
      }
      const tl = performance.now();
      labels = t.labels;
      meta = t.metadata;
      timings.labels_ms = performance.now() - tl;
    } catch (err) {
      t.delete();
      if (r.positions) r.positions.delete();
      throw err;
    }
    dropCurrent();
    current = { table: t, points: null, explained: null, unit: null };
    if (r.positions) positions.set({ table: r.positions, file: file.name, tensor: r.positions.tensor });
    else positions.clear();
    timings.total_ms = performance.now() - t0;
    return {
      rows: t.rows, dim: t.dim, format: t.format, tensor: t.tensor, recognised: t.recognised, tensors: r.tensors || null,
      labels, metadata: meta, name: file.name, ms: timings.total_ms, timings,
      positions: r.positions ? { tensor: r.positions.tensor, rows: r.positions.rows, dim: r.positions.dim } : null,
      positionsError: r.positionsError || null,
    };
  }

  // The 2-D PCA map of v ({table, points, explained}), computed on first use: a table is
  // usable (neighbours, similarity, exports) before its map is drawn.
  function withMap(v) {
    if (!v.points && v.table.rows >= 3 && v.table.dim >= 2) {
      const p = v.table.pca({ k: 2 });
      v.points = p.points;
      v.explained = Array.from(p.explained);
    }
    return v;
  }

  function dropCurrent() {
    if (!current) return;
    layoutGone();
    current.table.delete();
    if (current.unit) current.unit.table.delete();
    current = null;
  }

  // The table a query runs on: the rows as stored or (normalise) the engine's unit rows, made
  // once (with their PCA map) on first use -> {table, points, explained}
  function tableFor(normalise, where) {
    if (!current) throw new Error(`${where}: load a table first`);
    if (!normalise) return current;
    if (!current.unit) current.unit = { table: current.table.normalised(), points: null, explained: null };
    return current.unit;
  }

  function rowOf(query, where = 'neighbours') {
    const t = current.table;
    const raw = String(query);
    const q = raw.trim();
    if (/^\d+$/.test(q)) {
      const row = Number(q);
      if (row >= t.rows) throw new Error(`${where}: row ${row} out of range [0, ${t.rows})`);
      return row;
    }
    const labels = t.labels || [];
    // as typed first (GPT-2 words carry their leading space: " the"), then trimmed, with a space, lower-cased
    for (const cand of [raw, q, ` ${q}`, q.toLowerCase(), ` ${q.toLowerCase()}`]) {
      const r = labels.indexOf(cand);
      if (r >= 0) return r;
    }
    throw new Error(labels.length
      ? `${where}: ${JSON.stringify(q)} is not a label of this table (${t.rows.toLocaleString('en')} rows); try a row number`
      : `${where}: this table has no labels; type a row number`);
  }

  // map: the method of the map the page shows ('pca', or a registry name: its last frame, when
  // there is one of the same rows; else no map distance)
  function importNeighbours({ query, k = 10, normalise = false, map = 'pca' }) {
    const v = map === 'pca' ? withMap(tableFor(normalise, 'neighbours')) : tableFor(normalise, 'neighbours');
    const t = v.table;
    const p = map === 'pca' ? v.points : layout && layout.coordinatesOf('import', map, normalise);
    const row = rowOf(query);
    const q = t.row(row);
    const n = t.neighbours({ id: row, k, metric: 'cosine' });
    const label = (r) => (t.labels ? t.labels[r] : `row ${r}`);
    return {
      normalised: !!normalise, map: p ? map : null,
      query: { row, label: label(row) },
      neighbours: Array.from(n.ids, (id, i) => {
        const v = t.row(id);
        let d2 = 0;
        for (let c = 0; c < v.length; c++) d2 += (v[c] - q[c]) ** 2;
        return {
          row: id, label: label(id), cosine: n.scores[i], euclidean: Math.sqrt(d2),
          map: p ? Math.hypot(p[2 * id] - p[2 * row], p[2 * id + 1] - p[2 * row + 1]) : null,
        };
      }),
    };
  }

  // points, map: the 2-D map the page draws ('csv2' saves it; without them the PCA of the table)
  function importExport({ format, points = null, map = 'pca' }) {
    if (!current) throw new Error('export: load a table first');
    const drawn = format === 'csv2' ? drawnMap({ points, map }, current.table.rows, layout?.mapNames) : null;
    const file = exportTableFile(M, current.table, format, { points2: format === 'csv2' ? (drawn ? drawn.points : withMap(current).points) : null });
    return { ...file, map: format === 'csv2' ? (drawn ? drawn.method : 'pca') : null };
  }

  function importMap({ normalise = false }) {
    const t0 = performance.now();
    const v = withMap(tableFor(normalise, 'map'));
    if (!normalise && current.unit) {
      layoutGone(); // a run may read the unit rows
      current.unit.table.delete(); // off again: the unit rows are not kept
      current.unit = null;
    }
    return { normalised: !!normalise, points: v.points ? v.points.slice() : null, explained: v.explained, ms: performance.now() - t0 };
  }

  // 'a, b, c' (pieces as typed: " the" keeps its space) or 'a b c' -> row numbers via rowOf
  function rowsOf(tokens) {
    const text = String(tokens ?? '');
    const pieces = (text.includes(',') ? text.split(',') : text.split(/\s+/)).filter((x) => x.trim() !== '');
    if (!pieces.length) throw new Error('similarity: type some tokens (or row numbers), separated by commas or spaces');
    if (pieces.length > SIMILARITY_MAX_TOKENS) {
      throw new Error(`similarity: ${pieces.length} tokens given, at most ${SIMILARITY_MAX_TOKENS} fit the heatmap; remove ${pieces.length - SIMILARITY_MAX_TOKENS}`);
    }
    return pieces.map((x) => rowOf(x, 'similarity'));
  }

  function importSimilarity({ tokens, normalise = false }) {
    const { table: t } = tableFor(normalise, 'similarity');
    const rows = Int32Array.from(rowsOf(tokens));
    // cosine of the rows as stored, or dot products of the unit rows (the same numbers up to rounding)
    const data = normalise ? t.similarity(rows, { cosine: false }) : t.similarity(rows, { cosine: true });
    let maxDiff = null;
    if (normalise) {
      const cos = current.table.similarity(rows, { cosine: true });
      maxDiff = 0;
      for (let i = 0; i < cos.length; i++) maxDiff = Math.max(maxDiff, Math.abs(cos[i] - data[i]));
    }
    const labels = Array.from(rows, (r) => (t.labels ? t.labels[r] : `row ${r}`));
    return { rows, labels, data, n: rows.length, normalised: !!normalise, maxDiff };
  }

  function importNorms() {
    if (!current) throw new Error('norms: load a table first');
    const norms = current.table.norms();
    const sorted = Float32Array.from(norms).sort();
    const n = sorted.length;
    let sum = 0;
    let zeros = 0;
    for (const v of sorted) {
      sum += v;
      if (v === 0) zeros++;
    }
    let unit = null;
    if (current.unit) {
      const u = current.unit.table.norms();
      let lo = Infinity;
      let hi = -Infinity;
      for (const v of u) {
        if (v === 0) continue; // zero rows stay zero
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
      unit = { min: lo, max: hi, maxError: Math.max(Math.abs(lo - 1), Math.abs(hi - 1)) };
    }
    return {
      norms, count: n, mean: sum / n, zeros, unit,
      median: n % 2 ? sorted[n >> 1] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2, min: sorted[0], max: sorted[n - 1],
    };
  }

  return { importTable, importNeighbours, importMap, importSimilarity, importNorms, importExport };
}
