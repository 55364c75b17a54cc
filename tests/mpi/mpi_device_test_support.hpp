#pragma once
// What the distributed device suites share (test_mpi_device.cpp and, compiled by nvcc,
// test_mpi_device_point.cu, one program): the GPUs this rank sees, the transports to try,
// host copies of device blocks.
#include <doctest/doctest.h>

#include <vector>

#include <tessera/mpi/mpi.hpp>

#include "../support/cuda_support.hpp"
#include "mpi_test_support.hpp"

namespace mpi_test {

/// Set by main before any case runs.
inline int ranks_on_this_node = 1;
inline int gpus = 0;

/// Host-staged always; CUDA-aware MPI and NCCL where this machine has them (a MESSAGE
/// names each one skipped and why).
inline std::vector<tmpi::transport> transports_to_try() {
  std::vector<tmpi::transport> v{tmpi::transport::host_staged};
  if (tmpi::cuda_aware_mpi_available()) v.push_back(tmpi::transport::cuda_aware_mpi);
  else MESSAGE("transport cuda-aware-mpi skipped: " << tmpi::transport_unavailable_reason(tmpi::transport::cuda_aware_mpi));
  if (!tmpi::nccl_available())
    MESSAGE("transport nccl skipped: " << tmpi::transport_unavailable_reason(tmpi::transport::nccl));
  else if (ranks_on_this_node > gpus)
    MESSAGE("transport nccl skipped: " << ranks_on_this_node << " ranks share " << gpus
                                       << " GPU(s) on this node; NCCL needs one GPU a rank");
  else
    v.push_back(tmpi::transport::nccl);
  return v;
}

/// A host copy of a device block (ghosts included).
template <class T, int Rank>
tmpi::distributed_view<T, Rank> to_host(const tmpi::distributed_view<T, Rank, ts::CudaSpace>& d) {
  tmpi::distributed_view<T, Rank> h("host copy", d.domain(), d.ghost());
  ts::deep_copy(h.local(), d.local());
  return h;
}

}  // namespace mpi_test
