#pragma once
// The multigrid transfers between a level and the next coarser one (core/grid_transfer.hpp
// says which weights and why), run in the views' memory space (found by argument-dependent
// lookup: restrict_in / prolong_add_in):
//   restrict_full_weighting(fine, coarse, modes [, adjoint])   coarse = R fine
//   prolong_add(coarse, fine, modes)               fine += P coarse       (reads coarse's first ghost layer)
//   extrapolate_ghost_face(v, axis, side, factor)  a wall between grid points (coarse levels)
// The extents must match the modes (coarse_extent): a vertex axis of n = 2m + 1 fine points
// has m coarse ones, a cell axis of n = 2m has m, an axis not coarsened (none) keeps n.
#include <string>
#include <type_traits>

#include "tessera/core/errors.hpp"
#include "tessera/core/grid_transfer.hpp"
#include "tessera/core/view.hpp"
#include "tessera/core/detail/view_checks.hpp"

namespace tessera {

namespace detail {
template <class T, int Rank, class Space>
void check_transfer(const View<T, Rank, Space>& fine, const View<T, Rank, Space>& coarse,
                    const std::type_identity_t<coarsening_modes<Rank>>& modes, const std::string& who) {
  require_allocated(fine, who, "fine view");
  require_allocated(coarse, who, "coarse view");
  if (fine.data() == coarse.data())
    throw aliasing_error(who + ": the fine and the coarse view are the same memory (" + fine.describe() + ")");
  for (int d = 0; d < Rank; ++d) {
    const auto m = coarse_extent(fine.extents()[d], modes[d]);
    if (!m || *m != coarse.extents()[d])
      throw extent_mismatch_error(who + ": axis " + std::to_string(d) + " of fine " + fine.describe() +
                                  " coarsens (" + to_string(modes[d]) + ") to " +
                                  (m ? std::to_string(*m) : std::string("nothing: a vertex axis needs an odd "
                                                                        "extent >= 3, a cell axis an even one")) +
                                  " points, but coarse " + coarse.describe() + " has " +
                                  std::to_string(coarse.extents()[d]));
  }
}
}  // namespace detail

/// coarse = full-weighting restriction of fine (core/grid_transfer.hpp); adjoint: along cell
/// axes the prolongation's transpose, which reads fine's first ghost layer (the caller fills
/// it). Coarse's ghosts are not written.
template <class T, int Rank, class Space>
void restrict_full_weighting(const View<T, Rank, Space>& fine, const View<T, Rank, Space>& coarse,
                             const std::type_identity_t<coarsening_modes<Rank>>& modes, bool adjoint = false) {
  detail::check_transfer(fine, coarse, modes, "tessera::restrict_full_weighting");
  for (int d = 0; d < Rank; ++d)
    if (modes[d] == coarsening::cell && adjoint && fine.ghost() < 1)
      throw invalid_argument_error("tessera::restrict_full_weighting: fine " + fine.describe() +
                                   " has no ghost layer; a cell axis reads one (allocate it with ghost 1, filled)");
  const view_accessor<const T, Rank> f = fine.accessor();
  restrict_in(Space{}, f, coarse.accessor(), modes, adjoint);
}

/// fine += linear prolongation of coarse, whose first ghost layer must hold its boundary
/// values (fill_ghosts with the coarse level's conditions).
template <class T, int Rank, class Space>
void prolong_add(const View<T, Rank, Space>& coarse, const View<T, Rank, Space>& fine,
                 const std::type_identity_t<coarsening_modes<Rank>>& modes) {
  detail::check_transfer(fine, coarse, modes, "tessera::prolong_add");
  if (coarse.ghost() < 1)
    throw invalid_argument_error("tessera::prolong_add: coarse " + coarse.describe() +
                                 " has no ghost layer; prolongation reads one (allocate it with ghost 1)");
  const view_accessor<const T, Rank> c = coarse.accessor();
  prolong_add_in(Space{}, c, fine.accessor(), modes);
}

/// v's first ghost layer on one side (0 low, 1 high) of `axis` = factor * the interior layer
/// next to it, across the other axes' padded range: a homogeneous Dirichlet wall between
/// grid points (core/grid_transfer.hpp's dirichlet_ghost_factor). Run after fill_ghosts.
template <class T, int Rank, class Space>
void extrapolate_ghost_face(const View<T, Rank, Space>& v, int axis, int side, T factor) {
  detail::require_allocated(v, "tessera::extrapolate_ghost_face", "view");
  if (axis < 0 || axis >= Rank || side < 0 || side > 1 || v.ghost() < 1 || v.extents()[axis] < 1)
    throw invalid_argument_error("tessera::extrapolate_ghost_face(" + v.describe() + "): axis " + std::to_string(axis) +
                                 ", side " + std::to_string(side) +
                                 " needs an axis of the view, side 0 or 1, a ghost layer and a nonempty axis");
  extrapolate_face_in(Space{}, v.accessor(), axis, side, factor);
}

}  // namespace tessera
