// The streaming tile variants of variants.hpp, for fp32 and fp64.
#include <tessera/cuda/kernels/streaming.cuh>

#include "variants.hpp"

#define TESSERA_BENCH_ALL(SHAPE_MACRO_ARGS, T)                                          \
  TESSERA_BENCH_VARIANT_SHAPES(TESSERA_CUDA_INSTANTIATE, tessera::bench::streaming_32x4x64, T)   \
  TESSERA_BENCH_VARIANT_SHAPES(TESSERA_CUDA_INSTANTIATE, tessera::bench::streaming_32x16x32, T)  \
  TESSERA_BENCH_VARIANT_SHAPES(TESSERA_CUDA_INSTANTIATE, tessera::bench::streaming_64x4x64, T)   \
  TESSERA_BENCH_VARIANT_SHAPES(TESSERA_CUDA_INSTANTIATE, tessera::bench::streaming_32x8x128, T)  \
  TESSERA_BENCH_VARIANT_SHAPES(TESSERA_CUDA_INSTANTIATE, tessera::bench::streaming_32x8x16, T)

TESSERA_BENCH_ALL(_, float)
TESSERA_BENCH_ALL(_, double)
