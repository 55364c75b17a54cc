#pragma once
// The argument of the point-function kernels (cuda/point_function_sweep.hpp): everything
// a kernel reads, by value.
#include <cstddef>

#include "tessera/core/config.hpp"
#include "tessera/core/point_function.hpp"
#include "tessera/core/static_for.hpp"

namespace tessera::cuda::detail {

/// Each field's origin (interior point 0) and strides, the interior extents, the function.
template <class F, class T, int Rank, std::size_t NI, std::size_t NO>
struct point_params {
  F fn;
  const T* in[NI];
  window_strides<Rank> in_stride[NI];
  T* out[NO];
  window_strides<Rank> out_stride[NO];
  index_t n[Rank];
};

/// Where field I's staged copy starts in shared memory when each field's follows the one
/// before it: the sum of Staged<J>::elements over J < I (Staged: a field's ring or tile).
template <template <int> class Staged, int I>
constexpr std::size_t staged_offset() {
  std::size_t o = 0;
  tessera::detail::static_for<I>([&](auto j) { o += Staged<decltype(j)::value>::elements; });
  return o;
}

}  // namespace tessera::cuda::detail
