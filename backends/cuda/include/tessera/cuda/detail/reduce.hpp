#pragma once
// Device reductions over the interior of CUDA views: sum of a*b (dot), sum of a^2, and
// max |a|, accumulated in double. Two methods:
//   thrust        thrust::transform_reduce over the interior points (the default)
//   block_atomic  the notes' hand-written kernel: a grid-stride loop per thread, a
//                 shared-memory tree per block, and one atomicAdd (atomicMax on the bit
//                 pattern for max |a|, which orders like the value for non-negative
//                 doubles) per block into the result. Kept as a selectable variant and
//                 tested against Thrust.
#include "tessera/core/detail/accessor.hpp"
#include "tessera/core/reduction.hpp"
#include "tessera/cuda/memory_space.hpp"

namespace tessera::cuda::detail {

/// Defined in backends/cuda/src/reduce.cu for float/double, rank 1-3. b is read only
/// for reduction_kind::dot.
template <class T, int Rank>
double reduce_interior(const view_accessor<const T, Rank>& a, const view_accessor<const T, Rank>& b,
                       reduction_kind kind, reduction_method method);

}  // namespace tessera::cuda::detail

namespace tessera::cuda {
/// The customisation point tessera::dot, norm_l2 and norm_max reach for CudaSpace views.
template <class T, int Rank>
double reduce_in(CudaSpace, const view_accessor<const T, Rank>& a, const view_accessor<const T, Rank>& b,
                 reduction_kind kind, reduction_method method) {
  return detail::reduce_interior<T, Rank>(a, b, kind, method);
}
}  // namespace tessera::cuda
