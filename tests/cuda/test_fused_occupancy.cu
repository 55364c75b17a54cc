// The default fused 3D passes hold two blocks an SM. Their rate sits on a register cliff:
// the 3D pass runs 256-thread blocks, so 128 registers a thread is two blocks an SM (16
// warps) and 129 is one. perf/log/run-22.md measured fp64 at 2 steps falling from 1.69x
// to 1.23x the one-sweep floor twice when a change cost it 2-6 registers (128 -> 130, 134).
// A change to kernels or flags that crosses the cliff fails here, on the GPU, before a
// benchmark has to find it. (Since run 24 automatic fuses 4 fp64 steps, a pass of 194
// registers and one block an SM by design, faster at 256^3-640^3; the 2-step fp64 pass,
// temporal_blocking<2>, stays guarded as the fastest fp64 pass that holds two.) Also: the
// plans that choose their chunk by the blocks an SM holds take the driver's count for the
// kernel they launch. Compiled by nvcc: the kernels are taken by address here (the same
// template the library instantiates, so the same registers).
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "../support/cuda_support.hpp"
#include "../support/test_support.hpp"
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
  constexpr auto kernel = [] {
    if constexpr (t::box_tile && cu::detail::box_tile<S, T>::applies(Steps))
      return &cu::kernels::temporal_blocking_box_pass<S, T, Steps>;
    else
      return &cu::kernels::temporal_blocking_pass<S, T, Steps, t::tile_x, t::tile_y, t::rows>;
  }();
  cudaFuncAttributes attr{};
  REQUIRE(cudaFuncGetAttributes(&attr, kernel) == cudaSuccess);
  if (plan.shared_bytes > 48 * 1024)  // the box pass's ring: opted in as its launch does
    REQUIRE(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(plan.shared_bytes)) == cudaSuccess);
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
  check_two_blocks_an_sm<ts::box<3, 1>, float, 2>("27-point fp32, 2 steps (register tiles)");
  check_two_blocks_an_sm<ts::box<3, 1>, double, 2>("27-point fp64, 2 steps (register tiles)");
}

namespace {

/// The blocks an SM holds of `kernel` with the launch's block and shared memory, asked of the
/// driver here, independently of the library.
template <class... A>
int driver_blocks(void (*kernel)(A...), const cu::launch_plan& plan) {
  if (plan.shared_bytes > 48 * 1024)
    REQUIRE(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(plan.shared_bytes)) == cudaSuccess);
  int blocks = 0;
  REQUIRE(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, plan.threads(), plan.shared_bytes) ==
          cudaSuccess);
  return blocks;
}

template <class S, class T>
void check_marching_plans_take_the_driver(const ts::extents<3>& e) {
  using PL = cu::pipelined<>;
  using pt = PL::tile<S>;
  const auto p = ts::test::sweep_and_check<PL, S, T>(e).plan;
  const int pipelined_blocks = [&] {
    if constexpr (cu::detail::pipelined_stencil_on_mainloop<S, T>) {  // the point mainloop, the stencil its evaluator
      using mt = typename pt::template points<T, S::rank>;
      return driver_blocks(cu::detail::pipelined_point_kernel<mt, ts::stencil_function<S, T>, T, S::rank, 1, 1>, p);
    } else {
      return driver_blocks(&cu::kernels::pipelined_sweep<S, T, pt::block_x, pt::block_y, pt::rows_per_thread, pt::stages>,
                           p);
    }
  }();
  MESSAGE(ts::shape_name<S>() << (sizeof(T) == 4 ? " fp32" : " fp64") << " pipelined: the plan took "
                              << p.resident_per_sm << " blocks an SM, the driver says " << pipelined_blocks
                              << " (estimate " << cu::detail::resident_blocks(p, cu::current_device_limits()) << ")");
  CHECK(p.resident_per_sm == pipelined_blocks);
  using SS = cu::shared_streaming<>;
  using st = SS::tile<S>;
  const auto q = ts::test::sweep_and_check<SS, S, T>(e).plan;
  const int shared_blocks =
      driver_blocks(&cu::kernels::shared_streaming_sweep<S, T, st::block_x, st::block_y, st::rows_per_thread>, q);
  MESSAGE(ts::shape_name<S>() << (sizeof(T) == 4 ? " fp32" : " fp64") << " shared_streaming: the plan took "
                              << q.resident_per_sm << " blocks an SM, the driver says " << shared_blocks);
  CHECK(q.resident_per_sm == shared_blocks);
}

}  // namespace

TEST_CASE("plans that chunk by the blocks an SM holds take the driver's answer for their kernel") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  // odd extents: the plans and sweeps are checked, not timed
  check_marching_plans_take_the_driver<ts::star<3, 1>, float>(ts::extents<3>{37, 45, 131});
  check_marching_plans_take_the_driver<ts::star<3, 1>, double>(ts::extents<3>{37, 45, 131});
  check_marching_plans_take_the_driver<ts::box<3, 1>, float>(ts::extents<3>{21, 33, 130});
  check_marching_plans_take_the_driver<ts::star<3, 4>, float>(ts::extents<3>{29, 40, 131});

  // the question reaches a fused pass's kernel too: a pass of 4 steps (whose plan keeps its
  // own rule: temporal_blocking.hpp) is asked about the 4-step kernel, not the one-step one
  using TB = cu::temporal_blocking<>;
  using S = ts::star<3, 1>;
  using tt = TB::tile<S>;
  const auto pass = TB::plan_steps<S, float>(ts::extents<3>{70, 50, 90}, cu::current_device_limits(), 4);
  REQUIRE(pass.ok());
  CHECK(pass.resident_per_sm == 0);
  const int pass_blocks = driver_blocks(&cu::kernels::temporal_blocking_pass<S, float, 4, tt::tile_x, tt::tile_y, tt::rows>, pass);
  const int sweep_blocks = driver_blocks(&cu::kernels::temporal_blocking_pass<S, float, 1, tt::tile_x, tt::tile_y, tt::rows>, pass);
  MESSAGE("7-point fp32 temporal_blocking: " << pass_blocks << " blocks an SM of a 4-step pass, " << sweep_blocks
                                             << " of a one-step pass");
  CHECK(cu::kernel_entry<TB, tt, S, float>::resident_blocks(pass, 4) == pass_blocks);
  CHECK(cu::kernel_entry<TB, tt, S, float>::resident_blocks(pass, 1) == sweep_blocks);
  CHECK(cu::kernel_entry<TB, tt, S, float>::resident_blocks(pass, 0) == sweep_blocks);  // a sweep: one step
}
