#pragma once
// Finite-difference coefficients, computed (Fornberg's algorithm) rather than typed in.
//
//   auto d2  = tessera::fd::second_derivative<1, 4>(/*axis=*/0, h);   // star<1, 2>
//   auto lap = tessera::fd::laplacian<3, 2>(h);                        // star<3, 1>, 7 points
//
// A central scheme of accuracy order p (2, 4, 6, 8) for a first or second derivative
// uses the 2·(p/2) + 1 points -p/2 .. p/2 along one axis, so every builder returns a
// stencil on star<Rank, p/2>.
#include <cmath>
#include <string>
#include <vector>

#include "tessera/core/errors.hpp"
#include "tessera/core/detail/format.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/core/stencil.hpp"

namespace tessera::fd {

/// Fornberg (1988): weights w[j] such that f^(m)(x0) ≈ sum_j w[j] f(x[j]), exact for
/// polynomials of degree < x.size(). Computed in double.
inline std::vector<double> fornberg_weights(int m, double x0, const std::vector<double>& x) {
  const int n = static_cast<int>(x.size());
  if (m < 0 || n <= m)
    throw invalid_argument_error("tessera::fd::fornberg_weights: derivative order " +
                                 std::to_string(m) + " needs more than " + std::to_string(n) +
                                 " points");
  std::vector<std::vector<double>> c(n, std::vector<double>(m + 1, 0.0));
  double c1 = 1.0, c4 = x[0] - x0;
  c[0][0] = 1.0;
  for (int i = 1; i < n; ++i) {
    const int mn = i < m ? i : m;
    double c2 = 1.0;
    const double c5 = c4;
    c4 = x[i] - x0;
    for (int j = 0; j < i; ++j) {
      const double c3 = x[i] - x[j];
      c2 *= c3;
      if (j == i - 1) {
        for (int k = mn; k >= 1; --k) c[i][k] = c1 * (k * c[i - 1][k - 1] - c5 * c[i - 1][k]) / c2;
        c[i][0] = -c1 * c5 * c[i - 1][0] / c2;
      }
      for (int k = mn; k >= 1; --k) c[j][k] = (c4 * c[j][k] - k * c[j][k - 1]) / c3;
      c[j][0] = c4 * c[j][0] / c3;
    }
    c1 = c2;
  }
  std::vector<double> w(n);
  for (int j = 0; j < n; ++j) w[j] = c[j][m];
  return w;
}

/// Central weights for derivative `derivative` (1 or 2) at accuracy `order`, unit spacing,
/// at offsets -order/2 .. order/2.
inline std::vector<double> central_weights(int derivative, int order) {
  if (order < 2 || order % 2 != 0)
    throw invalid_argument_error("tessera::fd: accuracy order " + std::to_string(order) +
                                 " is not a positive even number (use 2, 4, 6 or 8)");
  const int r = order / 2;
  std::vector<double> x;
  for (int k = -r; k <= r; ++k) x.push_back(k);
  return fornberg_weights(derivative, 0.0, x);
}

namespace detail {
template <int Rank, int Order>
constexpr void check_order() {
  static_assert(Order == 2 || Order == 4 || Order == 6 || Order == 8,
                "tessera::fd: accuracy order must be 2, 4, 6 or 8");
  static_assert(Rank >= 1 && Rank <= 3, "tessera::fd: rank must be 1, 2 or 3");
}

inline void check_axis(int axis, int rank, const char* who) {
  if (axis < 0 || axis >= rank)
    throw invalid_argument_error(std::string("tessera::fd::") + who + ": axis " +
                                 std::to_string(axis) + " does not exist in rank " +
                                 std::to_string(rank) + " (axes are 0 .. " +
                                 std::to_string(rank - 1) + ", slowest first)");
}

template <class T>
void check_spacing(T h, const char* who) {
  if (!(h > T(0)) || !std::isfinite(static_cast<double>(h)))
    throw invalid_argument_error(std::string("tessera::fd::") + who + ": grid spacing h = " +
                                 std::to_string(static_cast<double>(h)) +
                                 " must be positive and finite");
}

/// Index in star<Rank, r>'s point list of offset k (k != 0) on axis d.
constexpr int star_index(int axis, int k, int r) {
  const int a = k < 0 ? -k : k;
  return 1 + axis * 2 * r + 2 * (a - 1) + (k > 0 ? 1 : 0);
}

/// Adds weights w (offsets -r..r) scaled by `scale` along `axis` into st. Throws
/// invalid_argument_error, naming the spacing, where a weight leaves T's range (a spacing
/// of 1e-30 made float Laplacians of -inf).
template <class S, class T>
void add_axis(stencil<S, T>& st, int axis, int r, const std::vector<double>& w, double scale, double h,
              const char* who) {
  for (int k = -r; k <= r; ++k) {
    const int idx = k == 0 ? 0 : star_index(axis, k, r);
    st.coeffs[idx] = static_cast<T>(static_cast<double>(st.coeffs[idx]) + w[k + r] * scale);
    if (!std::isfinite(static_cast<double>(st.coeffs[idx])))
      throw invalid_argument_error(std::string("tessera::fd::") + who + ": grid spacing h = " + tessera::detail::sci(h) +
                                   " makes a coefficient " + tessera::detail::sci(static_cast<double>(st.coeffs[idx])) + " in " +
                                   (sizeof(T) == 4 ? "float" : "double") +
                                   "; use a larger spacing (scale the problem) or double");
  }
}
}  // namespace detail

/// d/dx along `axis` with spacing h, central, accuracy `Order`.
template <int Rank, int Order, std::floating_point T>
stencil<star<Rank, Order / 2>, T> first_derivative(int axis, T h) {
  detail::check_order<Rank, Order>();
  detail::check_axis(axis, Rank, "first_derivative");
  detail::check_spacing(h, "first_derivative");
  stencil<star<Rank, Order / 2>, T> st;
  detail::add_axis(st, axis, Order / 2, central_weights(1, Order), 1.0 / static_cast<double>(h), static_cast<double>(h),
                   "first_derivative");
  return st;
}

/// d²/dx² along `axis` with spacing h, central, accuracy `Order`.
template <int Rank, int Order, std::floating_point T>
stencil<star<Rank, Order / 2>, T> second_derivative(int axis, T h) {
  detail::check_order<Rank, Order>();
  detail::check_axis(axis, Rank, "second_derivative");
  detail::check_spacing(h, "second_derivative");
  stencil<star<Rank, Order / 2>, T> st;
  const double hd = static_cast<double>(h);
  detail::add_axis(st, axis, Order / 2, central_weights(2, Order), 1.0 / (hd * hd), hd, "second_derivative");
  return st;
}

/// The Laplacian (sum of second derivatives on every axis), spacing h[d] per axis.
template <int Rank, int Order, std::floating_point T>
stencil<star<Rank, Order / 2>, T> laplacian(const array<T, Rank>& h) {
  detail::check_order<Rank, Order>();
  stencil<star<Rank, Order / 2>, T> st;
  const auto w = central_weights(2, Order);
  for (int d = 0; d < Rank; ++d) {
    detail::check_spacing(h[d], "laplacian");
    const double hd = static_cast<double>(h[d]);
    detail::add_axis(st, d, Order / 2, w, 1.0 / (hd * hd), hd, "laplacian");
  }
  return st;
}

/// The Laplacian with the same spacing h on every axis.
template <int Rank, int Order, std::floating_point T>
stencil<star<Rank, Order / 2>, T> laplacian(T h) {
  array<T, Rank> hs{};
  for (int d = 0; d < Rank; ++d) hs[d] = h;
  return laplacian<Rank, Order>(hs);
}

}  // namespace tessera::fd
