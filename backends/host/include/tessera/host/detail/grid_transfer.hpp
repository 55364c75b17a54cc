#pragma once
// Grid transfers on host views (core/grid_transfer.hpp holds the weights): the customisation
// points tessera::restrict_residual and tessera::prolong_add reach for HostSpace views.
#include <type_traits>

#include "tessera/core/detail/accessor.hpp"
#include "tessera/core/grid_transfer.hpp"
#include "tessera/core/memory_space.hpp"
#include "tessera/host/policy.hpp"

namespace tessera {

namespace detail {
/// Calls body(point) for every point of extents n, in parallel when there are many.
template <int Rank, class Body>
void for_each_point_host(const array<index_t, Rank>& n, Body body) {
  index_t points = 1;
  for (int d = 0; d < Rank; ++d) points *= n[d];
  const index_t rows = Rank == 1 ? 1 : points / n[Rank - 1];
  if (points == 0) return;
#pragma omp parallel for if (points >= host::parallel_threshold)
  for (index_t r = 0; r < rows; ++r) {
    array<index_t, Rank> p{};
    index_t rest = r;
    for (int d = Rank - 2; d >= 0; --d) {
      p[d] = rest % n[d];
      rest /= n[d];
    }
    for (index_t x = 0; x < n[Rank - 1]; ++x) {
      p[Rank - 1] = x;
      body(p);
    }
  }
}
}  // namespace detail

/// coarse = restriction of fine (adjoint: the prolongation's transpose along cell axes).
template <class T, int Rank>
void restrict_in(HostSpace, const view_accessor<const T, Rank>& fine, const view_accessor<T, Rank>& coarse,
                 const std::type_identity_t<coarsening_modes<Rank>>& modes, bool adjoint) {
  detail::for_each_point_host<Rank>(coarse.n, [&](const array<index_t, Rank>& I) {
    index_t off = 0;
    for (int d = 0; d < Rank; ++d) off += I[d] * coarse.stride[d];
    coarse.origin[off] = detail::restrict_point<T, Rank>(fine, I, modes, adjoint);
  });
}

/// fine += linear prolongation of coarse (whose first ghost layer is filled).
template <class T, int Rank>
void prolong_add_in(HostSpace, const view_accessor<const T, Rank>& coarse, const view_accessor<T, Rank>& fine,
                    const std::type_identity_t<coarsening_modes<Rank>>& modes) {
  detail::for_each_point_host<Rank>(fine.n, [&](const array<index_t, Rank>& i) {
    index_t off = 0;
    for (int d = 0; d < Rank; ++d) off += i[d] * fine.stride[d];
    fine.origin[off] += detail::prolong_point<T, Rank>(coarse, i, modes);
  });
}

/// The first ghost layer on one side (0 low, 1 high) of `axis` = factor * the interior layer
/// next to it, over the other axes' whole padded range (faces taken in axis order then give
/// corners the product of their factors).
template <class T, int Rank>
void extrapolate_face_in(HostSpace, const view_accessor<T, Rank>& a, int axis, int side, T factor) {
  array<index_t, Rank> span{};
  index_t points = 1;
  for (int d = 0; d < Rank; ++d) {
    span[d] = d == axis ? 1 : a.n[d] + 2 * a.ghost;
    points *= span[d];
  }
  const index_t ghost_at = side ? a.n[axis] : -1, from_at = side ? a.n[axis] - 1 : 0;
  for (index_t i = 0; i < points; ++i) {
    index_t rest = i, off = 0;
    for (int d = Rank - 1; d >= 0; --d) {
      const index_t c = rest % span[d];
      rest /= span[d];
      if (d != axis) off += (c - a.ghost) * a.stride[d];
    }
    a.origin[off + ghost_at * a.stride[axis]] = factor * a.origin[off + from_at * a.stride[axis]];
  }
}

}  // namespace tessera
