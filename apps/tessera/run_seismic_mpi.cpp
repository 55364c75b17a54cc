// `mpirun -np N tessera run --problem seismic3d ...`: the seismic problem of
// run_seismic.hpp over a Cartesian decomposition (tessera::mpi): each rank fills the
// model of its block from global coordinates (no rank holds the whole grid), and every
// step is one distributed point-function sweep, mpi::apply, which exchanges the halos of
// u (reach 4; the other four fields are read at the point and exchange nothing) with
// u = 0 on the global faces, as one process has behind its sponge. Prints each rank's
// block and rate and the aggregate; --validate gathers u on rank 0 and compares it with a
// single-process kokkos:mdrange run and, homogeneous, with the analytic solution.
// --snapshots K writes K evenly spaced fields during the run, as one process does: with a
// .pvti --output each as .pvti pieces (every rank its block, numbered after the output),
// with a .vti or .npy one as a .vti gathered on rank 0, and with --image as numbered PNG
// sections (gathered). Only built with MPI (TESSERA_ENABLE_MPI). Host policies sweep host
// views; cuda: policies (with tessera::mpi_cuda) sweep device views, each rank on its GPU,
// u's halos through a device_exchange (--transport), each step's sweep compiled by nvcc in
// run_seismic_float.cpp / run_seismic_double.cpp (seismic_device<T>::step).
#include <mpi.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <tessera/algorithms/point_functions.hpp>
#include <tessera/mpi/mpi.hpp>

#include "outputs.hpp"
#include "rank_rates.hpp"
#include "policy_names.hpp"
#include "problems.hpp"
#include "run_seismic.hpp"

namespace tessera::app {

namespace {

/// The single-process run of the same problem on the host (rank 0's reference).
template <class T>
View<T, 3, HostSpace> seismic_reference(const seismic_setup<T>& m, int steps) {
  const extents<3> e{m.n, m.n, m.n};
  View<T, 3, HostSpace> a("u_prev_ref", e, 4), b("u_ref", e, 4), c("u_next_ref", e, 4);
  seismic_step<T> step{T(m.dt * m.dt / (m.h * m.h)), 0};
  for (int k = 0; k < steps; ++k) {
    step.source = seismic_source(m, k);
    apply(kokkos::mdrange{}, step, inputs(a, b, m.c2, m.s, m.w), c);
    View<T, 3, HostSpace> t = a;
    a = b, b = c, c = t;
  }
  return b;
}

template <class T>
int run_seismic3d_mpi_typed(const run_options& o) {
  const auto m = make_seismic_setup<T>(o, /*fields=*/false);
  const int steps = seismic_steps(m, o);
  const int n = m.n;
  const int snapshots = o.snapshots;
  if (snapshots > steps)
    throw invalid_argument_error("seismic3d: --snapshots " + std::to_string(snapshots) + " exceeds the run's " +
                                 std::to_string(steps) + " steps (at most one snapshot a step)");
  // on GPUs the fewest halo cells among the grids whose steps overlap (the last axis whole,
  // blocks of 4 reaches a split axis: 2x2x1 on 4 ranks), as heat3d's
  int processes = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &processes);
  const std::array<int, 3> dims = o.policy.starts_with("cuda:")
                                      ? mpi::overlapping_process_grid(extents<3>{n, n, n}, processes, 4)
                                      : std::array<int, 3>{};
  const mpi::cartesian_domain<3> dom(MPI_COMM_WORLD, extents<3>{n, n, n}, {}, dims);
  const int rank = dom.rank(), size = dom.size();
  // three time levels with u's reach as their ghost width, the model read at the point
  mpi::distributed_view<T, 3> a("u_prev", dom, 4), b("u", dom, 4), c("u_next", dom, 4);
  mpi::distributed_view<T, 3> c2("c2", dom, 0), s("sponge", dom, 0), w("source_mask", dom, 0);
  m.fill_model(c2.local(), s.local(), w.local(), dom.offset());
  // u = 0 behind the sponge: the global faces' ghosts stay as allocated (zero), as in the
  // single-process run; only the halos between processes are exchanged
  const std::optional<boundary_conditions<3>> bc;
  seismic_step<T> step{T(m.dt * m.dt / (m.h * m.h)), 0};
  const io::grid_geometry<3> geometry{{m.h, m.h, m.h}, {m.h / 2, m.h / 2, m.h / 2}};
  // where snapshot k goes: numbered after --image, and after --output (a .pvti as pieces,
  // anything else as one .vti, as one process writes it)
  const bool pieces = o.output.ends_with(".pvti");
  const auto snapshot_field = [&](int k) {
    return numbered(pieces ? o.output : o.output.substr(0, o.output.rfind('.')) + ".vti", k);
  };
  int written = 0;
  const auto write_snapshot = [&](const mpi::distributed_view<T, 3>& u) {  // collective
    ++written;
    if (pieces) mpi::write_pvti(snapshot_field(written), u, "pressure", geometry);
    if ((!o.output.empty() && !pieces) || !o.image.empty()) {
      const auto whole = mpi::gather(u);  // on rank 0
      if (dom.rank() == 0) {
        if (!o.image.empty()) write_section_png(numbered(o.image, written), whole, m.src[1]);
        if (!o.output.empty() && !pieces) io::write_vti(snapshot_field(written), whole, "pressure", geometry);
      }
    }
  };
  double seconds = 0;
  std::string ran_with, exchange = "host-staged halo exchange of u";
  with_policy(o.policy, [&](auto policy, auto tag) {
    if constexpr (!std::is_same_v<typename decltype(tag)::type, HostSpace>) {
#ifdef TESSERA_MPI_DEVICE
      ran_with = std::string(decltype(policy)::name());
      const auto t = mpi::transport_by_name(o.transport).value_or(mpi::transport::host_staged);
      mpi::distributed_view<T, 3, CudaSpace> da("u_prev", dom, 4), db("u", dom, 4), dc("u_next", dom, 4);
      mpi::distributed_view<T, 3, CudaSpace> dc2("c2", dom, 0), ds("sponge", dom, 0), dw("source_mask", dom, 0);
      deep_copy(dc2.local(), c2.local());
      deep_copy(ds.local(), s.local());
      deep_copy(dw.local(), w.local());
      mpi::device_exchange<T, 3> ex(db, t);
      exchange = mpi::to_string(t) + " halo exchange of u" +
                 (mpi::overlap_possible<3>(dom.dims(), dom.local_extents(), 4) ? ", overlapped" : "");
      // untimed: NCCL connects its peers on the first messages; u is zero, so is every halo
      mpi::fill_halos(db, bc, ex);
      MPI_Barrier(dom.comm());
      const auto t0 = std::chrono::steady_clock::now();
      for (int k = 0; k < steps; ++k) {
        step.source = seismic_source(m, k);
        // u's halos (its reach; the other fields are read at the point) travel while the inner box is swept
        seismic_device<T>::step(o.policy, step, da, db, dc2, ds, dw, dc, bc, ex);
        auto t = da;
        da = db, db = dc, dc = t;
        if (snapshot_due(k + 1LL, snapshots, steps, written)) {
          deep_copy(b.local(), db.local());  // waits for the sweep
          write_snapshot(b);
        }
      }
      synchronize(CudaSpace{});
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      deep_copy(b.local(), db.local());
#endif
    } else {
      ran_with = std::string(decltype(policy)::name());
      MPI_Barrier(dom.comm());
      const auto t0 = std::chrono::steady_clock::now();
      for (int k = 0; k < steps; ++k) {
        step.source = seismic_source(m, k);
        mpi::apply(policy, step, mpi::inputs(a, b, c2, s, w), c, bc);
        auto t = a;
        a = b, b = c, c = t;
        if (snapshot_due(k + 1LL, snapshots, steps, written)) write_snapshot(b);
      }
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
  });
  const auto times = gather_rank_times(dom, seconds);  // collective
  const auto u = mpi::gather(b);
  int status = 0;
  if (rank == 0) {
    const double t_end = steps * m.dt;
    std::printf("seismic3d: %s on %d MPI processes (process grid %s, %s), %dx%dx%d %s, "
                "%s model (c %.2g..%.2g), Ricker f0 %.3g at the centre, sponge %d points, dt = %.3e (limit %.3e), "
                "%d steps to t = %.3f\n",
                ran_with.c_str(), size, dom.describe_grid().c_str(), exchange.c_str(), n, n, n, o.precision.c_str(),
                m.homogeneous ? "homogeneous" : "layered", m.c_min, m.c_max, m.f0, m.sponge, m.dt, m.limit, steps,
                t_end);
    print_rank_rates(times, steps);
    const double umax = norm_max(u);
    std::printf("  max |u| %.4g\n", umax);
    status = report_nonfinite(u);
    if (o.validate) {
      const auto whole = make_seismic_setup<T>(o, /*fields=*/true);
      status = std::max(status, report_validation(compare(u, seismic_reference(whole, steps)), umax,
                                                  stepping_tolerance<T>(steps), "a single-process run (kokkos:mdrange)"));
      if (m.homogeneous) status = std::max(status, print_analytic(check_analytic(whole, u, t_end), m.h) ? 0 : 1);
    }
    if (o.output.ends_with(".npy") || o.output.ends_with(".vti")) {  // a .pvti is written by every rank below
      if (o.output.ends_with(".npy")) io::write_npy(o.output, u, special_of(o));
      else io::write_vti(o.output, u, "pressure", geometry, {}, special_of(o));
      std::printf("  wrote %s\n", o.output.c_str());
    }
    if (!o.image.empty()) {
      write_section_png(o.image, u, m.src[1], special_of(o));
      std::printf("  wrote %s (x-z section through the source)\n", o.image.c_str());
    }
  }
  if (pieces) {
    mpi::write_pvti(o.output, b, "pressure", geometry);
    if (rank == 0) std::printf("  wrote %s (%d pieces)\n", o.output.c_str(), size);
  }
  if (rank == 0 && written > 0)
    std::printf("  wrote %d snapshots:%s%s\n", written,
                o.image.empty() ? "" : (" " + numbered(o.image, 1) + " to " + numbered(o.image, written)).c_str(),
                o.output.empty() ? "" : (" " + snapshot_field(1) + " to " + snapshot_field(written)).c_str());
  MPI_Bcast(&status, 1, MPI_INT, 0, dom.comm());
  return status;
}

}  // namespace

int run_seismic3d_mpi(const run_options& o) {
  return o.precision == "float" ? run_seismic3d_mpi_typed<float>(o) : run_seismic3d_mpi_typed<double>(o);
}

}  // namespace tessera::app
