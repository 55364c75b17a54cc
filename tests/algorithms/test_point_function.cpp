// Point functions (core/point_function.hpp) on every host-reachable policy: each result is
// checked against a direct loop written here with plain view indexing (no windows), and
// the host policies against the Kokkos reference; the sweep semantics of constant-
// coefficient stencils hold (every interior point written, no ghost cell touched, bad
// input refused with a named error).
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "../support/test_support.hpp"

namespace ts = tessera;
using namespace ts::test;
using ts::off;

#define TESSERA_HOST_POLICIES ts::host::serial, ts::host::parallel, ts::kokkos::mdrange, ts::automatic

namespace {

/// A positive field in [lo, lo + 1) everywhere, ghosts included.
template <class T, int Rank>
void fill_positive(const ts::View<T, Rank>& v, std::uint64_t seed, double lo) {
  fill_random(v, seed);
  for_each_point<Rank>(v.extents(), v.ghost(), [&](auto... i) { v(i...) = static_cast<T>(lo + 0.5 * (1 + v(i...))); });
}

/// Results of two host policies agree bit for bit (same expression per point, no FMA
/// contraction on the host), the Kokkos reference too while it runs on the host.
template <class P>
double tolerance_for(double rounding) {
  return std::is_same_v<P, ts::kokkos::mdrange> && !ts::kokkos::reference_runs_on_host() ? rounding : 0.0;
}

template <class P, class T, class S>
void check_stencil_as_function(std::uint64_t seed) {
  constexpr int Rank = S::rank;
  const auto n = awkward_extents<Rank>();
  const int g = ts::shape_traits<S>::radius + 1;
  ts::View<T, Rank> in("in", n, g), ref("ref", n, g), out("out", n, g);
  fill_random(in, seed);
  poison(ref);
  poison(out);
  const auto st = random_stencil<S, T>(seed + 1);
  ts::apply(ts::host::serial{}, st, in, ref);
  ts::apply(P{}, ts::as_point_function(st), in, out);
  INFO(ts::shape_name<S>());
  CHECK(max_relative_error(out, ref) <= tolerance_for<P>(10 * agreement_tolerance<T>()));
  CHECK(ghosts_changed(out) == 0);
}

}  // namespace

TEST_CASE_TEMPLATE("a stencil as a point function computes the stencil's sweep", P, TESSERA_HOST_POLICIES) {
  check_stencil_as_function<P, double, ts::star<3, 1>>(11);
  check_stencil_as_function<P, float, ts::star<3, 2>>(12);
  check_stencil_as_function<P, double, ts::box<3, 1>>(13);
  check_stencil_as_function<P, float, ts::star<2, 1>>(14);
  check_stencil_as_function<P, double, ts::box<2, 2>>(15);
  check_stencil_as_function<P, float, ts::star<1, 3>>(16);
}

TEST_CASE_TEMPLATE("div(k grad u) with two fields matches a direct loop", P, TESSERA_HOST_POLICIES) {
  using T = double;
  const ts::extents<3> n{13, 9, 21};
  ts::View<T, 3> u("u", n, 1), k("k", n, 2), out("out", n, 1), ref("ref", n, 0);
  fill_random(u, 21);
  fill_positive(k, 22, 0.5);
  poison(out);
  const T h = 0.1;
  ts::apply(P{}, ts::physics::div_k_grad<T>{1 / (h * h)}, ts::inputs(u, k), out);
  // the definition, term by term
  for_each_point<3>(n, 0, [&](auto z, auto y, auto x) {
    auto face = [&](int dz, int dy, int dx) {
      return (k(z + dz, y + dy, x + dx) + k(z, y, x)) * (u(z + dz, y + dy, x + dx) - u(z, y, x));
    };
    ref(z, y, x) = 0.5 / (h * h) *
                   (face(1, 0, 0) + face(-1, 0, 0) + face(0, 1, 0) + face(0, -1, 0) + face(0, 0, 1) + face(0, 0, -1));
  });
  CHECK(max_relative_error(out, ref) <= 1e-13);
  CHECK(ghosts_changed(out) == 0);
  // an operator with k = 1 everywhere is the 7-point Laplacian
  for_each_point<3>(n, 2, [&](auto... i) { k(i...) = 1; });
  ts::apply(P{}, ts::physics::div_k_grad<T>{1}, ts::inputs(u, k), out);
  const auto lap = ts::stencil(ts::star<3, 1>{}, {-6.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0});
  ts::View<T, 3> lap_out("lap", n, 1);
  ts::apply(ts::host::serial{}, lap, u, lap_out);
  CHECK(max_relative_error(out, lap_out) <= 1e-13);
}

TEST_CASE_TEMPLATE("acoustic step: three fields, different ghost widths, order-8 Laplacian", P, TESSERA_HOST_POLICIES) {
  using T = float;
  const ts::extents<3> n{11, 17, 10};  // x shorter than twice the reach: ghosts on both sides in every row
  // u_prev and c2 are read at the point only: they need no ghost layer
  ts::View<T, 3> u_prev("u_prev", n, 0), u("u", n, 4), c2("c2", n, 0), out("u_next", n, 2), ref("ref", n, 0);
  fill_random(u_prev, 31);
  fill_random(u, 32);
  fill_positive(c2, 33, 1.0);
  poison(out);
  const T dt2_h2 = 0.04f;
  ts::apply(P{}, ts::physics::acoustic_step<T>{dt2_h2}, ts::inputs(u_prev, u, c2), out);
  const double w[5] = {-205.0 / 72, 8.0 / 5, -1.0 / 5, 8.0 / 315, -1.0 / 560};
  for_each_point<3>(n, 0, [&](auto z, auto y, auto x) {
    double lap = 3 * w[0] * u(z, y, x);
    for (int r = 1; r <= 4; ++r)
      lap += w[r] * (u(z + r, y, x) + u(z - r, y, x) + u(z, y + r, x) + u(z, y - r, x) + u(z, y, x + r) + u(z, y, x - r));
    ref(z, y, x) = static_cast<T>(2.0 * u(z, y, x) - u_prev(z, y, x) + double(c2(z, y, x)) * dt2_h2 * lap);
  });
  CHECK(max_relative_error(out, ref) <= 1e-5);
  CHECK(ghosts_changed(out) == 0);
}

TEST_CASE_TEMPLATE("2D upwind advection takes the side the velocity comes from", P, TESSERA_HOST_POLICIES) {
  using T = double;
  const ts::extents<2> n{37, 53};
  ts::View<T, 2> q("q", n, 1), vy("vy", n, 0), vx("vx", n, 0), out("q_next", n, 1);
  fill_random(q, 41);
  fill_random(vy, 42);  // both signs
  fill_random(vx, 43);
  poison(out);
  const T dt_h = 0.3;
  ts::apply(P{}, ts::physics::upwind_advection<T>{dt_h}, ts::inputs(q, vy, vx), out);
  ts::index_t checked = 0, both_signs[2] = {0, 0};
  double worst = 0;
  for_each_point<2>(n, 0, [&](auto y, auto x) {
    const T ux = vx(y, x), uy = vy(y, x);
    const T dqx = ux > 0 ? q(y, x) - q(y, x - 1) : q(y, x + 1) - q(y, x);
    const T dqy = uy > 0 ? q(y, x) - q(y - 1, x) : q(y + 1, x) - q(y, x);
    worst = std::max(worst, std::abs(out(y, x) - (q(y, x) - dt_h * (ux * dqx + uy * dqy))));
    ++checked;
    ++both_signs[ux > 0];
  });
  CHECK(checked == n.size());
  CHECK(both_signs[0] > 0);
  CHECK(both_signs[1] > 0);
  CHECK(worst <= 1e-14);
  CHECK(ghosts_changed(out) == 0);
}

TEST_CASE_TEMPLATE("several outputs from one neighbourhood", P, TESSERA_HOST_POLICIES) {
  using T = float;
  const ts::extents<2> n{19, 33};
  ts::View<T, 2> u("u", n, 1), gy("gy", n, 1), gx("gx", n, 2);
  fill_random(u, 51);
  poison(gy);
  poison(gx);
  // centred gradient: two outputs from one read of the neighbours. TESSERA_HD with a named
  // window type, as on CUDA views: with an upstream Kokkos built for CUDA, kokkos::mdrange
  // runs the function in a device kernel
  const auto gradient = ts::pointwise(ts::reach<1>{}, [] TESSERA_HD(ts::field<T, 2, 1> f) {
    return ts::array<T, 2>{{T(0.5) * (f(off<1, 0>) - f(off<-1, 0>)), T(0.5) * (f(off<0, 1>) - f(off<0, -1>))}};
  });
  ts::apply(P{}, gradient, ts::inputs(u), ts::outputs(gy, gx));
  double worst = 0;
  for_each_point<2>(n, 0, [&](auto y, auto x) {
    worst = std::max<double>(worst, std::abs(gy(y, x) - T(0.5) * (u(y + 1, x) - u(y - 1, x))));
    worst = std::max<double>(worst, std::abs(gx(y, x) - T(0.5) * (u(y, x + 1) - u(y, x - 1))));
    if (std::isnan(gy(y, x)) || std::isnan(gx(y, x))) worst = INFINITY;
  });
  CHECK(worst == 0);
  CHECK(ghosts_changed(gy) == 0);
  CHECK(ghosts_changed(gx) == 0);
}

TEST_CASE_TEMPLATE("1D: a Laplacian of the Laplacian reads 2 points away", P, TESSERA_HOST_POLICIES) {
  using T = double;
  ts::View<T, 1> u("u", ts::extents<1>{101}, 2), out("out", ts::extents<1>{101}, 0);
  fill_random(u, 61);
  const auto bilaplacian = ts::pointwise(ts::reach<2>{}, [] TESSERA_HD(ts::field<T, 1, 2> f) {
    auto lap = [&](auto l, auto c, auto r) { return f(l) - 2 * f(c) + f(r); };
    return lap(off<-2>, off<-1>, off<0>) - 2 * lap(off<-1>, off<0>, off<1>) + lap(off<0>, off<1>, off<2>);
  });
  ts::apply(P{}, bilaplacian, u, out);
  double worst = 0;
  for (ts::index_t x = 0; x < 101; ++x)
    worst = std::max(worst, std::abs(out(x) - (u(x - 2) - 4 * u(x - 1) + 6 * u(x) - 4 * u(x + 1) + u(x + 2))));
  CHECK(worst <= 1e-14);
}

TEST_CASE_TEMPLATE("point function sweeps refuse bad fields by name", P, TESSERA_HOST_POLICIES) {
  const ts::extents<3> n{6, 5, 7};
  ts::View<float, 3> u("u", n, 1), k("conductivity", n, 0), out("out", n, 1);
  const ts::physics::div_k_grad<float> fn{1};
  // k is read one point away but has no ghost layer
  auto msg = message_of<ts::ghost_width_error>([&] { ts::apply(P{}, fn, ts::inputs(u, k), out); });
  CHECK(msg.find("input field 1 'conductivity' (interior 6x5x7") != std::string::npos);
  CHECK(msg.find("ghost >= 1") != std::string::npos);
  // extents that differ
  ts::View<float, 3> k2("k2", ts::extents<3>{6, 5, 8}, 1);
  msg = message_of<ts::extent_mismatch_error>([&] { ts::apply(P{}, fn, ts::inputs(u, k2), out); });
  CHECK(msg.find("input field 1 'k2' (interior 6x5x8") != std::string::npos);
  CHECK(msg.find("'u' (interior 6x5x7") != std::string::npos);
  // the output is one of the inputs
  ts::View<float, 3> k1("k1", n, 1);
  msg = message_of<ts::aliasing_error>([&] { ts::apply(P{}, fn, ts::inputs(u, k1), k1); });
  CHECK(msg.find("output field 0 'k1'") != std::string::npos);
  CHECK(msg.find("input field 1 'k1'") != std::string::npos);
  // two outputs in one view
  const auto two = ts::pointwise(ts::reach<0>{}, [] TESSERA_HD(ts::field<float, 3, 0> f) {
    return ts::array<float, 2>{{f(), -f()}};
  });
  msg = message_of<ts::aliasing_error>([&] { ts::apply(P{}, two, ts::inputs(u), ts::outputs(out, out)); });
  CHECK(msg.find("output fields 0 'out'") != std::string::npos);
  // an unallocated field
  msg = message_of<ts::invalid_argument_error>([&] { ts::apply(P{}, fn, ts::inputs(u, ts::View<float, 3>()), out); });
  CHECK(msg.find("input field 1 is an unallocated") != std::string::npos);
}

TEST_CASE("an empty grid writes nothing and a stencil's reach is the function's") {
  ts::View<double, 2> u("u", ts::extents<2>{0, 5}, 1), out("out", ts::extents<2>{0, 5}, 1);
  CHECK_NOTHROW(ts::apply(ts::host::serial{}, ts::physics::upwind_advection<double>{0.1},
                          ts::inputs(u, ts::View<double, 2>("vy", ts::extents<2>{0, 5}, 0),
                                     ts::View<double, 2>("vx", ts::extents<2>{0, 5}, 0)),
                          out));
  using F = decltype(ts::as_point_function(random_stencil<ts::star<3, 3>, float>(1)));
  static_assert(F::reach_type::radius[0] == 3 && F::reach_type::fields == 1);
  static_assert(ts::reach<1, 4, 0>::max == 4);
  CHECK(F::reach_type::max == 3);
}
