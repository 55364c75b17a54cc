#pragma once
// Element-wise updates of a view's interior on the device: out += alpha * f.
#include <cuda_runtime_api.h>

#include "tessera/core/detail/accessor.hpp"
#include "tessera/cuda/memory_space.hpp"

namespace tessera::cuda {

/// Defined in backends/cuda/src/elementwise.cu for float/double, rank 1-3.
template <class T, int Rank>
void add_scaled_device(const view_accessor<T, Rank>& out, T alpha, const view_accessor<const T, Rank>& f,
                       cudaStream_t stream = nullptr);

/// The customisation point tessera::add_scaled reaches for CudaSpace views.
template <class T, int Rank>
void add_scaled_in(CudaSpace, const view_accessor<T, Rank>& out, T alpha, const view_accessor<const T, Rank>& f) {
  add_scaled_device<T, Rank>(out, alpha, f);
}

}  // namespace tessera::cuda
