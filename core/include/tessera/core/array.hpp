#pragma once
// A fixed-size aggregate array usable in constant expressions on host and device.
// std::array's members are not __device__ without --expt-relaxed-constexpr, and shapes
// keep their offsets in constexpr arrays that kernels read.
#include <cstddef>

#include "tessera/core/config.hpp"

namespace tessera {

template <class T, std::size_t N>
struct array {
  T elems[N > 0 ? N : 1];

  TESSERA_HD constexpr T& operator[](std::size_t i) { return elems[i]; }
  TESSERA_HD constexpr const T& operator[](std::size_t i) const { return elems[i]; }
  TESSERA_HD static constexpr std::size_t size() { return N; }
  TESSERA_HD constexpr T* begin() { return elems; }
  TESSERA_HD constexpr T* end() { return elems + N; }
  TESSERA_HD constexpr const T* begin() const { return elems; }
  TESSERA_HD constexpr const T* end() const { return elems + N; }

  friend constexpr bool operator==(const array& a, const array& b) {
    for (std::size_t i = 0; i < N; ++i)
      if (!(a.elems[i] == b.elems[i])) return false;
    return true;
  }
};

}  // namespace tessera
