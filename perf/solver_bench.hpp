#pragma once
// tessera-bench --solver: time to solution of tessera::multigrid_solve and cg_solve
// (solver_bench.cu, compiled by nvcc: the point-function kernels of every level are
// instantiated there). Each case builds its solver once (setup, reported apart), then
// solves `reps` times from u = 0 and keeps the median; one more solve with
// multigrid_options::time_levels gives each level's share of the time (the device is
// synchronised around each level's work in that solve only).
#include <string>
#include <vector>

namespace tessera::bench {

struct solver_row {
  std::string device, problem, size, solver, stop;
  int steps = 0;                     // cycles (multigrid) or iterations (cg)
  double setup_s = 0, median_s = 0, min_s = 0, max_s = 0, dof_per_s = 0;
  double relative_residual = 0;      // max |f - A u| / max |f| at the end
  double error_ratio = 0;            // max |u - exact| / the discretisation error (manufactured cases)
  std::vector<double> level_share;   // fraction of a timed solve per level, finest first
  std::vector<std::string> level_extents;
};

/// Runs the GPU cases (cuda::automatic) when gpu, the CPU cases (host::parallel) when cpu;
/// smoke: small grids, one solve each, checked (converged, error ratio), nothing to report.
/// False when a case did not converge or missed its error bound.
bool run_solver_section(int reps, bool gpu, bool cpu, bool smoke, std::vector<solver_row>& rows);

void print_solver_rows(const std::vector<solver_row>& rows);

}  // namespace tessera::bench
