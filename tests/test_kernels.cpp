// SIMD kernels against their scalar references, on lengths that leave SIMD remainders.
#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "kernels/kernels.hpp"
#include "core/rng.hpp"
#include "reference.hpp"

using namespace embedlab;
using embedlab::testing::randn;
using embedlab::testing::same_bits;

TEST_CASE("SIMD kernels equal their scalar references bit for bit", "[kernels]") {
  Generator g(11);
  INFO("isa " << kernels::isa());
  const std::vector<size_t> lengths{0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 100, 768, 1027};

  SECTION("axpy") {
    for (size_t n : lengths) {
      const auto x = randn(g, n);
      auto y1 = randn(g, n), y2 = y1;
      kernels::axpy(n, 0.37f, x.data(), y1.data());
      kernels::ref::axpy(n, 0.37f, x.data(), y2.data());
      INFO("n " << n);
      CHECK(same_bits(y1, y2));
    }
  }

  SECTION("dot, in the fixed 8-way order") {
    for (size_t n : lengths) {
      const auto x = randn(g, n), y = randn(g, n);
      const float a = kernels::dot(n, x.data(), y.data()), b = kernels::ref::dot(n, x.data(), y.data());
      INFO("n " << n);
      CHECK(std::memcmp(&a, &b, sizeof a) == 0);
      double want = 0;
      for (size_t i = 0; i < n; ++i) want += double(x[i]) * y[i];
      CHECK(a == Approx(want).margin(1e-4 * (1 + n)));
    }
  }

  SECTION("scale") {
    for (size_t n : lengths) {
      const auto x = randn(g, n);
      std::vector<float> y1(n), y2(n);
      kernels::scale(n, -1.5f, x.data(), y1.data());
      kernels::ref::scale(n, -1.5f, x.data(), y2.data());
      CHECK(same_bits(y1, y2));
    }
  }

  SECTION("gather_scale_add with and without positions") {
    for (size_t D : {1ul, 3ul, 4ul, 7ul, 8ul, 13ul, 64ul, 100ul}) {
      const size_t V = 11, T = 3, n = 10;
      const auto table = randn(g, V * D), pos = randn(g, T * D);
      std::vector<int32_t> ids(n);
      for (auto& id : ids) id = static_cast<int32_t>(g.below(V));
      for (const float* p : {static_cast<const float*>(nullptr), pos.data()}) {
        std::vector<float> a(n * D), b(n * D);
        kernels::gather_scale_add(a.data(), table.data(), D, ids.data(), n, 2.5f, p, T);
        kernels::ref::gather_scale_add(b.data(), table.data(), D, ids.data(), n, 2.5f, p, T);
        INFO("D " << D << (p ? " with positions" : ""));
        CHECK(same_bits(a, b));
      }
    }
  }

  SECTION("scatter_add with repeated rows") {
    for (size_t D : {1ul, 5ul, 8ul, 17ul}) {
      const std::vector<int32_t> ids{2, 0, 2, 2, 1};
      const auto grad = randn(g, ids.size() * D);
      std::vector<float> a(3 * D, 0.5f), b = a;
      kernels::scatter_add(a.data(), D, ids.data(), ids.size(), grad.data(), 0.75f);
      kernels::ref::scatter_add(b.data(), D, ids.data(), ids.size(), grad.data(), 0.75f);
      CHECK(same_bits(a, b));
    }
  }
}
