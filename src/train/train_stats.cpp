#include "train/train_stats.hpp"

#include <cmath>
#include <cstdio>

#include "core/error.hpp"

namespace embedlab {

std::string format_rate(double lr) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", lr);
  return buf;
}

void fail_non_finite(double loss, int64_t step, double learning_rate) {
  const char* what = std::isnan(loss) ? "nan" : "inf";
  fail("train", std::string("loss became ") + what + " at step " + std::to_string(step) +
                    " with learning rate " + format_rate(learning_rate) +
                    "; lower the learning rate");
}

}  // namespace embedlab
