// Views over memory tessera does not own (View::wrap, layout::strided, kokkos::wrap):
// every host policy sweeps them like owned views, writes nothing but their interior (no
// ghost cell, no element between their rows or outside them), frees nothing, and sees a
// write made through the foreign memory; bad strides and pointers are refused by name.
#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <string>

#include <tessera/kokkos/wrap.hpp>

#include "../support/foreign_memory.hpp"
#include "../support/test_support.hpp"

namespace ts = tessera;
using namespace ts::test;

TEST_CASE("layout::strided: the last axis contiguous, no overlap, span and dense() as the strides say") {
  const ts::extents<3> n{5, 6, 7};
  // exact strides of a packed C-ordered array with ghost 1: the same layout as layout(n, 1, 1)
  const auto packed = gapped_layout<3>(n, 1, 0, 0);
  CHECK(packed == ts::layout<3>(n, 1, 1));
  CHECK(packed.dense());
  CHECK(packed.span() == 7 * 8 * 9);
  CHECK(packed.origin_offset() == 72 + 9 + 1);
  // gaps between rows and planes: not dense, the span ends at the last point
  const auto gapped = gapped_layout<3>(n, 1, 3, 5);
  CHECK_FALSE(gapped.dense());
  CHECK(gapped.stride(1) == 12);
  CHECK(gapped.stride(0) == 12 * 8 + 5);
  CHECK(gapped.span() == 6 * 101 + 7 * 12 + 8 + 1);
  CHECK(gapped.row_alignment() == 1);
  // a non-contiguous last axis, and strides that make rows or planes overlap
  CHECK_THROWS_WITH_AS(ts::layout<2>::strided(ts::extents{4, 4}, 1, ts::array<ts::index_t, 2>{{12, 2}}),
                       doctest::Contains("last axis contiguous"), ts::invalid_argument_error);
  CHECK_THROWS_WITH_AS(ts::layout<2>::strided(ts::extents{4, 4}, 1, ts::array<ts::index_t, 2>{{5, 1}}),
                       doctest::Contains("stride 5 along axis 0"), ts::invalid_argument_error);
  CHECK_THROWS_WITH_AS(ts::layout<3>::strided(n, 1, ts::array<ts::index_t, 3>{{70, 9, 1}}),
                       doctest::Contains("would overlap"), ts::invalid_argument_error);
  CHECK_THROWS_AS(ts::layout<2>::strided(ts::extents{4, 4}, 1, ts::array<ts::index_t, 2>{{INT64_MAX / 2, 1}}),
                  ts::invalid_argument_error);
  // planes of a strided layout keep its strides
  const auto slab = gapped.with_planes(2);
  CHECK(slab.stride(0) == gapped.stride(0));
  CHECK(slab.stride(1) == gapped.stride(1));
  CHECK(slab.interior()[0] == 2);
  CHECK(slab.span() == gapped.span() - 3 * gapped.stride(0));
}

TEST_CASE("View::wrap: no copy, nothing freed, the keep-alive held, bad pointers refused by name") {
  using V2 = ts::View<double, 2>;
  const auto l = gapped_layout<2>(ts::extents{6, 9}, 1, 4);
  foreign_block<double, 2> block(l);
  auto owner = std::make_shared<int>(7);
  {
    auto v = ts::View<double, 2>::wrap("field", block.first(), l, owner);
    CHECK(owner.use_count() == 2);
    CHECK_FALSE(v.owns_memory());
    CHECK(v.data() == block.first());
    CHECK(v.describe() == "'field' (interior 6x9, ghost 1, HostSpace)");
    v(2, 3) = 1.5;  // a write through the view lands in the foreign memory
    CHECK(block.first()[l.origin_offset() + 2 * l.stride(0) + 3] == 1.5);
    block.first()[l.origin_offset() + 4 * l.stride(0) + 8] = -2.25;  // and the other way
    CHECK(v(4, 8) == -2.25);
    auto copy = v;
    CHECK(owner.use_count() == 2);  // copies share the one state
  }
  CHECK(owner.use_count() == 1);  // released with the last view; the memory is still ours
  CHECK(block.first()[l.origin_offset() + 2 * l.stride(0) + 3] == 1.5);
  CHECK(block.foreign_changed() == 0);

  CHECK_THROWS_WITH_AS(V2::wrap("nothing", nullptr, l), doctest::Contains("'nothing'"),
                       ts::invalid_argument_error);
  CHECK_THROWS_WITH_AS(V2::wrap("nothing", nullptr, l), doctest::Contains("null pointer"),
                       ts::invalid_argument_error);
  auto* misaligned = reinterpret_cast<double*>(reinterpret_cast<char*>(block.first()) + 4);
  CHECK_THROWS_WITH_AS(V2::wrap("odd", misaligned, l), doctest::Contains("multiple of 8 bytes"),
                       ts::invalid_argument_error);
}

namespace {

/// Sweeps foreign memory of layout `l` (input and output each a block of its own) with
/// P and checks it against host::serial on owned views holding the same values: every
/// interior point written, no ghost written, nothing outside the layouts' points written,
/// the input unchanged.
template <class P, class S, class T>
void sweeps_foreign_like_owned(const ts::layout<S::rank>& l, std::uint64_t seed) {
  constexpr int R = S::rank;
  foreign_block<T, R> in_block(l), out_block(l);
  auto in = ts::View<T, R>::wrap("in", in_block.first(), l);
  auto out = ts::View<T, R>::wrap("out", out_block.first(), l);
  fill_random(in, seed);
  poison(out);
  const auto in_before = owned_copy(in, "in_owned");
  auto ref = owned_copy(out, "ref");
  const auto st = random_stencil<S, T>(seed + 1);
  ts::apply(P{}, st, in, out);
  ts::apply(ts::host::serial{}, st, in_before, ref);
  INFO(P::name(), " ", ts::shape_name<S>(), " ", l.describe(), l.dense() ? " packed" : " with gaps");
  const auto got = owned_copy(out, "got");
  const auto c = ts::compare(got, ref);
  CHECK(c.nonfinite == 0);
  CHECK(c.max_abs_error <= agreement_tolerance<T>() * ts::sweep_scale(st, in_before));
  CHECK(ghosts_changed(got) == 0);
  CHECK(ts::compare(owned_copy(in, "in_after"), in_before).max_abs_error == 0);
  CHECK(in_block.foreign_changed() == 0);
  CHECK(out_block.foreign_changed() == 0);
}

template <class P>
void sweeps_every_foreign_layout() {
  const ts::extents<3> n3{11, 7, 29};
  sweeps_foreign_like_owned<P, ts::star<3, 1>, float>(gapped_layout<3>(n3, 1, 0, 0), 3);
  sweeps_foreign_like_owned<P, ts::star<3, 1>, float>(gapped_layout<3>(n3, 2, 5, 3), 4);
  sweeps_foreign_like_owned<P, ts::box<3, 1>, double>(gapped_layout<3>(n3, 1, 1, 17), 5);
  sweeps_foreign_like_owned<P, ts::star<3, 2>, double>(gapped_layout<3>(n3, 2, 0, 0), 6);
  const ts::extents<2> n2{13, 37};
  sweeps_foreign_like_owned<P, ts::star<2, 2>, float>(gapped_layout<2>(n2, 2, 9), 7);
  sweeps_foreign_like_owned<P, ts::box<2, 1>, double>(gapped_layout<2>(n2, 1, 0), 8);
  sweeps_foreign_like_owned<P, ts::star<1, 3>, double>(gapped_layout<1>(ts::extents<1>(67), 3, 0), 9);
}

}  // namespace

TEST_CASE_TEMPLATE("wrapped views: every host policy sweeps packed and gapped foreign memory like owned views", P,
                   ts::host::serial, ts::host::parallel, ts::kokkos::mdrange, ts::automatic) {
  sweeps_every_foreign_layout<P>();
}

TEST_CASE("wrapped views: a write through the foreign memory is seen by the next sweep") {
  const auto l = gapped_layout<2>(ts::extents{9, 12}, 1, 3);
  foreign_block<double, 2> a(l), b(l);
  auto u = ts::View<double, 2>::wrap("u", a.first(), l);
  auto v = ts::View<double, 2>::wrap("v", b.first(), l);
  fill_random(u, 41);
  const auto lap = ts::stencil(ts::star<2, 1>{}, {-4.0, 1.0, 1.0, 1.0, 1.0});
  ts::apply(ts::host::parallel{}, lap, u, v);
  const double before = v(4, 6);
  // the caller changes one input point through its own pointer, not through tessera
  a.first()[l.origin_offset() + 4 * l.stride(0) + 7] += 2.0;
  ts::apply(ts::host::parallel{}, lap, u, v);
  CHECK(v(4, 6) == doctest::Approx(before + 2.0).epsilon(1e-12));
  CHECK(b.foreign_changed() == 0);
}

TEST_CASE("wrapped views: iterate with periodic and Neumann faces on gapped memory equals owned views") {
  const ts::extents<3> n{10, 9, 14};
  const auto l = gapped_layout<3>(n, 1, 6, 11);
  foreign_block<double, 3> a(l), b(l);
  auto u = ts::View<double, 3>::wrap("u", a.first(), l);
  auto scratch = ts::View<double, 3>::wrap("scratch", b.first(), l);
  fill_random(u, 77);
  auto ru = owned_copy(u, "ru");
  ts::View<double, 3> rs("rs", ru.layout());
  const auto st = ts::stencil(ts::star<3, 1>{}, {0.4, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1});
  ts::iterate_options<double, 3, ts::HostSpace> opt, ropt;
  auto bc = ts::boundary_conditions<3>::uniform(ts::boundary::periodic());
  bc.set(2, ts::boundary::neumann(), ts::boundary::dirichlet(0.5));
  opt.boundary = ropt.boundary = bc;
  const auto got = ts::iterate(ts::host::parallel{}, st, u, scratch, 7, opt);
  const auto ref = ts::iterate(ts::host::serial{}, st, ru, rs, 7, ropt);
  CHECK((got.data() == u.data() || got.data() == scratch.data()));
  CHECK(ts::compare(owned_copy(got, "got"), ref).max_abs_error <= 1e-13);
  CHECK(a.foreign_changed() == 0);
  CHECK(b.foreign_changed() == 0);
}

TEST_CASE("wrapped views: deep_copy and planes never write between the rows") {
  const auto l = gapped_layout<3>(ts::extents{6, 5, 8}, 1, 2, 9);
  foreign_block<float, 3> block(l);
  auto w = ts::View<float, 3>::wrap("w", block.first(), l);
  ts::View<float, 3> src("src", l);  // owned, the same strided layout
  fill_random(src, 5);
  ts::deep_copy(w, src);
  CHECK(block.foreign_changed() == 0);
  CHECK(ts::compare(owned_copy(w, "w_owned"), owned_copy(src, "src_owned")).max_abs_error == 0);
  ts::View<float, 3> back("back", l);
  ts::deep_copy(back, w);
  CHECK(ts::compare(owned_copy(back, "b"), owned_copy(src, "s")).max_abs_error == 0);
  // a sweep into planes [2, 4) of the wrapped view writes those planes only
  foreign_block<float, 3> out_block(l);
  auto out = ts::View<float, 3>::wrap("out", out_block.first(), l);
  poison(out);
  const auto slab_in = w.planes(2, 2), slab_out = out.planes(2, 2);
  CHECK_FALSE(slab_out.owns_memory());
  CHECK(slab_out.layout().stride(1) == l.stride(1));
  ts::apply(ts::host::serial{}, random_stencil<ts::star<3, 1>, float>(3), slab_in, slab_out);
  CHECK(std::isnan(out(1, 2, 3)));
  CHECK(std::isnan(out(4, 2, 3)));
  CHECK_FALSE(std::isnan(out(2, 2, 3)));
  CHECK_FALSE(std::isnan(out(3, 4, 7)));
  CHECK(out_block.foreign_changed() == 0);
}

TEST_CASE("wrapped views: two views of overlapping foreign memory are refused as aliasing") {
  const auto l = gapped_layout<2>(ts::extents{8, 8}, 1, 0);
  foreign_block<double, 2> block(l);
  auto a = ts::View<double, 2>::wrap("a", block.first(), l);
  auto b = ts::View<double, 2>::wrap("b", block.first() + l.stride(0), l);
  CHECK_THROWS_WITH_AS(ts::apply(ts::host::serial{}, random_stencil<ts::star<2, 1>, double>(1), a, b),
                       doctest::Contains("share memory"), ts::aliasing_error);
}

TEST_CASE("kokkos::wrap: a Kokkos view's memory swept in place, kept alive, bad ones refused") {
  ts::kokkos::ensure_initialized();
  using KV = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  KV ku("ku", 9 + 2, 13 + 2, 21 + 2), kv("kv", 9 + 2, 13 + 2, 21 + 2);
  auto u = ts::kokkos::wrap("u", ku, 1);
  auto v = ts::kokkos::wrap("v", kv, 1);
  CHECK(u.extents() == ts::extents{9, 13, 21});
  CHECK(u.data() == ku.data());
  CHECK_FALSE(u.owns_memory());
  fill_random(u, 12);
  CHECK(ku(1, 1, 1) == u(0, 0, 0));  // the same memory, ghost offset applied
  poison(v);
  const auto st = random_stencil<ts::box<3, 1>, double>(13);
  ts::apply(ts::host::parallel{}, st, u, v);
  auto ref = owned_copy(v, "ref");
  ts::apply(ts::host::serial{}, st, owned_copy(u, "u_owned"), ref);
  CHECK(ts::compare(owned_copy(v, "v_owned"), ref).max_abs_error == 0);
  CHECK(ghosts_changed(owned_copy(v, "v_ghosts")) == 0);
  CHECK(kv(5, 6, 7) == v(4, 5, 6));
  // the tessera view keeps the Kokkos allocation alive
  const double kept = v(3, 3, 3);
  kv = KV();
  CHECK(v(3, 3, 3) == kept);

  KV small("small", 1, 5, 5);
  CHECK_THROWS_WITH_AS(ts::kokkos::wrap("s", small, 1), doctest::Contains("two ghost layers"),
                       ts::invalid_argument_error);
  Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> left("left", 6, 6);
  CHECK_THROWS_WITH_AS(ts::kokkos::wrap("l", left, 1), doctest::Contains("last axis contiguous"),
                       ts::invalid_argument_error);
}
