// The sinusoidal encoding of Vaswani et al. 2017, sec. 3.5 (the kind is in sinusoidal.cpp):
//   sinusoidal(T, D) -> (T, D): PE[p, 2i] = sin(p w_i), PE[p, 2i+1] = cos(p w_i),
//                       w_i = base^(-2i/D); computed in double with detmath, rounded once to float.
//   position_frequencies(D) -> (D/2) the w_i, shared with RoPE's theta_i.
// Example: sinusoidal(128, 64)[1 * 64 + 0] == sin(1).
#pragma once

#include <cstdint>
#include <vector>

namespace embedlab {

std::vector<double> position_frequencies(const char* where, int64_t D, double base = 10000.0);
std::vector<float> sinusoidal(int64_t T, int64_t D, double base = 10000.0);

}  // namespace embedlab
