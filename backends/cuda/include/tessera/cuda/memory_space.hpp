#pragma once
// CudaSpace: device memory of the current CUDA device (cudaMalloc, 256-byte aligned,
// zero-filled), and the copies deep_copy makes between it and the host (found by
// argument-dependent lookup on the spaces, see core/memory_space.hpp). The type lives in
// tessera::cuda, beside the code that serves it, and is named tessera::CudaSpace too.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

#include "tessera/core/errors.hpp"
#include "tessera/core/memory_space.hpp"
#include "tessera/cuda/cuda_check.hpp"

namespace tessera::cuda {

struct CudaSpace {
  static constexpr const char* name = "CudaSpace";
  static constexpr bool host_accessible = false;

  static void* allocate(std::size_t bytes, const std::string& label) {
    if (bytes == 0) bytes = 256;
    void* p = nullptr;
    cudaError_t st = cudaMalloc(&p, bytes);
    if (st != cudaSuccess) {
      std::size_t free_b = 0, total_b = 0;
      cudaGetLastError();  // clear the sticky error before asking for the free memory
      bool known = cudaMemGetInfo(&free_b, &total_b) == cudaSuccess;
      throw allocation_error("tessera: cudaMalloc of " + std::to_string(bytes) + " bytes for view '" + label +
                             "' failed: " + cudaGetErrorString(st) +
                             (known ? "; " + std::to_string(free_b) + " bytes free of " + std::to_string(total_b)
                                    : std::string("; no usable CUDA device")));
    }
    TESSERA_CUDA_CHECK(cudaMemset(p, 0, bytes), "zero-filling view '" + label + "'");
    return p;
  }
  static void deallocate(void* p) noexcept { cudaFree(p); }
};

inline void copy_bytes(CudaSpace, HostSpace, void* dst, const void* src, std::size_t n, const std::string& what) {
  TESSERA_CUDA_CHECK(cudaMemcpy(dst, src, n, cudaMemcpyHostToDevice), what);
}
inline void copy_bytes(HostSpace, CudaSpace, void* dst, const void* src, std::size_t n, const std::string& what) {
  TESSERA_CUDA_CHECK(cudaMemcpy(dst, src, n, cudaMemcpyDeviceToHost), what);
}
inline void copy_bytes(CudaSpace, CudaSpace, void* dst, const void* src, std::size_t n, const std::string& what) {
  TESSERA_CUDA_CHECK(cudaMemcpy(dst, src, n, cudaMemcpyDeviceToDevice), what);
}

/// View::wrap's check of foreign memory: the driver must know `p` as memory of the
/// current device (cudaMalloc'd, or managed); host memory, pinned or not, and another
/// device's memory are refused by name (a kernel given them would fault or read across
/// the bus).
inline void check_wrappable(CudaSpace, const void* p, std::size_t, const std::string& who) {
  cudaPointerAttributes a{};
  const cudaError_t st = cudaPointerGetAttributes(&a, p);
  if (st != cudaSuccess) {
    cudaGetLastError();
    throw invalid_argument_error(who + ": the CUDA driver does not know the address (" + cudaGetErrorString(st) +
                                 "); pass device memory of the current device");
  }
  if (a.type != cudaMemoryTypeDevice && a.type != cudaMemoryTypeManaged)
    throw invalid_argument_error(who + ": the address is " +
                                 (a.type == cudaMemoryTypeHost ? std::string("pinned host memory")
                                                               : std::string("host memory the driver does not map")) +
                                 ", not device memory; wrap it as a HostSpace view or copy it to the device");
  int current = 0;
  TESSERA_CUDA_CHECK(cudaGetDevice(&current), who);
  if (a.type == cudaMemoryTypeDevice && a.device != current)
    throw invalid_argument_error(who + ": the address is memory of device " + std::to_string(a.device) +
                                 " but the current device is " + std::to_string(current) +
                                 "; cudaSetDevice(" + std::to_string(a.device) + ") first");
}

}  // namespace tessera::cuda

namespace tessera {
using cuda::CudaSpace;
}  // namespace tessera
