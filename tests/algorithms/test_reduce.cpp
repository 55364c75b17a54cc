// Reductions on the host: exact values on known fields, ghosts ignored.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

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

TEST_CASE_TEMPLATE("reductions: a NaN or an infinity anywhere in the interior shows, ghosts ignored (host)", T, float,
                   double) {
  ts::View<T, 3> a("a", ts::extents{9, 7, 33}, 1);
  fill_random(a, 3);
  a(-1, 2, 2) = std::numeric_limits<T>::quiet_NaN();  // a ghost: not counted
  CHECK(std::isfinite(ts::norm_max(a)));
  CHECK(ts::find_nonfinite(a).count == 0);
  CHECK(ts::find_nonfinite(a).first.empty());
  a(8, 6, 32) = std::numeric_limits<T>::infinity();
  CHECK(ts::norm_max(a) == std::numeric_limits<double>::infinity());
  a(4, 3, 17) = std::numeric_limits<T>::quiet_NaN();  // NaN beats the infinity
  CHECK(std::isnan(ts::norm_max(a)));
  CHECK(std::isnan(ts::norm_l2(a)));
  CHECK(std::isnan(ts::dot(a, a)));
  const auto found = ts::find_nonfinite(a);
  CHECK(found.count == 2);
  CHECK(found.first == "(4, 3, 17)");
  // every point NaN: the maximum is NaN, not 0 (fmax passes over NaN)
  ts::View<T, 2> all("all_nan", ts::extents{40, 300}, 1);
  for_each_point<2>(all.extents(), 1, [&](auto y, auto x) { all(y, x) = std::numeric_limits<T>::quiet_NaN(); });
  CHECK(std::isnan(ts::norm_max(all)));
  CHECK(ts::find_nonfinite(all).count == 40 * 300);
}
