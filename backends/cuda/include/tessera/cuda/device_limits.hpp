#pragma once
// The device properties a launch plan depends on, as a plain struct so plans can be
// computed and unit-tested on machines without a GPU.
#include <cstddef>
#include <string>

namespace tessera::cuda {

struct device_limits {
  std::string name = "unknown";
  int max_threads_per_block = 1024;
  int max_block_dim[3] = {1024, 1024, 64};
  long long max_grid_dim[3] = {2147483647LL, 65535, 65535};
  std::size_t shared_per_block = 48 * 1024;         // without opting in
  std::size_t shared_per_block_optin = 48 * 1024;   // the most a kernel may opt in to
  int multiprocessors = 1;
  int compute_major = 0;  // 9 on Hopper: programmatic dependent launch (runtime.hpp)
  int compute_minor = 0;
  double memory_bandwidth_tbs = 0;  // peak, from the memory clock and bus width (0: unknown)
  bool cooperative_launch = true;   // grid-wide barriers (cuda::persistent); every sm_60+ GPU but some virtualised ones
  // What one SM holds at once (the driver's attributes; these defaults are sm_80's and sm_90's):
  // the bounds a plan's estimate of resident blocks starts from.
  int max_threads_per_multiprocessor = 2048;          // 1536 on sm_86/sm_89, 1024 on sm_75
  int max_blocks_per_multiprocessor = 32;             // 16 on sm_75/sm_86, 24 on sm_89
  std::size_t shared_per_multiprocessor = 228 * 1024;  // 164 KiB on sm_80, 100 KiB on sm_86/sm_89
  std::size_t reserved_shared_per_block = 1024;       // the system's share of each block's shared memory
  int registers_per_multiprocessor = 65536;
  /// The blocks an SM holds of the very kernel being planned, as the driver answers for its
  /// registers and shared memory (0: not known, and plans estimate from the bounds above).
  /// The launch sets it and plans again where a plan's chunk depends on it (dispatch.hpp).
  int kernel_blocks_per_sm = 0;

  /// An H100 SXM (sm_90): 227 KiB of opt-in shared memory per block, 132 SMs, 3.35 TB/s.
  static device_limits h100() {
    device_limits l;
    l.name = "NVIDIA H100 (nominal)";
    l.shared_per_block_optin = 227 * 1024;
    l.multiprocessors = 132;
    l.compute_major = 9;
    l.memory_bandwidth_tbs = 3.35;
    l.max_threads_per_multiprocessor = 2048;
    l.max_blocks_per_multiprocessor = 32;
    l.shared_per_multiprocessor = 228 * 1024;
    return l;
  }
};

}  // namespace tessera::cuda
