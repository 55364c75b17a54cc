#pragma once
// Host execution policies. Both reach HostSpace views only.
#include <string>

#include "tessera/core/config.hpp"
#include "tessera/core/policy.hpp"

namespace tessera::host {

/// Interior points below which host loops stay on the calling thread (see parallel.hpp).
inline constexpr index_t parallel_threshold = index_t(1) << 14;

/// The reference: plain nested loops, one thread, points summed in declaration order.
/// Slow by design and obviously correct; every other policy is checked against it.
struct serial {
  static std::string name() { return "host:serial"; }
  template <class Space>
  static constexpr bool reaches = Space::host_accessible;
};

/// OpenMP over the outer axes (z and y rows share the threads), the contiguous axis
/// vectorised with the shape's offsets unrolled at compile time.
/// num_threads = 0 uses OpenMP's default (OMP_NUM_THREADS or every core).
struct parallel {
  int num_threads = 0;
  static std::string name() { return "host:parallel"; }
  template <class Space>
  static constexpr bool reaches = Space::host_accessible;
};

}  // namespace tessera::host
