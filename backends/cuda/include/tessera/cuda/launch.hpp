#pragma once
// Host-visible declarations of the kernel launchers, one overload per strategy. They are
// defined in kernels/*.cuh and instantiated explicitly in a few translation units of the
// tessera_cuda library (backends/cuda/kernels/*.cu) for the built-in shapes, float and
// double, and the default tiles. Another shape or tile: include the strategy's .cuh in
// one .cu file of your own and write TESSERA_CUDA_INSTANTIATE(policy, T, shape) there.
#include <cuda_runtime_api.h>

#include "tessera/core/shape.hpp"
#include "tessera/cuda/plan.hpp"
#include "tessera/cuda/policy.hpp"
#include "tessera/cuda/sweep_params.hpp"

namespace tessera::cuda {

template <class S, class T>
using params_for = sweep_params<T, shape_traits<S>::size>;

template <class S, class T, int BX, int BY, int BZ>
void launch(const naive<BX, BY, BZ>&, const launch_plan&, const params_for<S, T>&, cudaStream_t);
template <class S, class T, int TX, int TY, int TZ>
void launch(const tiled<TX, TY, TZ>&, const launch_plan&, const params_for<S, T>&, cudaStream_t);
template <class S, class T, int TX, int TY, int C>
void launch(const coarsened<TX, TY, C>&, const launch_plan&, const params_for<S, T>&, cudaStream_t);
template <class S, class T, int TX, int TY, int C>
void launch(const register_tiled<TX, TY, C>&, const launch_plan&, const params_for<S, T>&, cudaStream_t);

/// False where a strategy has no kernel at all for a shape (register tiling of a shape
/// with off-axis slow-axis neighbours, or of a 1D grid): the plan gives the reason and no
/// launcher is referenced.
template <class Policy, class S>
inline constexpr bool has_kernel_v = true;
template <int TX, int TY, int C, class S>
inline constexpr bool has_kernel_v<register_tiled<TX, TY, C>, S> =
    S::rank >= 2 && shape_traits<S>::slow_axis_neighbours_on_axis;

}  // namespace tessera::cuda

/// Explicit instantiation of one launcher: TESSERA_CUDA_INSTANTIATE(tessera::cuda::naive<>,
/// float, tessera::star<3, 1>). Use in a .cu file that includes the strategy's .cuh.
#define TESSERA_CUDA_INSTANTIATE(POLICY, T, ...)                                              \
  template void tessera::cuda::launch<__VA_ARGS__, T>(                                       \
      const POLICY&, const tessera::cuda::launch_plan&,                                        \
      const tessera::cuda::params_for<__VA_ARGS__, T>&, cudaStream_t);
