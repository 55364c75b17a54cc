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

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "tessera/core/config.hpp"
#include "tessera/core/errors.hpp"

namespace tessera {

/// Ordinary host memory, aligned to 128 bytes (a cache-line pair; what AVX-512 and
/// the GPU's 128-byte transactions both like). On Linux, allocations of 4 MiB or more
/// are aligned to 2 MiB and asked for transparent huge pages (madvise, before the first
/// touch), which kernels that leave THP at "madvise" grant only when asked. A fused host
/// pass, which reads several planes 256 KiB apart and writes another, ran faster on them
/// (fewer TLB misses, presumably: the VM it was measured on has no counters to say;
/// perf/RESULTS.md). A hint: refused, the memory is ordinary pages.
struct HostSpace {
  static constexpr const char* name = "HostSpace";
  static constexpr bool host_accessible = true;
  static constexpr std::size_t alignment = 128;
  static constexpr std::size_t huge_page = std::size_t(2) << 20, huge_from = std::size_t(4) << 20;

  static void* allocate(std::size_t bytes, const std::string& label) {
    if (bytes == 0) bytes = alignment;
    const bool huge = bytes >= huge_from;
    const std::size_t align = huge ? huge_page : alignment;
    if (bytes > std::size_t(-1) - align)
      throw allocation_error("tessera: " + std::to_string(bytes) + " bytes of host memory for view '" + label +
                             "' overflow the allocation size");
    std::size_t rounded = (bytes + align - 1) / align * align;
    void* p = std::aligned_alloc(align, rounded);
    if (!p)
      throw allocation_error("tessera: could not allocate " + std::to_string(bytes) +
                             " bytes of host memory for view '" + label + "'");
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (huge) madvise(p, rounded, MADV_HUGEPAGE);
#endif
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

/// View::wrap's check that foreign memory belongs to the space (found by
/// argument-dependent lookup on the space; each backend checks its own). Host memory
/// cannot be told from any other address here, so the host accepts every pointer: the
/// caller vouches for it (the Python module checks the array's device first).
inline void check_wrappable(HostSpace, const void*, std::size_t, const std::string&) {}

template <class S>
concept memory_space = requires {
  { S::name } -> std::convertible_to<const char*>;
  { S::host_accessible } -> std::convertible_to<bool>;
};

}  // namespace tessera
