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

/// The strategy of a policy, with its tile parameters stripped: launchers are keyed by
/// strategy and *resolved* tile sizes, so register_tiled<32, 32> and register_tiled<>
/// (which resolve to the same tiles) share one compiled kernel.
template <class Policy>
struct strategy_of;
template <int A, int B, int C>
struct strategy_of<naive<A, B, C>> { using type = naive<>; };
template <int A, int B, int C>
struct strategy_of<tiled<A, B, C>> { using type = tiled<>; };
template <int A, int B, int C>
struct strategy_of<coarsened<A, B, C>> { using type = coarsened<>; };
template <int A, int B, int C>
struct strategy_of<register_tiled<A, B, C>> { using type = register_tiled<>; };
template <int A, int B, int C>
struct strategy_of<streaming<A, B, C>> { using type = streaming<>; };
template <int A, int B, int C, int D>
struct strategy_of<shared_streaming<A, B, C, D>> { using type = shared_streaming<>; };
template <int A, int B, int C, int D, int E>
struct strategy_of<pipelined<A, B, C, D, E>> { using type = pipelined<>; };
template <int A, int B, int C>
struct strategy_of<vector_streaming<A, B, C>> { using type = vector_streaming<>; };
template <class Policy>
using strategy_of_t = typename strategy_of<Policy>::type;

// One launcher per strategy, over the resolved block (BX, BY, BZ) and chunk.
template <class S, class T, int BX, int BY, int BZ, int Chunk>
void launch_tiles(naive<>, const launch_plan&, const params_for<S, T>&, cudaStream_t);
template <class S, class T, int BX, int BY, int BZ, int Chunk>
void launch_tiles(tiled<>, const launch_plan&, const params_for<S, T>&, cudaStream_t);
template <class S, class T, int BX, int BY, int BZ, int Chunk>
void launch_tiles(coarsened<>, const launch_plan&, const params_for<S, T>&, cudaStream_t);
template <class S, class T, int BX, int BY, int BZ, int Chunk>
void launch_tiles(register_tiled<>, const launch_plan&, const params_for<S, T>&, cudaStream_t);

template <class S, class T, int BX, int BY, int BZ, int Chunk>
void launch_tiles(streaming<>, const launch_plan&, const params_for<S, T>&, cudaStream_t);
template <class S, class T, int BX, int BY, int BZ, int Chunk>
void launch_tiles(shared_streaming<>, const launch_plan&, const params_for<S, T>&, cudaStream_t);
template <class S, class T, int BX, int BY, int BZ, int Chunk>
void launch_tiles(pipelined<>, const launch_plan&, const params_for<S, T>&, cudaStream_t);
template <class S, class T, int BX, int BY, int BZ, int Chunk>
void launch_tiles(vector_streaming<>, const launch_plan&, const params_for<S, T>&, cudaStream_t);

/// Launches `plan` for `Policy` (any tile parameters) on `stream`.
template <class S, class T, class Policy>
void launch(const Policy&, const launch_plan& plan, const params_for<S, T>& p, cudaStream_t stream) {
  using cfg = kernel_config<Policy, S>;
  launch_tiles<S, T, cfg::bx, cfg::by, cfg::bz, cfg::chunk>(strategy_of_t<Policy>{}, plan, p, stream);
}

/// False where a strategy has no kernel at all for a shape (register tiling of a shape
/// with off-axis slow-axis neighbours, or of a 1D grid): the plan gives the reason and no
/// launcher is referenced.
template <class Policy, class S>
inline constexpr bool has_kernel_v = true;
template <int TX, int TY, int C, class S>
inline constexpr bool has_kernel_v<register_tiled<TX, TY, C>, S> =
    S::rank >= 2 && shape_traits<S>::slow_axis_neighbours_on_axis;
template <int TX, int TY, int C, class S>
inline constexpr bool has_kernel_v<streaming<TX, TY, C>, S> = S::rank >= 2;
template <int BX, int BY, int RY, int C, class S>
inline constexpr bool has_kernel_v<shared_streaming<BX, BY, RY, C>, S> = S::rank >= 2;
template <int BX, int BY, int RY, int D, int C, class S>
inline constexpr bool has_kernel_v<pipelined<BX, BY, RY, D, C>, S> = S::rank >= 2;
template <int BY, int C, int D, class S>
inline constexpr bool has_kernel_v<vector_streaming<BY, C, D>, S> = S::rank >= 2;

}  // namespace tessera::cuda

/// Explicit instantiation of the kernel one policy runs for one shape and element type:
/// TESSERA_CUDA_INSTANTIATE(tessera::cuda::naive<>, float, tessera::star<3, 1>). Use in a
/// .cu file that includes the strategy's .cuh (tessera/cuda/kernels/<strategy>.cuh).
#define TESSERA_CUDA_INSTANTIATE(POLICY, T, ...)                                              \
  template void tessera::cuda::launch_tiles<                                                   \
      __VA_ARGS__, T, tessera::cuda::kernel_config<POLICY, __VA_ARGS__>::bx, \
      tessera::cuda::kernel_config<POLICY, __VA_ARGS__>::by,          \
      tessera::cuda::kernel_config<POLICY, __VA_ARGS__>::bz,          \
      tessera::cuda::kernel_config<POLICY, __VA_ARGS__>::chunk>(      \
      tessera::cuda::strategy_of_t<POLICY>, const tessera::cuda::launch_plan&,                  \
      const tessera::cuda::params_for<__VA_ARGS__, T>&, cudaStream_t);
