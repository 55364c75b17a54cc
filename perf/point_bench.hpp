#pragma once
// tessera-bench's point-function section (point_bench.cu, compiled by nvcc: the kernels
// are instantiated where apply is called): tessera::physics kernels on cuda::naive,
// cuda::streaming, cuda::vector_streaming, cuda::pipelined and cuda::automatic against the device's copy bandwidth.
//
//   ideal bytes   every field read once and the output written once:
//                 (inputs + outputs) * points * sizeof(T)
//   times         a checked sweep (against naive), three untimed, then reps timed sweeps (CUDA events);
//                 the median
#include <string>
#include <vector>

namespace tessera::bench {

struct point_row {
  std::string kernel, precision, size, policy, note;
  int fields = 0;  // inputs + outputs
  double median_ms = 0, min_ms = 0, max_ms = 0, gcells = 0, gbs = 0, fraction = 0;
};

/// Runs the section (smoke: small grids, correctness only, nothing timed); appends one
/// row per kernel and policy. False when a policy disagrees with naive.
bool run_point_functions(int reps, bool smoke, double copy_gbs, std::vector<point_row>& rows);

/// The rows as a console table.
void print_point_rows(const std::vector<point_row>& rows, double copy_gbs);

}  // namespace tessera::bench
