#pragma once
// Grid transfers between a level and the next coarser one, for geometric multigrid:
// full-weighting restriction and linear prolongation, each a tensor product of 1D stencils,
// one per axis, applied at stride 2. Each axis of each level coarsens in one of three ways:
//
//   vertex  coarse point I on fine point 2I + 1: n = 2m + 1 fine points give m. Restriction
//           1/4 1/2 1/4 around 2I + 1; prolongation: fine 2I + 1 takes coarse I, fine 2I the
//           mean of coarse I - 1 and I. A Dirichlet wall that is a grid point (tessera's
//           Dirichlet: the first ghost layer, core/boundary.hpp) stays one.
//   cell    coarse point I covers fine 2I and 2I + 1: n = 2m gives m. Prolongation linear,
//           fine 2I takes 3/4 coarse I + 1/4 coarse I - 1, fine 2I + 1 3/4 coarse I + 1/4
//           coarse I + 1. Restriction the mean of 2I and 2I + 1, or (adjoint) P's transpose
//           halved, 1/8 3/8 3/8 1/8 over fine 2I - 1 .. 2I + 2, reading the fine field's first
//           ghost layer at the faces. The mean converges faster in a cycle on its own; the
//           adjoint makes the cycle symmetric, which cg's preconditioner must be (with the
//           mean, cg stalled across a conductivity jump).
//           A Neumann or periodic face half a point out (the mirror u(-1) = u(0)) stays one.
//   none    the axis is kept (semi-coarsening): identity along it.
//
// Neumann and periodic axes coarsen by cell (an even extent), Dirichlet axes by vertex when
// the extent is odd and by cell when it is even. After a cell coarsening a Dirichlet wall
// is no longer a grid point: it lies delta coarse spacings beyond the last point, delta in
// [1/2, 1] (wall_distance_after). The coarse level then imposes the homogeneous wall by
// linear extrapolation, ghost = -(1 - delta) / delta * last point (dirichlet_ghost_factor),
// so every level sees its walls where they are, whatever the extents.
//
// Prolongation reads the coarse view's first ghost layer (corners included), restriction
// along a cell axis the fine view's, each filled by its level's homogeneous conditions (the
// walls between points extrapolated, as below).
// Both weights sum to 1 per axis: the restricted residual is the coarse right-hand side of
// the rediscretised operator (finite differences), and a constant prolongs to itself.
#include <optional>

#include "tessera/core/detail/accessor.hpp"
#include "tessera/core/array.hpp"
#include "tessera/core/boundary.hpp"
#include "tessera/core/config.hpp"

namespace tessera {

enum class coarsening : unsigned char { vertex, cell, none };

inline const char* to_string(coarsening c) {
  return c == coarsening::vertex ? "vertex" : c == coarsening::cell ? "cell" : "none";
}

/// How an axis of n points between faces `lo` and `hi` can coarsen, or none when it cannot.
constexpr std::optional<coarsening> axis_coarsening(index_t n, boundary_kind lo, boundary_kind hi) {
  const bool dirichlet = lo == boundary_kind::dirichlet || hi == boundary_kind::dirichlet;
  if (dirichlet && n >= 3 && n % 2 == 1) return coarsening::vertex;
  if (n >= 2 && n % 2 == 0) return coarsening::cell;
  return std::nullopt;
}

/// The coarse extent of an axis of n fine points coarsened by c, or none when c does not apply.
constexpr std::optional<index_t> coarse_extent(index_t n, coarsening c) {
  if (c == coarsening::none) return n;
  if (c == coarsening::vertex) return n >= 3 && n % 2 == 1 ? std::optional<index_t>((n - 1) / 2) : std::nullopt;
  return n >= 2 && n % 2 == 0 ? std::optional<index_t>(n / 2) : std::nullopt;
}

/// A wall delta fine spacings beyond the last point (and before the first) lies this many
/// coarse spacings from the coarse level's: vertex (1 + delta) / 2, cell (delta + 1/2) / 2.
constexpr double wall_distance_after(coarsening c, double delta) {
  return c == coarsening::vertex ? (1 + delta) / 2 : c == coarsening::cell ? (delta + 0.5) / 2 : delta;
}

/// The first ghost's value, as a multiple of the point next to it, that puts a homogeneous
/// Dirichlet wall delta spacings beyond that point (linear extrapolation): 0 for a wall on
/// the ghost (delta = 1), -1 for a wall halfway (delta = 1/2).
constexpr double dirichlet_ghost_factor(double delta) { return -(1 - delta) / delta; }

/// Per axis, how it coarsens.
template <int Rank>
using coarsening_modes = array<coarsening, Rank>;

namespace detail {

/// Restriction along one axis: coarse point I reads fine points first .. first + count - 1
/// with weights w[0 .. count - 1].
struct restriction_taps {
  index_t first;
  int count;
  double w[4];
};
TESSERA_HD constexpr restriction_taps restriction_along(index_t coarse_i, coarsening c, bool adjoint) {
  if (c == coarsening::vertex) return {2 * coarse_i, 3, {0.25, 0.5, 0.25, 0.0}};
  if (c == coarsening::cell && adjoint) return {2 * coarse_i - 1, 4, {0.125, 0.375, 0.375, 0.125}};
  if (c == coarsening::cell) return {2 * coarse_i, 2, {0.5, 0.5, 0.0, 0.0}};
  return {coarse_i, 1, {1.0, 0.0, 0.0, 0.0}};
}

/// Prolongation along one axis: fine point i takes w0 * coarse(i0) + w1 * coarse(i1); i0 or
/// i1 may be a coarse ghost (-1 or m), and w1 may be 0.
struct prolongation_taps {
  index_t i0, i1;
  double w0, w1;
};
TESSERA_HD constexpr prolongation_taps prolongation_along(index_t fine_i, coarsening c) {
  if (c == coarsening::none) return {fine_i, fine_i, 1.0, 0.0};
  if (c == coarsening::vertex) {
    if (fine_i % 2 == 1) return {(fine_i - 1) / 2, (fine_i - 1) / 2, 1.0, 0.0};
    return {fine_i / 2 - 1, fine_i / 2, 0.5, 0.5};
  }
  const index_t I = fine_i / 2;
  return fine_i % 2 == 0 ? prolongation_taps{I, I - 1, 0.75, 0.25} : prolongation_taps{I, I + 1, 0.75, 0.25};
}

/// The restriction of `fine` at coarse point I (each axis' taps multiplied), in T.
template <class T, int Rank>
TESSERA_HD T restrict_point(const view_accessor<const T, Rank>& fine, const array<index_t, Rank>& I,
                            const coarsening_modes<Rank>& modes, bool adjoint) {
  restriction_taps t[Rank];
  int count = 1;
  for (int d = 0; d < Rank; ++d) {
    t[d] = restriction_along(I[d], modes[d], adjoint);
    count *= t[d].count;
  }
  T sum = 0;
  for (int k = 0; k < count; ++k) {  // k enumerates the taps, the last axis fastest
    int rest = k;
    index_t off = 0;
    double w = 1;
    for (int d = Rank - 1; d >= 0; --d) {
      const int j = rest % t[d].count;
      rest /= t[d].count;
      off += (t[d].first + j) * fine.stride[d];
      w *= t[d].w[j];
    }
    sum += static_cast<T>(w) * fine.origin[off];
  }
  return sum;
}

/// The prolongation of `coarse` (first ghost layer filled) at fine point i, in T.
template <class T, int Rank>
TESSERA_HD T prolong_point(const view_accessor<const T, Rank>& coarse, const array<index_t, Rank>& i,
                           const coarsening_modes<Rank>& modes) {
  prolongation_taps t[Rank];
  for (int d = 0; d < Rank; ++d) t[d] = prolongation_along(i[d], modes[d]);
  T sum = 0;
  for (int k = 0; k < (1 << Rank); ++k) {
    index_t off = 0;
    double w = 1;
    for (int d = 0; d < Rank; ++d) {
      const bool second = (k >> (Rank - 1 - d)) & 1;
      off += (second ? t[d].i1 : t[d].i0) * coarse.stride[d];
      w *= second ? t[d].w1 : t[d].w0;
    }
    if (w != 0) sum += static_cast<T>(w) * coarse.origin[off];
  }
  return sum;
}

}  // namespace detail
}  // namespace tessera
