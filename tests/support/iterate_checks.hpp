#pragma once
// Test bodies for iterate and boundary fills, written once and run per policy (host
// and CUDA). Each boundary condition has an exact discrete eigenmode of the 2nd-order
// Laplacian; explicit Euler multiplies it by (1 + a * lambda) per step, so after s steps
// the field must equal (1 + a * lambda)^s times the initial mode to rounding.
#include <cmath>
#include <cstdint>
#include <numbers>

#include <doctest/doctest.h>

#include <tessera/algorithms/heat.hpp>

#include "test_support.hpp"

namespace tessera::test {

template <class T, int Rank, class Space>
View<T, Rank, Space> on_space(const View<T, Rank, HostSpace>& h, const std::string& label) {
  View<T, Rank, Space> v(label, h.layout());
  deep_copy(v, h);
  return v;
}

/// 3D heat with Dirichlet 0 faces: mode prod_d sin(pi (i_d + 1) h_d), h_d = 1 / (n_d + 1).
template <class Policy, class Space, class T>
void check_heat_dirichlet() {
  const extents<3> n{11, 9, 13};
  array<T, 3> h{};
  double lambda = 0, inv_h2 = 0;
  for (int d = 0; d < 3; ++d) {
    h[d] = T(1) / T(n[d] + 1);
    const double s = std::sin(std::numbers::pi * h[d] / 2);
    lambda -= 4 / (double(h[d]) * h[d]) * s * s;
    inv_h2 += 1 / (double(h[d]) * h[d]);
  }
  const T a = T(0.2 / inv_h2);  // stable: a * sum 4/h^2 = 0.8 < 2
  View<T, 3, HostSpace> u0("u0", n, 1), expect("expect", n, 1);
  poison(u0);  // ghosts hold sentinels: the fill must replace them
  auto mode = [&](index_t z, index_t y, index_t x) {
    return std::sin(std::numbers::pi * (z + 1) * h[0]) * std::sin(std::numbers::pi * (y + 1) * h[1]) *
           std::sin(std::numbers::pi * (x + 1) * h[2]);
  };
  for_each_point<3>(n, 0, [&](auto z, auto y, auto x) { u0(z, y, x) = T(mode(z, y, x)); });
  const int steps = 25;
  const double factor = std::pow(1 + double(a) * lambda, steps);
  for_each_point<3>(n, 0, [&](auto z, auto y, auto x) { expect(z, y, x) = T(factor * mode(z, y, x)); });

  auto u = on_space<T, 3, Space>(u0, "u");
  View<T, 3, Space> scratch("scratch", u0.layout());
  iterate_options<T, 3, Space> opt;
  opt.boundary = boundary_conditions<3>::uniform(boundary::dirichlet(0));
  int calls = 0;
  opt.every = 10;
  opt.callback = [&](int step, const View<T, 3, Space>& cur) {
    ++calls;
    CHECK(step % 10 == 0);
    CHECK(cur.data() == (step % 2 ? scratch.data() : u.data()));
  };
  const auto result = iterate(Policy{}, heat_step<3, 2>(1.0, double(a), h), u, scratch, steps, opt);
  CHECK(calls == 2);
  CHECK(result.data() == scratch.data());  // odd number of steps
  const auto r = create_mirror_copy(result);
  const auto c = compare(r, expect);
  INFO(Policy::name(), ": decay factor ", factor, ", max rel error ", c.max_rel_error);
  CHECK(c.nonfinite == 0);
  CHECK(c.max_rel_error <= (sizeof(T) == 8 ? 1e-12 : 2e-5));
  CHECK(r(-1, 4, 4) == T(0));  // the result's ghosts are filled too
}

/// 1D heat: periodic mode cos(2 pi k x / n), Neumann mode cos(pi (x + 1/2) / n), h = 1.
template <class Policy, class Space, class T>
void check_heat_periodic_neumann() {
  const index_t n = 40;
  const T a = T(0.3);
  const int steps = 17;
  for (const auto kind : {boundary_kind::periodic, boundary_kind::neumann}) {
    CAPTURE(to_string(kind));
    const double w = kind == boundary_kind::periodic ? 2 * std::numbers::pi * 3 / n : std::numbers::pi / n;
    const double shift = kind == boundary_kind::periodic ? 0.0 : 0.5;
    const double lambda = -4 * std::pow(std::sin(w / 2), 2);
    View<T, 1, HostSpace> u0("u0", extents<1>{n}, 1), expect("expect", extents<1>{n}, 1);
    poison(u0);
    const double factor = std::pow(1 + double(a) * lambda, steps);
    for (index_t x = 0; x < n; ++x) {
      u0(x) = T(std::cos(w * (x + shift)));
      expect(x) = T(factor * std::cos(w * (x + shift)));
    }
    auto u = on_space<T, 1, Space>(u0, "u");
    View<T, 1, Space> scratch("scratch", u0.layout());
    iterate_options<T, 1, Space> opt;
    opt.boundary = boundary_conditions<1>::uniform(boundary{kind, 0});
    const auto result = iterate(Policy{}, heat_step<1, 2>(1.0, double(a), array<T, 1>{T(1)}), u, scratch, steps, opt);
    const auto c = compare(create_mirror_copy(result), expect);
    INFO(Policy::name(), ": max abs error ", c.max_abs_error, ", factor ", factor);
    CHECK(c.nonfinite == 0);
    CHECK(c.max_abs_error <= (sizeof(T) == 8 ? 1e-13 : 1e-5));
  }
}

/// Ghost values after a fill, checked cell by cell against the rules (2D, ghost 2,
/// a different condition on each axis), including the corners.
template <class Space>
void check_fill_rules() {
  const extents<2> n{5, 7};
  View<double, 2, HostSpace> h("field", n, 2);
  fill_random(h, 3);
  const auto interior = create_mirror_copy(h);
  boundary_conditions<2> bc;
  bc.set(0, boundary::dirichlet(2.5), boundary::neumann());
  bc.set(1, boundary::periodic(), boundary::periodic());
  auto v = on_space<double, 2, Space>(h, "field_d");
  fill_ghosts(v, bc);
  View<double, 2, HostSpace> r("r", h.layout());
  deep_copy(r, v);
  // expected: axis 0 first, then axis 1 over the padded range of axis 0
  // Dirichlet: the wall (row -1) holds the value, row -2 its reflection 2v - u(0)
  auto axis0 = [&](index_t y, index_t x) -> double {
    if (y == -1) return 2.5;
    if (y < -1) return 2 * 2.5 - interior(-2 - y, x);
    if (y >= n[0]) return interior(2 * n[0] - 1 - y, x);
    return interior(y, x);
  };
  auto expect = [&](index_t y, index_t x) -> double {
    const index_t xs = x < 0 ? x + n[1] : x >= n[1] ? x - n[1] : x;
    return axis0(y, xs);
  };
  int bad = 0;
  for_each_point<2>(n, 2, [&](index_t y, index_t x) { bad += !(r(y, x) == expect(y, x)); });
  CHECK(bad == 0);
  CHECK(r(-1, -2) == 2.5);
  CHECK(r(-2, -2) == 5.0 - interior(0, n[1] - 2));
  CHECK(r(6, 8) == interior(3, 1));  // mirrored row 3, periodic column 1

  // Dirichlet walls on both axes, ghost 3: each corner cell reflected about two walls (the
  // later axis' rule applied to what the earlier one wrote), against a fill written out
  // face by face here
  const extents<2> m{6, 5};
  View<double, 2, HostSpace> h2("walls", m, 3);
  fill_random(h2, 4);
  boundary_conditions<2> walls;
  walls.set(0, boundary::dirichlet(1.5), boundary::dirichlet(-0.5));
  walls.set(1, boundary::dirichlet(0.25), boundary::neumann());
  auto e = create_mirror_copy(h2);
  auto rule = [&](index_t i, index_t len, const boundary& b, auto read) -> double {
    const index_t wall = i < 0 ? -1 : len;
    if (b.kind == boundary_kind::neumann) return read(i < 0 ? -1 - i : 2 * len - 1 - i);
    return i == wall ? b.value : 2 * b.value - read(2 * wall - i);
  };
  for (index_t y = -3; y < m[0] + 3; ++y)  // axis 0 over the interior columns
    for (index_t x = 0; x < m[1]; ++x)
      if (y < 0 || y >= m[0])
        e(y, x) = rule(y, m[0], walls.faces[y < 0 ? 0 : 1], [&](index_t s) { return double(e(s, x)); });
  for (index_t y = -3; y < m[0] + 3; ++y)  // axis 1 over every row
    for (index_t x = -3; x < m[1] + 3; ++x)
      if (x < 0 || x >= m[1])
        e(y, x) = rule(x, m[1], walls.faces[x < 0 ? 2 : 3], [&](index_t s) { return double(e(y, s)); });
  auto v2 = on_space<double, 2, Space>(h2, "walls_d");
  fill_ghosts(v2, walls);
  View<double, 2, HostSpace> r2("r2", h2.layout());
  deep_copy(r2, v2);
  bad = 0;
  for_each_point<2>(m, 3, [&](index_t y, index_t x) { bad += !(r2(y, x) == e(y, x)); });
  CHECK(bad == 0);
  CHECK(r2(-1, 2) == 1.5);  // the walls hold their values
  CHECK(r2(m[0], 2) == -0.5);
  CHECK(r2(2, -1) == 0.25);
  CHECK(r2(-3, -3) == 2 * 0.25 - (2 * 1.5 - double(h2(1, 1))));  // two reflections

  // fixed faces: their ghosts keep what was there (random values standing for a
  // neighbour's halo), and a later axis' fill that maps onto them copies or reflects them
  // as they are; against the same fill written out face by face
  const extents<3> k{4, 5, 6};
  View<double, 3, HostSpace> h3("held", k, 2);
  fill_random(h3, 5);
  boundary_conditions<3> held;
  held.set(0, boundary::fixed(), boundary::dirichlet(0.75));
  held.set(1, boundary::neumann(), boundary::fixed());
  held.set(2, boundary::dirichlet(-0.25), boundary::neumann());
  auto e3 = create_mirror_copy(h3);
  auto rule3 = [&](index_t i, index_t len, const boundary& b, double was, auto read) -> double {
    const index_t wall = i < 0 ? -1 : len;
    if (b.kind == boundary_kind::fixed) return was;
    if (b.kind == boundary_kind::neumann) return read(i < 0 ? -1 - i : 2 * len - 1 - i);
    return i == wall ? b.value : 2 * b.value - read(2 * wall - i);
  };
  const index_t g3 = 2;
  for (index_t z = -g3; z < k[0] + g3; ++z)  // axis 0 over the interior of axes 1 and 2
    for (index_t y = 0; y < k[1]; ++y)
      for (index_t x = 0; x < k[2]; ++x)
        if (z < 0 || z >= k[0])
          e3(z, y, x) = rule3(z, k[0], held.faces[z < 0 ? 0 : 1], e3(z, y, x), [&](index_t s) { return e3(s, y, x); });
  for (index_t z = -g3; z < k[0] + g3; ++z)  // axis 1 over axis 0's padded range
    for (index_t y = -g3; y < k[1] + g3; ++y)
      for (index_t x = 0; x < k[2]; ++x)
        if (y < 0 || y >= k[1])
          e3(z, y, x) = rule3(y, k[1], held.faces[y < 0 ? 2 : 3], e3(z, y, x), [&](index_t s) { return e3(z, s, x); });
  for (index_t z = -g3; z < k[0] + g3; ++z)  // axis 2 over both
    for (index_t y = -g3; y < k[1] + g3; ++y)
      for (index_t x = -g3; x < k[2] + g3; ++x)
        if (x < 0 || x >= k[2])
          e3(z, y, x) = rule3(x, k[2], held.faces[x < 0 ? 4 : 5], e3(z, y, x), [&](index_t s) { return e3(z, y, s); });
  auto v3 = on_space<double, 3, Space>(h3, "held_d");
  fill_ghosts(v3, held);
  View<double, 3, HostSpace> r3("r3", h3.layout());
  deep_copy(r3, v3);
  bad = 0;
  for_each_point<3>(k, g3, [&](index_t z, index_t y, index_t x) { bad += !(r3(z, y, x) == e3(z, y, x)); });
  CHECK(bad == 0);
  CHECK(r3(-2, 1, 1) == h3(-2, 1, 1));    // a fixed face's ghost: untouched
  CHECK(r3(1, k[1], 2) == h3(1, k[1], 2));  // the other fixed face
  CHECK(r3(k[0], 1, 1) == 0.75);          // the Dirichlet wall beside them
  CHECK(r3(-1, 2, -1) == -0.25);          // an edge: the later axis' wall
  CHECK(r3(-1, 2, k[2]) == h3(-1, 2, k[2] - 1));  // an edge: axis 2 mirrors the fixed ghost
}

/// Fills of random cases in 1D, 2D and 3D (extents from 1 to 9 per axis, ghost widths 1
/// to 3, a random kind per axis: periodic on both faces, or Dirichlet / Neumann / fixed on each)
/// in Space against the host fill, every cell of the padded field compared exactly.
template <class Space, class T, int Rank>
void check_fill_matches_host(std::uint64_t seed) {
  std::uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
  auto next = [&](int m) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<int>((state >> 33) % static_cast<std::uint64_t>(m));
  };
  const int g = 1 + next(3);
  extents<Rank> n{};
  boundary_conditions<Rank> bc;
  for (int d = 0; d < Rank; ++d) {
    n[d] = g + next(9 - g + 1);  // copying fills need at least g interior layers
    const int kind = next(3);
    if (kind == 0) {
      bc.set(d, boundary::periodic(), boundary::periodic());
    } else {
      auto one = [&] {
        const int which = next(5);  // fixed now and then: its ghosts stay as fill_random left them
        return which == 0 ? boundary::fixed() : which < 3 ? boundary::neumann() : boundary::dirichlet(0.25 * (1 + next(7)));
      };
      const boundary lo = one(), hi = one();
      bc.set(d, lo, hi);
    }
  }
  View<T, Rank, HostSpace> h("field", n, g);
  fill_random(h, seed);
  auto v = on_space<T, Rank, Space>(h, "field_d");
  fill_ghosts(h, bc);
  fill_ghosts(v, bc);
  View<T, Rank, HostSpace> r("r", h.layout());
  deep_copy(r, v);
  int bad = 0;
  for_each_point<Rank>(n, g, [&](auto... i) { bad += !(r(i...) == h(i...)); });
  INFO("rank ", Rank, ", extents ", n.to_string(), ", ghost ", g, ", seed ", seed);
  CHECK(bad == 0);
}

/// Dirichlet iterate fills each view once; a callback that writes ghost cells must see
/// them restored before the next sweep: the result equals the run without the callback.
template <class Policy, class Space, class T>
void check_dirichlet_refill_after_callback() {
  const extents<3> n{7, 10, 12};
  View<T, 3, HostSpace> u0("u0", n, 1);
  fill_random(u0, 11);
  const auto step = heat_step<3, 2>(1.0, 0.05, array<T, 3>{T(1), T(1), T(1)});
  iterate_options<T, 3, Space> opt;
  opt.boundary = boundary_conditions<3>::uniform(boundary::dirichlet(0.5));
  auto run = [&](bool scribble) {
    auto u = on_space<T, 3, Space>(u0, "u");
    View<T, 3, Space> scratch("scratch", u0.layout());
    iterate_options<T, 3, Space> o = opt;
    if (scribble) {
      o.every = 3;
      o.callback = [&](int, const View<T, 3, Space>& cur) {
        View<T, 3, HostSpace> c("c", cur.layout());
        deep_copy(c, cur);
        for_each_point<3>(n, 1, [&](index_t z, index_t y, index_t x) {
          if (z < 0 || y < 0 || x < 0 || z >= n[0] || y >= n[1] || x >= n[2]) c(z, y, x) = T(1e3);
        });
        deep_copy(cur, c);
      };
    }
    return create_mirror_copy(iterate(Policy{}, step, u, scratch, 10, o));
  };
  const auto plain = run(false), scribbled = run(true);
  int bad = 0;
  for_each_point<3>(n, 1, [&](index_t z, index_t y, index_t x) { bad += !(plain(z, y, x) == scribbled(z, y, x)); });
  INFO(Policy::name());
  CHECK(bad == 0);
  CHECK(plain(-1, 0, 0) == T(0.5));
}

}  // namespace tessera::test
