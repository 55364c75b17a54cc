#pragma once
// Memory spaces: where a view's elements live. A space allocates, frees, zero-fills and
// says whether host code may dereference its pointers. Core knows the host's memory
// only; each backend defines its own space beside its code (tessera/cuda/memory_space.hpp:
// CudaSpace) and the operations algorithms need on it as functions found by
// argument-dependent lookup on the space: copy_bytes here, and synchronize,
// fill_ghosts_in, compare_in, reduce_in, max_abs_in, add_scaled_in and
// sweep_automatically in the backends (the host's in backends/host).
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "tessera/core/config.hpp"
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


/// Copies n bytes between two allocations of the host (deep_copy's customisation point:
/// a backend overloads it for its space paired with HostSpace and with itself).
inline void copy_bytes(HostSpace, HostSpace, void* dst, const void* src, std::size_t n, const std::string&) {
  std::memcpy(dst, src, n);
}

template <class S>
concept memory_space = requires {
  { S::name } -> std::convertible_to<const char*>;
  { S::host_accessible } -> std::convertible_to<bool>;
};

}  // namespace tessera
