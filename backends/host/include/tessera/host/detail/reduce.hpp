#pragma once
// Reductions over a host view's interior, in double, OpenMP over rows: reduce_in, the
// customisation point tessera::dot, norm_l2 and norm_max reach for HostSpace views.
#include <cmath>
#include <limits>

#include "tessera/core/detail/accessor.hpp"
#include "tessera/core/memory_space.hpp"
#include "tessera/core/reduction.hpp"
#include "tessera/host/policy.hpp"

namespace tessera {

/// b is read only for reduction_kind::dot; the method is the device's choice only.
template <class T, int Rank>
double reduce_in(HostSpace, const view_accessor<const T, Rank>& pa, const view_accessor<const T, Rank>& pb,
                 reduction_kind kind, reduction_method) {
  const auto& n = pa.n;
  index_t points = 1;
  for (int d = 0; d < Rank; ++d) points *= n[d];
  if (points == 0) return 0;
  const index_t rows = points / n[Rank - 1];
  auto row_origin = [&](const view_accessor<const T, Rank>& p, index_t r) {
    index_t off = 0, rest = r;
    for (int d = Rank - 2; d >= 0; --d) {
      off += (rest % n[d]) * p.stride[d];
      rest /= n[d];
    }
    return p.origin + off;
  };
  double acc = 0;
  if (kind == reduction_kind::max_abs) {
    // max |a| is NaN when any element is: fmax and OpenMP's max both pass over a NaN, so
    // NaN is counted beside the maximum
    bool nan_seen = false;
#pragma omp parallel for reduction(max : acc) reduction(|| : nan_seen) if (points >= host::parallel_threshold)
    for (index_t r = 0; r < rows; ++r) {
      const T* x = row_origin(pa, r);
      for (index_t i = 0; i < n[Rank - 1]; ++i) {
        const double a = std::fabs(double(x[i]));
        acc = a > acc ? a : acc;
        nan_seen = nan_seen || a != a;
      }
    }
    if (nan_seen) return std::numeric_limits<double>::quiet_NaN();
  } else {
#pragma omp parallel for reduction(+ : acc) if (points >= host::parallel_threshold)
    for (index_t r = 0; r < rows; ++r) {
      const T* x = row_origin(pa, r);
      const T* y = row_origin(kind == reduction_kind::dot ? pb : pa, r);
      for (index_t i = 0; i < n[Rank - 1]; ++i) acc += double(x[i]) * double(y[i]);
    }
  }
  return acc;
}

}  // namespace tessera
