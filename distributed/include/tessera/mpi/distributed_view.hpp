#pragma once
// distributed_view<T, Rank>: one field over a cartesian_domain. Each rank owns a local
// View of its block's extents with a ghost layer; global coordinates map to local ones by
// the rank's offset. Ghost layers are filled by fill_halos (halo_exchange.hpp): from the
// neighbours where the block borders another rank, by the boundary conditions where it
// borders the global boundary.
#include <array>
#include <string>

#include "tessera/core/memory_space.hpp"
#include "tessera/core/view.hpp"
#include "tessera/mpi/cartesian.hpp"

namespace tessera::mpi {

template <class T, int Rank, class Space = HostSpace>
class distributed_view {
 public:
  distributed_view() = default;
  /// The rank's block of `domain`, with `ghost` layers on every side.
  distributed_view(const std::string& label, const cartesian_domain<Rank>& domain, int ghost)
      : domain_(domain), local_(label, domain.local_extents(), ghost) {}
  /// A second field on the same domain with the same local layout (a sweep's output).
  distributed_view(const std::string& label, const distributed_view& like)
      : domain_(like.domain_), local_(label, like.local_.layout()) {}

  const View<T, Rank, Space>& local() const { return local_; }
  const cartesian_domain<Rank>& domain() const { return domain_; }
  const std::string& label() const { return local_.label(); }
  int ghost() const { return local_.ghost(); }
  const extents<Rank>& global_extents() const { return domain_.global_extents(); }
  /// This rank's local coordinate of global coordinate g (a ghost where g lies outside the block).
  std::array<index_t, Rank> to_local(const std::array<index_t, Rank>& g) const {
    std::array<index_t, Rank> l{};
    for (int a = 0; a < Rank; ++a) l[a] = g[a] - domain_.offset()[a];
    return l;
  }
  /// True when global interior point g is in this rank's block.
  bool owns(const std::array<index_t, Rank>& g) const {
    for (int a = 0; a < Rank; ++a)
      if (g[a] < domain_.offset()[a] || g[a] >= domain_.offset()[a] + domain_.local_extents()[a]) return false;
    return true;
  }

 private:
  cartesian_domain<Rank> domain_{};
  View<T, Rank, Space> local_;
};

}  // namespace tessera::mpi
