#pragma once
// Two views of one interior walked by a single linear index (row-major over the
// interior, as Thrust's counting iterators and grid-stride loops produce it): the
// element offsets of point i in each view, whose strides and ghosts may differ.
#include "tessera/core/detail/accessor.hpp"

namespace tessera::cuda::detail {

/// Element offsets of interior point number i (row-major over a's extents) in a and in
/// b: accessors of any constness over the same interior.
template <class TA, class TB, int Rank>
TESSERA_HD void interior_offsets(index_t i, const view_accessor<TA, Rank>& a, const view_accessor<TB, Rank>& b,
                                 index_t& off_a, index_t& off_b) {
  off_a = 0, off_b = 0;
  index_t rest = i;
  for (int d = Rank - 1; d >= 0; --d) {
    const index_t c = rest % a.n[d];
    rest /= a.n[d];
    off_a += c * a.stride[d];
    off_b += c * b.stride[d];
  }
}

template <class T, int Rank>
struct interior_pair {
  view_accessor<const T, Rank> a, b;

  /// Values of a and b at interior point number i.
  TESSERA_HD void load(index_t i, T& va, T& vb) const {
    index_t off_a, off_b;
    interior_offsets(i, a, b, off_a, off_b);
    va = a.origin[off_a];
    vb = b.origin[off_b];
  }
};

}  // namespace tessera::cuda::detail
