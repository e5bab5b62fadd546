// Memory budget of the page, checked in the worker before asking the engine for a table.
// The engine refuses anything above its own limit (3.5 GiB, core/error.hpp) with its own
// message; below that, a browser tab may still die allocating gigabytes, so the page refuses
// tables above PAGE_BYTES with a message that says so. Pure; tested in tests/js/arrays.test.mjs.

export const ENGINE_MAX_BYTES = 3758096384; // kMaxTableBytes in src/core/error.cpp
export const PAGE_BYTES = 256 * 1024 * 1024; // the worker also holds a copy (weight()), so ~2x this

// (where, what, a, b) -> throws Error when a x b float32 values fit the engine but not the page.
// Sizes beyond the engine limit pass through so the engine's message is the one shown.
export function checkPageBudget(where, what, a, b) {
  if (!(a > 0 && b > 0)) return; // the engine rejects these with its own message
  const bytes = a * b * 4;
  if (bytes > ENGINE_MAX_BYTES || bytes <= PAGE_BYTES) return;
  throw new Error(
    `${where}: ${what} of ${a} x ${b} values needs ${bytes} bytes; this page draws at most ` +
      `${PAGE_BYTES} bytes (the engine itself allows ${ENGINE_MAX_BYTES}; use the CLI for bigger tables)`,
  );
}
