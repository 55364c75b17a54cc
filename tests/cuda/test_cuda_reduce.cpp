// Device reductions: Thrust and the hand-written block reduction against the host.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "../support/cuda_support.hpp"
#include "../support/test_support.hpp"

namespace ts = tessera;
using namespace ts::test;

TEST_CASE_TEMPLATE("device dot, norm_l2, norm_max: thrust and block_atomic agree with the host", T, float, double) {
  TESSERA_REQUIRE_CUDA_DEVICE();
  ts::View<T, 3> a_h("a", ts::extents{37, 29, 53}, 2), b_h("b", a_h.layout());
  fill_random(a_h, 1);
  fill_random(b_h, 2);
  ts::View<T, 3, ts::CudaSpace> a("a_d", a_h.layout()), b("b_d", a_h.layout());
  ts::deep_copy(a, a_h);
  ts::deep_copy(b, b_h);
  const double tol = 1e-12;  // accumulated in double; only the summation order differs
  for (auto m : {ts::reduction_method::thrust, ts::reduction_method::block_atomic}) {
    CAPTURE(static_cast<int>(m));
    CHECK(ts::dot(a, b, m) == doctest::Approx(ts::dot(a_h, b_h)).epsilon(tol));
    CHECK(ts::norm_l2(a, m) == doctest::Approx(ts::norm_l2(a_h)).epsilon(tol));
    CHECK(ts::norm_max(a, m) == ts::norm_max(a_h));
  }
  ts::View<T, 1, ts::CudaSpace> one("one", ts::extents{1}, 0);
  CHECK(ts::norm_max(one, ts::reduction_method::block_atomic) == 0);
}

TEST_CASE_TEMPLATE("device reductions: a NaN or an infinity anywhere shows, with either method", T, float, double) {
  TESSERA_REQUIRE_CUDA_DEVICE();
  ts::View<T, 3> a_h("a", ts::extents{37, 29, 53}, 1);
  fill_random(a_h, 3);
  a_h(-1, 0, 0) = std::numeric_limits<T>::quiet_NaN();  // a ghost: not counted
  a_h(36, 28, 52) = std::numeric_limits<T>::infinity();
  auto a = to_device(a_h, "a_d");
  for (auto m : {ts::reduction_method::thrust, ts::reduction_method::block_atomic}) {
    CAPTURE(static_cast<int>(m));
    CHECK(ts::norm_max(a, m) == std::numeric_limits<double>::infinity());
  }
  a_h(20, 3, 17) = -std::numeric_limits<T>::quiet_NaN();  // a negative NaN too
  a = to_device(a_h, "a_d");
  for (auto m : {ts::reduction_method::thrust, ts::reduction_method::block_atomic}) {
    CAPTURE(static_cast<int>(m));
    CHECK(std::isnan(ts::norm_max(a, m)));
    CHECK(std::isnan(ts::norm_l2(a, m)));
  }
  const auto found = ts::find_nonfinite(a);
  CHECK(found.count == 2);
  CHECK(found.first == "(20, 3, 17)");
}
