#pragma once
// Compile-time loop: calls f(std::integral_constant<int, I>{}) for I = 0 .. N-1.
// Kernels use it to walk a shape's points so that every offset is a constant
// expression: the loads become fixed address offsets and the coefficient array stays
// in registers or constant bank, never indexed at run time.
#include <type_traits>
#include <utility>

#include "tessera/core/config.hpp"

namespace tessera::detail {

template <class F, int... I>
TESSERA_HD constexpr void static_for_impl(F&& f, std::integer_sequence<int, I...>) {
  (f(std::integral_constant<int, I>{}), ...);
}

template <int N, class F>
TESSERA_HD constexpr void static_for(F&& f) {
  static_for_impl(f, std::make_integer_sequence<int, N>{});
}

}  // namespace tessera::detail
