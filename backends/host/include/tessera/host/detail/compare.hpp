#pragma once
// Comparison of two host views' interiors (see tessera::compare): compare_in, the
// customisation point compare reaches for HostSpace views, and max_abs_in, max |p[i]|
// over an allocation (+infinity when any element is NaN or infinite).
#include <cmath>

#include "tessera/core/detail/accessor.hpp"
#include "tessera/core/comparison.hpp"
#include "tessera/core/memory_space.hpp"

namespace tessera {

namespace detail {
/// Accumulates the comparison one point at a time.
struct comparison_builder {
  comparison c;
  double sum_sq_diff = 0, sum_sq_ref = 0, max_ref = 0;
  bool have_nonfinite = false;

  template <class T>
  void add(T a, T b, const index_t* idx) {
    ++c.points;
    const double da = static_cast<double>(a), db = static_cast<double>(b);
    if (!std::isfinite(da) || !std::isfinite(db)) {
      if (!have_nonfinite)
        for (int d = 0; d < c.rank; ++d) c.worst_index[d] = idx[d];
      have_nonfinite = true;
      ++c.nonfinite;
      return;
    }
    const double diff = std::fabs(da - db);
    if (diff > c.max_abs_error) {
      c.max_abs_error = diff;
      if (!have_nonfinite)
        for (int d = 0; d < c.rank; ++d) c.worst_index[d] = idx[d];
    }
    max_ref = std::fmax(max_ref, std::fabs(db));
    sum_sq_diff += diff * diff;
    sum_sq_ref += db * db;
  }
  comparison finish() {
    c.max_rel_error = max_ref > 0 ? c.max_abs_error / max_ref : c.max_abs_error;
    c.rel_l2_error = sum_sq_ref > 0 ? std::sqrt(sum_sq_diff / sum_sq_ref) : std::sqrt(sum_sq_diff);
    return c;
  }
};
}  // namespace detail

/// a against the reference b, over the interior (equal extents checked by the caller).
template <class T, int Rank>
comparison compare_in(HostSpace, const view_accessor<const T, Rank>& pa, const view_accessor<const T, Rank>& pb) {
  detail::comparison_builder cb;
  cb.c.rank = Rank;
  const auto& n = pa.n;
  for (int d = 0; d < Rank; ++d)
    if (n[d] == 0) return cb.finish();  // no point, whatever the other extents
  if constexpr (Rank == 1) {
    for (index_t x = 0; x < n[0]; ++x) {
      const index_t i[1] = {x};
      cb.add(pa(x), pb(x), i);
    }
  } else if constexpr (Rank == 2) {
    for (index_t y = 0; y < n[0]; ++y)
      for (index_t x = 0; x < n[1]; ++x) {
        const index_t i[2] = {y, x};
        cb.add(pa(y, x), pb(y, x), i);
      }
  } else {
    for (index_t z = 0; z < n[0]; ++z)
      for (index_t y = 0; y < n[1]; ++y)
        for (index_t x = 0; x < n[2]; ++x) {
          const index_t i[3] = {z, y, x};
          cb.add(pa(z, y, x), pb(z, y, x), i);
        }
  }
  return cb.finish();
}

/// max |p[i]| over i < n; +infinity when any element is NaN or infinite, so a
/// non-finite value cannot hide behind fmax.
template <class T>
double max_abs_in(HostSpace, const T* p, index_t n) {
  double m = 0;
  for (index_t i = 0; i < n; ++i) {
    const double a = std::fabs(static_cast<double>(p[i]));
    m = a > m ? a : (a == a ? m : HUGE_VAL);  // NaN: a == a is false
  }
  return m;
}

}  // namespace tessera
