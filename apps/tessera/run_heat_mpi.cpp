// `mpirun -np N tessera run --problem heat3d|seismic3d|poisson3d ...`: the dispatch of every
// distributed run (each rank on its GPU and the halos' transport for cuda: policies); heat3d
// itself is in run_heat_mpi.hpp (a Cartesian decomposition of the N^3 grid, each rank's
// block swept by the chosen policy, --validate against a single-process run).
// Only built with MPI (TESSERA_ENABLE_MPI).
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

bool launched_by_mpirun() {
  // Open MPI, MPICH/Hydra and PMIx launchers set one of these for every process
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"})
    if (const char* v = std::getenv(var); v && std::atoi(v) > 1) return true;
  return false;
}

namespace {

constexpr bool device_views_distributed() {
#ifdef TESSERA_MPI_DEVICE
  return true;
#else
  return false;
#endif
}

/// Each rank on its own GPU (its rank on the node mod the GPUs), and the transport: the
/// user's, else NCCL where it was built and every rank on a node has a GPU of its own,
/// else host-staged MPI. Throws when the user's transport cannot run here.
void choose_device_and_transport([[maybe_unused]] run_options& o) {
#ifdef TESSERA_MPI_DEVICE
  const auto node = mpi::placement_on_node();
  const int gpus = cuda::device_count();
  if (gpus == 0) throw unsupported_error("a cuda: policy under mpirun needs a GPU on every node; none found here");
  TESSERA_CUDA_CHECK(cudaSetDevice(node.rank % gpus), "tessera run: choosing the rank's GPU");
  if (o.transport.empty())
    o.transport = mpi::to_string(mpi::nccl_available() && node.ranks <= gpus ? mpi::transport::nccl : mpi::transport::host_staged);
  const auto t = mpi::transport_by_name(o.transport);
  if (!t) throw invalid_argument_error("--transport wants host-staged, cuda-aware-mpi or nccl, got '" + o.transport + "'");
  if (const auto why = mpi::transport_unavailable_reason(*t); !why.empty())
    throw unsupported_error("--transport " + o.transport + ": " + why);
  if (*t == mpi::transport::nccl && node.ranks > gpus)
    throw unsupported_error("--transport nccl: " + std::to_string(node.ranks) + " ranks share " + std::to_string(gpus) +
                            " GPU(s) on a node; NCCL needs one GPU a rank (use fewer ranks or --transport host-staged)");
#endif
}

}  // namespace

int run_distributed(const run_options& o) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) MPI_Init(nullptr, nullptr);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int status = 1;
  try {
    std::string why;
    if (o.problem != "heat3d" && o.problem != "seismic3d" && o.problem != "poisson3d")
      why = o.problem + " runs on one process; under mpirun, run heat3d, seismic3d or poisson3d";
    else if (o.problem == "poisson3d" && o.boundary != "dirichlet")
      why = "the distributed poisson3d coarsens by vertex, which keeps Dirichlet walls only; run --boundary " +
            o.boundary + " on one process";
    else if (o.problem == "poisson3d" && o.solver != "multigrid")
      why = "the distributed poisson3d solves by multigrid; run --solver " + o.solver + " on one process";
    else if (o.problem == "poisson3d" && (o.fmg || o.smoother == "chebyshev"))
      why = std::string("the distributed multigrid cycles from the initial guess with red-black Gauss-Seidel or Jacobi; ") +
            (o.fmg ? "--fmg" : "--smoother chebyshev") + " runs on one process";
    else if (o.problem == "poisson3d" && o.policy.starts_with("cuda:") && o.policy != "cuda:automatic")
      why = "the distributed poisson3d runs cuda:automatic on GPUs (its multigrid kernels), not " + o.policy;
    else if (o.problem == "poisson3d" && o.policy == "kokkos:mdrange")
      why = "the distributed poisson3d runs host:serial, host:parallel or cuda:automatic, not kokkos:mdrange";
    else if (!o.input.empty()) why = "--input is not read by the distributed " + o.problem + " yet";
    else if (o.policy.starts_with("cuda:") && !device_views_distributed())
      why = "the distributed " + o.problem + " sweeps host views (host:serial, host:parallel, kokkos:mdrange, automatic)"
            " in this build (tessera::mpi_cuda needs CUDA and MPI); " + o.policy + " is not distributed here";
    else if (!o.transport.empty() && !o.policy.starts_with("cuda:"))
      why = "--transport chooses how device halos travel; it needs a cuda: policy, got " + o.policy;
    if (!why.empty()) {
      if (rank == 0) std::fprintf(stderr, "tessera run: %s\n", why.c_str());
      status = 2;
    } else {
      run_options host = o;
      if (o.policy.starts_with("cuda:")) choose_device_and_transport(host);
      // automatic: the host's choice, host:parallel (name a cuda: policy for device views)
      if (host.policy == "automatic") host.policy = "host:parallel";
      if (o.problem == "seismic3d") status = run_seismic3d_mpi(host);
      else if (o.problem == "poisson3d") status = run_poisson3d_mpi(host);
      else status = o.precision == "float" ? run_heat3d_mpi<float>(host) : run_heat3d_mpi<double>(host);
    }
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "tessera run (rank %d): %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return status;
}

}  // namespace tessera::app
