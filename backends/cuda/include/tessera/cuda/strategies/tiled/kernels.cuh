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
  detail::launch_points(detail::tiled_points<tiled<>, Tile::tile_x, Tile::tile_y, Tile::tile_z>{}, tiled<>::name(),
                        shape_name<S>(), plan, detail::as_point_params<S>(p), stream);
}

}  // namespace tessera::cuda
