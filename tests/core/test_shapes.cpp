// core: shapes (points, ordering, reach) and stencils (coefficient counts).
#include <doctest/doctest.h>

#include <vector>

#include "../support/shapes_under_test.hpp"
#include "../support/test_support.hpp"

namespace ts = tessera;

// Sizes and reaches are compile-time facts; a mistake here fails the build.
static_assert(ts::shape_traits<ts::star<3, 1>>::size == 7);
static_assert(ts::shape_traits<ts::star<3, 4>>::size == 25);
static_assert(ts::shape_traits<ts::star<2, 3>>::size == 13);
static_assert(ts::shape_traits<ts::box<3, 1>>::size == 27);
static_assert(ts::shape_traits<ts::box<2, 2>>::size == 25);
static_assert(ts::shape_traits<ts::box<3, 2>>::radius == 2);
static_assert(ts::shape_traits<ts::test::upwind3>::reach_lo[0] == -2);
static_assert(ts::shape_traits<ts::test::upwind3>::reach_hi[0] == 0);
static_assert(ts::shape_traits<ts::test::skewed3d>::radius == 3);
static_assert(ts::shape_traits<ts::test::skewed3d>::radius_on(0) == 2);
static_assert(ts::shape_traits<ts::star<3, 2>>::slow_axis_neighbours_on_axis);
static_assert(!ts::shape_traits<ts::box<3, 1>>::slow_axis_neighbours_on_axis);
static_assert(!ts::shape_traits<ts::test::skewed3d>::slow_axis_neighbours_on_axis);
static_assert(ts::shape<ts::test::corner2d>);
static_assert(!ts::shape<int>);

TEST_CASE("star points: centre, then -1,+1,-2,+2,... along each axis in turn") {
  using S = ts::star<3, 2>;
  CHECK(S::points[0] == ts::offset<3>{0, 0, 0});
  CHECK(S::points[1] == ts::offset<3>{-1, 0, 0});
  CHECK(S::points[2] == ts::offset<3>{1, 0, 0});
  CHECK(S::points[3] == ts::offset<3>{-2, 0, 0});
  CHECK(S::points[4] == ts::offset<3>{2, 0, 0});
  CHECK(S::points[5] == ts::offset<3>{0, -1, 0});
  CHECK(S::points[12] == ts::offset<3>{0, 0, 2});
  CHECK(ts::shape_traits<S>::distinct);
}

TEST_CASE("box points: every offset in row-major order") {
  using B = ts::box<2, 1>;
  CHECK(B::points[0] == ts::offset<2>{-1, -1});
  CHECK(B::points[1] == ts::offset<2>{-1, 0});
  CHECK(B::points[4] == ts::offset<2>{0, 0});
  CHECK(B::points[8] == ts::offset<2>{1, 1});
  CHECK(ts::shape_traits<ts::box<3, 2>>::distinct);
}

namespace {
struct anonymous_shape {
  static constexpr int rank = 2;
  static constexpr ts::offsets<2, 2> points{{{0, 0}, {0, 1}}};
};
}  // namespace

TEST_CASE("shape names") {
  CHECK(ts::shape_name<ts::star<3, 1>>() == "star<3,1>");
  CHECK(ts::shape_name<ts::box<2, 2>>() == "box<2,2>");
  CHECK(ts::shape_name<ts::test::upwind3>() == "upwind3");
  CHECK(ts::shape_name<anonymous_shape>() == "custom<rank 2, 2 points>");
}

TEST_CASE("stencil: braced coefficients per point, a run-time list of the wrong length throws") {
  auto lap = ts::stencil(ts::star<3, 1>{}, {-6.f, 1.f, 1.f, 1.f, 1.f, 1.f, 1.f});
  static_assert(std::is_same_v<decltype(lap), ts::stencil<ts::star<3, 1>, float>>);
  CHECK(lap[0] == -6.f);
  CHECK(lap[6] == 1.f);
  std::vector<double> five(5, 1.0);
  CHECK_NOTHROW(ts::stencil(ts::star<2, 1>{}, five));
  CHECK_THROWS_WITH_AS(ts::stencil(ts::star<3, 1>{}, five),
                       doctest::Contains("star<3,1> has 7 points but 5 coefficients"),
                       ts::invalid_argument_error);
}
