#pragma once
// A trivially copyable, non-owning window on a view's memory: what kernels and loops
// index. It holds a pointer to interior point (0,...,0), the strides, and (for the bounds
// checks that TESSERA_DEBUG_BOUNDS enables) the extents, the ghost width and the label.
#include <cstdio>
#include <string>
#include <type_traits>

#include "tessera/core/array.hpp"
#include "tessera/core/config.hpp"
#include "tessera/core/errors.hpp"

namespace tessera {

template <class T, int Rank>
struct view_accessor {
  T* origin = nullptr;              // interior point (0, ..., 0)
  array<index_t, Rank> stride{};    // elements
  array<index_t, Rank> n{};         // interior extents
  int ghost = 0;
  const char* label = "";           // host memory: read only by host-side checks
  // Elements before each row's first ghost and after its last that belong to this view (its
  // own row padding, which no one reads): a fill may write them to store whole sectors.
  // 0 where the memory beside the rows may be someone else's (a box, wrapped memory).
  array<index_t, 2> row_slack{};

  template <class... I>
  TESSERA_HD T& operator()(I... i) const {
    static_assert(sizeof...(I) == Rank, "tessera::view_accessor: wrong number of indices");
    const index_t idx[Rank] = {static_cast<index_t>(i)...};
#ifdef TESSERA_DEBUG_BOUNDS
    check(idx);
#endif
    index_t off = 0;
    for (int d = 0; d < Rank; ++d) off += idx[d] * stride[d];
    return origin[off];
  }

  /// Conversion to a read-only accessor.
  template <class U = T>
    requires(!std::is_const_v<U>)
  TESSERA_HD operator view_accessor<const U, Rank>() const {
    return {origin, stride, n, ghost, label, row_slack};
  }

 private:
#ifdef TESSERA_DEBUG_BOUNDS
  TESSERA_HD void check(const index_t (&idx)[Rank]) const {
    for (int d = 0; d < Rank; ++d) {
      if (idx[d] < -ghost || idx[d] >= n[d] + ghost) {
#ifdef TESSERA_ON_DEVICE
        printf("tessera: index %lld on axis %d outside [-%d, %lld) of a view\n",
               static_cast<long long>(idx[d]), d, ghost, static_cast<long long>(n[d] + ghost));
        __trap();
#else
        std::string where, ext;
        for (int k = 0; k < Rank; ++k) {
          if (k) {
            where += ", ";
            ext += 'x';
          }
          where += std::to_string(idx[k]);
          ext += std::to_string(n[k]);
        }
        throw out_of_bounds_error("tessera: index (" + where + ") is outside view '" +
                                  std::string(label) + "' (interior " + ext + ", ghost " +
                                  std::to_string(ghost) + "); valid coordinates on each axis are [-ghost, n + ghost)");
#endif
      }
    }
  }
#endif
};

}  // namespace tessera
