#pragma once
// Reductions over the interior of a view, in double, on the host (OpenMP) or on the
// device (Thrust by default; reduction_method::block_atomic selects the hand-written
// block reduction): dot(a, b), norm_l2(a), norm_max(a). A NaN anywhere makes each of them
// NaN, an infinity infinite or NaN: a non-finite field never reads as a small one.
// find_nonfinite(a) counts the NaN and infinite points and names the first.
#include <cmath>
#include <string>

#include "tessera/core/comparison.hpp"
#include "tessera/core/errors.hpp"
#include "tessera/core/view.hpp"
#include "tessera/core/detail/view_checks.hpp"
#include "tessera/core/reduction.hpp"

namespace tessera {

namespace detail {
template <class T, int Rank, class Space>
double reduce(const View<T, Rank, Space>& a, const View<T, Rank, Space>& b, reduction_kind kind,
              reduction_method method) {
  const std::string who = kind == reduction_kind::dot           ? "tessera::dot"
                          : kind == reduction_kind::sum_squares ? "tessera::norm_l2"
                                                                : "tessera::norm_max";
  detail::require_allocated(a, who, "view");
  detail::require_allocated(b, who, "second view");
  if (!(a.extents() == b.extents()))
    throw extent_mismatch_error(who + ": " + a.describe() + " and " + b.describe() +
                                " have different interior extents");
  // in the views' space: reduce_in is found by argument-dependent lookup on it
  const view_accessor<const T, Rank> pa = a.accessor(), pb = b.accessor();
  return reduce_in(Space{}, pa, pb, kind, method);
}
}  // namespace detail

/// sum over the interior of a * b.
template <class T, int Rank, class Space>
double dot(const View<T, Rank, Space>& a, const View<T, Rank, Space>& b,
           reduction_method method = reduction_method::thrust) {
  return detail::reduce(a, b, reduction_kind::dot, method);
}

/// sqrt(sum over the interior of a^2).
template <class T, int Rank, class Space>
double norm_l2(const View<T, Rank, Space>& a, reduction_method method = reduction_method::thrust) {
  return std::sqrt(detail::reduce(a, a, reduction_kind::sum_squares, method));
}

/// max over the interior of |a|; NaN when any point is NaN, +infinity when any is infinite.
template <class T, int Rank, class Space>
double norm_max(const View<T, Rank, Space>& a, reduction_method method = reduction_method::thrust) {
  return detail::reduce(a, a, reduction_kind::max_abs, method);
}

/// The NaN and infinite points of a view's interior: how many, and the first in row-major
/// order, as "(z, y, x)" ("" when there is none).
struct nonfinite_points {
  index_t count = 0;
  std::string first;
};

/// Counts the NaN and infinite points of a's interior (in a's space, as compare does).
template <class T, int Rank, class Space>
nonfinite_points find_nonfinite(const View<T, Rank, Space>& a) {
  detail::require_allocated(a, "tessera::find_nonfinite", "view");
  const view_accessor<const T, Rank> pa = a.accessor();
  const comparison c = compare_in(Space{}, pa, pa);
  return {c.nonfinite, c.nonfinite > 0 ? c.worst_index_string() : std::string()};
}

}  // namespace tessera
