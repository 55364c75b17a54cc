#pragma once
// Tile variants of cuda::streaming that `tessera-bench --variants` times against the
// default, to choose defaults by measurement (instantiated in variants.cu).
#include <tessera/cuda/policy.hpp>

namespace tessera::bench {
using streaming_32x4x64 = cuda::streaming<32, 4, 64>;
using streaming_32x16x32 = cuda::streaming<32, 16, 32>;
using streaming_64x4x64 = cuda::streaming<64, 4, 64>;
using streaming_32x8x128 = cuda::streaming<32, 8, 128>;
using streaming_32x8x16 = cuda::streaming<32, 8, 16>;
}  // namespace tessera::bench

// clang-format off
#define TESSERA_BENCH_VARIANT_SHAPES(M, ...)                                   \
  M(__VA_ARGS__, tessera::star<3, 1>) M(__VA_ARGS__, tessera::star<3, 4>)     \
  M(__VA_ARGS__, tessera::box<3, 1>)
// clang-format on
