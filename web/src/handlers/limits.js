// Memory budget of the page, checked in the worker before asking the engine for a buffer that
// the page would then copy into JS. A convenience, not the guard: the engine plans every
// input-sized buffer itself (src/core/memory.hpp) and refuses what its build cannot hold
// ("positions: similarity matrix 65536 x 65536 float32 need 16.0 GiB; the limit here is
// 2.0 GiB"). Below that limit a browser tab may still die holding gigabytes twice (wasm heap +
// the JS copy), so the page refuses buffers above PAGE_BYTES with a message in the same units.
// Pure; tested in tests/js/arrays.test.mjs.
//
//   checkPageBudget('Embedding', 'table', [200000, 1024])  // throws:
//   "Embedding: table 200000 x 1024 float32 need 781.3 MiB; this page draws at most 256.0 MiB
//    (the engine allows buffers up to 2.0 GiB; use the CLI for bigger ones)"

// The wasm build's limit for one buffer (kBufferLimit in src/core/memory.cpp: under 2 GiB).
// Sizes above it are left to the engine so its message is the one shown.
export const ENGINE_BUFFER_BYTES = 2 ** 31 - 1;
export const PAGE_BYTES = 256 * 1024 * 1024; // the worker also holds a copy (weight()), so ~2x this
// The token x token similarity heatmap of an imported table names every token on its axes, so
// it stays small: at most this many tokens (worker: importSimilarity; page: import-analysis.js).
export const SIMILARITY_MAX_TOKENS = 64;

const UNITS = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

// bytes -> "16.0 GiB", "512 B": binary units with one decimal, as format_bytes in
// src/core/memory.cpp prints them (so page and engine messages read alike).
export function formatBytes(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  let v = bytes / 1024;
  let u = 0;
  while (Math.round(v * 10) / 10 >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${UNITS[u]}`;
}

// (where, what, dims) -> throws Error when dims[0] x dims[1] x ... float32 values fit the
// engine but not the page. Non-positive or non-integer dims and sizes beyond the engine's
// buffer limit pass through: the engine rejects those with its own message.
export function checkPageBudget(where, what, dims) {
  if (!dims.every((d) => Number.isSafeInteger(d) && d > 0)) return;
  const bytes = dims.reduce((a, d) => a * d, 4); // a double: exact up to 2^53, then only too large
  if (bytes <= PAGE_BYTES || bytes > ENGINE_BUFFER_BYTES) return;
  throw new Error(
    `${where}: ${what} ${dims.join(' x ')} float32 need ${formatBytes(bytes)}; this page draws at most ` +
      `${formatBytes(PAGE_BYTES)} (the engine allows buffers up to ${formatBytes(ENGINE_BUFFER_BYTES)}; use the CLI for bigger ones)`,
  );
}
