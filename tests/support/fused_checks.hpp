#pragma once
// Fused time steps against one sweep and one fill per step. A policy whose passes fuse
// several steps (iterate's fused path) must give what host::serial and the Kokkos
// reference give stepping one sweep at a time: random field (ghosts included), random
// coefficients, every boundary kind and mixes of them, step counts that are not
// multiples of the fusion degree, awkward and tiny extents, the scratch view poisoned.
// The whole padded field is compared (the result's ghosts are filled by the same rules),
// and the result must land in the same view.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "iterate_checks.hpp"

namespace tessera::test {

/// Random coefficients with sum |c| = 0.95, so a hundred steps stay bounded. mirrored:
/// each point's coefficient is its reflection's along every axis (Neumann faces may fuse).
template <class S, class T>
stencil<S, T> bounded_stencil(std::uint64_t seed, bool mirrored) {
  auto st = random_stencil<S, T>(seed);
  if (mirrored) {
    // every point takes the coefficient of its representative: the point with |offsets|
    for (int k = 0; k < st.size; ++k)
      for (int j = 0; j < st.size; ++j) {
        bool same = true;
        for (int d = 0; d < S::rank; ++d) same = same && S::points[j][d] == std::abs(S::points[k][d]);
        if (same) st[k] = st[j];
      }
  }
  double sum = 0;
  for (int k = 0; k < st.size; ++k) sum += std::abs(double(st[k]));
  for (int k = 0; k < st.size; ++k) st[k] = T(double(st[k]) * 0.95 / sum);
  return st;
}

enum class boundary_case { none, dirichlet, periodic, neumann, mixed, dirichlet_rows, walls, walls_mixed };

inline const char* to_string(boundary_case c) {
  const char* names[] = {"none", "dirichlet", "periodic", "neumann", "mixed", "dirichlet_rows", "walls", "walls_mixed"};
  return names[static_cast<int>(c)];
}

/// The conditions of a case: Dirichlet faces take different values; mixed draws a kind
/// per axis (periodic on both faces, or Dirichlet / Neumann on each); dirichlet_rows has
/// Dirichlet faces along x (the rows), periodic ones along the next axis and, in 3D,
/// Neumann ones along z (a host fused pass reads the input itself, not a copy, except
/// near the wrapped and mirrored faces). walls: every face Dirichlet with one value;
/// walls_mixed: that value on both x faces and the high y face, Neumann on the low y face,
/// periodic along z (where a pass may compute the cells beyond the walls: edge_rule::reflect).
template <int Rank>
std::optional<boundary_conditions<Rank>> make_boundary(boundary_case c, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  auto dirichlet = [&] { return boundary::dirichlet(std::uniform_real_distribution<double>(-1, 1)(gen)); };
  boundary_conditions<Rank> bc;
  switch (c) {
    case boundary_case::none: return std::nullopt;
    case boundary_case::dirichlet:
      for (int f = 0; f < 2 * Rank; ++f) bc.faces[f] = dirichlet();
      return bc;
    case boundary_case::periodic: return boundary_conditions<Rank>::uniform(boundary::periodic());
    case boundary_case::neumann: return boundary_conditions<Rank>::uniform(boundary::neumann());
    case boundary_case::mixed:
      for (int d = 0; d < Rank; ++d) {
        const int kind = static_cast<int>(gen() % 3);
        if (kind == 0) {
          bc.set(d, boundary::periodic(), boundary::periodic());
        } else {
          auto one = [&] { return gen() % 2 ? boundary::neumann() : dirichlet(); };
          const boundary lo = one(), hi = one();
          bc.set(d, lo, hi);
        }
      }
      return bc;
    case boundary_case::dirichlet_rows:
      bc.set(Rank - 1, dirichlet(), dirichlet());
      bc.set(Rank - 2, boundary::periodic(), boundary::periodic());
      if (Rank == 3) bc.set(0, boundary::neumann(), boundary::neumann());
      return bc;
    case boundary_case::walls:
    case boundary_case::walls_mixed: {
      const boundary wall = dirichlet();
      for (int f = 0; f < 2 * Rank; ++f) bc.faces[f] = wall;
      if (c == boundary_case::walls_mixed) {
        if (Rank >= 2) bc.set(Rank - 2, boundary::neumann(), wall);
        if (Rank == 3) bc.set(0, boundary::periodic(), boundary::periodic());
      }
      return bc;
    }
  }
  return std::nullopt;
}

/// Largest |a - b| / max(1, |b|) over the padded field (ghosts included).
template <class T, int Rank>
double padded_difference(const View<T, Rank, HostSpace>& a, const View<T, Rank, HostSpace>& b) {
  double worst = 0;
  for_each_point<Rank>(a.extents(), a.ghost(), [&](auto... i) {
    const double x = a(i...), y = b(i...);
    const double d = std::isfinite(x) && std::isfinite(y) ? std::abs(x - y) / std::max(1.0, std::abs(y)) : 1e300;
    worst = std::max(worst, d);
  });
  return worst;
}

/// A host copy of v that no later write to v reaches (create_mirror_copy returns a host
/// view itself).
template <class T, int Rank, class Space>
View<T, Rank, HostSpace> snapshot(const View<T, Rank, Space>& v) {
  auto c = create_mirror(v);
  deep_copy(c, v);
  return c;
}

/// iterate(Policy) on views in Space against host::serial and kokkos::mdrange, `steps` steps
/// under boundary case bcase; callbacks every `every` steps (0: none) must see the same
/// steps, views and fields.
template <class Policy, class Space, class S, class T>
void check_fused_iterate(const extents<S::rank>& n, int steps, boundary_case bcase, std::uint64_t seed,
                         bool mirrored = true, int every = 0) {
  constexpr int Rank = S::rank;
  const int g = shape_traits<S>::radius + static_cast<int>(seed % 2);
  const auto st = bounded_stencil<S, T>(seed, mirrored);
  iterate_options<T, Rank, HostSpace> host_opt;
  host_opt.boundary = make_boundary<Rank>(bcase, seed + 1);
  View<T, Rank, HostSpace> u0("u0", n, g), scratch0("scratch0", n, g);
  fill_random(u0, seed + 2);
  poison(scratch0);  // interior NaN: a point a pass forgets shows; ghost sentinels: read as they are
  struct seen {
    int step;
    bool in_u;
    View<T, Rank, HostSpace> field;
  };
  using host_run = std::pair<View<T, Rank, HostSpace>, std::vector<seen>>;

  auto on_host = [&](auto policy) {
    auto u = snapshot(u0), s = snapshot(scratch0);
    std::vector<seen> calls;
    iterate_options<T, Rank, HostSpace> o = host_opt;
    o.every = every;
    if (every > 0)
      o.callback = [&](int step, const View<T, Rank, HostSpace>& cur) {
        calls.push_back({step, cur.data() == u.data(), snapshot(cur)});
      };
    const auto r = iterate(policy, st, u, s, steps, o);
    return host_run{snapshot(r), std::move(calls)};
  };
  const host_run serial = on_host(host::serial{}), kokkos_ref = on_host(kokkos::mdrange{});

  auto u = on_space<T, Rank, Space>(u0, "u"), s = on_space<T, Rank, Space>(scratch0, "scratch");
  std::vector<seen> calls;
  iterate_options<T, Rank, Space> o;
  o.boundary = host_opt.boundary;
  o.every = every;
  if (every > 0)
    o.callback = [&](int step, const View<T, Rank, Space>& cur) {
      calls.push_back({step, cur.data() == u.data(), snapshot(cur)});
    };
  const auto r = iterate(Policy{}, st, u, s, steps, o);
  const auto got = snapshot(r);

  const double tol = sizeof(T) == 8 ? 1e-12 : 2e-5;
  const std::string label = Policy::name() + " " + shape_name<S>() + (sizeof(T) == 8 ? " double" : " float") + " extents " +
       n.to_string() + " ghost " + std::to_string(g) + ", " + std::to_string(steps) + " steps, boundary " +
       to_string(bcase) + ", seed " + std::to_string(seed) + (mirrored ? "" : ", coefficients not mirrored");
  INFO(label);
  CHECK(r.data() == (steps % 2 ? s.data() : u.data()));
  const double vs_serial = padded_difference(got, serial.first), vs_kokkos = padded_difference(got, kokkos_ref.first);
  INFO("max difference vs host::serial ", vs_serial, ", vs kokkos ", vs_kokkos);
  CHECK(vs_serial <= tol);
  CHECK(vs_kokkos <= tol);
  REQUIRE(calls.size() == serial.second.size());
  for (std::size_t i = 0; i < calls.size(); ++i) {
    CAPTURE(i);
    CHECK(calls[i].step == serial.second[i].step);
    CHECK(calls[i].in_u == serial.second[i].in_u);
    CHECK(padded_difference(calls[i].field, serial.second[i].field) <= tol);
  }
}

}  // namespace tessera::test
