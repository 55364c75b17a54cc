#pragma once
// compare(a, b): how far view a is from reference view b, over the interior only.
//
//   max_abs_error   max |a - b|
//   max_rel_error   max |a - b| / max |b|      (normwise: robust where b crosses zero)
//   rel_l2_error    ||a - b||_2 / ||b||_2      (||a - b||_2 when b is all zeros)
//   worst_index     the point of max |a - b|, or the first non-finite point if any
//   nonfinite       points where a or b is NaN or infinite; any makes passed() false
#include <cmath>
#include <cstddef>
#include <string>

#include "tessera/core/comparison.hpp"
#include "tessera/core/deep_copy.hpp"
#include "tessera/core/errors.hpp"
#include "tessera/core/view.hpp"
#include "tessera/core/view_checks.hpp"
#if TESSERA_ENABLE_CUDA
#include "tessera/cuda/compare.hpp"
#endif

namespace tessera {

namespace detail {
/// Accumulates the comparison one point at a time (shared by host and device paths).
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

template <class T, int Rank>
comparison compare_host(const View<T, Rank, HostSpace>& a, const View<T, Rank, HostSpace>& b) {
  comparison_builder cb;
  cb.c.rank = Rank;
  const auto pa = a.accessor();
  const auto pb = b.accessor();
  const auto& n = a.extents();
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
}  // namespace detail

/// Compares the interiors of a and b (b is the reference). Throws extent_mismatch_error
/// naming both views when their interiors differ. Two CUDA views are compared on the
/// device; otherwise views not on the host are copied there first.
template <class T, int Rank, class SA, class SB>
comparison compare(const View<T, Rank, SA>& a, const View<T, Rank, SB>& b) {
  detail::require_allocated(a, "tessera::compare", "compared view");
  detail::require_allocated(b, "tessera::compare", "reference");
  if (!(a.extents() == b.extents()))
    throw extent_mismatch_error("tessera::compare: " + a.describe() + " and reference " +
                                b.describe() +
                                " have different interior extents; compare views of one grid");
#if TESSERA_ENABLE_CUDA
  // Two device views are compared on the device (Thrust); nothing is copied to the host.
  if constexpr (!SA::host_accessible && !SB::host_accessible)
    return cuda::compare_device(a, b);
  else
#endif
    return detail::compare_host(create_mirror_copy(a), create_mirror_copy(b));
}

/// Default relative tolerance when comparing a policy's result with the reference:
/// a few hundred ulps of the element type, room for FMA contraction and summation order.
template <class T>
constexpr double default_tolerance() {
  return sizeof(T) >= 8 ? 1e-12 : 1e-5;
}

}  // namespace tessera
