#pragma once
// Overflow-checked integer arithmetic for sizes that come from outside (extents read from
// files or command lines, ghost widths, byte counts). Each returns false instead of
// wrapping around, so a caller can refuse the input with a named error before anything
// is allocated or indexed.
#include <cstddef>
#include <limits>
#include <optional>

#include "tessera/core/config.hpp"

namespace tessera::detail {

/// out = a * b; false when the product overflows (out is then unspecified).
template <class I>
constexpr bool checked_mul(I a, I b, I& out) {
  return !__builtin_mul_overflow(a, b, &out);
}

/// out = a + b; false when the sum overflows (out is then unspecified).
template <class I>
constexpr bool checked_add(I a, I b, I& out) {
  return !__builtin_add_overflow(a, b, &out);
}

/// a * b as std::size_t bytes from a non-negative element count and an element size;
/// nullopt when it overflows size_t or exceeds PTRDIFF_MAX (pointer differences over the
/// allocation must stay representable).
constexpr std::optional<std::size_t> checked_bytes(index_t elements, std::size_t element_size) {
  if (elements < 0) return std::nullopt;
  std::size_t bytes = 0;
  if (!checked_mul(static_cast<std::size_t>(elements), element_size, bytes)) return std::nullopt;
  if (bytes > static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max())) return std::nullopt;
  return bytes;
}

}  // namespace tessera::detail
