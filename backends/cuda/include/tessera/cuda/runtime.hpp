#pragma once
// The CUDA runtime as tessera sees it: device presence, limits (queried once per device),
// and the record of the last launch (what block and grid a kernel really ran with).
#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>
#include <string>

#include "tessera/cuda/device_limits.hpp"
#include "tessera/cuda/memory_space.hpp"
#include "tessera/cuda/launch_plan.hpp"

namespace tessera::cuda {

/// Number of CUDA devices; 0 when there is none or no usable driver (never throws).
int device_count();

/// "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.2 GiB)".
std::string device_description(int device);

/// Free and total memory of the current device in bytes (cudaMemGetInfo); {0, 0} when
/// there is no usable device (never throws).
struct memory_info {
  std::size_t free = 0, total = 0;
};
memory_info device_memory();

/// Limits of the current device, cached per device. Throws backend_error when no device.
const device_limits& current_device_limits();

/// cudaDeviceSynchronize, checked.
void synchronize();
/// The customisation point tessera::iterate reaches for CudaSpace views: asynchronous
/// errors surface here.
inline void synchronize(CudaSpace) { synchronize(); }

/// Overlapped launches (programmatic dependent launch, sm_90 and later): the built-in
/// sweeps and ghost fills let the next kernel of a stream start its blocks while the last
/// blocks of the one before it run; each waits for the grid before it to finish (its
/// writes visible) before it reads or writes memory, so results do not change. On small
/// grids this hides most of the gap between two kernels (measured: perf/RESULTS.md).
/// On by default; process-wide; false launches them one after another (comparisons).
void allow_overlapped_launches(bool on);
/// True when allowed and the current device has them (compute capability 9 or later),
/// and this thread is not recording a step graph (step_graph.hpp): a graph's kernels
/// measured faster launched plainly than with the attribute (perf/RESULTS.md).
bool overlapped_launches();

namespace detail {
/// step_graph's capture says when it starts and stops recording on this thread.
void recording_step_graph(bool on);
}  // namespace detail

/// What the most recent tessera launch on this host thread used.
struct launch_record {
  std::string policy;
  std::string shape;
  launch_plan plan;
  int block[3] = {0, 0, 0};        // the dim3 passed to the launch
  long long grid[3] = {0, 0, 0};
};
const launch_record& last_launch();

namespace detail {
/// The most devices tessera keeps per-device state for (scratch pools, result slots, the
/// driver's answers it caches).
inline constexpr int max_devices = 64;
/// The current device's index, in [0, max_devices); throws backend_error naming `what` (the
/// state asked for) when the runtime cannot say or the index lies beyond.
int checked_current_device(const std::string& what);
void record_launch(const launch_record& r);
/// Throws backend_error "launching <what> failed: <cuda error> [<policy>]" if the launch
/// (or an earlier asynchronous error) failed.
void check_launch(const std::string& what, const std::string& policy);
/// This host thread's device double for a reduction's result on the current device,
/// allocated on first use and kept (allocating and freeing one a call would synchronise the
/// device twice a call: on coarse multigrid levels, most of a dot product's time).
double* result_slot();
/// Raises the kernel's dynamic shared memory limit when the plan needs more than 48 KiB.
void allow_shared_bytes(const void* kernel, std::size_t bytes, const std::string& policy);
/// The current device's pool for the scratch memory a pass allocates on its stream
/// (cudaMallocFromPoolAsync) and frees after it: created on first use, it keeps what was
/// freed for the next pass instead of returning it to the system at each synchronisation
/// (the default pool's release threshold is 0: every pass would map its memory again, about
/// a millisecond for a few MB). Throws backend_error where the device has no memory pools.
cudaMemPool_t scratch_pool();
}  // namespace detail

namespace detail {
/// The blocks of `kernel` an SM holds at once with `threads` a block and `shared_bytes` of
/// dynamic shared memory, as the driver answers (its registers and shared memory decide;
/// the kernel's shared-memory limit is raised first where the bytes need the opt-in); 0
/// where the driver cannot say. The host cannot know a kernel's registers otherwise.
int resident_blocks_per_sm(const void* kernel, int threads, std::size_t shared_bytes);

/// A count the driver answers about something fixed (a kernel at its block size), asked once
/// per device and key in [0, Keys) and kept where positive. Each use is a static object of
/// its own: `get(key, ask)` runs `ask` (returning the count, 0 where the driver cannot say)
/// on the first call for the current device and key, and returns 0 where either is out of
/// range.
template <int Keys = 1>
class cached_per_device {
 public:
  template <class Ask>
  int get(int key, Ask&& ask) {
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= max_devices || key < 0 || key >= Keys) return 0;
    if (const int known = counts_[dev][key].load(std::memory_order_relaxed); known > 0) return known;
    const int answer = static_cast<Ask&&>(ask)();
    if (answer < 1) return 0;
    counts_[dev][key].store(answer, std::memory_order_relaxed);
    return answer;
  }

 private:
  std::atomic<int> counts_[max_devices][Keys]{};  // 0: not asked yet
};

/// The same for `Kernel`, asked once per kernel and device (a kernel is launched at one
/// block size): for chunking a grid into waves.
template <auto Kernel>
int resident_blocks_per_sm(int threads, std::size_t shared_bytes) {
  static cached_per_device<> cache;
  return cache.get(0, [&] {
    return resident_blocks_per_sm(reinterpret_cast<const void*>(Kernel), threads, shared_bytes);
  });
}
}  // namespace detail

}  // namespace tessera::cuda
