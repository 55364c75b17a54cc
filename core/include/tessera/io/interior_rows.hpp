#pragma once
// The interior of a host view row by row, in file order (row-major, last index
// contiguous, as .npy in C order and VTK ImageData both store it): what the writers
// stream out and the readers fill, one contiguous row at a time.
#include <algorithm>
#include <cstddef>

#include "tessera/core/view.hpp"

namespace tessera::io::detail {

/// Calls f(row, length) for every interior row of v (row: its first interior element).
/// Nothing for a view without interior points, whatever its other extents.
template <class T, int Rank, class F>
void for_each_interior_row(const View<T, Rank, HostSpace>& v, F&& f) {
  if (v.size() == 0) return;
  const auto a = v.accessor();
  const auto& n = v.extents();
  if constexpr (Rank == 1) {
    f(&a(0), n[0]);
  } else if constexpr (Rank == 2) {
    for (index_t y = 0; y < n[0]; ++y) f(&a(y, 0), n[1]);
  } else {
    for (index_t z = 0; z < n[0]; ++z)
      for (index_t y = 0; y < n[1]; ++y) f(&a(z, y, 0), n[2]);
  }
}

/// Reverses the bytes of each of the n elements at p (big-endian data on this host).
template <class T>
void swap_bytes(T* p, index_t n) {
  for (index_t i = 0; i < n; ++i) {
    auto* b = reinterpret_cast<unsigned char*>(p + i);
    std::reverse(b, b + sizeof(T));
  }
}

}  // namespace tessera::io::detail
