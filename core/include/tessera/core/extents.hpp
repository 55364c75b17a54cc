#pragma once
// Interior extents of a grid of rank 1, 2 or 3, ordered slowest to fastest:
// (z, y, x) in 3D, (y, x) in 2D. The last index is contiguous in memory.
#include <concepts>
#include <optional>
#include <string>

#include "tessera/core/array.hpp"
#include "tessera/core/detail/checked_arithmetic.hpp"
#include "tessera/core/config.hpp"

namespace tessera {

template <int Rank>
struct extents {
  static_assert(Rank >= 1 && Rank <= 3, "tessera grids have rank 1, 2 or 3");
  static constexpr int rank = Rank;
  array<index_t, Rank> n{};

  constexpr extents() = default;
  template <std::integral... I>
    requires(sizeof...(I) == Rank)
  constexpr extents(I... i) : n{static_cast<index_t>(i)...} {}
  constexpr explicit extents(const array<index_t, Rank>& a) : n(a) {}

  TESSERA_HD constexpr index_t operator[](int d) const { return n[d]; }
  TESSERA_HD constexpr index_t& operator[](int d) { return n[d]; }
  /// Number of interior points (0 when any extent is 0). Unchecked: call it on extents a
  /// layout or a View accepted (they refuse counts that overflow), else checked_size().
  TESSERA_HD constexpr index_t size() const {
    index_t s = 1;
    for (int d = 0; d < Rank; ++d) s *= n[d];
    return s;
  }
  /// Number of interior points; nullopt when an extent is negative or the product
  /// overflows index_t (extents from a file or a command line).
  constexpr std::optional<index_t> checked_size() const {
    index_t s = 1;
    for (int d = 0; d < Rank; ++d)
      if (n[d] < 0 || !detail::checked_mul(s, n[d], s)) return std::nullopt;
    return s;
  }
  friend constexpr bool operator==(const extents& a, const extents& b) { return a.n == b.n; }

  /// "37x29x53": the form every error message uses.
  std::string to_string() const {
    std::string s;
    for (int d = 0; d < Rank; ++d) {
      if (d) s += 'x';
      s += std::to_string(n[d]);
    }
    return s;
  }
};

template <std::integral... I>
extents(I...) -> extents<static_cast<int>(sizeof...(I))>;

}  // namespace tessera
