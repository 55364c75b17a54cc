#pragma once
// The point functions multigrid and cg are built from (core/point_function.hpp), so that every
// level runs on the policy the caller chose: host, Kokkos and every CUDA strategy that sweeps
// point functions. Each is written once over an operator evaluator:
//
//   constant_star   A' u = diag u - sum_a w_a (u(+a) + u(-a))          fields u
//   variable_k      A' u = shift u + beta sum_a inv_h2_a (kf+ (u - u(+a)) + kf- (u - u(-a)))
//                   kf = 2 k k_nb / (k + k_nb), the harmonic face mean    fields u, ..., k
//
// (elliptic_operator.hpp: A' = sigma A, positive). Each evaluator splits A' u into
// diag * u() - off, which is what every smoother needs:
//
//   residual_sweep    r = g - A' u
//   jacobi_sweep      u + omega (g - A' u) / diag
//   colour_sweep      red-black Gauss-Seidel half: u + w ((g + off) / diag - u) where mask == colour, u elsewhere
//   chebyshev_sweep   p' = c1 p + c2 (g - A' u) / diag, u' = u + p'     (two outputs)
//   operator_sweep    A' u                                                (cg's products)
//   combine_sweep     alpha x + beta y + gamma                              (vector updates)
#include <utility>

#include "tessera/core/array.hpp"
#include "tessera/core/config.hpp"
#include "tessera/core/point_function.hpp"

namespace tessera::multigrid_detail {

/// offset_t with Dir on axis Axis of a rank-Rank grid, 0 elsewhere.
template <int Rank, int Axis, int Dir, std::size_t... I>
TESSERA_HD constexpr auto unit_offset(std::index_sequence<I...>) {
  return offset_t<(static_cast<int>(I) == Axis ? Dir : 0)...>{};
}
template <int Rank, int Axis, int Dir>
inline constexpr auto unit = unit_offset<Rank, Axis, Dir>(std::make_index_sequence<Rank>{});

template <class T, int Rank>
struct constant_star {
  template <int... R>
  using reach_with = reach<R...>;  // no extra field
  T diag;
  array<T, Rank> w;
  template <class U>
  TESSERA_HD void split(const U& u, T& d, T& off) const noexcept {
    d = diag;
    off = T(0);
    if constexpr (Rank >= 1) off += w[0] * (u(unit<Rank, 0, 1>) + u(unit<Rank, 0, -1>));
    if constexpr (Rank >= 2) off += w[1] * (u(unit<Rank, 1, 1>) + u(unit<Rank, 1, -1>));
    if constexpr (Rank >= 3) off += w[2] * (u(unit<Rank, 2, 1>) + u(unit<Rank, 2, -1>));
  }
};

template <class T, int Rank>
struct variable_k {
  template <int... R>
  using reach_with = reach<R..., 1>;  // k, the last field, read 1 point away
  T shift, beta;
  array<T, Rank> inv_h2;
  template <class U, class K>
  TESSERA_HD void split(const U& u, T& d, T& off, const K& k) const noexcept {
    const T kc = k();
    d = shift;
    off = T(0);
    auto face = [&](auto o, T s) {
      const T kn = k(o);
      const T kf = T(2) * kc * kn / (kc + kn);
      d += s * kf;
      off += s * kf * u(o);
    };
    if constexpr (Rank >= 1) face(unit<Rank, 0, 1>, beta * inv_h2[0]), face(unit<Rank, 0, -1>, beta * inv_h2[0]);
    if constexpr (Rank >= 2) face(unit<Rank, 1, 1>, beta * inv_h2[1]), face(unit<Rank, 1, -1>, beta * inv_h2[1]);
    if constexpr (Rank >= 3) face(unit<Rank, 2, 1>, beta * inv_h2[2]), face(unit<Rank, 2, -1>, beta * inv_h2[2]);
  }
};

/// r = g - A' u. Fields u, g (, k).
template <class T, class Op>
struct residual_sweep {
  using reach_type = typename Op::template reach_with<1, 0>;
  Op op;
  template <class U, class G, class... K>
  TESSERA_HD T operator()(const U& u, const G& g, const K&... k) const noexcept {
    T d, off;
    op.split(u, d, off, k...);
    return g() - (d * u() - off);
  }
};

/// A' u. Fields u (, k).
template <class T, class Op>
struct operator_sweep {
  using reach_type = typename Op::template reach_with<1>;
  Op op;
  template <class U, class... K>
  TESSERA_HD T operator()(const U& u, const K&... k) const noexcept {
    T d, off;
    op.split(u, d, off, k...);
    return d * u() - off;
  }
};

/// Weighted Jacobi: u + omega (g - A' u) / diag. Fields u, g (, k).
template <class T, class Op>
struct jacobi_sweep {
  using reach_type = typename Op::template reach_with<1, 0>;
  Op op;
  T omega;
  template <class U, class G, class... K>
  TESSERA_HD T operator()(const U& u, const G& g, const K&... k) const noexcept {
    T d, off;
    op.split(u, d, off, k...);
    return u() + omega * (g() + off - d * u()) / d;
  }
};

/// Half a red-black Gauss-Seidel sweep: the points whose mask equals `colour` take
/// (g + off) / diag, the others keep u. Fields u, g, mask (, k).
template <class T, class Op>
struct colour_sweep {
  using reach_type = typename Op::template reach_with<1, 0, 0>;
  Op op;
  T colour;
  T weight;  // over-relaxation: u + weight ((g + off) / diag - u)
  template <class U, class G, class M, class... K>
  TESSERA_HD T operator()(const U& u, const G& g, const M& mask, const K&... k) const noexcept {
    if (mask() != colour) return u();
    T d, off;
    op.split(u, d, off, k...);
    return u() + weight * ((g() + off) / d - u());
  }
};

/// One Chebyshev step: p' = c1 p + c2 (g - A' u) / diag, u' = u + p'. Fields u, g, p (, k);
/// outputs u', p'.
template <class T, class Op>
struct chebyshev_sweep {
  using reach_type = typename Op::template reach_with<1, 0, 0>;
  Op op;
  T c1, c2;
  template <class U, class G, class P, class... K>
  TESSERA_HD array<T, 2> operator()(const U& u, const G& g, const P& p, const K&... k) const noexcept {
    T d, off;
    op.split(u, d, off, k...);
    const T step = c1 * p() + c2 * (g() + off - d * u()) / d;
    return {{u() + step, step}};
  }
};

/// alpha x + beta y + gamma. Fields x, y.
template <class T>
struct combine_sweep {
  using reach_type = reach<0, 0>;
  T alpha, beta, gamma;
  template <class X, class Y>
  TESSERA_HD T operator()(const X& x, const Y& y) const noexcept {
    return alpha * x() + beta * y() + gamma;
  }
};

/// 1 where k <= 0 or k is not finite (k != k), else 0: the test behind "k > 0 everywhere".
template <class T>
struct not_positive_sweep {
  using reach_type = reach<0>;
  template <class K>
  TESSERA_HD T operator()(const K& k) const noexcept {
    return k() > T(0) ? T(0) : T(1);
  }
};

}  // namespace tessera::multigrid_detail
