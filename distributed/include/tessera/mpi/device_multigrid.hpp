#pragma once
// mpi::multigrid_solver on distributed device views (CudaSpace): each level's halos travel
// through a device_exchange of its own (device_exchange.hpp; the transport the solver was
// given, NCCL communicators shared between them), the smoothers, residuals and transfers
// run on the GPU with the caller's CUDA policy, and the agglomerated level is copied to
// the host, gathered and solved there (multigrid.hpp). Link tessera::mpi_cuda.
#include <memory>

#include "tessera/mpi/device_exchange.hpp"
#include "tessera/mpi/device_iterate.hpp"
#include "tessera/mpi/multigrid.hpp"

namespace tessera::mpi {

template <class T, int Rank>
struct level_halos<T, Rank, CudaSpace> {
  level_halos(const distributed_view<T, Rank, CudaSpace>& like, transport t)
      : exchange(std::make_unique<device_exchange<T, Rank>>(like, t)) {}
  void fill(const distributed_view<T, Rank, CudaSpace>& u, const boundary_conditions<Rank>& bc) {
    fill_halos(u, bc, *exchange);
  }
  std::unique_ptr<device_exchange<T, Rank>> exchange;
};

}  // namespace tessera::mpi
