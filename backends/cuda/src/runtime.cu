// Device queries, launch checks and the per-thread launch record.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "tessera/cuda/cuda_check.hpp"
#include "tessera/cuda/runtime.hpp"

namespace tessera::cuda {

int device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // no driver / no device: clear the error, report none
    return 0;
  }
  return n;
}

std::string device_description(int device) {
  cudaDeviceProp p{};
  TESSERA_CUDA_CHECK(cudaGetDeviceProperties(&p, device), "device " + std::to_string(device));
  char mem[32];
  std::snprintf(mem, sizeof mem, "%.1f", static_cast<double>(p.totalGlobalMem) / (1 << 30));
  return std::string(p.name) + " (sm_" + std::to_string(p.major) + std::to_string(p.minor) + ", " +
         std::to_string(p.multiProcessorCount) + " SMs, " + mem + " GiB)";
}

memory_info device_memory() {
  memory_info m;
  if (device_count() == 0 || cudaMemGetInfo(&m.free, &m.total) != cudaSuccess) {
    cudaGetLastError();
    return {};
  }
  return m;
}

const device_limits& current_device_limits() {
  static std::mutex mu;
  static std::vector<std::unique_ptr<device_limits>> cache;
  int dev = 0;
  if (device_count() == 0)
    throw backend_error("tessera: a CUDA policy was used but no CUDA device is available "
                        "(cudaGetDeviceCount found none); use host views with a host:: policy "
                        "or tessera::automatic");
  TESSERA_CUDA_CHECK(cudaGetDevice(&dev), "querying the current device");
  std::lock_guard<std::mutex> lock(mu);
  if (cache.size() <= static_cast<std::size_t>(dev)) cache.resize(dev + 1);
  if (!cache[dev]) {
    cudaDeviceProp p{};
    TESSERA_CUDA_CHECK(cudaGetDeviceProperties(&p, dev), "device " + std::to_string(dev));
    auto l = std::make_unique<device_limits>();
    l->name = p.name;
    l->compute_major = p.major;
    l->compute_minor = p.minor;
    int clock_khz = 0, bus_bits = 0;  // the tuning tables' bandwidth class (tuning.hpp)
    if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev) == cudaSuccess)
      l->memory_bandwidth_tbs = 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e12;  // double data rate
    (void)cudaGetLastError();
    l->max_threads_per_block = p.maxThreadsPerBlock;
    for (int a = 0; a < 3; ++a) {
      l->max_block_dim[a] = p.maxThreadsDim[a];
      l->max_grid_dim[a] = p.maxGridSize[a];
    }
    l->shared_per_block = p.sharedMemPerBlock;
    l->shared_per_block_optin = p.sharedMemPerBlockOptin;
    l->multiprocessors = p.multiProcessorCount;
    l->max_threads_per_multiprocessor = p.maxThreadsPerMultiProcessor;
    l->max_blocks_per_multiprocessor = p.maxBlocksPerMultiProcessor;
    l->shared_per_multiprocessor = p.sharedMemPerMultiprocessor;
    l->reserved_shared_per_block = p.reservedSharedMemPerBlock;
    l->registers_per_multiprocessor = p.regsPerMultiprocessor;
    l->cooperative_launch = p.cooperativeLaunch != 0;
    cache[dev] = std::move(l);
  }
  return *cache[dev];
}

void synchronize() { TESSERA_CUDA_CHECK(cudaDeviceSynchronize(), "tessera::cuda::synchronize"); }

namespace {
std::atomic<bool> overlapped_allowed{true};
}

void allow_overlapped_launches(bool on) { overlapped_allowed.store(on, std::memory_order_relaxed); }

namespace {
thread_local bool recording_graph = false;
}

void detail::recording_step_graph(bool on) { recording_graph = on; }

bool overlapped_launches() {
  if (!overlapped_allowed.load(std::memory_order_relaxed) || recording_graph) return false;
  // asked on every launch: remember the answer per thread for the device last asked about,
  // instead of taking current_device_limits()' mutex each time
  thread_local int known_device = -1;
  thread_local bool known = false;
  int dev = -1;
  if (cudaGetDevice(&dev) == cudaSuccess && dev >= 0 && dev == known_device) return known;
  known = current_device_limits().compute_major >= 9;  // throws, naming the problem, without a device
  known_device = dev;
  return known;
}

namespace {
thread_local launch_record last;
}

const launch_record& last_launch() { return last; }

namespace detail {

void record_launch(const launch_record& r) { last = r; }

void check_launch(const std::string& what, const std::string& policy) {
  const cudaError_t st = cudaGetLastError();
  if (st != cudaSuccess)
    throw backend_error("tessera: launching " + what + " failed: " + cudaGetErrorName(st) + " (" +
                        cudaGetErrorString(st) + ") [policy " + policy + "]");
}

void allow_shared_bytes(const void* kernel, std::size_t bytes, const std::string& policy) {
  TESSERA_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(bytes)),
                     "opting in to " + std::to_string(bytes) + " B of shared memory, policy " + policy);
}

int resident_blocks_per_sm(const void* kernel, int threads, std::size_t shared_bytes) {
  // raised first, as a launch would: the answer is for the kernel as it will run
  if (shared_bytes > 48 * 1024 &&
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes)) !=
          cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  int per_sm = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared_bytes) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return per_sm;
}

int checked_current_device(const std::string& what) {
  int dev = 0;
  TESSERA_CUDA_CHECK(cudaGetDevice(&dev), what);
  if (dev < 0 || dev >= max_devices)
    throw backend_error("tessera: " + what + ": device " + std::to_string(dev) + " is beyond the " +
                        std::to_string(max_devices) + " supported");
  return dev;
}

cudaMemPool_t scratch_pool() {
  static std::mutex guard;
  static cudaMemPool_t pools[max_devices] = {};
  const int dev = checked_current_device("the scratch pool");
  std::lock_guard<std::mutex> lock(guard);
  if (!pools[dev]) {
    int supported = 0;
    TESSERA_CUDA_CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, dev), "tessera's scratch pool");
    if (!supported)
      throw backend_error("tessera: device " + std::to_string(dev) +
                          " has no stream-ordered memory pools, which cuda::persistent's face buffer needs");
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = dev;
    cudaMemPool_t pool = nullptr;
    TESSERA_CUDA_CHECK(cudaMemPoolCreate(&pool, &props), "tessera's scratch pool");
    std::uint64_t keep = UINT64_MAX;  // what a pass frees stays for the next one
    TESSERA_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep), "tessera's scratch pool");
    pools[dev] = pool;
  }
  return pools[dev];
}

double* result_slot() {
  struct slots {
    double* per_device[max_devices] = {};
    ~slots() {
      for (double* p : per_device)
        if (p) (void)cudaFree(p);  // at thread exit; the context may already be gone
    }
  };
  thread_local slots s;
  const int dev = checked_current_device("a reduction's result slot");
  if (!s.per_device[dev]) TESSERA_CUDA_CHECK(cudaMalloc(&s.per_device[dev], sizeof(double)), "a reduction's result slot");
  return s.per_device[dev];
}

}  // namespace detail
}  // namespace tessera::cuda
