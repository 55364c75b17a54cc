#pragma once
// The argument of the point-function kernels (cuda/point_function_sweep.hpp): everything
// a kernel reads, by value.
#include <cstddef>

#include "tessera/core/config.hpp"
#include "tessera/core/point_function.hpp"

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

}  // namespace tessera::cuda::detail
