#pragma once
// How many input buffers tessera-bench's timed sweeps rotate over, so that no sweep finds its
// input left in L2 by the one before (bench.cpp, family_bench.cu).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>

namespace tessera::bench {

/// Buffers of `bytes` each that together hold at least four times the current device's L2;
/// at least 2.
inline int buffers_beyond_l2(std::size_t bytes) {
  int dev = 0, l2 = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev);
  return static_cast<int>(std::max<std::size_t>(2, (4 * static_cast<std::size_t>(l2) + bytes - 1) / bytes));
}

}  // namespace tessera::bench
