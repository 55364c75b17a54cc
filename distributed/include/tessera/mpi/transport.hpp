#pragma once
// How the halos of device views travel between ranks (device_exchange.hpp):
//
//   host_staged     pack on the GPU, copy to pinned host memory, MPI_Sendrecv, copy back,
//                   unpack: works with every MPI; costs two PCIe/C2C crossings a message.
//   cuda_aware_mpi  MPI_Sendrecv on the device buffers: needs an MPI built with CUDA
//                   support (Open MPI: `ompi_info --parsable --all` says built_with_cuda_support:value:true;
//                   scripts/build-cuda-aware-mpi.sh builds one).
//   nccl            ncclSend/ncclRecv in a group on the exchange's stream: GPU to GPU over
//                   NVLink where there is one, no host in the path, nothing blocks the host.
//                   Needs tessera built with NCCL (found by CMake: TESSERA_MPI_NCCL).
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <optional>
#include <string>
#include <string_view>

namespace tessera::mpi {

enum class transport { host_staged, cuda_aware_mpi, nccl };

/// "host-staged", "cuda-aware-mpi", "nccl": the names the command line takes.
inline std::string to_string(transport t) {
  return t == transport::host_staged ? "host-staged" : t == transport::cuda_aware_mpi ? "cuda-aware-mpi" : "nccl";
}

inline std::optional<transport> transport_by_name(std::string_view s) {
  for (transport t : {transport::host_staged, transport::cuda_aware_mpi, transport::nccl})
    if (s == to_string(t)) return t;
  return std::nullopt;
}

/// True when this MPI takes device pointers (asked of the library at run time where it
/// can say, Open MPI's MPIX_Query_cuda_support; false where it cannot).
inline bool cuda_aware_mpi_available() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

/// True when tessera was built with NCCL (the nccl transport exists).
constexpr bool nccl_available() {
#ifdef TESSERA_MPI_NCCL
  return true;
#else
  return false;
#endif
}

/// Why transport t cannot run here, or empty when it can.
inline std::string transport_unavailable_reason(transport t) {
  if (t == transport::cuda_aware_mpi && !cuda_aware_mpi_available())
    return "this MPI does not take device pointers (built without CUDA support: Open MPI's ompi_info "
           "--parsable --all | grep built_with_cuda_support); use transport nccl or host-staged";
  if (t == transport::nccl && !nccl_available())
    return "tessera was built without NCCL (CMake found no nccl.h / libnccl; set NCCL_ROOT and "
           "reconfigure); use transport host-staged";
  return {};
}

}  // namespace tessera::mpi
