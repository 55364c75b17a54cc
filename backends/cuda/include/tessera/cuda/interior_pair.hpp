#pragma once
// Two views of one interior walked by a single linear index (row-major over the
// interior, as Thrust's counting iterators and grid-stride loops produce it): the
// element offsets of point i in each view, whose strides and ghosts may differ.
#include "tessera/core/accessor.hpp"

namespace tessera::cuda::detail {

template <class T, int Rank>
struct interior_pair {
  view_accessor<const T, Rank> a, b;

  /// Values of a and b at interior point number i.
  TESSERA_HD void load(index_t i, T& va, T& vb) const {
    index_t off_a = 0, off_b = 0, rest = i;
    for (int d = Rank - 1; d >= 0; --d) {
      const index_t c = rest % a.n[d];
      rest /= a.n[d];
      off_a += c * a.stride[d];
      off_b += c * b.stride[d];
    }
    va = a.origin[off_a];
    vb = b.origin[off_b];
  }
};

}  // namespace tessera::cuda::detail
