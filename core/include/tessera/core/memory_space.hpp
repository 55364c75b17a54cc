#pragma once
// Memory spaces: where a view's elements live. A space allocates, frees, zero-fills and
// says whether host code may dereference its pointers.
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "tessera/core/config.hpp"
#include "tessera/core/cuda_check.hpp"
#include "tessera/core/errors.hpp"

namespace tessera {

/// Ordinary host memory, aligned to 128 bytes (a cache-line pair; what AVX-512 and
/// the GPU's 128-byte transactions both like).
struct HostSpace {
  static constexpr const char* name = "HostSpace";
  static constexpr bool host_accessible = true;
  static constexpr std::size_t alignment = 128;

  static void* allocate(std::size_t bytes, const std::string& label) {
    if (bytes == 0) bytes = alignment;
    std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;
    void* p = std::aligned_alloc(alignment, rounded);
    if (!p)
      throw allocation_error("tessera: could not allocate " + std::to_string(bytes) +
                             " bytes of host memory for view '" + label + "'");
    std::memset(p, 0, rounded);
    return p;
  }
  static void deallocate(void* p) noexcept { std::free(p); }
};

#if TESSERA_ENABLE_CUDA
/// Device memory of the current CUDA device (cudaMalloc; 256-byte aligned).
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
      throw allocation_error("tessera: cudaMalloc of " + std::to_string(bytes) +
                             " bytes for view '" + label + "' failed: " + cudaGetErrorString(st) +
                             (known ? "; " + std::to_string(free_b) + " bytes free of " +
                                          std::to_string(total_b)
                                    : std::string("; no usable CUDA device")));
    }
    TESSERA_CUDA_CHECK(cudaMemset(p, 0, bytes), "zero-filling view '" + label + "'");
    return p;
  }
  static void deallocate(void* p) noexcept { cudaFree(p); }
};
#endif

template <class S>
concept memory_space = requires {
  { S::name } -> std::convertible_to<const char*>;
  { S::host_accessible } -> std::convertible_to<bool>;
};

}  // namespace tessera
