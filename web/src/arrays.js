// Small pure helpers on row-major Float32Array matrices, shared by the worker and the page.
// Tested in Node (tests/js/arrays.test.mjs). No DOM, no engine.
//
// Shapes: a matrix is {data: Float32Array (rows * cols), rows, cols}.

// Evenly spaced indices that always include 0 and n - 1.
// sampleIndices(10, 4) -> Int32Array [0, 3, 6, 9]; sampleIndices(3, 8) -> [0, 1, 2]
export function sampleIndices(n, max) {
  if (n <= max) return Int32Array.from({ length: n }, (_, i) => i);
  const out = new Int32Array(max);
  for (let i = 0; i < max; i++) out[i] = Math.round((i * (n - 1)) / (max - 1));
  return out;
}

// data (rows, cols) -> {data (r, c), rows: r, cols: c, rowIndex (r), colIndex (c), sampled}
// keeping at most maxRows rows and maxCols columns, chosen by sampleIndices (no averaging:
// every drawn cell is a real value, so hover shows the exact number at (rowIndex, colIndex)).
export function strideSample(data, rows, cols, maxRows, maxCols) {
  const rowIndex = sampleIndices(rows, maxRows);
  const colIndex = sampleIndices(cols, maxCols);
  const r = rowIndex.length;
  const c = colIndex.length;
  const out = new Float32Array(r * c);
  const full = c === cols;
  for (let i = 0; i < r; i++) {
    const base = rowIndex[i] * cols;
    if (full) {
      out.set(data.subarray(base, base + cols), i * c);
    } else {
      for (let j = 0; j < c; j++) out[i * c + j] = data[base + colIndex[j]];
    }
  }
  return { data: out, rows: r, cols: c, rowIndex, colIndex, totalRows: rows, totalCols: cols, sampled: r < rows || c < cols };
}

// data -> {min, max, absMax, mean, std} over finite values (NaN counted in `nonFinite`).
export function summarize(data) {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let sq = 0;
  let n = 0;
  let nonFinite = 0;
  for (let i = 0; i < data.length; i++) {
    const v = data[i];
    if (!Number.isFinite(v)) {
      nonFinite++;
      continue;
    }
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
    sq += v * v;
    n++;
  }
  if (n === 0) return { min: 0, max: 0, absMax: 0, mean: 0, std: 0, nonFinite };
  const mean = sum / n;
  const std = Math.sqrt(Math.max(0, sq / n - mean * mean));
  return { min, max, absMax: Math.max(Math.abs(min), Math.abs(max)), mean, std, nonFinite };
}

// True when a and b have the same length and the same float32 bit patterns
// (so -0 vs 0 counts as different, NaN payloads must match).
export function bitsEqual(a, b) {
  if (a.length !== b.length) return false;
  const ua = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const ub = new Uint32Array(b.buffer, b.byteOffset, b.length);
  for (let i = 0; i < ua.length; i++) if (ua[i] !== ub[i]) return false;
  return true;
}

export function maxAbsDiff(a, b) {
  let m = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

// x (n) * s rounded to float32 per element, as C++ `float * float` does.
// subtle: the double product of two float32 values is exact, so one Math.fround gives the
// correctly rounded float32 product, bit for bit.
export function scaleFloat32(x, s) {
  const f = Math.fround(s);
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = Math.fround(x[i] * f);
  return out;
}

// S (T, T) -> max over (m, n, k) of |S[m][n] - S[m-k][n-k]|: 0 when S depends only on m - n
// (a Toeplitz matrix), which is what RoPE and sinusoidal dot products promise.
export function toeplitzDeviation(S, T) {
  let dev = 0;
  for (let m = 1; m < T; m++) {
    for (let n = 1; n < T; n++) {
      const d = Math.abs(S[m * T + n] - S[(m - 1) * T + (n - 1)]);
      if (d > dev) dev = d;
    }
  }
  return dev;
}

// FNV-1a (32-bit) over the bytes of a typed array, as 8 hex digits: a cheap fingerprint of a
// table so tests and people can see that two draws are (or are not) the same numbers.
// fnv1a(new Uint8Array([])) -> '811c9dc5'
export function fnv1a(view) {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i];
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}
