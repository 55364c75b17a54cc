#pragma once
// Inputs for tessera-bench's device sections (nvcc only): every element of an allocation a
// hash of its index and a seed, so that no two fields or buffers hold the same values.
#include <tessera/core/config.hpp>

namespace tessera::bench {

/// p[i] for i < n: lo + a hash of (i, seed), in [lo, lo + 1).
template <class T>
__global__ void fill_hashed(T* p, index_t n, unsigned seed, T lo) {
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<index_t>(gridDim.x) * blockDim.x) {
    unsigned h = static_cast<unsigned>(i) * 2654435761u ^ seed * 40503u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    p[i] = lo + static_cast<T>(h % 10007u) / T(10007);
  }
}

}  // namespace tessera::bench
