// A diagnostic for tests, not part of the API: M._heapInUse() -> the bytes malloc has handed out
// and not yet freed (dlmalloc's mallinfo().uordblks), so a test can tell a leak from the heap's
// high-water mark (HEAP8.length only ever grows, and a leak inside the grown heap does not show
// there). tests/js/api.test.mjs and tests/js/limits.test.mjs assert it stays flat over 100,000
// failing calls. It allocates nothing and calls nothing back; the raw name (leading underscore)
// keeps it out of the documented API.
#include <malloc.h>

#include <emscripten/bind.h>

namespace {

double heap_in_use() { return static_cast<double>(mallinfo().uordblks); }

}  // namespace

EMSCRIPTEN_BINDINGS(diagnostics) { emscripten::function("_heapInUse", &heap_in_use); }
