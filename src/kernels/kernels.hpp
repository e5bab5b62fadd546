// The SIMD kernel layer: the few inner loops the engine spends its time in.
//
// Each kernel has a SIMD version (wasm_simd128 in the wasm build, SSE2 on
// x86-64, plain loops elsewhere) and a scalar reference in kernels::ref that
// the tests compare against. Both compute every output element with the same
// sequence of float operations (multiply, then add; no FMA), so the SIMD and
// the scalar versions, and the native and the wasm builds, agree bit for bit.
// Reductions (dot) use a fixed order: 8 interleaved partial sums
// (element i goes to sum i % 8), combined as ((s0+s4)+(s2+s6))+((s1+s5)+(s3+s7)),
// then the tail elements in order.
//
// Shapes: D is the row width; ids are int32 row indices that the caller has
// already range-checked.
#pragma once

#include <cstddef>
#include <cstdint>

namespace embedlab::kernels {

// out (n, D) = table[ids[i]] * scale + (pos ? pos[i % T] : 0), pos (T, D).
void gather_scale_add(float* out, const float* table, size_t D, const int32_t* ids, size_t n,
                      float scale, const float* pos, size_t T);

// y[n] += a * x[n]
void axpy(size_t n, float a, const float* x, float* y);

// x[n] . y[n] in the fixed 8-way order described above.
float dot(size_t n, const float* x, const float* y);

// y[n] = a * x[n]
void scale(size_t n, float a, const float* x, float* y);

// dtable[ids[i]] += grad[i] * scale for i in [0, n), rows of width D, in order of i.
void scatter_add(float* dtable, size_t D, const int32_t* ids, size_t n, const float* grad,
                 float scale);

// Name of the instruction set the SIMD kernels were built for: "wasm_simd128", "sse2" or "scalar".
const char* isa();

namespace ref {
void gather_scale_add(float* out, const float* table, size_t D, const int32_t* ids, size_t n,
                      float scale, const float* pos, size_t T);
void axpy(size_t n, float a, const float* x, float* y);
float dot(size_t n, const float* x, const float* y);
void scale(size_t n, float a, const float* x, float* y);
void scatter_add(float* dtable, size_t D, const int32_t* ids, size_t n, const float* grad,
                 float scale);
}  // namespace ref

}  // namespace embedlab::kernels
