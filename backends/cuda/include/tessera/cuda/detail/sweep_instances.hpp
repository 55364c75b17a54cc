#pragma once
// The host side of every CUDA policy's sweep (plan, view checks, launch) for the built-in
// shapes with default tiles is compiled once, into tessera_cuda (generated from
// backends/cuda/kernels/instantiate.cu.in and automatic.cpp.in), not in every translation
// unit that sweeps them (about 0.2 s of compile time each, 0.5 s for automatic): the
// tessera_cuda target defines TESSERA_CUDA_PRECOMPILED, which turns on the explicit
// instantiation declarations below, one per listed strategy (the generated
// compiled_strategies.hpp names them). Other shapes and tiles instantiate as usual.
#include "tessera/core/builtin_shapes.hpp"
#include "tessera/cuda/automatic.hpp"
#include "tessera/cuda/detail/dispatch.hpp"

/// PREFIX template void cuda::sweep(POLICY, stencil, in, out, stream) for element type T
/// and shape __VA_ARGS__ (PREFIX: `extern` to declare, empty to define).
#define TESSERA_CUDA_SWEEP_INSTANCE(PREFIX, POLICY, T, ...)                                        \
  PREFIX template void tessera::cuda::sweep<__VA_ARGS__, T, __VA_ARGS__::rank, tessera::CudaSpace>( \
      const POLICY&, const tessera::stencil<__VA_ARGS__, T>&,                                      \
      const tessera::View<T, __VA_ARGS__::rank, tessera::CudaSpace>&,                              \
      const tessera::View<T, __VA_ARGS__::rank, tessera::CudaSpace>&, cudaStream_t);
/// The same for the kernel policies, whose sweep takes the policy as its first template
/// argument.
#define TESSERA_CUDA_POLICY_SWEEP_INSTANCE(PREFIX, POLICY, T, ...)                                          \
  PREFIX template void tessera::cuda::sweep<POLICY, __VA_ARGS__, T, __VA_ARGS__::rank, tessera::CudaSpace>( \
      const POLICY&, const tessera::stencil<__VA_ARGS__, T>&,                                               \
      const tessera::View<T, __VA_ARGS__::rank, tessera::CudaSpace>&,                                       \
      const tessera::View<T, __VA_ARGS__::rank, tessera::CudaSpace>&, cudaStream_t);

#if defined(TESSERA_CUDA_PRECOMPILED)
#include "tessera/cuda/compiled_strategies.hpp"
static_assert(TESSERA_CUDA_COMPILED_STRATEGY_COUNT == tessera::cuda::strategies::size,
              "tessera: tessera_cuda was built from another list of strategies than these headers");
#define TESSERA_CUDA_EXTERN_STRATEGY_SWEEP(NAME, T, ...) \
  TESSERA_CUDA_POLICY_SWEEP_INSTANCE(extern, tessera::cuda::NAME<>, T, __VA_ARGS__)
#define TESSERA_CUDA_EXTERN_SWEEPS(T, ...)                                                  \
  TESSERA_CUDA_FOR_EACH_COMPILED_STRATEGY(TESSERA_CUDA_EXTERN_STRATEGY_SWEEP, T, __VA_ARGS__) \
  TESSERA_CUDA_SWEEP_INSTANCE(extern, tessera::cuda::automatic, T, __VA_ARGS__)
TESSERA_FOR_EACH_BUILTIN_SHAPE(TESSERA_CUDA_EXTERN_SWEEPS, float)
TESSERA_FOR_EACH_BUILTIN_SHAPE(TESSERA_CUDA_EXTERN_SWEEPS, double)
#undef TESSERA_CUDA_EXTERN_SWEEPS
#undef TESSERA_CUDA_EXTERN_STRATEGY_SWEEP
#endif
