// The raw bindings of the engine's thread count (core/parallel.hpp): _threads() -> the count in
// use, _setThreads(n) -> the count in use after asking for n (stored error and undefined on bad
// input, "setThreads: threads 0 out of range [1, 64]"). M.threads / M.setThreads
// (api/embed.post.js) wrap them. The single-thread wasm reports 1 whatever is asked; the threaded
// one at most the cores its pthread pool was made for.
#include <emscripten/bind.h>

#include "bindings/common.hpp"
#include "core/parallel.hpp"

namespace embedlab::bindings {
namespace {

int threads_js() { return threads(); }

int set_threads_js(double n) {
  return guard("setThreads", [&] { return set_threads(static_cast<int>(int32_arg("setThreads", "threads", n)), "setThreads"); });
}

}  // namespace
}  // namespace embedlab::bindings

EMSCRIPTEN_BINDINGS(threads) {
  emscripten::function("_threads", &embedlab::bindings::threads_js);
  emscripten::function("_setThreads", &embedlab::bindings::set_threads_js);
}
