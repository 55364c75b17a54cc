#pragma once
// stencil<S, T>: a shape plus one coefficient per point. A sweep computes, at every
// interior point p,   out(p) = sum_k coeffs[k] * in(p + S::points[k]).
// The object is trivially copyable (only the coefficients are stored) so kernels take
// it by value.
//
//   auto lap = tessera::stencil(tessera::star<3, 1>{}, {-6.f, 1.f, 1.f, 1.f, 1.f, 1.f, 1.f});
//
// A braced list of the wrong length fails to compile; a run-time list (span, vector)
// of the wrong length throws invalid_argument_error.
#include <concepts>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "tessera/core/array.hpp"
#include "tessera/core/errors.hpp"
#include "tessera/core/shape.hpp"

namespace tessera {

template <shape S, std::floating_point T>
class stencil {
 public:
  using shape_type = S;
  using value_type = T;
  static constexpr int rank = S::rank;
  static constexpr int size = shape_traits<S>::size;
  static constexpr int radius = shape_traits<S>::radius;

  array<T, size> coeffs{};

  constexpr stencil() = default;

  template <std::size_t N>
  constexpr stencil(S, const T (&c)[N]) {
    static_assert(N == static_cast<std::size_t>(size),
                  "tessera::stencil: the number of coefficients must equal the shape's number "
                  "of points (one coefficient per point)");
    for (std::size_t k = 0; k < N; ++k) coeffs[k] = c[k];
  }

  stencil(S, std::span<const T> c) {
    if (c.size() != static_cast<std::size_t>(size))
      throw invalid_argument_error("tessera::stencil: shape " + shape_name<S>() + " has " +
                                   std::to_string(size) + " points but " +
                                   std::to_string(c.size()) +
                                   " coefficients were given; pass exactly one per point");
    for (int k = 0; k < size; ++k) coeffs[k] = c[k];
  }
  stencil(S s, const std::vector<T>& c) : stencil(s, std::span<const T>(c)) {}

  constexpr const T& operator[](int k) const { return coeffs[k]; }
  constexpr T& operator[](int k) { return coeffs[k]; }

  std::string name() const { return shape_name<S>(); }
};

template <class S, class T, std::size_t N>
stencil(S, const T (&)[N]) -> stencil<S, T>;
template <class S, class T>
stencil(S, std::span<const T>) -> stencil<S, T>;
template <class S, class T>
stencil(S, const std::vector<T>&) -> stencil<S, T>;

}  // namespace tessera
