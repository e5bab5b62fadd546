// Test helper for the steppable constructions (UmapRun::start, TsneRun::start): runs
// prepare(1 slice, work) until the run is prepared, checking that progress stays in [0, 1],
// and returns how many slices were not the last and the phases seen, in order.
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace embedlab::testing {

struct Sliced {
  int64_t slices = 0;
  std::vector<std::string> phases;
};

template <class Run>
Sliced prepare_in_slices(Run& r, int64_t work) {
  Sliced s;
  s.phases.push_back(r.phase());
  while (!r.prepare(1, work)) {
    ++s.slices;
    if (s.phases.back() != r.phase()) s.phases.push_back(r.phase());
    CHECK(r.progress() >= 0.0);
    CHECK(r.progress() <= 1.0);
  }
  return s;
}

}  // namespace embedlab::testing
