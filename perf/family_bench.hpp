#pragma once
// tessera-bench's kernel-family section (--family; family_bench.cu, compiled by nvcc): each
// listed CUDA strategy runs one stencil twice, through its stencil kernel (apply with the
// stencil) and through its point-function mainloop (apply with as_point_function of the
// same stencil), timed alternately in one loop. Where a strategy's mainloop is as fast as
// its stencil kernel, the stencil can plug into the mainloop as an evaluator and the
// kernel can go (docs/design.md, "The point evaluator").
//
//   cases   7-point fp32 512^3 and 256^3, fp64 384^3; 27-point box fp32 512^3; 13-point
//           star fp32 512^3; 2D 5-point fp32 8192^2 (--smoke: small awkward sizes, checked only)
//   times   a checked sweep of each (against naive's stencil kernel), three untimed pairs,
//           then reps timed pairs (CUDA events), inputs rotated over buffers 4x the L2; medians
#include <string>
#include <vector>

namespace tessera::bench {

struct family_row {
  std::string shape, precision, size, policy, stencil_plan, point_plan, note;
  double stencil_ms = 0, point_ms = 0, stencil_gcells = 0, point_gcells = 0;
  /// stencil kernel time over point mainloop time: above 1, the mainloop is faster
  double ratio() const { return point_ms > 0 ? stencil_ms / point_ms : 0; }
};

/// Runs the section; appends one row per case and strategy. False when a sweep disagrees
/// with naive's stencil kernel.
bool run_family(int reps, bool smoke, std::vector<family_row>& rows);

/// The rows as a console table.
void print_family_rows(const std::vector<family_row>& rows);

}  // namespace tessera::bench
