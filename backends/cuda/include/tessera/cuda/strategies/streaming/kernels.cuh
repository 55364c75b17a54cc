#pragma once
// cuda::streaming's launcher (nvcc only): a stencil runs the marching mainloop
// (point_function_streaming.cuh) with its point function as the evaluator.
#include "tessera/cuda/strategies/streaming.hpp"
#include "tessera/cuda/point_function_streaming.cuh"
#include "tessera/cuda/stencil_evaluator.hpp"

namespace tessera::cuda {

template <class S, class T, class Tile>
void launch_sweep(streaming<>, sweep_of<S, T, Tile>, const launch_plan& plan, const params_for<S, T>& p,
                  cudaStream_t stream) {
  using columns = typename Tile::template columns<T, S::rank>;
  detail::launch_kernel_after_previous(
      &kernels::marching_point_sweep<stencil_function<S, T>, T, S::rank, 1, 1, columns::block_x, columns::block_y,
                                     columns::vec>,
      "marching_point_sweep", streaming<>::name(), shape_name<S>(), plan, dim3(columns::block_x, columns::block_y, 1),
      0, stream, detail::as_point_params<S>(p), plan.chunk);
}

}  // namespace tessera::cuda
