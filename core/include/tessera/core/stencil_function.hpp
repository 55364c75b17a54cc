#pragma once
// A constant-coefficient stencil as a point function: as_point_function(st) computes
// sum_k c_k * u(off<points[k]...>) over the shape's points, in declaration order (the
// order host::serial sums in). Every backend that runs point functions thus runs every
// stencil too, and the two paths check each other in the tests.
#include <utility>

#include "tessera/core/point_function.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/core/detail/static_for.hpp"
#include "tessera/core/stencil.hpp"

namespace tessera {

template <shape S, std::floating_point T>
struct stencil_function {
  using reach_type = reach<shape_traits<S>::radius>;
  array<T, shape_traits<S>::size> coeffs{};

  template <class W>
  TESSERA_HD T operator()(const W& u) const noexcept {
    T s = 0;
    detail::static_for<shape_traits<S>::size>([&](auto k) {
      constexpr int K = decltype(k)::value;
      s += coeffs[K] * u(point_offset<K>(std::make_integer_sequence<int, S::rank>{}));
    });
    return s;
  }

 private:
  template <int K, int... A>
  TESSERA_HD static constexpr offset_t<S::points[K][A]...> point_offset(std::integer_sequence<int, A...>) {
    return {};
  }
};

/// The point function of a constant-coefficient stencil (same sums, same order).
template <class S, class T>
constexpr stencil_function<S, T> as_point_function(const stencil<S, T>& st) {
  return {st.coeffs};
}

}  // namespace tessera
