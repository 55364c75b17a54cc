// The distributed poisson3d's device solve (run_poisson_mpi.hpp): cuda:automatic on device
// views, each level's halos through a device_exchange. nvcc compiles this unit.
#include <chrono>

#include <tessera/core/fd.hpp>
#include <tessera/cuda/cuda.hpp>
#include <tessera/mpi/device_multigrid.hpp>

#include "run_poisson_mpi.hpp"

namespace tessera::app {
namespace {

template <class T>
mpi_poisson_solve solve_on_device(const run_options& o, const mpi::distributed_view<T, 3>& f_h,
                                  const mpi::distributed_view<T, 3>& u_h, T h) {
  const auto t = mpi::transport_by_name(o.transport).value_or(mpi::transport::host_staged);
  const auto op = poisson_operator<CudaSpace>(fd::laplacian<3, 2>(h));
  const auto bc = boundary_conditions<3>::uniform(boundary::dirichlet(0));
  mpi::distributed_view<T, 3, CudaSpace> f("f", f_h.domain(), f_h.ghost()), u("u", f);
  deep_copy(f.local(), f_h.local());
  deep_copy(u.local(), u_h.local());
  auto opt = mpi_multigrid_options_of(o);
  mpi_poisson_solve s;
  {  // untimed: one cycle from a copy (NCCL connects its peers on the first messages)
    mpi::distributed_view<T, 3, CudaSpace> w("warm", f);
    deep_copy(w.local(), u.local());
    auto one = opt;
    one.max_cycles = 1;
    mpi::multigrid_solver<cuda::automatic, T, 3, CudaSpace>(cuda::automatic{}, op, f.domain(), bc, one, t).solve(f, w);
    one.time_levels = true;
    s.split = mpi::multigrid_solver<cuda::automatic, T, 3, CudaSpace>(cuda::automatic{}, op, f.domain(), bc, one, t)
                  .solve(f, w);
  }
  mpi::multigrid_solver<cuda::automatic, T, 3, CudaSpace> mg(cuda::automatic{}, op, f.domain(), bc, opt, t);
  synchronize(CudaSpace{});
  MPI_Barrier(f.domain().comm());
  const auto t0 = std::chrono::steady_clock::now();
  s.result = mg.solve(f, u);
  synchronize(CudaSpace{});
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  deep_copy(u_h.local(), u.local());
  return s;
}

}  // namespace

mpi_poisson_solve solve_poisson_mpi_device(const run_options& o, const mpi::distributed_view<float, 3>& f,
                                           const mpi::distributed_view<float, 3>& u, float h) {
  return solve_on_device(o, f, u, h);
}
mpi_poisson_solve solve_poisson_mpi_device(const run_options& o, const mpi::distributed_view<double, 3>& f,
                                           const mpi::distributed_view<double, 3>& u, double h) {
  return solve_on_device(o, f, u, h);
}

}  // namespace tessera::app
