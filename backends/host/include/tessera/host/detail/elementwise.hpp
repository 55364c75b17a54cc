#pragma once
// Element-wise updates of a host view's interior: add_scaled_in (out += alpha * f), the
// customisation point tessera::add_scaled reaches for HostSpace views.
#include "tessera/core/detail/accessor.hpp"
#include "tessera/core/memory_space.hpp"
#include "tessera/host/policy.hpp"

namespace tessera {

template <class T, int Rank>
void add_scaled_in(HostSpace, const view_accessor<T, Rank>& o, T alpha, const view_accessor<const T, Rank>& a) {
  const auto& n = o.n;
  [[maybe_unused]] index_t points = 1;
  for (int d = 0; d < Rank; ++d) points *= n[d];
  if constexpr (Rank == 1) {
    for (index_t x = 0; x < n[0]; ++x) o(x) += alpha * a(x);
  } else if constexpr (Rank == 2) {
#pragma omp parallel for if (points >= host::parallel_threshold)
    for (index_t y = 0; y < n[0]; ++y)
      for (index_t x = 0; x < n[1]; ++x) o(y, x) += alpha * a(y, x);
  } else {
#pragma omp parallel for collapse(2) if (points >= host::parallel_threshold)
    for (index_t z = 0; z < n[0]; ++z)
      for (index_t y = 0; y < n[1]; ++y)
        for (index_t x = 0; x < n[2]; ++x) o(z, y, x) += alpha * a(z, y, x);
  }
}

}  // namespace tessera
