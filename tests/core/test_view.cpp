// core: extents, layouts, views, accessors, deep_copy and mirrors.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
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

TEST_CASE("view: labelled, zero-initialised, reference-counted, host indexing reaches ghosts") {
  ts::View<double, 3> u("u", ts::extents{3, 4, 5}, 1);
  CHECK(u.label() == "u");
  CHECK(u.size() == 60);
  CHECK(u.describe() == "'u' (interior 3x4x5, ghost 1, HostSpace)");
  int nonzero = 0;
  ts::test::for_each_point<3>(u.extents(), 1, [&](auto... i) { nonzero += u(i...) != 0.0; });
  CHECK(nonzero == 0);
  // Ghosts sit inside the allocation at the offsets the padded layout gives: the first
  // after the row's left padding, the last before the last row's right padding.
  const auto& l = u.layout();
  u(-1, -1, -1) = 1.5;
  u(3, 4, 5) = 2.5;
  CHECK(u.data()[l.pad_left()] == 1.5);
  CHECK(u.data()[l.span() - l.stride(1) + l.pad_left() + 5 + 2 * 1 - 1] == 2.5);
  CHECK(l.pad_left() + 5 + 2 <= l.stride(1));
  {
    auto copy = u;
    CHECK(u.use_count() == 2);
    copy(0, 0, 0) = 7;
  }
  CHECK(u.use_count() == 1);
  CHECK(u(0, 0, 0) == 7);
  CHECK(reinterpret_cast<std::uintptr_t>(u.data()) % ts::HostSpace::alignment == 0);
}

TEST_CASE("HostSpace: large blocks on 2 MiB for huge pages, small ones on 128 B, all zeroed, overflowing sizes refused") {
  using H = ts::HostSpace;
  const std::size_t sizes[] = {1, 1000, H::huge_from - 8, H::huge_from, H::huge_from + 4093};
  for (const std::size_t bytes : sizes) {
    INFO("bytes ", bytes);
    void* p = H::allocate(bytes, "block");
    const auto address = reinterpret_cast<std::uintptr_t>(p);
    CHECK(address % (bytes >= H::huge_from ? H::huge_page : H::alignment) == 0);
    const auto* b = static_cast<const unsigned char*>(p);
    bool zero = true;
    for (std::size_t i = 0; i < bytes; i += 509) zero = zero && b[i] == 0;
    CHECK((zero && b[bytes - 1] == 0));
    H::deallocate(p);
  }
  try {
    H::allocate(std::numeric_limits<std::size_t>::max() - 100, "too_big");
    FAIL("no error");
  } catch (const ts::allocation_error& e) {
    CHECK(std::string(e.what()).find("too_big") != std::string::npos);
  }
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


template <class V>
concept has_planes = requires(const V& v) { v.planes(0, 1); };

TEST_CASE("planes: a window of axis-0 planes shares memory, its ghosts are the neighbour planes") {
  // padded rows and a ghost wider than 1, so a wrong plane offset or stride shows
  ts::View<double, 3> u("u", ts::layout<3>(ts::extents{11, 7, 9}, 2, 8));
  ts::test::fill_random(u, 41);
  const auto w = u.planes(3, 4);
  CHECK(w.label() == "u[planes 3..7)");
  CHECK(w.extents() == ts::extents{4, 7, 9});
  CHECK(w.ghost() == 2);
  CHECK(w.layout().stride(0) == u.layout().stride(0));
  CHECK(w.layout().stride(1) == u.layout().stride(1));
  CHECK(&w(0, 0, 0) == &u(3, 0, 0));
  int differ = 0;
  ts::test::for_each_point<3>(w.extents(), 2, [&](auto z, auto y, auto x) { differ += &w(z, y, x) != &u(z + 3, y, x); });
  CHECK(differ == 0);
  // the window keeps the memory alive after the whole view is gone
  const double kept = u(5, 6, 8);
  {
    auto tmp = u;
    u = ts::View<double, 3>();
    CHECK(tmp.use_count() == 2);  // tmp and w's owner link
  }
  CHECK(w(2, 6, 8) == kept);
  // a window at the edge: its outer ghost planes are the whole view's ghost planes
  ts::View<float, 2> v("v", ts::extents{6, 5}, 1);
  ts::test::fill_random(v, 42);
  const auto last = v.planes(5, 1);
  CHECK(&last(1, -1) == &v(6, -1));
  CHECK(&v.planes(0, 6)(-1, 5) == &v(-1, 5));
  // outside the interior: refused, naming the view, the planes asked and the extent
  CHECK_THROWS_WITH_AS(v.planes(4, 3), doctest::Contains("3 plane(s) from plane 4 of 'v' (interior 6x5, ghost 1"),
                       ts::invalid_argument_error);
  CHECK_THROWS_AS(v.planes(-1, 2), ts::invalid_argument_error);
  CHECK_THROWS_AS(v.planes(0, 0), ts::invalid_argument_error);
  CHECK_THROWS_AS((ts::View<float, 2>().planes(0, 1)), ts::invalid_argument_error);
  static_assert(has_planes<ts::View<float, 2>> && !has_planes<ts::View<float, 1>>, "a 1D view has no planes");
}

TEST_CASE("planes: sweeping windows one after another equals one sweep of the whole view") {
  const ts::extents<3> n{13, 6, 10};
  ts::View<float, 3> in("in", n, 2), whole("whole", n, 2), pieces("pieces", n, 2);
  ts::test::fill_random(in, 43);
  ts::test::poison(whole);
  ts::test::poison(pieces);
  const auto st = ts::test::random_stencil<ts::star<3, 2>, float>(44);
  ts::apply(ts::host::serial{}, st, in, whole);
  // interior planes first, then the edges, as a distributed step does
  for (const auto& [first, count] : {std::pair{2, 9}, std::pair{0, 2}, std::pair{11, 2}})
    ts::apply(ts::host::serial{}, st, in.planes(first, count), pieces.planes(first, count));
  int differ = 0;
  ts::test::for_each_point<3>(n, 0, [&](auto... i) { differ += !(whole(i...) == pieces(i...)); });
  CHECK(differ == 0);
  CHECK(ts::test::ghosts_changed(pieces) == 0);  // the windows' ghosts are never written
}

TEST_CASE("box: a sub-box shares memory, its ghosts are the neighbour cells, its layout says what it covers") {
  // padded rows and a ghost wider than 1, so a wrong offset or stride shows
  ts::View<double, 3> u("u", ts::layout<3>(ts::extents{11, 7, 9}, 2, 8));
  ts::test::fill_random(u, 45);
  const auto b = u.box({3, 2, 1}, ts::extents{4, 3, 5});
  CHECK(b.label() == "u[box 3..7, 2..5, 1..6)");
  CHECK(b.extents() == ts::extents{4, 3, 5});
  CHECK(b.ghost() == 2);
  CHECK(b.layout().strides() == u.layout().strides());
  CHECK_FALSE(b.layout().dense());  // other cells lie between its rows
  int differ = 0;
  ts::test::for_each_point<3>(b.extents(), 2, [&](auto z, auto y, auto x) { differ += &b(z, y, x) != &u(z + 3, y + 2, x + 1); });
  CHECK(differ == 0);
  // the box's last cell (its far ghost corner) is the last element of its span
  CHECK(&b(5, 4, 6) == b.data() + b.layout().span() - 1);
  // a box of whole rows and planes below axis 0 is a slab of planes: dense, same span
  const auto slab = u.box({2, 0, 0}, ts::extents{5, 7, 9});
  CHECK(slab.layout() == u.planes(2, 5).layout());
  CHECK(slab.layout().span() == u.planes(2, 5).layout().span());
  CHECK(slab.layout().dense());
  // whole rows keep their alignment (the 16-byte strategies sweep such boxes); the
  // address of the box's rows moves by whole strides only
  const auto rows = u.box({1, 3, 0}, ts::extents{2, 2, 9});
  CHECK(rows.layout().row_alignment() == 8);
  CHECK((rows.data() - u.data()) % 8 == 0);
  // a box of a box, and the memory kept alive after the whole view is gone
  const auto inner = b.box({1, 1, 1}, ts::extents{2, 1, 3});
  CHECK(&inner(0, 0, 0) == &u(4, 3, 2));
  const double kept = u(5, 3, 4);
  u = ts::View<double, 3>();
  CHECK(inner(1, 0, 2) == kept);
  // outside the interior or empty: refused, naming the view, the axis and the extent
  ts::View<float, 2> v("v", ts::extents{6, 5}, 1);
  CHECK_THROWS_WITH_AS(v.box({0, 3}, ts::extents{6, 3}),
                       doctest::Contains("3 point(s) from 3 along axis 1 of 'v' (interior 6x5, ghost 1"),
                       ts::invalid_argument_error);
  CHECK_THROWS_AS(v.box({-1, 0}, ts::extents{2, 2}), ts::invalid_argument_error);
  CHECK_THROWS_AS(v.box({0, 0}, ts::extents{0, 2}), ts::invalid_argument_error);
  CHECK_THROWS_AS(v.box({0, 0}, ts::extents{std::int64_t{1} << 62, 2}), ts::invalid_argument_error);
  CHECK_THROWS_AS((ts::View<float, 2>().box({0, 0}, ts::extents{1, 1})), ts::invalid_argument_error);
}

TEST_CASE("box with a narrower ghost layer reaches into the view's ghosts, its own ghosts inside the view") {
  // ghost 3, rows padded to 8: the box grown 2 cells into the ghosts keeps a ghost of 1
  ts::View<double, 3> u("u", ts::layout<3>(ts::extents{9, 7, 11}, 3, 8));
  ts::test::fill_random(u, 49);
  const auto grown = u.box({-2, -1, 0}, ts::extents{13, 9, 11}, 1);
  CHECK(grown.label() == "u[box -2..11, -1..8, 0..11, ghost 1)");
  CHECK(grown.extents() == ts::extents{13, 9, 11});
  CHECK(grown.ghost() == 1);
  CHECK_FALSE(grown.layout().dense());
  int differ = 0;
  ts::test::for_each_point<3>(grown.extents(), 1,
                              [&](auto z, auto y, auto x) { differ += &grown(z, y, x) != &u(z - 2, y - 1, x); });
  CHECK(differ == 0);
  // its memory starts at its first ghost cell's row, inside u's, and ends at its far corner
  CHECK(grown.data() >= u.data());
  CHECK(&grown(-1, -1, -1) == grown.data() + grown.layout().pad_left());
  CHECK(&grown(13, 9, 11) == grown.data() + grown.layout().span() - 1);
  CHECK(&grown(13, 9, 11) <= u.data() + u.layout().span() - 1);
  // the interior's rows start where u's do: 16-byte aligned, as the vector strategies need
  CHECK(reinterpret_cast<std::uintptr_t>(&grown(0, 0, 0)) % 16 == 0);
  // the same ghost width is box(first, count); a box of the box, and ghost 0
  CHECK(u.box({1, 2, 3}, ts::extents{2, 2, 2}, 3).layout() == u.box({1, 2, 3}, ts::extents{2, 2, 2}).layout());
  const auto core = grown.box({2, 1, 0}, ts::extents{9, 7, 11}, 0);
  CHECK(&core(0, 0, 0) == &u(0, 0, 0));
  CHECK(&core(8, 6, 10) == &u(8, 6, 10));
  // a sweep into the grown box writes it and nothing else
  ts::View<double, 3> out("out", u.layout());
  std::fill(out.data(), out.data() + out.layout().span(), std::numeric_limits<double>::quiet_NaN());
  const auto st = ts::test::random_stencil<ts::star<3, 1>, double>(50);
  ts::apply(ts::host::serial{}, st, grown, out.box({-2, -1, 0}, ts::extents{13, 9, 11}, 1));
  ts::index_t written = 0, wrong = 0;
  ts::test::for_each_point<3>(u.extents(), 3, [&](auto z, auto y, auto x) {
    const bool inside = z >= -2 && z < 11 && y >= -1 && y < 8 && x >= 0 && x < 11;
    written += !std::isnan(out(z, y, x));
    if (inside) {
      double want = 0;
      for (int k = 0; k < 7; ++k)
        want += st.coeffs[k] * u(z + ts::star<3, 1>::points[k][0], y + ts::star<3, 1>::points[k][1],
                                 x + ts::star<3, 1>::points[k][2]);
      wrong += std::abs(out(z, y, x) - want) > 1e-14 * (1 + std::abs(want));
    }
  });
  CHECK(written == 13 * 9 * 11);
  CHECK(wrong == 0);
  // the box and its ghosts must stay in u's cells; the ghost width in [0, u's]
  CHECK_THROWS_WITH_AS(u.box({-3, 0, 0}, ts::extents{2, 2, 2}, 1),
                       doctest::Contains("2 point(s) from -3 along axis 0 of 'u' (interior 9x7x11, ghost 3"),
                       ts::invalid_argument_error);
  CHECK_THROWS_AS(u.box({0, 0, 0}, ts::extents{2, 2, 13}, 2), ts::invalid_argument_error);  // ends past 11 + 3 - 2
  CHECK_NOTHROW(u.box({0, 0, 0}, ts::extents{2, 2, 12}, 2));
  CHECK_THROWS_AS(u.box({0, 0, 0}, ts::extents{2, 2, 2}, 4), ts::invalid_argument_error);
  CHECK_THROWS_AS(u.box({0, 0, 0}, ts::extents{2, 2, 2}, -1), ts::invalid_argument_error);
  CHECK_THROWS_AS(u.box({-1, 0, 0}, ts::extents{std::int64_t{1} << 62, 2, 2}, 1), ts::invalid_argument_error);
}

TEST_CASE("box: an inner box and its shell swept one after another equal one sweep, and nothing outside is written") {
  const ts::extents<3> n{13, 9, 10};
  constexpr int g = 2;
  ts::View<float, 3> in("in", n, g), whole("whole", n, g), pieces("pieces", n, g);
  ts::test::fill_random(in, 46);
  ts::test::poison(whole);
  ts::test::poison(pieces);
  const auto st = ts::test::random_stencil<ts::box<3, 2>, float>(47);
  ts::apply(ts::host::serial{}, st, in, whole);
  // the inner box first, then the shell around it as a distributed step sweeps it: along
  // each axis in turn two slabs, the axes before it inside, the axes after it whole
  ts::apply(ts::host::serial{}, st, in.box({g, g, g}, ts::extents{13 - 2 * g, 9 - 2 * g, 10 - 2 * g}),
            pieces.box({g, g, g}, ts::extents{13 - 2 * g, 9 - 2 * g, 10 - 2 * g}));
  int boxes = 1;
  for (int a = 0; a < 3; ++a)
    for (const ts::index_t first : {ts::index_t{0}, n[a] - g}) {
      ts::array<ts::index_t, 3> lo{};
      ts::extents<3> count = n;
      for (int b = 0; b < a; ++b) lo[b] = g, count[b] = n[b] - 2 * g;
      lo[a] = first, count[a] = g;
      ts::apply(ts::host::serial{}, st, in.box(lo, count), pieces.box(lo, count));
      ++boxes;
    }
  CHECK(boxes == 7);
  int differ = 0;
  ts::test::for_each_point<3>(n, 0, [&](auto... i) { differ += !(whole(i...) == pieces(i...)); });
  CHECK(differ == 0);
  CHECK(ts::test::ghosts_changed(pieces) == 0);  // the boxes' ghosts are never written
  // deep_copy into a box writes the box alone, its ghost cells included (its layout is
  // not dense: copied row by row, from the first ghost cell of each row, past the padding)
  ts::View<float, 3> target("target", n, g);
  ts::test::poison(target);
  const auto part = target.box({5, 3, 2}, ts::extents{3, 2, 4});
  auto source = ts::create_mirror(part);
  ts::test::fill_random(source, 48);
  ts::deep_copy(part, source);
  int outside = 0, wrong = 0;
  ts::test::for_each_point<3>(n, 0, [&](auto z, auto y, auto x) {
    const bool in_box = z >= 5 - g && z < 8 + g && y >= 3 - g && y < 5 + g && x >= 2 - g && x < 6 + g;
    if (in_box) wrong += !(target(z, y, x) == source(z - 5, y - 3, x - 2));
    else outside += !std::isnan(target(z, y, x));
  });
  CHECK(outside == 0);
  CHECK(wrong == 0);
  CHECK(ts::test::ghosts_changed(target) == 0);
}

TEST_CASE("sizes that overflow 64 bits are refused with the view's name and extents, before allocating") {
  // one axis of 2^62 floats: 2^64 bytes
  CHECK_THROWS_WITH_AS((ts::View<float, 1>("x", ts::extents<1>{std::int64_t{1} << 62}, 0)),
                       doctest::Contains("view 'x' (interior 4611686018427387904"), ts::invalid_argument_error);
  // an element count of 2^64 (which plain 64-bit arithmetic would wrap to 0)
  const ts::extents<3> wraps{std::int64_t{1} << 21, std::int64_t{1} << 21, std::int64_t{1} << 22};
  CHECK_FALSE(wraps.checked_size().has_value());
  CHECK_THROWS_WITH_AS((ts::View<float, 3>("big", wraps, 1)), doctest::Contains("2097152x2097152x4194304"),
                       ts::invalid_argument_error);
  CHECK_THROWS_WITH_AS((ts::View<float, 3>("big", wraps, 1)), doctest::Contains("'big'"), ts::invalid_argument_error);
  // strides overflow although the interior is empty
  CHECK_THROWS_AS((ts::layout<3>(ts::extents{std::int64_t{1} << 40, std::int64_t{1} << 40, 0}, 1)),
                  ts::invalid_argument_error);
  // ghosts push a representable interior over the edge
  const std::int64_t max = std::numeric_limits<std::int64_t>::max();
  CHECK_THROWS_AS((ts::layout<1>(ts::extents<1>{max - 1}, 1)), ts::invalid_argument_error);
  CHECK_THROWS_AS((ts::layout<1>(ts::extents<1>{max - 10}, 0, 32)), ts::invalid_argument_error);  // row padding
  // the largest sizes that fit are still accepted as layouts (never allocated here)
  CHECK(ts::layout<1>(ts::extents<1>{max / 2}, 0).span() == max / 2);
  CHECK(ts::extents<3>{3, 4, 5}.checked_size() == 60);
  CHECK_FALSE((ts::extents<2>{-1, 5}.checked_size().has_value()));
}

TEST_CASE("a default-constructed view answers questions and every algorithm refuses it by name") {
  ts::View<double, 3> none;
  CHECK_FALSE(none.allocated());
  CHECK(none.size() == 0);
  CHECK(none.label().empty());
  CHECK(none.data() == nullptr);
  CHECK(none.describe() == "an unallocated (default-constructed) HostSpace view");
  CHECK(none.extents() == ts::extents<3>{0, 0, 0});
  CHECK(none.accessor().origin == nullptr);
  ts::View<double, 3> u("u", ts::extents{4, 4, 4}, 1);
  const auto st = ts::stencil(ts::star<3, 1>{}, {-6.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0});
  auto names_it = [](auto&& call, const char* who, const char* role) {
    CAPTURE(who);
    try {
      call();
      FAIL("no error");
    } catch (const ts::invalid_argument_error& e) {
      const std::string m = e.what();
      CHECK_MESSAGE(m.find(who) != std::string::npos, m);
      CHECK_MESSAGE(m.find(std::string("the ") + role + " is an unallocated") != std::string::npos, m);
    }
  };
  names_it([&] { ts::apply(ts::host::serial{}, st, none, u); }, "tessera::apply(host:serial", "input");
  names_it([&] { ts::apply(ts::host::parallel{}, st, u, none); }, "tessera::apply(host:parallel", "output");
  names_it([&] { (void)ts::validate(ts::host::serial{}, st, none); }, "tessera::validate", "input");
  names_it([&] { (void)ts::compare(none, u); }, "tessera::compare", "compared view");
  names_it([&] { (void)ts::compare(u, none); }, "tessera::compare", "reference");
  names_it([&] { (void)ts::norm_max(none); }, "tessera::norm_max", "view");
  names_it([&] { (void)ts::dot(u, none); }, "tessera::dot", "second view");
  names_it([&] { ts::deep_copy(none, u); }, "tessera::deep_copy", "destination");
  names_it([&] { ts::fill_ghosts(none, ts::boundary_conditions<3>::uniform(ts::boundary::periodic())); },
           "tessera::fill_ghosts", "view");
  names_it([&] { (void)ts::iterate(ts::host::serial{}, st, u, none, 0); }, "tessera::iterate", "scratch view");
}
