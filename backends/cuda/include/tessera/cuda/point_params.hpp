#pragma once
// The argument of the point-function kernels (cuda/detail/point_function_sweep.hpp): everything
// a kernel reads, by value; and the error a lowering raises when it cannot run.
#include <cstddef>
#include <string>

#include "tessera/core/config.hpp"
#include "tessera/core/errors.hpp"
#include "tessera/core/point_function.hpp"
#include "tessera/core/detail/static_for.hpp"

namespace tessera::cuda::detail {

/// The error a point-function launch on `policy` raises when it cannot run, and why. Built
/// only when thrown: apply's path stays free of string work.
inline unsupported_error point_function_refused(const std::string& policy, const std::string& why) {
  return unsupported_error("tessera::apply(" + policy + ", point function): " + why);
}

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

/// How many fields of a point function's reach R are read beyond the point (radius > 0):
/// the fields a staging mainloop copies into shared memory.
template <class R>
inline constexpr int staged_fields = [] {
  int n = 0;
  for (int i = 0; i < R::fields; ++i) n += R::radius[i] > 0 ? 1 : 0;
  return n;
}();

/// Where field I's staged copy starts in shared memory when each field's follows the one
/// before it: the sum of Staged<J>::elements over J < I (Staged: a field's ring or tile).
template <template <int> class Staged, int I>
constexpr std::size_t staged_offset() {
  std::size_t o = 0;
  tessera::detail::static_for<I>([&](auto j) { o += Staged<decltype(j)::value>::elements; });
  return o;
}

/// Where field I's entries start in a thread's per-field table (the elements it loads, the
/// pieces it copies) when each field's follow the one before: the sum of
/// Staged<J>::per_thread over J < I.
template <template <int> class Staged, int I>
constexpr int staged_per_thread_offset() {
  int o = 0;
  tessera::detail::static_for<I>([&](auto j) { o += Staged<decltype(j)::value>::per_thread; });
  return o;
}

}  // namespace tessera::cuda::detail
