// core: extents, layouts, views, accessors, deep_copy and mirrors.
#include <cstdint>
#include <doctest/doctest.h>

#include <type_traits>

#include "../support/test_support.hpp"

namespace ts = tessera;

static_assert(std::is_trivially_copyable_v<ts::view_accessor<float, 3>>,
              "kernels take accessors by value");
static_assert(std::is_trivially_copyable_v<ts::view_accessor<const double, 1>>);
static_assert(std::is_trivially_copyable_v<ts::stencil<ts::star<3, 4>, double>>,
              "kernels take stencils by value");
static_assert(std::is_same_v<decltype(ts::extents{4, 5, 6}), ts::extents<3>>);

TEST_CASE("layout: row-major strides, ghost origin and padding") {
  ts::layout<3> l(ts::extents{4, 5, 6}, 2);
  CHECK(l.stride(2) == 1);
  CHECK(l.stride(1) == 6 + 4);
  CHECK(l.stride(0) == (6 + 4) * (5 + 4));
  CHECK(l.span() == (4 + 4) * (5 + 4) * (6 + 4));
  CHECK(l.origin_offset() == 2 * l.stride(0) + 2 * l.stride(1) + 2);

  ts::layout<2> padded(ts::extents{3, 5}, 1, 32);
  CHECK(padded.pad_left() == 31);  // the interior starts at element 32 of the row
  CHECK(padded.stride(0) == 64);   // 31 + 5 + 2 rounded up to 64
  CHECK(padded.span() == 5 * 64);
  CHECK(padded.origin_offset() % 32 == 0);
  CHECK(padded.origin_offset() == 64 + 32);
  ts::layout<3> wide(ts::extents{2, 3, 100}, 4, 32);
  CHECK(wide.pad_left() == 28);
  CHECK(wide.stride(1) == 160);  // 28 + 100 + 8 = 136 -> 160
  CHECK(wide.origin_offset() % 32 == 0);
  // View: rows of 128 bytes, interior aligned
  ts::View<float, 3> v("v", ts::extents{3, 4, 5}, 1);
  CHECK(v.layout().row_alignment() == 32);
  CHECK(reinterpret_cast<std::uintptr_t>(&v(0, 0, 0)) % 128 == 0);
  CHECK(reinterpret_cast<std::uintptr_t>(&v(2, 3, 0)) % 128 == 0);
}

TEST_CASE("layout: negative extents or ghost widths are rejected with the values") {
  CHECK_THROWS_AS(ts::layout<2>(ts::extents{3, -1}, 1), ts::invalid_argument_error);
  CHECK_THROWS_WITH_AS((ts::View<float, 2>("field", ts::extents{3, -1}, 1)),
                       doctest::Contains("'field'"), ts::invalid_argument_error);
  CHECK_THROWS_WITH_AS(ts::layout<1>(ts::extents{3}, -2), doctest::Contains("-2"),
                       ts::invalid_argument_error);
}

TEST_CASE("view: labelled, zero-initialised, reference-counted; host indexing reaches ghosts") {
  ts::View<double, 3> u("u", ts::extents{3, 4, 5}, 1);
  CHECK(u.label() == "u");
  CHECK(u.size() == 60);
  CHECK(u.describe() == "'u' (interior 3x4x5, ghost 1, HostSpace)");
  int nonzero = 0;
  ts::test::for_each_point<3>(u.extents(), 1, [&](auto... i) { nonzero += u(i...) != 0.0; });
  CHECK(nonzero == 0);
  u(-1, -1, -1) = 1.5;
  u(3, 4, 5) = 2.5;
  CHECK(u.data()[0] == 1.5);
  CHECK(u.data()[u.layout().span() - 1] == 2.5);
  {
    auto copy = u;
    CHECK(u.use_count() == 2);
    copy(0, 0, 0) = 7;
  }
  CHECK(u.use_count() == 1);
  CHECK(u(0, 0, 0) == 7);
  CHECK(reinterpret_cast<std::uintptr_t>(u.data()) % ts::HostSpace::alignment == 0);
}

TEST_CASE("deep_copy copies ghosts too and rejects mismatched layouts naming both views") {
  ts::View<float, 2> a("a", ts::extents{7, 9}, 2), b("b", a.layout());
  ts::test::fill_random(a, 5);
  ts::deep_copy(b, a);
  int diff = 0;
  ts::test::for_each_point<2>(a.extents(), 2, [&](auto... i) { diff += a(i...) != b(i...); });
  CHECK(diff == 0);
  ts::View<float, 2> c("c", ts::extents{7, 8}, 2), d("d", ts::extents{7, 9}, 1);
  CHECK_THROWS_WITH_AS(ts::deep_copy(c, a), doctest::Contains("'c' (interior 7x8"),
                       ts::extent_mismatch_error);
  CHECK_THROWS_WITH_AS(ts::deep_copy(d, a), doctest::Contains("'a' (interior 7x9, ghost 2"),
                       ts::extent_mismatch_error);
  auto m = ts::create_mirror(a);
  CHECK(m.label() == "a_mirror");
  CHECK(m.layout() == a.layout());
  CHECK(m.data() != a.data());
}

