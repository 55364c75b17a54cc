#pragma once
// heat3d under mpirun (run_heat_mpi.cpp dispatches; run_heat_mpi_float.cpp and
// run_heat_mpi_double.cpp instantiate one precision each, so no unit takes a minute to
// build): a Cartesian decomposition of the N^3 grid, each rank's block swept by the chosen
// policy, halos exchanged on the host or the device, --validate against a single-process
// kokkos:mdrange run. Only built with MPI (TESSERA_ENABLE_MPI).
#include <mpi.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <tessera/algorithms/heat.hpp>
#include <tessera/mpi/mpi.hpp>

#include "outputs.hpp"
#include "rank_rates.hpp"
#include "policy_names.hpp"
#include "problems.hpp"

namespace tessera::app {

template <class T, int Order>
int run_heat3d_mpi_order(const run_options& o) {
  constexpr int g = Order / 2;
  const int n = o.size;
  const double h1 = 1.0 / (n + 1);
  const array<T, 3> h{T(h1), T(h1), T(h1)};
  const double limit = heat_stability_limit<3, Order>(1.0, h);
  const double dt = o.dt ? *o.dt : 0.9 * limit;
  const auto step = heat_step<3, Order>(1.0, dt, h);
  const auto bc = boundary_conditions<3>::uniform(boundary_by_name(o.boundary));
  const bool periodic = o.boundary == "periodic";
  // on GPUs the fewest halo cells among the grids whose steps overlap (the last axis whole,
  // blocks thick enough): mpi::iterate then sweeps the inner box while the halos travel; on
  // the CPU the domain's own choice, whose smaller faces cost less to copy through host memory
  int processes = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &processes);
  const std::array<int, 3> dims =
      o.policy.starts_with("cuda:") ? mpi::overlapping_process_grid(extents<3>{n, n, n}, processes, g, {periodic, periodic, periodic})
                                  : std::array<int, 3>{};
  const mpi::cartesian_domain<3> dom(MPI_COMM_WORLD, extents<3>{n, n, n}, {periodic, periodic, periodic}, dims);
  const int rank = dom.rank(), size = dom.size();
  const auto initial = [&](const mpi::distributed_view<T, 3>& v) {
    const auto l = v.local();
    const auto& off = dom.offset();
    const auto& e = dom.local_extents();
    for (index_t z = 0; z < e[0]; ++z)
      for (index_t y = 0; y < e[1]; ++y)
        for (index_t x = 0; x < e[2]; ++x) l(z, y, x) = T(heat3d_initial(z + off[0], y + off[1], x + off[2], h1));
  };
  mpi::distributed_view<T, 3> u("u", dom, g), scratch("scratch", u);
  initial(u);
  double seconds = 0;
  std::string ran_with, exchange = "host-staged halo exchange";
  mpi::distributed_view<T, 3> result;
  with_policy(o.policy, [&](auto policy, auto tag) {
    using Space = typename decltype(tag)::type;
    if constexpr (std::is_same_v<Space, HostSpace>) {
      ran_with = std::string(decltype(policy)::name());
      MPI_Barrier(dom.comm());
      const auto t0 = std::chrono::steady_clock::now();
      result = mpi::iterate(policy, step, u, scratch, o.steps, bc);
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    } else {
#ifdef TESSERA_MPI_DEVICE
      ran_with = std::string(decltype(policy)::name());
      const auto t = mpi::transport_by_name(o.transport).value_or(mpi::transport::host_staged);
      // where the policy fuses time steps on this block (cuda::temporal_blocking, automatic
      // where its fusion table says so), halos as deep as its passes: a rank then exchanges
      // once a pass, its fused pass over the block grown into them (mpi/fused_passes.hpp)
      mpi::distributed_view<T, 3, CudaSpace> du("u", dom, g);
      const int depth = mpi::steps_fused_on_every_rank(policy, step, du.local(), bc, dom.comm());
      if (depth > 1) du = mpi::distributed_view<T, 3, CudaSpace>("u", dom, g * depth);
      mpi::distributed_view<T, 3, CudaSpace> ds("scratch", du);
      {
        mpi::distributed_view<T, 3> staged("u", dom, g * depth);
        initial(staged);
        deep_copy(du.local(), staged.local());
      }
      mpi::device_exchange<T, 3> ex(du, t);
      const int k = mpi::steps_between_exchanges(policy, step, du, bc);
      exchange = mpi::to_string(t) + " halo exchange" +
                 (k >= 2 ? ", " + std::to_string(k) + " fused steps an exchange (halos " + std::to_string(g * k) + " deep)"
                  : ex.can_overlap(du) ? ", overlapped"
                                       : "");
      // untimed: NCCL connects its peers on the first messages (a fifth of a second on
      // two H200s); a halo fill changes no interior value, and the first step refills them
      mpi::fill_halos(du, bc, ex);
      MPI_Barrier(dom.comm());
      const auto t0 = std::chrono::steady_clock::now();
      const auto r = mpi::iterate(policy, step, du, ds, o.steps, bc, ex);
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      result = mpi::distributed_view<T, 3>("u", dom, g * depth);
      deep_copy(result.local(), r.local());
#endif
    }
  });
  const auto times = gather_rank_times(dom, seconds);  // collective
  int status = 0;
  const auto field = mpi::gather(result);
  if (rank == 0) {
    std::printf("heat3d: %s on %d MPI processes (process grid %s, %s), %dx%dx%d %s, order %d, "
                "%s boundary, dt = %.3e (limit %.3e), %d steps\n",
                ran_with.c_str(), size, dom.describe_grid().c_str(), exchange.c_str(), n, n, n, o.precision.c_str(), Order,
                o.boundary.c_str(), dt, limit, o.steps);
    print_rank_rates(times, o.steps);
    const double umax = norm_max(field);
    std::printf("  max |u|: final %.6g\n", umax);
    status = report_nonfinite(field);
    if (o.validate) {
      View<T, 3, HostSpace> a("u_ref", extents<3>{n, n, n}, g), b("scratch_ref", a.layout());
      for (index_t z = 0; z < n; ++z)
        for (index_t y = 0; y < n; ++y)
          for (index_t x = 0; x < n; ++x) a(z, y, x) = T(heat3d_initial(z, y, x, h1));
      iterate_options<T, 3, HostSpace> opt;
      opt.boundary = bc;
      const auto ref = iterate(kokkos::mdrange{}, step, a, b, o.steps, opt);
      status = std::max(status, report_validation(compare(field, ref), umax, stepping_tolerance<T>(o.steps),
                                                  "a single-process run (kokkos:mdrange)"));
    }
    run_options rest = o;  // a .pvti is written by every rank below
    if (o.output.ends_with(".pvti")) rest.output.clear();
    write_outputs(rest, field, io::grid_geometry<3>::cell_centred_unit_box({h1, h1, h1}), "temperature");
  }
  if (o.output.ends_with(".pvti")) {
    mpi::write_pvti(o.output, result, "temperature", io::grid_geometry<3>::cell_centred_unit_box({h1, h1, h1}));
    if (rank == 0) std::printf("  wrote %s (%d pieces)\n", o.output.c_str(), size);
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, dom.comm());
  return status;
}

template <class T>
int run_heat3d_mpi(const run_options& o) {
  return with_heat_order(o.order, [&]<int Order>() { return run_heat3d_mpi_order<T, Order>(o); });
}

}  // namespace tessera::app
