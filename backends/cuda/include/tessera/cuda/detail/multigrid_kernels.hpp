#pragma once
// Multigrid's own kernels on the device, for the operator most solves use: a constant
// radius-1 star in its positive form A' u = diag u - sum_a w_a (u(+a) + u(-a))
// (algorithms/elliptic_operator.hpp). algorithms/multigrid.hpp reaches them through the
// customisation points below, found by argument-dependent lookup on the policy, for
// cuda::automatic only: the other CUDA strategies keep the point-function sweeps, so the
// generic path stays measurable and testable against these kernels.
//
// Why kernels of their own: as point functions, a red-black Gauss-Seidel step is two
// out-of-place sweeps, each reading u, g and a colour mask and writing all of u (8 fields a
// step), a residual's norm writes r and reads it back (4 fields), and every sweep waits for a
// ghost fill (on a coarse level with walls between points, a fill and a launch per face).
// These read no ghost at all: a level's walls are face rules (core/detail/star_level.hpp), ghost =
// a * (the interior point it mirrors) + b, which is what the fills write on a level without
// periodic axes. Coarse levels are launch-bound, so each operation is one launch:
//
//   red_black_step    both colours of one step in one pass, out of place (u -> out): a block
//                     marches along axis 0 updating the first colour on plane k and the
//                     second on plane k - 1, whose first-colour neighbours are then all new
//                     (the block recomputes its tile's one-point rim of first-colour values,
//                     so blocks never wait on each other). The colour is the parity of the
//                     coordinate sum (even: red), no mask. A ghost mirrors the point beside
//                     it, of that point's colour, so the step is the two sweeps (to rounding:
//                     it multiplies by 1 / diag); a periodic ghost copies a point of the other
//                     colour across the domain, so periodic axes keep the two sweeps.
//                     With the residual: the step also takes max |g - A' u| of its input,
//                     the norm a solver checks after each cycle, from the pairs it loads
//                     anyway (a solver takes it in the next cycle's first step).
//   residual_max      max |g - A' u| over the interior (NaN kept), r never written.
//   residual_restrict coarse = full-weighting restriction of g - A' u, r never written.
//   prolong_correction fine += linear prolongation of coarse (b = 0: a correction's walls).
//   zero_interior     a coarse level's u = 0 before its cycle.
//   coarse_cg         conjugate gradients on a small coarsest level in one block: the
//                     reductions are block-wide, so the solve is one launch with no wait on
//                     the host (as a chain of launches and reductions it was most of a
//                     small level's time).
//
// Compiled in backends/cuda/src/multigrid_kernels.cu for float/double, rank 2 and 3.
#include <cuda_runtime_api.h>

#include <type_traits>

#include "tessera/core/detail/accessor.hpp"
#include "tessera/core/array.hpp"
#include "tessera/core/grid_transfer.hpp"
#include "tessera/core/detail/star_level.hpp"
#include "tessera/cuda/detail/cycle_recording.hpp"
#include "tessera/cuda/policy.hpp"

namespace tessera::cuda {

/// One red-black Gauss-Seidel step (over-relaxed by `weight`) of A' u = g from u into out;
/// `first_parity` 0 updates the even points (red) first, 1 the odd ones. Interiors only: no
/// ghost is read or written. u and out must not overlap.
template <class T, int Rank>
void red_black_step_device(const view_accessor<const T, Rank>& u, const view_accessor<const T, Rank>& g,
                           const view_accessor<T, Rank>& out, const star_level<T, Rank>& op, T weight,
                           int first_parity);

/// The same step, also returning max |g - A' u| of the input u over the interior (NaN when
/// any term is NaN): a solver's per-cycle norm taken by the next cycle's first step. out is
/// written as by red_black_step_device; a caller that stops on the norm keeps u.
template <class T, int Rank>
double red_black_step_residual_device(const view_accessor<const T, Rank>& u, const view_accessor<const T, Rank>& g,
                                      const view_accessor<T, Rank>& out, const star_level<T, Rank>& op, T weight,
                                      int first_parity);

/// max |g - A' u| over the interior, NaN when any term is NaN.
template <class T, int Rank>
double residual_max_device(const view_accessor<const T, Rank>& u, const view_accessor<const T, Rank>& g,
                           const star_level<T, Rank>& op);

/// coarse = R (g - A' u) (full weighting, not the adjoint), coarse's interior only.
template <class T, int Rank>
void residual_restrict_device(const view_accessor<const T, Rank>& u, const view_accessor<const T, Rank>& g,
                              const view_accessor<T, Rank>& coarse, const star_level<T, Rank>& op,
                              const coarsening_modes<Rank>& modes);

/// fine += P coarse, coarse's walls by coarse_op's rules (b must be 0).
template <class T, int Rank>
void prolong_correction_device(const view_accessor<const T, Rank>& coarse, const view_accessor<T, Rank>& fine,
                        const star_level<T, Rank>& coarse_op, const coarsening_modes<Rank>& modes);

/// v's interior = 0 (a coarse level's start in a cycle, on the stream a recording captures).
template <class T, int Rank>
void zero_interior_device(const view_accessor<T, Rank>& v);
/// Conjugate gradients on A' u = g in one block from u, r, p, q the scratch (u's extents):
/// until |r|_2 <= rtol |r_0|_2 or max_iterations; `singular` projects out the constants.
/// For levels of at most coarse_cg_max_points points.
inline constexpr long long coarse_cg_max_points = 4096;
template <class T, int Rank>
void coarse_cg_device(const view_accessor<T, Rank>& u, const view_accessor<const T, Rank>& g,
                      const view_accessor<T, Rank>& r, const view_accessor<T, Rank>& p, const view_accessor<T, Rank>& q,
                      const star_level<T, Rank>& op, double rtol, int max_iterations, bool singular);

// The customisation points algorithms/multigrid.hpp looks for (cuda::automatic only);
// coarse_cg_in declines (false) a level larger than coarse_cg_max_points.
template <class T, int Rank>
  requires(Rank == 2 || Rank == 3)
void red_black_step_in(const automatic&, const view_accessor<const T, Rank>& u, const view_accessor<const T, Rank>& g,
                       const view_accessor<T, Rank>& out, const star_level<T, Rank>& op, T weight, int first_parity) {
  red_black_step_device<T, Rank>(u, g, out, op, weight, first_parity);
}
template <class T, int Rank>
  requires(Rank == 2 || Rank == 3)
double red_black_step_residual_in(const automatic&, const view_accessor<const T, Rank>& u,
                                  const view_accessor<const T, Rank>& g, const view_accessor<T, Rank>& out,
                                  const star_level<T, Rank>& op, T weight, int first_parity) {
  return red_black_step_residual_device<T, Rank>(u, g, out, op, weight, first_parity);
}
template <class T, int Rank>
  requires(Rank == 2 || Rank == 3)
double residual_max_in(const automatic&, const view_accessor<const T, Rank>& u, const view_accessor<const T, Rank>& g,
                       const star_level<T, Rank>& op) {
  return residual_max_device<T, Rank>(u, g, op);
}
template <class T, int Rank>
  requires(Rank == 2 || Rank == 3)
void residual_restrict_in(const automatic&, const view_accessor<const T, Rank>& u,
                          const view_accessor<const T, Rank>& g, const view_accessor<T, Rank>& coarse,
                          const star_level<T, Rank>& op, const std::type_identity_t<coarsening_modes<Rank>>& modes) {
  residual_restrict_device<T, Rank>(u, g, coarse, op, modes);
}
template <class T, int Rank>
  requires(Rank == 2 || Rank == 3)
void prolong_correction_in(const automatic&, const view_accessor<const T, Rank>& coarse, const view_accessor<T, Rank>& fine,
                    const star_level<T, Rank>& coarse_op, const std::type_identity_t<coarsening_modes<Rank>>& modes) {
  prolong_correction_device<T, Rank>(coarse, fine, coarse_op, modes);
}
template <class T, int Rank>
  requires(Rank == 2 || Rank == 3)
void zero_interior_in(const automatic&, const view_accessor<T, Rank>& v) {
  zero_interior_device<T, Rank>(v);
}
/// The recorder of a cycle's coarse levels (cycle_recording.hpp), one per solver.
inline cycle_recording cycle_recording_for(const automatic&) { return {}; }
template <class T, int Rank>
  requires(Rank == 2 || Rank == 3)
bool coarse_cg_in(const automatic&, const view_accessor<T, Rank>& u, const view_accessor<const T, Rank>& g,
                  const view_accessor<T, Rank>& r, const view_accessor<T, Rank>& p, const view_accessor<T, Rank>& q,
                  const star_level<T, Rank>& op, double rtol, int max_iterations, bool singular) {
  long long points = 1;
  for (int d = 0; d < Rank; ++d) points *= u.n[d];
  if (points > coarse_cg_max_points) return false;  // the caller's CG, launch by launch
  coarse_cg_device<T, Rank>(u, g, r, p, q, op, rtol, max_iterations, singular);
  return true;
}

}  // namespace tessera::cuda
