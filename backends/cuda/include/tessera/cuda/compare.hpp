#pragma once
// Device-side comparison of two CUDA views with Thrust: one transform-reduce over the
// interior points; only the small result struct comes back to the host.
#include "tessera/core/comparison.hpp"
#include "tessera/core/memory_space.hpp"
#include "tessera/core/view.hpp"

namespace tessera::cuda {

namespace detail {
/// Defined in backends/cuda/src/compare.cu for float/double, rank 1-3.
template <class T, int Rank>
comparison compare_accessors(const view_accessor<const T, Rank>& a,
                             const view_accessor<const T, Rank>& b);
/// max |p[i]| over i < n (device memory), +infinity when any p[i] is NaN or infinite.
/// Defined in compare.cu for float and double.
template <class T>
double max_abs_span(const T* p, index_t n);
}  // namespace detail

/// Same measures as tessera::compare on the host (b is the reference).
template <class T, int Rank>
comparison compare_device(const View<T, Rank, CudaSpace>& a, const View<T, Rank, CudaSpace>& b) {
  return detail::compare_accessors<T, Rank>(a.accessor(), b.accessor());
}

}  // namespace tessera::cuda
