#pragma once
// Device-side comparison of two CUDA views with Thrust: one transform-reduce over the
// interior points; only the small result struct comes back to the host.
#include "tessera/core/detail/accessor.hpp"
#include "tessera/core/comparison.hpp"
#include "tessera/cuda/memory_space.hpp"

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

/// The customisation points tessera::compare and validate reach for CudaSpace views: the
/// comparison of two device views (same measures as on the host, b the reference) and
/// max |p[i]| over a device allocation.
template <class T, int Rank>
comparison compare_in(CudaSpace, const view_accessor<const T, Rank>& a, const view_accessor<const T, Rank>& b) {
  return detail::compare_accessors<T, Rank>(a, b);
}
template <class T>
double max_abs_in(CudaSpace, const T* p, index_t n) {
  return detail::max_abs_span<T>(p, n);
}

}  // namespace tessera::cuda
