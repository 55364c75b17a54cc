#pragma once
// Ghost-layer fills of host views (the rules: core/boundary.hpp): fill_ghosts_in, the
// customisation point tessera::fill_ghosts reaches for HostSpace views.
#include "tessera/core/detail/accessor.hpp"
#include "tessera/core/boundary.hpp"
#include "tessera/core/memory_space.hpp"

namespace tessera {

/// The fill of one face (axis d, side 0 low / 1 high) of a host view's ghost layer: the
/// box detail::ghost_slab names, by boundary b. fill_ghosts_in runs it for every face in
/// order; a distributed view runs it for the faces that are global boundaries only.
template <class T, int Rank>
void fill_ghost_face(HostSpace, const view_accessor<T, Rank>& a, const boundary& b, int d, int side) {
  if (b.kind == boundary_kind::fixed) return;  // the caller's ghosts: left as they are
  index_t box_lo[3] = {0, 0, 0}, box_hi[3] = {1, 1, 1};
  detail::ghost_slab<Rank>(a.n, a.ghost, d, side, box_lo, box_hi);
  // Axes right-aligned in three (1D and 2D views: leading axes of one cell, stride 0), so
  // the innermost loop runs along the last, contiguous axis: a line of the face is a fill
  // or a copy at one offset, whose indices are worked out once a line, not once a cell
  // (worked out per cell, the indices cost more than the copies: perf/RESULTS.md).
  constexpr int shift = 3 - Rank;
  index_t lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1}, stride[3] = {0, 0, 0}, n[3] = {1, 1, 1};
  for (int e = 0; e < Rank; ++e)
    lo[e + shift] = box_lo[e], hi[e + shift] = box_hi[e], stride[e + shift] = a.stride[e], n[e + shift] = a.n[e];
  const int v = d + shift;  // the face's axis among the three
  const auto source = [&](int axis, index_t i) { return axis == v ? detail::ghost_source(i, n[axis], b.kind) : i; };
  const bool dirichlet = b.kind == boundary_kind::dirichlet;
  const T value = static_cast<T>(b.value);
  // Lines split over threads where the face is large: no line reads another line's ghost
  // cells of this face, only cells the rule maps inside.
  [[maybe_unused]] const bool threads = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]) >= (index_t(1) << 15);
#pragma omp parallel for collapse(2) schedule(static) if (threads)
  for (index_t i0 = lo[0]; i0 < hi[0]; ++i0)
    for (index_t i1 = lo[1]; i1 < hi[1]; ++i1) {
      T* const line = a.origin + i0 * stride[0] + i1 * stride[1];
      const T* const from = a.origin + source(0, i0) * stride[0] + source(1, i1) * stride[1];
      if (v == 2) {  // the face crosses the line: each cell by its own coordinate
        for (index_t i2 = lo[2]; i2 < hi[2]; ++i2)
          line[i2 * stride[2]] = !dirichlet                  ? from[source(2, i2) * stride[2]]
                                 : detail::on_wall(i2, n[2]) ? value
                                                             : detail::reflect_about_wall(b.value, from[source(2, i2) * stride[2]]);
      } else if (dirichlet && detail::on_wall(v == 0 ? i0 : i1, n[v])) {  // a line of the wall
        for (index_t i2 = lo[2]; i2 < hi[2]; ++i2) line[i2 * stride[2]] = value;
      } else if (dirichlet) {  // a line beyond the wall
        for (index_t i2 = lo[2]; i2 < hi[2]; ++i2)
          line[i2 * stride[2]] = detail::reflect_about_wall(b.value, from[i2 * stride[2]]);
      } else {
        for (index_t i2 = lo[2]; i2 < hi[2]; ++i2) line[i2 * stride[2]] = from[i2 * stride[2]];
      }
    }
}

template <class T, int Rank>
void fill_ghosts_in(HostSpace, const view_accessor<T, Rank>& a, const boundary_conditions<Rank>& bc) {
  for (int d = 0; d < Rank; ++d)
    for (int side = 0; side < 2; ++side) fill_ghost_face(HostSpace{}, a, bc.faces[2 * d + side], d, side);
}

}  // namespace tessera
