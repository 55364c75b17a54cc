#pragma once
// `mpirun -np N tessera run --problem poisson3d`: the manufactured Dirichlet problem of
// run_poisson.hpp solved by the distributed multigrid (tessera/mpi/multigrid.hpp) over a
// Cartesian decomposition. The host policies' solve is in run_poisson_mpi.cpp; the device
// one (cuda:automatic on device views) in run_poisson_mpi_cuda.cpp, which nvcc compiles
// (multigrid's sweeps are point functions).
#include <string>

#include <tessera/mpi/multigrid.hpp>

#include "problems.hpp"

namespace tessera::app {

/// The distributed solve's outcome on this rank.
struct mpi_poisson_solve {
  mpi::multigrid_result result;  // the timed solve
  mpi::multigrid_result split;   // one more cycle, timed level by level (time_levels)
  double seconds = 0;
};

#ifdef TESSERA_MPI_DEVICE
/// Solves A u = f on device views with cuda:automatic (u: the initial guess in, the answer
/// out, both host blocks of `f`'s domain), halos through `transport` (mpi::to_string's names).
mpi_poisson_solve solve_poisson_mpi_device(const run_options& o, const mpi::distributed_view<float, 3>& f,
                                           const mpi::distributed_view<float, 3>& u, float h);
mpi_poisson_solve solve_poisson_mpi_device(const run_options& o, const mpi::distributed_view<double, 3>& f,
                                           const mpi::distributed_view<double, 3>& u, double h);
#endif

/// The distributed solve's options from the command line (multigrid's, run_poisson.hpp).
mpi::multigrid_options mpi_multigrid_options_of(const run_options& o);

}  // namespace tessera::app
