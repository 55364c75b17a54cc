#pragma once
// The elliptic operators tessera's solvers (multigrid, cg) invert:
//
//   A u = a u - b L u
//
// where L is either a declared constant-coefficient star stencil of radius 1 (such as
// fd::laplacian<Rank, 2>(h), or one with a different spacing per axis) or the
// variable-coefficient div(k grad u), second order, with the conductivity k given per point
// and averaged harmonically onto each face (the average that keeps the flux continuous
// across a jump in k):
//
//   poisson_operator(L)              L u = f              (a = 0, b = -1)
//   helmholtz_operator(a, b, L)      (a - b L) u = f
//   div_k_grad_operator(a, b, k, h)  (a - b div(k grad)) u = f,  h per axis
//
// Elliptic here means that A is symmetric and definite (of either sign): L's neighbour
// coefficients symmetric about the centre and all of one strict sign, L's zero-order part
// (the centre plus the neighbours) and a of the signs that keep A diagonally dominant, and
// k > 0 everywhere. check_elliptic refuses anything else by name. Internally the solvers
// work with sigma A, sigma = sign of the diagonal, which is positive definite (or positive
// semi-definite: the singular problems, with no Dirichlet face and no zero-order term).
//
// Coarse levels rediscretise: the derivative part scales by 1/4 per coarsening (spacing
// doubled), the zero-order part stays; a variable k is restricted by full weighting.
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "tessera/core/array.hpp"
#include "tessera/core/errors.hpp"
#include "tessera/core/detail/format.hpp"
#include "tessera/core/grid_transfer.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/core/stencil.hpp"
#include "tessera/core/view.hpp"

namespace tessera {

/// A u = a u - b L u, L a constant radius-1 star (k empty) or div(k grad) with spacing h (k set).
template <class T, int Rank, class Space>
struct elliptic_operator {
  T a = 0;
  T b = -1;
  // constant L: centre and the neighbour coefficient per axis (equal on both sides)
  T centre = 0;
  array<T, Rank> neighbour{};
  // variable L: conductivity per point (ghost width >= 1; its ghosts are filled by the solver) and 1/h^2 per axis
  View<T, Rank, Space> k;
  array<T, Rank> inv_h2{};

  bool variable() const { return k.allocated(); }
};

namespace detail {
template <class T, int Rank>
void read_star(const stencil<star<Rank, 1>, T>& L, T& centre, std::type_identity_t<array<T, Rank>>& neighbour,
               const std::string& who) {
  using S = star<Rank, 1>;
  array<T, Rank> lo{}, hi{};
  centre = 0;
  for (int p = 0; p < static_cast<int>(S::points.size()); ++p) {
    int axis = -1, dir = 0;
    for (int d = 0; d < Rank; ++d)
      if (S::points[p][d] != 0) axis = d, dir = S::points[p][d];
    const T c = L[p];
    if (!std::isfinite(static_cast<double>(c)))
      throw invalid_argument_error(who + ": coefficient " + std::to_string(p) + " of the stencil is not finite");
    if (axis < 0)
      centre = c;
    else
      (dir < 0 ? lo : hi)[axis] = c;
  }
  for (int d = 0; d < Rank; ++d) {
    if (lo[d] != hi[d])
      throw invalid_argument_error(who + ": the stencil's coefficients along axis " + std::to_string(d) + " (" +
                                   detail::sci(static_cast<double>(lo[d])) + " below, " +
                                   detail::sci(static_cast<double>(hi[d])) +
                                   " above) are not symmetric: the operator is not self-adjoint, and "
                                   "tessera's multigrid and CG need a symmetric operator");
    neighbour[d] = hi[d];
  }
}
}  // namespace detail

/// L u = f with L a constant radius-1 star (e.g. fd::laplacian<Rank, 2>(h)).
template <class Space, class T, int Rank>
elliptic_operator<T, Rank, Space> poisson_operator(const stencil<star<Rank, 1>, T>& L) {
  elliptic_operator<T, Rank, Space> op;
  op.a = 0;
  op.b = -1;
  detail::read_star(L, op.centre, op.neighbour, "tessera::poisson_operator");
  return op;
}

/// (a - b L) u = f with L a constant radius-1 star.
template <class Space, class T, int Rank>
elliptic_operator<T, Rank, Space> helmholtz_operator(T a, T b, const stencil<star<Rank, 1>, T>& L) {
  elliptic_operator<T, Rank, Space> op;
  op.a = a;
  op.b = b;
  detail::read_star(L, op.centre, op.neighbour, "tessera::helmholtz_operator");
  return op;
}

/// (a - b div(k grad)) u = f, k per point (ghost width >= 1), spacing h per axis.
template <class T, int Rank, class Space>
elliptic_operator<T, Rank, Space> div_k_grad_operator(T a, T b, const View<T, Rank, Space>& k,
                                                      const std::type_identity_t<array<T, Rank>>& h) {
  elliptic_operator<T, Rank, Space> op;
  op.a = a;
  op.b = b;
  op.k = k;
  for (int d = 0; d < Rank; ++d) {
    if (!(h[d] > T(0)) || !std::isfinite(static_cast<double>(h[d])))
      throw invalid_argument_error("tessera::div_k_grad_operator: spacing h[" + std::to_string(d) + "] = " +
                                   detail::sci(static_cast<double>(h[d])) + " must be a finite number > 0");
    op.inv_h2[d] = T(1) / (h[d] * h[d]);
  }
  return op;
}

/// The operator's internal form on a level: sigma A = shift I + scale * (the derivative
/// part, positive semi-definite), with the derivative part's weights already divided by
/// 4^level. For a constant L: A' u = diag u - sum_a w_a (u(+a) + u(-a)), diag = shift + 2 sum w_a.
template <class T, int Rank>
struct level_coefficients {
  T shift = 0;             // sigma (a - b * zero-order part of L) >= 0
  array<T, Rank> w{};      // constant L: sigma b ... per axis neighbour weight >= 0
  T beta = 0;              // variable L: |b|
  array<T, Rank> inv_h2{}; // variable L: 1 / h^2 on this level
  T sigma = 1;             // the sign that makes the operator positive
};

/// Checks that op is elliptic (see the header comment) and returns its level-0 internal form.
template <class T, int Rank, class Space>
level_coefficients<T, Rank> check_elliptic(const elliptic_operator<T, Rank, Space>& op, const std::string& who) {
  level_coefficients<T, Rank> c;
  const auto bad = [&](const std::string& why) {
    throw invalid_argument_error(who + ": the operator is not elliptic: " + why);
  };
  if (!std::isfinite(static_cast<double>(op.a)) || !std::isfinite(static_cast<double>(op.b)))
    bad("a = " + detail::sci(static_cast<double>(op.a)) + ", b = " + detail::sci(static_cast<double>(op.b)) +
        " must be finite");
  if (op.b == T(0)) bad("b = 0 leaves no derivative term (a u = f needs no solver)");
  if (op.variable()) {
    c.sigma = op.b > T(0) ? T(1) : T(-1);
    c.shift = c.sigma * op.a;
    c.beta = c.sigma * op.b;
    c.inv_h2 = op.inv_h2;
    if (c.shift < T(0))
      bad("a = " + detail::sci(static_cast<double>(op.a)) + " and b = " + detail::sci(static_cast<double>(op.b)) +
          " have opposite signs, so a - b div(k grad) is indefinite (give a and b the same sign, or a = 0)");
    return c;
  }
  // constant L = centre + sum_a n_a (S_a+ + S_a-), derivative part n_a (S+ + S- - 2), zero-order centre + 2 sum n_a
  T n0 = op.neighbour[0];
  for (int d = 0; d < Rank; ++d)
    if (!(op.neighbour[d] != T(0)) || (op.neighbour[d] > T(0)) != (n0 > T(0)))
      bad("the neighbour coefficients (" + [&] {
        std::string s;
        for (int e = 0; e < Rank; ++e) s += (e ? ", " : "") + detail::sci(static_cast<double>(op.neighbour[e]));
        return s;
      }() + " per axis) must all be nonzero and of one sign");
  T zero_order = op.centre;
  for (int d = 0; d < Rank; ++d) zero_order += T(2) * op.neighbour[d];
  // A = a - b L: the derivative part -b n_a (S+ + S- - 2) is positive when b n_a > 0
  c.sigma = op.b * n0 > T(0) ? T(1) : T(-1);
  for (int d = 0; d < Rank; ++d) c.w[d] = c.sigma * op.b * op.neighbour[d];
  c.shift = c.sigma * (op.a - op.b * zero_order);
  const double scale = std::fabs(static_cast<double>(op.b * n0));
  if (static_cast<double>(c.shift) < -1e-6 * scale)  // rounding in a user's centre coefficient is not a sign
    bad("its diagonal (" + detail::sci(static_cast<double>(op.a - op.b * op.centre)) +
        ") does not dominate its neighbours: the zero-order part a - b (centre + 2 sum of neighbours) = " +
        detail::sci(static_cast<double>(op.a - op.b * zero_order)) + " has the wrong sign for a definite operator");
  // a zero-order part within rounding of 0 is 0 (the Laplacian's centre is minus the sum of its
  // neighbours only to rounding when the spacings differ): the problem is then singular where
  // no face is Dirichlet, and must be treated so
  double w_total = 0;
  for (int d = 0; d < Rank; ++d) w_total += 2 * static_cast<double>(c.w[d]);
  if (static_cast<double>(c.shift) <= 64 * std::numeric_limits<T>::epsilon() * w_total) c.shift = T(0);
  if (c.shift < T(0)) c.shift = T(0);
  return c;
}

/// The internal form one level down: the spacing doubles along each axis that coarsens
/// (modes[d] != coarsening::none), so its derivative weights divide by 4.
template <class T, int Rank>
level_coefficients<T, Rank> coarsened(level_coefficients<T, Rank> c, const std::type_identity_t<array<coarsening, Rank>>& modes) {
  for (int d = 0; d < Rank; ++d) {
    if (modes[d] == coarsening::none) continue;
    c.w[d] /= T(4);
    c.inv_h2[d] /= T(4);
  }
  return c;
}

}  // namespace tessera
