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
  detail::launch_points(detail::marching_points<streaming<>, typename Tile::template columns<T, S::rank>>{},
                        streaming<>::name(), shape_name<S>(), plan, detail::as_point_params<S>(p), stream);
}

}  // namespace tessera::cuda
