// Worker-side handlers for "bring your own table" (issue 10): a file the user picks is read here,
// in the worker, into a resident engine table (M.Table), which then answers every query in place.
//
//   importTable {file: File, metadata?: File, tensor?: name}
//     -> {rows, dim, format, tensor, recognised, tensors: [names of the 2-D tensors] (safetensors),
//         labels (rows) | null, points (rows * 2, PCA), explained [2], ms,
//         metadata: {header: [names], columns: [[string per row] per column]} | null (a
//         Projector metadata.tsv with a header; the map can be coloured by a column)}
//     or {needTensor: true, tensors} when a safetensors file has several 2-D tensors and none is
//     a GPT-2 token table (the page then asks which one)
//   importNeighbours {query: 'token' | 'row number', k = 10}
//     -> {query: {row, label}, neighbours: [{row, label, cosine, euclidean, map}]}: the cosine
//        ranking with each neighbour's euclidean distance and its distance on the 2-D map beside it
//        (nothing is re-normalised; the map distance shows what PCA keeps and what it loses)
//
// A safetensors file is never read whole: the header (File.slice(0, 8 + N)), then only the
// chosen tensor's byte range. Nothing half-loaded replaces the current table: the new one is
// built, labelled and projected first, and the old one is freed only then.
const SAFETENSORS_MAX_HEADER = 100 * 1024 * 1024; // the format's own limit on the JSON header

async function slice(file, begin, end) {
  return new Uint8Array(await file.slice(begin, end).arrayBuffer());
}

// A safetensors file starts with an 8-byte little-endian header length and then '{'.
async function isSafetensors(file) {
  if (file.size < 10) return false;
  const head = await slice(file, 0, 9);
  const n = Number(new DataView(head.buffer).getBigUint64(0, true));
  return head[8] === 0x7b && n > 1 && n <= SAFETENSORS_MAX_HEADER && 8 + n <= file.size;
}

export function makeImportHandlers(M) {
  let current = null; // {table, points}

  async function readTable(file, tensor) {
    if (!(await isSafetensors(file))) return { table: M.Table.fromBytes(await slice(file, 0, file.size)) };
    const size = M.Table.safetensorsHeaderSize(await slice(file, 0, 8));
    const all = M.Table.safetensorsHeader(await slice(file, 0, size));
    const twoD = all.filter((t) => t.shape.length === 2 || t.shape.length === 1);
    const names = twoD.map((t) => t.name);
    let pick = tensor ? all.find((t) => t.name === tensor) : twoD.find((t) => /(^|\.)wte\.weight$/.test(t.name));
    if (!pick && !tensor && twoD.length === 1) [pick] = twoD;
    if (!pick) {
      if (tensor) throw new Error(`import: no tensor '${tensor}' in ${file.name}; it has ${names.join(', ')}`);
      return { needTensor: true, tensors: names };
    }
    const bytes = await slice(file, pick.begin, pick.end);
    return { table: M.Table.fromTensor(bytes, { dtype: pick.dtype, shape: pick.shape, name: pick.name }), tensors: names };
  }

  async function importTable({ file, metadata, tensor }) {
    if (!file || typeof file.slice !== 'function') throw new Error('import: choose a table file first');
    const t0 = performance.now();
    const r = await readTable(file, tensor);
    if (r.needTensor) return r;
    const t = r.table;
    let points;
    let explained;
    try {
      if (metadata) {
        const text = new TextDecoder().decode(await slice(metadata, 0, metadata.size));
        // a Projector metadata.tsv has tabs (or is one column); a vocabulary file is one token a line
        if (text.includes('\t')) t.attachMetadata(text);
        else t.attachVocab(text);
      }
      if (t.rows >= 3 && t.dim >= 2) {
        const p = t.pca({ k: 2 });
        points = p.points;
        explained = Array.from(p.explained);
      }
    } catch (err) {
      t.delete();
      throw err;
    }
    if (current) current.table.delete();
    current = { table: t, points };
    return {
      rows: t.rows, dim: t.dim, format: t.format, tensor: t.tensor, recognised: t.recognised, tensors: r.tensors || null,
      // a copy: the reply's typed arrays are transferred (detached here), the worker keeps its points
      labels: t.labels, metadata: t.metadata, points: points ? points.slice() : null, explained: explained || null, name: file.name, ms: performance.now() - t0,
    };
  }

  function rowOf(query) {
    const t = current.table;
    const raw = String(query);
    const q = raw.trim();
    if (/^\d+$/.test(q)) {
      const row = Number(q);
      if (row >= t.rows) throw new Error(`neighbours: row ${row} out of range [0, ${t.rows})`);
      return row;
    }
    const labels = t.labels || [];
    // as typed first (GPT-2 words carry their leading space: " the"), then trimmed, with a space, lower-cased
    for (const cand of [raw, q, ` ${q}`, q.toLowerCase(), ` ${q.toLowerCase()}`]) {
      const r = labels.indexOf(cand);
      if (r >= 0) return r;
    }
    throw new Error(labels.length
      ? `neighbours: ${JSON.stringify(q)} is not a label of this table (${t.rows.toLocaleString('en')} rows); try a row number`
      : 'neighbours: this table has no labels; type a row number');
  }

  function importNeighbours({ query, k = 10 }) {
    if (!current) throw new Error('neighbours: load a table first');
    const t = current.table;
    const row = rowOf(query);
    const q = t.row(row);
    const n = t.neighbours({ id: row, k, metric: 'cosine' });
    const label = (r) => (t.labels ? t.labels[r] : `row ${r}`);
    const p = current.points;
    return {
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

  return { importTable, importNeighbours };
}
