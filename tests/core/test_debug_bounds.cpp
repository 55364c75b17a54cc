// Accessor bounds checks (compiled with TESSERA_DEBUG_BOUNDS; see tests/CMakeLists.txt).
#include <doctest/doctest.h>

#include "../support/test_support.hpp"

#ifndef TESSERA_DEBUG_BOUNDS
#error "test_debug_bounds must be compiled with TESSERA_DEBUG_BOUNDS"
#endif

namespace ts = tessera;

TEST_CASE("accessor bounds checks name the view, the index and the extents") {
  ts::View<float, 3> u("pressure", ts::extents{4, 5, 6}, 1);
  CHECK_NOTHROW(u(-1, 5, 6));
  CHECK_THROWS_WITH_AS(u(0, 6, 0),
                       doctest::Contains("(0, 6, 0) is outside view 'pressure' (interior 4x5x6, ghost 1)"),
                       ts::out_of_bounds_error);
  CHECK_THROWS_AS(u(-2, 0, 0), ts::out_of_bounds_error);
  ts::View<double, 1> w("w", ts::extents{3}, 0);
  CHECK_THROWS_WITH_AS(w(3), doctest::Contains("'w'"), ts::out_of_bounds_error);
}

TEST_CASE("a sweep with checked accessors stays inside the ghost layer") {
  // host::serial indexes through the checked accessor: a shape whose reach the ghost
  // covers exactly must run without a single out-of-bounds index.
  ts::View<double, 2> in("in", ts::extents{7, 9}, 2), out("out", in.layout());
  ts::test::fill_random(in, 1);
  CHECK_NOTHROW(ts::apply(ts::host::serial{}, ts::test::random_stencil<ts::box<2, 2>, double>(2), in, out));
}
