#pragma once
// What lowering produces and a launcher executes: block, grid, shared memory and the
// outputs each block covers, or a reason written for a human why the case cannot run.
#include <cstddef>
#include <string>

namespace tessera::cuda {

/// How a sweep is launched. Axes here are the kernels' virtual (x, y, z) = CUDA's dim3
/// order; tiles are counted in outputs. An empty reason means the plan can run.
struct launch_plan {
  std::string strategy;
  int block[3] = {1, 1, 1};          // threads (x, y, z)
  long long grid[3] = {1, 1, 1};     // blocks (x, y, z)
  std::size_t shared_bytes = 0;      // dynamic shared memory per block
  bool needs_shared_opt_in = false;  // shared_bytes above the default 48 KiB
  int out_tile[3] = {1, 1, 1};       // outputs per block along (x, y, z)
  int chunk = 1;                     // outputs per thread along the marching axis
  int resident_per_sm = 0;           // blocks an SM holds, as the plan took it to choose its chunk (0: unused)
  std::string reason;

  bool ok() const { return reason.empty(); }
  int threads() const { return block[0] * block[1] * block[2]; }
  std::string describe() const {
    auto v3 = [](auto a) {
      return std::to_string(a[0]) + "x" + std::to_string(a[1]) + "x" + std::to_string(a[2]);
    };
    return strategy + ": block " + v3(block) + ", grid " + v3(grid) + ", outputs/block " +
           v3(out_tile) + ", shared " + std::to_string(shared_bytes) + " B";
  }
};

}  // namespace tessera::cuda
