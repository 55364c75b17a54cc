#pragma once
// fill_ghosts(view, bc): writes the ghost layer of `view` from its interior by the
// boundary conditions `bc` (core/boundary.hpp), on the host or — for CUDA views — on the
// device. Interior points are never written.
#include <string>

#include "tessera/core/boundary.hpp"
#include "tessera/core/errors.hpp"
#include "tessera/core/view.hpp"
#include "tessera/core/view_checks.hpp"
#if TESSERA_ENABLE_CUDA
#include "tessera/cuda/boundary_fill.hpp"
#endif

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
    const bool copies = lo != boundary_kind::dirichlet || hi != boundary_kind::dirichlet;
    if (copies && v.ghost() > v.extents()[d])
      throw invalid_argument_error("tessera::fill_ghosts(" + v.describe() + "): a " +
                                   to_string(lo == boundary_kind::dirichlet ? hi : lo) + " fill of axis " +
                                   std::to_string(d) + " copies " + std::to_string(v.ghost()) +
                                   " interior layers but the axis has " + std::to_string(v.extents()[d]) +
                                   "; use a ghost width <= the extent, or Dirichlet there");
  }
}

/// The box of ghost cells that the fill of face (d, side) writes: axis d its g ghost
/// layers on that side; axes before d their full padded range (filled already); axes
/// after d their interior (filled later, over this axis' ghosts too).
template <int Rank>
void ghost_slab(const array<index_t, Rank>& n, index_t g, int d, int side, index_t* lo, index_t* hi) {
  for (int e = 0; e < Rank; ++e) {
    lo[e] = e < d ? -g : 0;
    hi[e] = e < d ? n[e] + g : n[e];
  }
  lo[d] = side == 0 ? -g : n[d];
  hi[d] = side == 0 ? 0 : n[d] + g;
}

template <class T, int Rank>
void fill_ghosts_host(const view_accessor<T, Rank>& a, const boundary_conditions<Rank>& bc) {
  for (int d = 0; d < Rank; ++d)
    for (int side = 0; side < 2; ++side) {
      const boundary b = bc.faces[2 * d + side];
      index_t lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
      ghost_slab<Rank>(a.n, a.ghost, d, side, lo, hi);
      index_t i[3];
      for (i[0] = lo[0]; i[0] < hi[0]; ++i[0])
        for (i[1] = lo[1]; i[1] < hi[1]; ++i[1])
          for (i[2] = lo[2]; i[2] < hi[2]; ++i[2]) {
            index_t off = 0, src = 0;
            for (int e = 0; e < Rank; ++e) {
              off += i[e] * a.stride[e];
              src += (e == d ? ghost_source(i[e], a.n[e], b.kind) : i[e]) * a.stride[e];
            }
            a.origin[off] = b.kind == boundary_kind::dirichlet ? static_cast<T>(b.value) : a.origin[src];
          }
    }
}
}  // namespace detail

template <class T, int Rank, class Space>
void fill_ghosts(const View<T, Rank, Space>& v, const boundary_conditions<Rank>& bc) {
  detail::check_boundary_conditions(v, bc);
  if (v.ghost() == 0) return;
  if constexpr (Space::host_accessible) {
    detail::fill_ghosts_host(v.accessor(), bc);
  } else {
#if TESSERA_ENABLE_CUDA
    cuda::fill_ghosts_device(v.accessor(), bc);
#endif
  }
}

}  // namespace tessera
