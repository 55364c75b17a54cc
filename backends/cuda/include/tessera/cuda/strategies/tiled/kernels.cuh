#pragma once
// cuda::tiled's launcher (nvcc only): a stencil runs the tiled mainloop
// (point_function_tiled.cuh) with its point function as the evaluator.
#include "tessera/cuda/strategies/tiled.hpp"
#include "tessera/cuda/point_function_tiled.cuh"
#include "tessera/cuda/stencil_evaluator.hpp"

namespace tessera::cuda {

template <class S, class T, class Tile>
void launch_sweep(tiled<>, sweep_of<S, T, Tile>, const launch_plan& plan, const params_for<S, T>& p,
                  cudaStream_t stream) {
  detail::launch_kernel_after_previous(
      &kernels::tiled_point_sweep<stencil_function<S, T>, T, S::rank, 1, 1, Tile::tile_x, Tile::tile_y, Tile::tile_z,
                                  detail::stencil_point_params<S, T>>,
      "tiled_point_sweep", tiled<>::name(), shape_name<S>(), plan, dim3(Tile::tile_x, Tile::tile_y, Tile::tile_z),
      plan.shared_bytes, stream, detail::as_point_params<S>(p));
}

}  // namespace tessera::cuda
