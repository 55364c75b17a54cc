// `mpirun -np N tessera run --problem poisson3d ...`: Laplacian(u) = f on the unit cube with
// Dirichlet walls, f manufactured from u = prod sin(pi x) as on one process
// (run_poisson.hpp), solved by the distributed multigrid (tessera/mpi/multigrid.hpp): each
// rank its block of the N^3 grid, the levels halved block by block while they can be
// (N = 2^k m - 1, blocks of even size), the coarse level gathered onto every rank. Host
// policies on host views; cuda: policies on device views (run_poisson_mpi_cuda.cpp, with
// cuda:automatic's kernels; --transport as for heat3d). Prints the levels, the residual
// per cycle, the time, the error against the exact solution, and one more cycle timed level
// by level (smoothing and transfers, the halo exchanges inside them, the gathered coarse
// solve); --validate gathers the answer on rank 0 and compares it with a one-process solve.
#include <mpi.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

#include "outputs.hpp"
#include "policy_names.hpp"
#include "rank_rates.hpp"
#include "run_poisson.hpp"
#include "run_poisson_mpi.hpp"

namespace tessera::app {

mpi::multigrid_options mpi_multigrid_options_of(const run_options& o) {
  mpi::multigrid_options m;
  static_cast<tessera::multigrid_options&>(m) = multigrid_options_of(o);
  return m;
}

namespace {

template <class T>
mpi_poisson_solve solve_on_host(const run_options& o, const mpi::distributed_view<T, 3>& f,
                                const mpi::distributed_view<T, 3>& u, T h) {
  const auto op = poisson_operator<HostSpace>(fd::laplacian<3, 2>(h));
  const auto bc = boundary_conditions<3>::uniform(boundary::dirichlet(0));
  mpi_poisson_solve s;
  const auto opt = mpi_multigrid_options_of(o);
  auto run = [&](auto policy) {
    using P = decltype(policy);
    {  // one cycle from a copy, timed level by level
      mpi::distributed_view<T, 3> w("warm", f);
      deep_copy(w.local(), u.local());
      auto one = opt;
      one.max_cycles = 1;
      one.time_levels = true;
      s.split = mpi::multigrid_solver<P, T, 3>(policy, op, f.domain(), bc, one).solve(f, w);
    }
    mpi::multigrid_solver<P, T, 3> mg(policy, op, f.domain(), bc, opt);
    MPI_Barrier(f.domain().comm());
    const auto t0 = std::chrono::steady_clock::now();
    s.result = mg.solve(f, u);
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  if (o.policy == "host:serial") run(host::serial{});
  else run(host::parallel{});
  return s;
}

template <class T>
int run_poisson3d_mpi_typed(const run_options& o) {
  const int n = o.size;
  const auto mode = poisson_mode::of("dirichlet", n);
  const T h = T(mode.h);
  const mpi::cartesian_domain<3> dom(MPI_COMM_WORLD, extents<3>{n, n, n});
  const int rank = dom.rank();
  mpi::distributed_view<T, 3> f("f", dom, 1), u("u", dom, 1);
  // f(z, y, x, exact): every point of this rank's block, with the exact solution there
  const auto for_each_block_point = [&](auto&& fn) {
    const auto& off = dom.offset();
    const auto& e = dom.local_extents();
    for (index_t z = 0; z < e[0]; ++z)
      for (index_t y = 0; y < e[1]; ++y)
        for (index_t x = 0; x < e[2]; ++x) fn(z, y, x, mode.at(z + off[0]) * mode.at(y + off[1]) * mode.at(x + off[2]));
  };
  double peak = 0;
  for_each_block_point([&](index_t z, index_t y, index_t x, double v) {
    f.local()(z, y, x) = T(-3 * mode.k * mode.k * v);
    u.local()(z, y, x) = T(0);
    peak = std::max(peak, std::fabs(v));
  });
  MPI_Allreduce(MPI_IN_PLACE, &peak, 1, MPI_DOUBLE, MPI_MAX, dom.comm());
  mpi_poisson_solve s;
  std::string ran_with = o.policy;
  if (o.policy.starts_with("cuda:")) {
#ifdef TESSERA_MPI_DEVICE
    ran_with = "cuda:automatic on device views, " + o.transport + " halos";
    s = solve_poisson_mpi_device(o, f, u, h);
#endif
  } else {
    s = solve_on_host(o, f, u, h);
  }
  const auto& r = s.result;
  const auto opt = multigrid_options_of(o);
  // the error against the exact solution, over every block
  double err = 0;
  for_each_block_point([&](index_t z, index_t y, index_t x, double v) {
    const double d = std::fabs(double(u.local()(z, y, x)) - v);
    err = d > err || d != d ? d : err;
  });
  MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_DOUBLE, MPI_MAX, dom.comm());
  double slowest = s.seconds;
  MPI_Allreduce(MPI_IN_PLACE, &slowest, 1, MPI_DOUBLE, MPI_MAX, dom.comm());
  const auto field = mpi::gather(u);
  int status = 1;
  if (rank == 0) {
    const double discretisation = std::fabs(mode.discrete_factor(3) - 1) * peak;
    const double ratio = err / discretisation;
    const bool accurate = ratio <= poisson_accuracy_factor;
    const double last = r.residuals.empty() ? 0 : r.residuals.back();
    const bool at_floor = !r.converged && r.precision_floor > 0 && last <= r.precision_floor;
    std::printf("poisson3d: %s on %d MPI processes (process grid %s), %dx%dx%d %s, dirichlet boundary, distributed "
                "multigrid %s(%d,%d) %s: %d levels (%s .. %s; %d block by block, then %s gathered onto every process): "
                "%d cycles\n",
                ran_with.c_str(), dom.size(), dom.describe_grid().c_str(), n, n, n, o.precision.c_str(),
                to_string(opt.cycle).c_str(), opt.pre_smooth, opt.post_smooth, to_string(opt.smoother).c_str(), r.levels,
                r.level_extents.empty() ? "" : r.level_extents.front().c_str(),
                r.level_extents.empty() ? "" : r.level_extents.back().c_str(), r.distributed_levels,
                r.agglomerated_extents.c_str(), r.cycles);
    std::printf("  residual per cycle (max |f - A u| / max |f|):");
    for (std::size_t i = 0; i < r.residuals.size(); ++i) {
      if (r.residuals.size() > 14 && i == 6) {
        std::printf(" ...");
        i = r.residuals.size() - 6;
      }
      std::printf(" %.2e", r.residuals[i] / std::max(r.reference, 1e-300));
    }
    std::printf("\n  convergence factor %.3f per cycle; stopped: %s\n", r.convergence_factor, r.stop_reason.c_str());
    std::printf("  time %.3f s (slowest rank), %.3g DOF/s (unknowns / time to solution)\n", slowest,
                double(n) * n * n / std::max(slowest, 1e-12));
    const auto& sp = s.split;
    double total = sp.coarse_seconds;
    for (const double t : sp.level_seconds) total += t;
    std::printf("  one cycle timed level by level (rank 0, synchronised around each level): %.3f ms;", total * 1e3);
    for (int l = 0; l < sp.distributed_levels; ++l)
      std::printf(" L%d %s %.3f,", l, sp.level_extents[static_cast<std::size_t>(l)].c_str(),
                  sp.level_seconds[static_cast<std::size_t>(l)] * 1e3);
    std::printf(" gathered coarse solve %.3f ms; halo exchanges (inside the levels) %.3f ms\n", sp.coarse_seconds * 1e3,
                sp.halo_seconds * 1e3);
    std::printf("  max |u - exact| = %.3e, %.3g x the discretisation error %.3e (h = %.4g)\n", err, ratio, discretisation,
                double(h));
    if ((r.converged || at_floor) && accurate) {
      std::printf("  converged: the residual reached %s and the error is within %.0f x the discretisation error\n",
                  r.converged ? "--tol" : "the precision's floor", poisson_accuracy_factor);
      status = 0;
    } else if (r.converged || at_floor) {
      std::printf("  NOT converged: the residual stopped, but the error is %.3g x the discretisation error\n", ratio);
    } else {
      std::printf("  NOT converged: %s\n", r.stop_reason.c_str());
    }
    status = std::max(status, report_nonfinite(field));
    if (o.validate) {
      // a one-process solve of the same problem (host:parallel multigrid) on rank 0
      View<T, 3, HostSpace> f1("f1", extents<3>{n, n, n}, 1), u1("u1", f1.layout());
      for (index_t z = 0; z < n; ++z)
        for (index_t y = 0; y < n; ++y)
          for (index_t x = 0; x < n; ++x) {
            f1(z, y, x) = T(-3 * mode.k * mode.k * mode.at(z) * mode.at(y) * mode.at(x));
            u1(z, y, x) = T(0);
          }
      multigrid_solve(host::parallel{}, poisson_operator<HostSpace>(fd::laplacian<3, 2>(h)), f1, u1,
                      boundary_conditions<3>::uniform(boundary::dirichlet(0)), multigrid_options_of(o));
      const bool single = sizeof(T) == 4;
      const double tol = std::min(4 * o.tol.value_or(1e-10) + (single ? 2e-3 : 1e-12), 1e-2);
      status = std::max(status, report_validation(compare(field, u1), norm_max(u1), tol,
                                                  "a single-process multigrid solve (host:parallel)"));
    }
    write_outputs(o, field, io::grid_geometry<3>::cell_centred_unit_box({double(h), double(h), double(h)}), "u");
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, dom.comm());
  return status;
}

}  // namespace

int run_poisson3d_mpi(const run_options& o) {
  return o.precision == "float" ? run_poisson3d_mpi_typed<float>(o) : run_poisson3d_mpi_typed<double>(o);
}

}  // namespace tessera::app
