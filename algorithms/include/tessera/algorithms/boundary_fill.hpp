#pragma once
// fill_ghosts(view, bc): writes the ghost layer of `view` from its interior by the
// boundary conditions `bc` (core/boundary.hpp), on the host or — for CUDA views — on the
// device. Interior points are never written, nor the ghosts of a fixed face.
#include <string>
#include <utility>

#include "tessera/core/boundary.hpp"
#include "tessera/core/errors.hpp"
#include "tessera/core/view.hpp"
#include "tessera/core/detail/view_checks.hpp"

namespace tessera {

namespace detail {
template <class T, int Rank, class Space>
void check_boundary_conditions(const View<T, Rank, Space>& v, const boundary_conditions<Rank>& bc) {
  require_allocated(v, "tessera::fill_ghosts", "view");
  for (int d = 0; d < Rank; ++d) {
    const auto lo = bc.faces[2 * d].kind, hi = bc.faces[2 * d + 1].kind;
    if ((lo == boundary_kind::periodic) != (hi == boundary_kind::periodic))
      throw invalid_argument_error("tessera::fill_ghosts(" + v.describe() + "): axis " + std::to_string(d) +
                                   " is periodic on one face only (" + to_string(lo) + " / " + to_string(hi) +
                                   "); set periodic on both faces of the axis");
    // periodic and Neumann faces copy interior layers; fixed faces write nothing
    const auto copying = [](boundary_kind k) { return k == boundary_kind::periodic || k == boundary_kind::neumann; };
    const bool copies = copying(lo) || copying(hi);
    if (copies && v.ghost() > v.extents()[d])
      throw invalid_argument_error("tessera::fill_ghosts(" + v.describe() + "): a " +
                                   to_string(copying(lo) ? lo : hi) + " fill of axis " +
                                   std::to_string(d) + " copies " + std::to_string(v.ghost()) +
                                   " interior layers but the axis has " + std::to_string(v.extents()[d]) +
                                   "; use a ghost width <= the extent, or Dirichlet there");
    // Dirichlet: the wall layer holds the value, each layer beyond reflects an interior one
    const bool reflects = lo == boundary_kind::dirichlet || hi == boundary_kind::dirichlet;
    if (reflects && v.ghost() - 1 > v.extents()[d])
      throw invalid_argument_error("tessera::fill_ghosts(" + v.describe() + "): a Dirichlet fill of axis " +
                                   std::to_string(d) + " reflects the " + std::to_string(v.ghost() - 1) +
                                   " layer(s) beyond the wall from as many interior layers, but the axis has " +
                                   std::to_string(v.extents()[d]) + "; use a ghost width <= the extent + 1");
  }
}

}  // namespace detail

/// Fills the ghost layer of v from its interior by bc. The fill runs in v's memory space:
/// fill_ghosts_in is found by argument-dependent lookup on the space (the host's in
/// backends/host, each other backend's beside its space). `extra` goes to the space's
/// fill (a CUDA stream for CudaSpace views).
template <class T, int Rank, class Space, class... Extra>
void fill_ghosts(const View<T, Rank, Space>& v, const boundary_conditions<Rank>& bc, Extra&&... extra) {
  detail::check_boundary_conditions(v, bc);
  if (v.ghost() == 0) return;
  fill_ghosts_in(Space{}, v.accessor(), bc, std::forward<Extra>(extra)...);
}

}  // namespace tessera
