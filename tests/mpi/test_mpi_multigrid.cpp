// mpi::multigrid_solver (part of the test_mpi suite, under mpirun -np 1, 2, 4, 8): every
// rank builds the same random problem, solves it on one process (tessera::multigrid_solve)
// and distributed, and compares its block with the one-process answer. Both stop at a
// residual of 1e-10 x reference, so they agree to the problem's conditioning, not bit for
// bit (the coarse levels differ: agglomerated).
#include <doctest/doctest.h>
#include <mpi.h>

#include <array>
#include <cmath>
#include <string>

#include <tessera/core/fd.hpp>
#include <tessera/mpi/multigrid.hpp>

#include "../support/test_support.hpp"
#include "mpi_test_support.hpp"

namespace ts = tessera;
namespace tmpi = tessera::mpi;
using namespace ts::test;
using namespace mpi_test;

namespace {

/// The largest |distributed - one process| over every rank's block, all-reduced.
template <class T, int Rank>
double block_difference(const tmpi::distributed_view<T, Rank>& u, const ts::View<T, Rank>& ref) {
  double worst = 0;
  const auto& off = u.domain().offset();
  for_each_point<Rank>(u.local().extents(), 0, [&](auto... i) {
    const ts::index_t l[] = {static_cast<ts::index_t>(i)...};
    std::array<ts::index_t, Rank> gi{};
    for (int a = 0; a < Rank; ++a) gi[a] = l[a] + off[a];
    const double want = [&] {
      if constexpr (Rank == 2) return double(ref(gi[0], gi[1]));
      else return double(ref(gi[0], gi[1], gi[2]));
    }();
    const double d = std::fabs(double(u.local()(i...)) - want);
    worst = d > worst || d != d ? d : worst;
  });
  double all = 0;
  MPI_Allreduce(&worst, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return all;
}

/// Solves the Dirichlet problem on `global` (random f, faces of different values) both ways
/// and checks the distributed answer, its convergence and where it agglomerated.
template <int Rank>
void solve_both_ways(const ts::extents<Rank>& global, const tmpi::multigrid_options& opt, std::uint64_t seed) {
  using T = double;
  ts::array<T, Rank> h{};
  for (int a = 0; a < Rank; ++a) h[a] = T(1) / T(global[a] + 1);
  const auto L = ts::fd::laplacian<Rank, 2>(h);
  ts::boundary_conditions<Rank> bc;
  for (int a = 0; a < Rank; ++a) bc.set(a, ts::boundary::dirichlet(0.5 - a), ts::boundary::dirichlet(-0.25 + 0.5 * a));
  ts::View<T, Rank> f("f", global, 1), u1("u1", global, 1);
  fill_random(f, seed);
  fill_random(u1, seed + 1);  // a random initial guess, the same on both sides
  const tmpi::cartesian_domain<Rank> dom(MPI_COMM_WORLD, global);
  tmpi::distributed_view<T, Rank> fd("f", dom, 1), ud("u", dom, 1);
  tmpi::scatter_from(f, fd);
  tmpi::scatter_from(u1, ud);
  const auto one = ts::multigrid_solve(ts::host::serial{}, ts::poisson_operator<ts::HostSpace>(L), f, u1, bc, opt);
  const auto res = tmpi::multigrid_solve(ts::host::serial{}, ts::poisson_operator<ts::HostSpace>(L), fd, ud, bc, opt);
  const std::string where = "global " + global.to_string() + ", " + grid_text(dom);
  INFO(where);
  CHECK(one.converged);
  CHECK(res.converged);
  CHECK(res.residuals.back() <= opt.tol * res.reference);
  CHECK(res.convergence_factor < 0.25);
  const double umax = ts::norm_max(u1);
  CHECK(block_difference(ud, u1) <= 1e-7 * umax);
  // the halos hold the answer's neighbours and walls after the solve
  auto ref = ts::View<T, Rank>("ref", global, 1);
  ts::deep_copy(ref, u1);
  ts::fill_ghosts(ref, bc);
  const auto& off = dom.offset();
  double ghost_gap = 0;
  for_each_point<Rank>(ud.local().extents(), 1, [&](auto... i) {
    const ts::index_t l[] = {static_cast<ts::index_t>(i)...};
    int outside = 0;
    std::array<ts::index_t, Rank> gi{};
    for (int a = 0; a < Rank; ++a) {
      gi[a] = l[a] + off[a];
      outside += l[a] < 0 || l[a] >= ud.local().extents()[a];
    }
    if (outside != 1) return;  // faces only (corners are not read)
    const double want = [&] {
      if constexpr (Rank == 2) return double(ref(gi[0], gi[1]));
      else return double(ref(gi[0], gi[1], gi[2]));
    }();
    ghost_gap = std::max(ghost_gap, std::fabs(double(ud.local()(i...)) - want));
  });
  CHECK(ghost_gap <= 1e-7 * umax);
}

}  // namespace

TEST_CASE("distributed multigrid, 3D Poisson with Dirichlet walls of different values, equals one process") {
  tmpi::multigrid_options opt;
  opt.agglomerate_points = 200;  // several distributed levels even on this small grid
  solve_both_ways<3>(ts::extents<3>{63, 31, 47}, opt, 11);
  // every level distributed until the agglomerated one is small
  const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, ts::extents<3>{63, 31, 47});
  ts::array<double, 3> h{1.0 / 64, 1.0 / 32, 1.0 / 48};
  tmpi::multigrid_solver<ts::host::serial, double, 3> mg(ts::host::serial{},
                                                         ts::poisson_operator<ts::HostSpace>(ts::fd::laplacian<3, 2>(h)),
                                                         dom, ts::boundary_conditions<3>::uniform(ts::boundary::dirichlet(0)), opt);
  CHECK(mg.levels() >= 3);
  CHECK(mg.level_extents(mg.agglomerated_level()).size() <= 64 * 200);
}

TEST_CASE("distributed multigrid, 2D: Jacobi and red-black, V and W cycles, default agglomeration") {
  tmpi::multigrid_options opt;
  opt.agglomerate_points = 100;
  solve_both_ways<2>(ts::extents<2>{95, 47}, opt, 21);
  opt.smoother = ts::mg_smoother::jacobi;
  opt.cycle = ts::mg_cycle::w;
  opt.max_cycles = 200;
  solve_both_ways<2>(ts::extents<2>{95, 47}, opt, 22);
  // small enough to agglomerate on the finest level: solved whole on every process
  solve_both_ways<2>(ts::extents<2>{31, 15}, tmpi::multigrid_options{}, 23);
}

TEST_CASE("distributed multigrid refuses what it does not distribute, by name, on every rank") {
  const ts::extents<3> global{31, 31, 31};
  const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, global);
  ts::array<double, 3> h{0.03125, 0.03125, 0.03125};
  const auto op = ts::poisson_operator<ts::HostSpace>(ts::fd::laplacian<3, 2>(h));
  auto bc = ts::boundary_conditions<3>::uniform(ts::boundary::dirichlet(0));
  using solver = tmpi::multigrid_solver<ts::host::serial, double, 3>;
  bc.set(1, ts::boundary::neumann(), ts::boundary::dirichlet(0));
  CHECK(message_of<ts::unsupported_error>([&] { solver(ts::host::serial{}, op, dom, bc); }).find("face 2 is neumann") !=
        std::string::npos);
  bc = ts::boundary_conditions<3>::uniform(ts::boundary::dirichlet(0));
  tmpi::multigrid_options opt;
  opt.smoother = ts::mg_smoother::chebyshev;
  CHECK(message_of<ts::unsupported_error>([&] { solver(ts::host::serial{}, op, dom, bc, opt); }).find("Chebyshev") !=
        std::string::npos);
  opt = {};
  opt.full_multigrid = true;
  CHECK(message_of<ts::unsupported_error>([&] { solver(ts::host::serial{}, op, dom, bc, opt); }).find("full multigrid") !=
        std::string::npos);
  ts::View<double, 3> k("k", global, 1);
  const auto kop = ts::div_k_grad_operator(0.0, 1.0, k, h);
  CHECK(message_of<ts::unsupported_error>([&] { solver(ts::host::serial{}, kop, dom, bc); }).find("conductivity") !=
        std::string::npos);
  // an even extent cannot coarsen by vertex: too large to gather, refused naming the fix
  if (world_size() > 1) {
    const ts::extents<3> even{64, 64, 64};
    const tmpi::cartesian_domain<3> edom(MPI_COMM_WORLD, even);
    opt = {};
    opt.agglomerate_points = 27;
    CHECK(message_of<ts::unsupported_error>([&] { solver(ts::host::serial{}, op, edom, bc, opt); }).find("1023") !=
          std::string::npos);
  }
  // views of another grid
  solver mg(ts::host::serial{}, op, dom, bc);
  const tmpi::cartesian_domain<3> other(MPI_COMM_WORLD, ts::extents<3>{33, 31, 31});
  tmpi::distributed_view<double, 3> f("f", other, 1), u("u", other, 1);
  CHECK(message_of<ts::extent_mismatch_error>([&] { mg.solve(f, u); }).find("not this rank's block") != std::string::npos);
  // NaN in the right-hand side on one rank: every rank refuses
  tmpi::distributed_view<double, 3> f2("f", dom, 1), u2("u", dom, 1);
  if (dom.rank() == dom.size() - 1) f2.local()(0, 0, 0) = std::nan("");
  CHECK(message_of<ts::invalid_argument_error>([&] { mg.solve(f2, u2); }).find("NaN") != std::string::npos);
}

TEST_CASE("a coarsened domain keeps the processes and halves each block by vertex, or says it cannot") {
  const tmpi::cartesian_domain<3> dom(MPI_COMM_WORLD, ts::extents<3>{63, 31, 47});
  const auto c = dom.coarsened_by_vertex({true, true, false});
  const bool even_starts = [&] {
    for (int a = 0; a < 2; ++a)
      for (int k = 0; k < dom.dims()[a]; ++k)
        if (dom.block(a, k).first % 2 != 0 || dom.block(a, k).second < 4) return false;
    return true;
  }();
  REQUIRE(c.has_value() == even_starts);
  if (!c) return;
  CHECK(c->global_extents() == ts::extents<3>{31, 15, 47});
  CHECK(c->rank() == dom.rank());
  CHECK(c->dims() == dom.dims());
  for (int a = 0; a < 3; ++a) {
    // the coarse block holds exactly the coarse points on this block's odd fine points
    const auto [o, n] = dom.block(a, dom.coords()[a]);
    const auto [co, cn] = c->block(a, dom.coords()[a]);
    if (a == 2) {
      CHECK(co == o);
      CHECK(cn == n);
      continue;
    }
    CHECK(co == o / 2);
    ts::index_t odd = 0;
    for (ts::index_t i = o; i < o + n; ++i) odd += i % 2 == 1;
    CHECK(cn == odd);
    CHECK(c->local_extents()[a] == cn);
    CHECK(c->offset()[a] == co);
  }
  // a periodic axis, an even extent: no vertex coarsening
  const tmpi::cartesian_domain<3> per(MPI_COMM_WORLD, ts::extents<3>{63, 31, 47}, {true, false, false});
  CHECK(!per.coarsened_by_vertex({true, false, false}).has_value());
  const tmpi::cartesian_domain<3> even(MPI_COMM_WORLD, ts::extents<3>{64, 31, 47});
  CHECK(!even.coarsened_by_vertex({true, false, false}).has_value());
}
