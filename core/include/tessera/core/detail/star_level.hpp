#pragma once
// A multigrid level's operator and walls in the form the backends' multigrid kernels take
// (tessera/cuda/detail/multigrid_kernels.hpp): a constant radius-1 star in its positive form
//
//   A' u = diag u - sum_a w_a (u(+a) + u(-a))
//
// and, beyond face f (2 axis + side: 0 low, 1 high), the value a[f] * (the interior point
// beside the face) + b[f] in place of a ghost. This is what the ghost fills write on a level
// without periodic axes: Dirichlet with the wall on the ghost a = 0, b = the wall value; a
// wall between grid points (coarse levels, homogeneous) a = dirichlet_ghost_factor, b = 0;
// Neumann a = 1, b = 0 (core/boundary.hpp: u(-1) = u(0)).
#include "tessera/core/array.hpp"

namespace tessera {

template <class T, int Rank>
struct star_level {
  T diag = 0;
  array<T, Rank> w{};
  array<T, 2 * Rank> a{}, b{};
};

}  // namespace tessera
