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

  /// An H100 SXM (sm_90): 227 KiB of opt-in shared memory per block, 132 SMs, 3.35 TB/s.
  static device_limits h100() {
    device_limits l;
    l.name = "NVIDIA H100 (nominal)";
    l.shared_per_block_optin = 227 * 1024;
    l.multiprocessors = 132;
    l.compute_major = 9;
    l.memory_bandwidth_tbs = 3.35;
    return l;
  }
};

}  // namespace tessera::cuda
