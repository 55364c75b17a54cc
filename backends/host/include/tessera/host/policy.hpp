#pragma once
// Host execution policies. Both reach HostSpace views only.
#include <cstddef>
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

/// How host::parallel writes its output.
enum class stores {
  /// streaming for outputs of at least streaming_store_bytes, cached below
  automatic,
  /// ordinary stores: the output stays in cache for whatever reads it next
  cached,
  /// streaming (non-temporal) stores in whole cache lines: no read of the output's lines
  /// before they are written, none of them left in cache (x86 with SSE2, float and
  /// double; elsewhere ordinary stores)
  streaming,
};

/// Output size (interior bytes) from which stores::automatic streams: larger than the
/// private caches of a few cores, so the output would leave them before anything read it.
inline constexpr std::size_t streaming_store_bytes = std::size_t(4) << 20;

/// OpenMP over the outer axes (z and y rows share the threads), the contiguous axis
/// vectorised with the shape's offsets unrolled at compile time; large outputs written
/// with streaming stores (`store`, see stores).
/// num_threads = 0 uses OpenMP's default (OMP_NUM_THREADS or every core).
struct parallel {
  /// at most max_threads() (a larger team once overflowed libgomp's stack)
  int num_threads = 0;
  stores store = stores::automatic;
  /// Time steps iterate fuses per pass under boundary conditions (fused_steps.hpp); 0 or
  /// 1: a sweep a step. Off by default (a sweep a step is what every other host path and
  /// the tests' references do); 4 is the measured best on the 2-core build VM, where a
  /// fused pass beat a sweep a step by half or more and 3 to 8 steps ran close to 4
  /// (perf/RESULTS.md).
  int fuse = 0;
  /// The most steps a pass may fuse: a pass keeps fuse levels of 2 r + 1 planes each.
  static constexpr int max_fuse = 64;
  static std::string name() { return "host:parallel"; }
  template <class Space>
  static constexpr bool reaches = Space::host_accessible;
};

}  // namespace tessera::host
