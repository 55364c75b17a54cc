#pragma once
// compare(a, b): how far view a is from reference view b, over the interior only.
//
//   max_abs_error   max |a - b|
//   max_rel_error   max |a - b| / max |b|      (normwise: robust where b crosses zero)
//   rel_l2_error    ||a - b||_2 / ||b||_2      (||a - b||_2 when b is all zeros)
//   worst_index     the point of max |a - b|, or the first non-finite point if any
//   nonfinite       points where a or b is NaN or infinite; any makes passed() false
#include <string>
#include <type_traits>

#include "tessera/core/comparison.hpp"
#include "tessera/core/deep_copy.hpp"
#include "tessera/core/errors.hpp"
#include "tessera/core/view.hpp"
#include "tessera/core/detail/view_checks.hpp"

namespace tessera {

/// Compares the interiors of a and b (b is the reference). Throws extent_mismatch_error
/// naming both views when their interiors differ. Two views of one space are compared
/// in that space (two CUDA views on the device: nothing is copied to the host), by the
/// compare_in its backend defines (found by argument-dependent lookup); views of two
/// spaces are copied to the host first.
template <class T, int Rank, class SA, class SB>
comparison compare(const View<T, Rank, SA>& a, const View<T, Rank, SB>& b) {
  detail::require_allocated(a, "tessera::compare", "compared view");
  detail::require_allocated(b, "tessera::compare", "reference");
  if (!(a.extents() == b.extents()))
    throw extent_mismatch_error("tessera::compare: " + a.describe() + " and reference " + b.describe() +
                                " have different interior extents; compare views of one grid");
  if constexpr (std::is_same_v<SA, SB>) {
    const view_accessor<const T, Rank> pa = a.accessor(), pb = b.accessor();
    return compare_in(SA{}, pa, pb);
  } else {
    const auto ha = create_mirror_copy(a), hb = create_mirror_copy(b);
    const view_accessor<const T, Rank> pa = ha.accessor(), pb = hb.accessor();
    return compare_in(HostSpace{}, pa, pb);
  }
}

/// Default relative tolerance when comparing a policy's result with the reference:
/// a few hundred ulps of the element type, room for FMA contraction and summation order.
template <class T>
constexpr double default_tolerance() {
  return sizeof(T) >= 8 ? 1e-12 : 1e-5;
}

}  // namespace tessera
