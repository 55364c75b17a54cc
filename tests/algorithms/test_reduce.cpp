// Reductions on the host: exact values on known fields, ghosts ignored.
#include <doctest/doctest.h>

#include <cmath>

#include "../support/test_support.hpp"

namespace ts = tessera;
using namespace ts::test;

TEST_CASE("dot, norm_l2 and norm_max over the interior only (host)") {
  ts::View<double, 3> a("a", ts::extents{3, 4, 5}, 1), b("b", a.layout());
  for_each_point<3>(a.extents(), 1, [&](auto z, auto y, auto x) {
    const bool inside = z >= 0 && y >= 0 && x >= 0 && z < 3 && y < 4 && x < 5;
    a(z, y, x) = inside ? double(x + 1) : 1e6;  // ghosts must not count
    b(z, y, x) = inside ? 2.0 : -1e6;
  });
  // sum over 3*4 rows of sum_{x=1..5} 2x = 12 * 30
  CHECK(ts::dot(a, b) == 360.0);
  CHECK(ts::norm_l2(a) == doctest::Approx(std::sqrt(12 * 55.0)));
  a(1, 2, 3) = -9.5;
  CHECK(ts::norm_max(a) == 9.5);
  ts::View<float, 1> e("e", ts::extents{0}, 1);
  CHECK(ts::norm_l2(e) == 0);
  ts::View<double, 3> c("c", ts::extents{3, 4, 6}, 1);
  CHECK_THROWS_AS(ts::dot(a, c), ts::extent_mismatch_error);
}
