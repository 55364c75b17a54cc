#pragma once
// Global reductions over distributed views: each rank reduces its block's interior
// (tessera::dot / norm_l2 / norm_max, in double), then MPI_Allreduce combines them; every
// rank gets the result. Sums are added in another order than one undistributed
// reduction: they agree to rounding, not bit for bit (norm_max does agree exactly).
#include <mpi.h>

#include <cmath>

#include "tessera/algorithms/reduce.hpp"
#include "tessera/mpi/distributed_view.hpp"

namespace tessera::mpi {

namespace detail {
template <int Rank>
double allreduce(const cartesian_domain<Rank>& dom, double local, MPI_Op op) {
  double global = 0;
  tessera::mpi::detail::check(MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, op, dom.comm()), "MPI_Allreduce");
  return global;
}
}  // namespace detail

template <class T, int Rank, class Space>
double dot(const distributed_view<T, Rank, Space>& a, const distributed_view<T, Rank, Space>& b) {
  return detail::allreduce(a.domain(), tessera::dot(a.local(), b.local()), MPI_SUM);
}

template <class T, int Rank, class Space>
double norm_l2(const distributed_view<T, Rank, Space>& a) {
  const double l = tessera::norm_l2(a.local());
  return std::sqrt(detail::allreduce(a.domain(), l * l, MPI_SUM));
}

template <class T, int Rank, class Space>
double norm_max(const distributed_view<T, Rank, Space>& a) {
  return detail::allreduce(a.domain(), tessera::norm_max(a.local()), MPI_MAX);
}

}  // namespace tessera::mpi
