#pragma once
// Tile variants of cuda::shared_streaming that `tessera-bench --variants` times against
// the default, to choose defaults (and the tuning table) by measurement. Instantiated in
// variants_float.cu and variants_double.cu (one translation unit per precision, so the
// build spreads over the cores). Run 2 (perf/RESULTS.md) swept cuda::streaming's tiles.
#include <tessera/cuda/policy.hpp>

namespace tessera::bench {
// 3D: BX x BY threads, RY rows each (tile BX x BY*RY); the default is <128, 4, 4>
using ss_64x4x8 = cuda::shared_streaming<64, 4, 8>;          // 64 x 32
using ss_64x4x4 = cuda::shared_streaming<64, 4, 4>;          // 64 x 16
using ss_128x2x8 = cuda::shared_streaming<128, 2, 8>;        // 128 x 16, 256 threads
using ss_256x2x4 = cuda::shared_streaming<256, 2, 4>;        // 256 x 8
using ss_32x8x8 = cuda::shared_streaming<32, 8, 8>;          // 32 x 64
using ss_128x4x4x64 = cuda::shared_streaming<128, 4, 4, 64>;  // default tile, 64 planes
// 2D: BX threads x RY columns per row; the default is <128, 1, 4>
using ss2_256x2 = cuda::shared_streaming<256, 1, 2>;
using ss2_128x8 = cuda::shared_streaming<128, 1, 8>;
using ss2_256x4 = cuda::shared_streaming<256, 1, 4>;
using ss2_512x1 = cuda::shared_streaming<512, 1, 1>;
}  // namespace tessera::bench

// clang-format off
#define TESSERA_BENCH_VARIANT_SHAPES_3D(M, ...)                                \
  M(__VA_ARGS__, tessera::star<3, 1>) M(__VA_ARGS__, tessera::star<3, 4>)     \
  M(__VA_ARGS__, tessera::box<3, 1>)
#define TESSERA_BENCH_VARIANTS(T)                                                                    \
  TESSERA_BENCH_VARIANT_SHAPES_3D(TESSERA_CUDA_INSTANTIATE, tessera::bench::ss_64x4x8, T)            \
  TESSERA_BENCH_VARIANT_SHAPES_3D(TESSERA_CUDA_INSTANTIATE, tessera::bench::ss_64x4x4, T)            \
  TESSERA_BENCH_VARIANT_SHAPES_3D(TESSERA_CUDA_INSTANTIATE, tessera::bench::ss_128x2x8, T)           \
  TESSERA_BENCH_VARIANT_SHAPES_3D(TESSERA_CUDA_INSTANTIATE, tessera::bench::ss_256x2x4, T)           \
  TESSERA_BENCH_VARIANT_SHAPES_3D(TESSERA_CUDA_INSTANTIATE, tessera::bench::ss_32x8x8, T)            \
  TESSERA_BENCH_VARIANT_SHAPES_3D(TESSERA_CUDA_INSTANTIATE, tessera::bench::ss_128x4x4x64, T)        \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::ss2_256x2, T, tessera::star<2, 1>)                        \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::ss2_128x8, T, tessera::star<2, 1>)                        \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::ss2_256x4, T, tessera::star<2, 1>)                        \
  TESSERA_CUDA_INSTANTIATE(tessera::bench::ss2_512x1, T, tessera::star<2, 1>)
// clang-format on
