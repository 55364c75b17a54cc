#pragma once
// The distributed runs' report of speed: every rank's block and time gathered on rank 0,
// which prints a line per rank and the aggregate over the slowest rank's time (the time
// the whole step loop took). Shared by heat3d and seismic3d under mpirun.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <vector>
#if defined(_OPENMP)
#include <omp.h>
#endif

#include <tessera/mpi/cartesian.hpp>

namespace tessera::app {

struct rank_times {
  std::vector<double> per_rank;  // {seconds, n0, n1, n2, OpenMP threads} per rank (rank 0 only)
  double slowest = 0;
  double global_points = 0;
};

/// Collective over dom's communicator; the result is filled on rank 0 only.
inline rank_times gather_rank_times(const mpi::cartesian_domain<3>& dom, double seconds) {
  const auto& e = dom.local_extents();
  int threads = 1;
#if defined(_OPENMP)
  threads = omp_get_max_threads();
#endif
  const double mine[5] = {seconds, double(e[0]), double(e[1]), double(e[2]), double(threads)};
  rank_times t;
  if (dom.rank() == 0) t.per_rank.resize(static_cast<std::size_t>(5 * dom.size()));
  MPI_Gather(mine, 5, MPI_DOUBLE, t.per_rank.data(), 5, MPI_DOUBLE, 0, dom.comm());
  for (std::size_t r = 0; r < t.per_rank.size(); r += 5) t.slowest = std::max(t.slowest, t.per_rank[r]);
  const auto& g = dom.global_extents();
  t.global_points = double(g[0]) * double(g[1]) * double(g[2]);
  return t;
}

/// On rank 0: "  rank r: block AxBxC, T threads, t s, R GCell-updates/s" per rank, then the
/// aggregate.
inline void print_rank_rates(const rank_times& t, int steps) {
  auto rate = [&](double points, double s) { return points * steps / std::max(s, 1e-12) * 1e-9; };
  for (std::size_t r = 0; r + 4 < t.per_rank.size(); r += 5) {
    const double* p = &t.per_rank[r];
    std::printf("  rank %zu: block %.0fx%.0fx%.0f, %.0f OpenMP thread(s), %.3f s, %.3f GCell-updates/s\n", r / 5, p[1],
                p[2], p[3], p[4], p[0], rate(p[1] * p[2] * p[3], p[0]));
  }
  std::printf("  aggregate: %.3f s, %.3f GCell-updates/s\n", t.slowest, rate(t.global_points, t.slowest));
}

}  // namespace tessera::app
