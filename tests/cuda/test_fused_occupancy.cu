// The default fused 3D passes hold two blocks an SM. Their rate sits on a register cliff:
// the 3D pass runs 256-thread blocks, so 128 registers a thread is two blocks an SM (16
// warps) and 129 is one. perf/log/run-22.md measured fp64 at 2 steps falling from 1.69x
// to 1.23x the one-sweep floor twice when a change cost it 2-6 registers (128 -> 130, 134).
// A change to kernels or flags that crosses the cliff fails here, on the GPU, before a
// benchmark has to find it. (Since run 24 automatic fuses 4 fp64 steps, a pass of 194
// registers and one block an SM by design, faster at 256^3-640^3; the 2-step fp64 pass,
// temporal_blocking<2>, stays guarded as the fastest fp64 pass that holds two.) Compiled by nvcc: the kernels are taken by address here (the
// same template the library instantiates, so the same registers).
#include <doctest/doctest.h>

#include <string>

#include "../support/cuda_support.hpp"
#include <tessera/cuda/kernel_entry.cuh>
#include <tessera/cuda/strategies.hpp>

namespace ts = tessera;
namespace cu = tessera::cuda;

namespace {

/// Blocks of the default pass of `steps` steps that an SM holds at once, and its registers.
template <class S, class T, int Steps>
void check_two_blocks_an_sm(const char* what) {
  using P = cu::temporal_blocking<>;
  using t = P::tile<S>;
  const auto plan = P::plan_steps<S, T>(ts::extents<3>{512, 512, 512}, cu::current_device_limits(), Steps);
  REQUIRE(plan.ok());
  constexpr auto kernel = &cu::kernels::temporal_blocking_pass<S, T, Steps, t::tile_x, t::tile_y, t::rows>;
  cudaFuncAttributes attr{};
  REQUIRE(cudaFuncGetAttributes(&attr, kernel) == cudaSuccess);
  int blocks = 0;
  REQUIRE(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, plan.threads(), plan.shared_bytes) ==
          cudaSuccess);
  const std::string report = std::string(what) + ": " + std::to_string(attr.numRegs) + " registers a thread, " +
                             std::to_string(plan.threads()) + " threads and " + std::to_string(plan.shared_bytes) +
                             " B of shared memory a block, " + std::to_string(blocks) +
                             " blocks an SM (two need <= 128 registers: see perf/log/run-22.md)";
  MESSAGE(report);
  INFO(report);
  CHECK(plan.threads() == 256);
  CHECK(attr.numRegs <= 128);
  CHECK(blocks >= 2);
}

}  // namespace

TEST_CASE("fused steps: the default 3D passes hold two blocks an SM (no register cliff)") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  check_two_blocks_an_sm<ts::star<3, 1>, float, 4>("7-point fp32, 4 steps");
  check_two_blocks_an_sm<ts::star<3, 1>, double, 2>("7-point fp64, 2 steps");
  check_two_blocks_an_sm<ts::box<3, 1>, float, 2>("27-point fp32, 2 steps");
}
