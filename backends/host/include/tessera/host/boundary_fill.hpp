#pragma once
// Ghost-layer fills of host views (the rules: core/boundary.hpp): fill_ghosts_in, the
// customisation point tessera::fill_ghosts reaches for HostSpace views.
#include "tessera/core/accessor.hpp"
#include "tessera/core/boundary.hpp"
#include "tessera/core/memory_space.hpp"

namespace tessera {

/// The fill of one face (axis d, side 0 low / 1 high) of a host view's ghost layer: the
/// box detail::ghost_slab names, by boundary b. fill_ghosts_in runs it for every face in
/// order; a distributed view runs it for the faces that are global boundaries only.
template <class T, int Rank>
void fill_ghost_face(HostSpace, const view_accessor<T, Rank>& a, const boundary& b, int d, int side) {
  index_t lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  detail::ghost_slab<Rank>(a.n, a.ghost, d, side, lo, hi);
  // Lines along the last axis, split over threads where the face is large (a face of a
  // 256^3 field on one thread took as long as 5% of a fused pass, perf/RESULTS.md run 25):
  // no line reads another line's ghost cells of this face, only cells the rule maps inside.
  const index_t n0 = hi[0] - lo[0], n1 = hi[1] - lo[1];
  const bool threads = n0 * n1 * (hi[2] - lo[2]) >= (index_t(1) << 15);
#pragma omp parallel for collapse(2) schedule(static) if (threads)
  for (index_t i0 = lo[0]; i0 < hi[0]; ++i0)
    for (index_t i1 = lo[1]; i1 < hi[1]; ++i1) {
      index_t i[3] = {i0, i1, 0};
      for (i[2] = lo[2]; i[2] < hi[2]; ++i[2]) {
        index_t off = 0, src = 0;
        for (int e = 0; e < Rank; ++e) {
          off += i[e] * a.stride[e];
          src += (e == d ? detail::ghost_source(i[e], a.n[e], b.kind) : i[e]) * a.stride[e];
        }
        a.origin[off] = b.kind == boundary_kind::dirichlet ? static_cast<T>(b.value) : a.origin[src];
      }
    }
}

template <class T, int Rank>
void fill_ghosts_in(HostSpace, const view_accessor<T, Rank>& a, const boundary_conditions<Rank>& bc) {
  for (int d = 0; d < Rank; ++d)
    for (int side = 0; side < 2; ++side) fill_ghost_face(HostSpace{}, a, bc.faces[2 * d + side], d, side);
}

}  // namespace tessera
