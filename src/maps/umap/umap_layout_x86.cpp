// The AVX2 and AVX-512 variants of umap_detail::forces for x86-64 (layout_epoch picks the
// widest the CPU has at run time): the one kernel, forces_n in umap_forces.hpp, compiled for
// 8 and 16 lanes inside functions that enable those ISAs ("avx2" and "avx512f" only, no FMA;
// the build passes -ffp-contract=off), so their bits equal the 4-lane SSE2 / wasm variant's and
// forces_scalar's (tests/test_umap.cpp). The target attribute, unlike `#pragma GCC target`,
// also works in clang (the sanitizer and fuzz builds). On other targets both are forces_scalar
// and the have_* checks say false.
#include "maps/umap/umap_forces.hpp"

namespace embedlab::umap_detail {

#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)

__attribute__((target("avx2"))) void forces_avx2(const float* x, const float* ox, const float* oy,
                                                 const ForceConsts& k, float* gx, float* gy, int lanes) {
  forces_n<8>(x, ox, oy, k, gx, gy);
  if (lanes > 8) forces_n<8>(x + 8, ox + 8, oy + 8, k, gx + 8, gy + 8);
}

__attribute__((target("avx512f"))) void forces_avx512(const float* x, const float* ox, const float* oy,
                                                      const ForceConsts& k, float* gx, float* gy, int lanes) {
  (void)lanes;  // one pass computes all 16
  forces_n<16>(x, ox, oy, k, gx, gy);
}

bool have_forces_avx2() { return __builtin_cpu_supports("avx2"); }
bool have_forces_avx512() { return __builtin_cpu_supports("avx512f"); }

#else

void forces_avx2(const float* x, const float* ox, const float* oy, const ForceConsts& k, float* gx, float* gy,
                 int lanes) {
  forces_scalar(x, ox, oy, k, gx, gy, lanes);
}
void forces_avx512(const float* x, const float* ox, const float* oy, const ForceConsts& k, float* gx, float* gy,
                   int lanes) {
  forces_scalar(x, ox, oy, k, gx, gy, lanes);
}
bool have_forces_avx2() { return false; }
bool have_forces_avx512() { return false; }

#endif

}  // namespace embedlab::umap_detail
