#pragma once
// The views a point function reads and writes: inputs(u, k, ...) and outputs(a, b, ...).
// Every view of a group has the same element type, rank and memory space (checked when
// the group is formed); apply checks extents, ghost widths and aliasing across groups.
#include <array>
#include <cstddef>
#include <type_traits>

#include "tessera/core/view.hpp"

namespace tessera {

/// N views read (Output false) or written (Output true) by one point-function sweep.
template <bool Output, class T, int Rank, class Space, std::size_t N>
struct field_group {
  using value_type = T;
  using space_type = Space;
  static constexpr int rank = Rank;
  static constexpr std::size_t size = N;
  static constexpr bool is_output = Output;
  std::array<View<T, Rank, Space>, N> views;
  const View<T, Rank, Space>& operator[](std::size_t i) const { return views[i]; }
};

template <class T, int Rank, class Space, std::size_t N>
using input_fields = field_group<false, T, Rank, Space, N>;
template <class T, int Rank, class Space, std::size_t N>
using output_fields = field_group<true, T, Rank, Space, N>;

namespace detail {
template <class T, int Rank, class Space, class... Views>
constexpr void check_group_types() {
  static_assert((std::is_same_v<std::remove_cvref_t<Views>, View<T, Rank, Space>> && ...),
                "tessera::inputs / tessera::outputs: every view of a group must have the first view's element "
                "type, rank and memory space (a field of another rank or type cannot be read by the same "
                "point function sweep)");
}
}  // namespace detail

/// The input fields of a point function, in the order it takes them.
template <class T, int Rank, class Space, class... Views>
input_fields<T, Rank, Space, 1 + sizeof...(Views)> inputs(const View<T, Rank, Space>& first, const Views&... rest) {
  detail::check_group_types<T, Rank, Space, Views...>();
  return {{first, rest...}};
}

/// The output fields of a point function returning tessera::array<T, M>, in its order.
template <class T, int Rank, class Space, class... Views>
output_fields<T, Rank, Space, 1 + sizeof...(Views)> outputs(const View<T, Rank, Space>& first, const Views&... rest) {
  detail::check_group_types<T, Rank, Space, Views...>();
  return {{first, rest...}};
}

}  // namespace tessera
