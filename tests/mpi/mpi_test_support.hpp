#pragma once
// What the distributed suites (test_mpi.cpp on host views, test_mpi_device.cpp on device
// views) share: process grids of the world's size, boundary cases, and the comparison of
// a rank's block with the matching part of a global field.
#include <doctest/doctest.h>
#include <mpi.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <tessera/mpi/mpi.hpp>

#include "../support/test_support.hpp"

namespace mpi_test {

namespace ts = tessera;
namespace tmpi = tessera::mpi;
using namespace ts::test;

inline int world_size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

/// Process grids of the world's size: MPI_Dims_create's, and every split along one axis,
/// two axes and three where the size allows (np 8: 8x1x1, 1x8x1, 2x4x1, 2x2x2, ...).
template <int Rank>
std::vector<std::array<int, Rank>> process_grids() {
  const int p = world_size();
  std::vector<std::array<int, Rank>> grids{std::array<int, Rank>{}};  // chosen by cartesian_domain
  std::array<int, Rank> d{};
  auto rec = [&](auto&& self, int axis, int left) -> void {
    if (axis == Rank) {
      if (left == 1) grids.push_back(d);
      return;
    }
    for (int f = 1; f <= left; ++f)
      if (left % f == 0) d[axis] = f, self(self, axis + 1, left / f);
  };
  rec(rec, 0, p);
  return grids;
}

/// True when some block is thinner than g along an axis (a halo of width g cannot be
/// copied from one neighbour there; fill_halos refuses such grids on every rank).
template <int Rank>
bool thinner_than(const tmpi::cartesian_domain<Rank>& dom, int g) {
  for (int a = 0; a < Rank; ++a)
    if (dom.global_extents()[a] / dom.dims()[a] < g) return true;
  return false;
}

template <int Rank>
std::string grid_text(const tmpi::cartesian_domain<Rank>& dom) {
  return "process grid " + dom.describe_grid() + ", rank " + std::to_string(dom.rank());
}

/// Number of local points (ghosts included when `halo`) differing from the global view.
template <class T, int Rank>
ts::index_t block_mismatches(const tmpi::distributed_view<T, Rank>& u, const ts::View<T, Rank>& global, int halo) {
  ts::index_t bad = 0;
  const auto& off = u.domain().offset();
  for_each_point<Rank>(u.local().extents(), halo, [&](auto... i) {
    const ts::index_t l[] = {static_cast<ts::index_t>(i)...};
    std::array<ts::index_t, Rank> gi{};
    for (int a = 0; a < Rank; ++a) gi[a] = l[a] + off[a];
    const T want = [&] {
      if constexpr (Rank == 2) return global(gi[0], gi[1]);
      else return global(gi[0], gi[1], gi[2]);
    }();
    const T got = u.local()(i...);
    if (!(got == want) && !(got != got && want != want)) ++bad;
  });
  return bad;
}

template <int Rank>
std::vector<ts::boundary_conditions<Rank>> boundary_cases() {
  using ts::boundary;
  std::vector<ts::boundary_conditions<Rank>> v{
      ts::boundary_conditions<Rank>::uniform(boundary::dirichlet(0.25)),
      ts::boundary_conditions<Rank>::uniform(boundary::periodic()),
      ts::boundary_conditions<Rank>::uniform(boundary::neumann())};
  // Dirichlet faces of different values: the corners and edges take the later axis's
  // value, which a step that fills the faces once must keep (device_iterate.hpp)
  ts::boundary_conditions<Rank> dirichlet;
  for (int a = 0; a < Rank; ++a) dirichlet.set(a, boundary::dirichlet(-0.75 + a), boundary::dirichlet(1.5 - 0.5 * a));
  v.push_back(dirichlet);
  auto mixed = ts::boundary_conditions<Rank>::uniform(boundary::neumann());
  mixed.set(0, boundary::periodic(), boundary::periodic()).set(Rank - 1, boundary::dirichlet(-1), boundary::neumann());
  v.push_back(mixed);
  return v;
}

/// One process's `steps` sweeps of st under bc on the global field `init` (host::serial,
/// ghosts filled before each): what every distributed iterate is compared with.
template <class S, class T>
ts::View<T, 3> serial_reference(const ts::stencil<S, T>& st, const ts::View<T, 3>& init, int steps,
                                const ts::boundary_conditions<3>& bc) {
  ts::View<T, 3> a("a", init.layout()), b("b", init.layout());
  ts::deep_copy(a, init);
  ts::iterate_options<T, 3, ts::HostSpace> opt;
  opt.boundary = bc;
  return ts::iterate(ts::host::serial{}, st, a, b, steps, opt);
}

/// A random averaging stencil whose coefficients are mirror-symmetric along every axis (a
/// pass may fuse several steps under Neumann faces only then: edge_rules.hpp).
template <class S, class T>
ts::stencil<S, T> symmetric_averaging_stencil(std::uint64_t seed) {
  auto st = random_stencil<S, T>(seed);
  T sum = 0;
  for (int k = 0; k < ts::shape_traits<S>::size; ++k) {
    // the coefficient of the point whose offsets are |S::points[k]|, as the seed draws it
    int j = 0;
    while (true) {
      bool same = true;
      for (int e = 0; e < S::rank; ++e) same = same && S::points[j][e] == std::abs(S::points[k][e]);
      if (same) break;
      ++j;
    }
    st.coeffs[k] = std::abs(random_stencil<S, T>(seed).coeffs[j]) + T(0.05);
    sum += st.coeffs[k];
  }
  for (auto& c : st.coeffs) c /= sum;
  return st;
}

template <int Rank>
std::array<bool, Rank> periodic_axes(const ts::boundary_conditions<Rank>& bc) {
  std::array<bool, Rank> p{};
  for (int a = 0; a < Rank; ++a) p[a] = bc.faces[2 * a].kind == ts::boundary_kind::periodic;
  return p;
}

std::string bc_text(const auto& bc) {
  std::string s;
  for (const auto& f : bc.faces) s += ts::to_string(f.kind).substr(0, 3) + " ";
  return s;
}

/// Runs the program's doctest cases on every rank (rank 0 reports in full, the others
/// failures only) and, when no rank failed, prints "<suite>: N processes, every rank
/// passed" on rank 0 (what ctest's pass pattern looks for). Returns the worst rank's
/// result, for main to return after MPI_Finalize.
inline int run_cases_on_every_rank(int argc, char** argv, const char* suite) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  doctest::Context ctx(argc, argv);
  if (rank != 0) ctx.setOption("minimal", true);
  const int mine = ctx.run();
  int worst = 0;
  MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && worst == 0) std::printf("%s: %d processes, every rank passed\n", suite, size);
  return worst;
}

}  // namespace mpi_test
