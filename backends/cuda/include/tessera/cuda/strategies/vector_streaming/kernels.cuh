#pragma once
// cuda::vector_streaming's launcher (nvcc only): the windowed kernel (window.cuh) or, for
// 3D stars reaching 3+ planes along z, the accumulating one (accumulate.cuh).
#include "tessera/cuda/strategies/vector_streaming.hpp"
#include "tessera/cuda/point_function_streaming.cuh"
#include "tessera/cuda/strategies/vector_streaming/accumulate.cuh"
#include "tessera/cuda/strategies/vector_streaming/window.cuh"

namespace tessera::cuda {

template <class S, class T, class Tile>
void launch_sweep(vector_streaming<>, sweep_of<S, T, Tile>, const launch_plan& plan, const params_for<S, T>& p,
                  cudaStream_t stream) {
  static_assert(Tile::depth >= 1, "tessera::cuda::vector_streaming: Depth counts planes in flight, at least 1");
  const dim3 block(32, Tile::warps, 1);
  if constexpr (accumulates_by_column<S>) {
    // 3D stars reaching 3+ planes along z (accumulate.cuh): Tile::rows_per_warp rows a
    // warp (the plan's grid counts them), Depth own rows in flight and the edge lines
    // prefetched 3 planes ahead (both capped at the reach: those planes exist); fp32:
    // registers for 28 warps an SM (perf/RESULTS.md, "vector_streaming's kernels"); fp64
    // keeps the compiler's choice.
    constexpr int reach = shape_traits<S>::reach_hi[0];
    constexpr int ahead = Tile::depth < reach ? Tile::depth : reach, prefetch = 3 < reach ? 3 : reach;
    constexpr int min_blocks = sizeof(T) == 4 ? 28 / Tile::warps : 0;
    detail::launch_kernel_after_previous(
        &kernels::vector_accumulate_sweep<S, T, Tile::warps, Tile::rows_per_warp, ahead, min_blocks, prefetch>,
        "vector_accumulate_sweep", vector_streaming<>::name(), shape_name<S>(), plan, block, 0, stream, p, plan.chunk);
  } else {
    detail::launch_kernel_after_previous(&kernels::vector_streaming_sweep<S, T, Tile::warps, Tile::depth - 1>,
                          "vector_streaming_sweep", vector_streaming<>::name(), shape_name<S>(), plan, block, 0, stream, p, plan.chunk);
  }
}

}  // namespace tessera::cuda
