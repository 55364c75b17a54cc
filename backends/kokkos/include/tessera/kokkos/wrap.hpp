#pragma once
// kokkos::wrap: a tessera view over a Kokkos::View's memory, without copying, so a code
// that keeps its fields in Kokkos views sweeps them with every tessera policy. The Kokkos
// view holds the ghost layer: its interior is [ghost, extent - ghost) on every axis.
#include <Kokkos_Core.hpp>

#include <memory>
#include <string>
#include <type_traits>

#include "tessera/core/errors.hpp"
#include "tessera/core/extents.hpp"
#include "tessera/core/layout.hpp"
#include "tessera/core/memory_space.hpp"
#include "tessera/core/view.hpp"

namespace tessera::kokkos {

/// A tessera view (label `label`, tessera memory space Space) of Kokkos view `k`'s memory,
/// ghost width `ghost` inside it. The tessera view keeps a copy of `k` (Kokkos' reference
/// count), so the memory lives while either does; as with every Kokkos view, drop it
/// before Kokkos::finalize. Requires the last axis contiguous (LayoutRight, or a
/// LayoutStride with stride 1 there) and Space to agree with Kokkos' space on host
/// access (HostSpace for host memory, tessera::CudaSpace for Kokkos::CudaSpace).
/// Throws invalid_argument_error naming the view for an extent below 2 * ghost or a
/// layout tessera cannot index.
template <class Space = HostSpace, class KView>
auto wrap(std::string label, const KView& k, int ghost) {
  using T = typename KView::non_const_value_type;
  constexpr int Rank = static_cast<int>(KView::rank);
  static_assert(Rank >= 1 && Rank <= 3, "tessera::kokkos::wrap: tessera views have rank 1, 2 or 3");
  static_assert(std::is_same_v<typename KView::value_type, T>,
                "tessera::kokkos::wrap: a view of const elements cannot be swept into; wrap a non-const view");
  static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename KView::memory_space>::accessible ==
                    Space::host_accessible,
                "tessera::kokkos::wrap: the tessera memory space disagrees with the Kokkos view's on host access; "
                "wrap host memory as tessera::HostSpace and Kokkos::CudaSpace memory as tessera::CudaSpace");
  const std::string who = "tessera::kokkos::wrap: Kokkos view '" + k.label() + "' as '" + label + "'";
  if (ghost < 0) throw invalid_argument_error(who + ": ghost width " + std::to_string(ghost) + " is negative");
  extents<Rank> interior{};
  array<index_t, Rank> strides{};
  for (int d = 0; d < Rank; ++d) {
    const auto n = static_cast<index_t>(k.extent(d));
    if (n < 2 * static_cast<index_t>(ghost))
      throw invalid_argument_error(who + ": extent " + std::to_string(n) + " along axis " + std::to_string(d) +
                                   " cannot hold two ghost layers of width " + std::to_string(ghost) +
                                   "; the Kokkos view holds the ghosts (interior extent + 2 * ghost)");
    interior[d] = n - 2 * static_cast<index_t>(ghost);
  }
  // stride_0..2 exist in every Kokkos since 3.x (stride(r) only in later ones)
  strides[0] = static_cast<index_t>(k.stride_0());
  if constexpr (Rank >= 2) strides[1] = static_cast<index_t>(k.stride_1());
  if constexpr (Rank >= 3) strides[2] = static_cast<index_t>(k.stride_2());
  layout<Rank> l;
  try {
    l = layout<Rank>::strided(interior, ghost, strides);
  } catch (const invalid_argument_error& e) {
    throw invalid_argument_error(who + ": " + e.what());
  }
  return View<T, Rank, Space>::wrap(std::move(label), k.data(), l, std::make_shared<const KView>(k));
}

}  // namespace tessera::kokkos
