#pragma once
// Device-side helpers shared by the strategies' kernels: a shape's offsets on the virtual
// axes (z, y, x), and the launch epilogue (error check + launch record). nvcc only.
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "tessera/core/errors.hpp"
#include "tessera/core/detail/static_for.hpp"
#include "tessera/cuda/runtime.hpp"
#include "tessera/cuda/strategy.hpp"

namespace tessera::cuda::detail {

/// Shape S seen on the virtual axes: off(k, v) is point k's offset on axis v (0 = z,
/// 1 = y, 2 = x), 0 on the axes a lower-rank shape lacks. All constexpr.
template <class S>
struct vshape : virtual_reach<S> {
  using base = virtual_reach<S>;
  static constexpr int size = shape_traits<S>::size;
  static constexpr int off(int k, int v) { return base::axis(v) < 0 ? 0 : S::points[k][base::axis(v)]; }
};

inline void finish_launch(const std::string& kernel, const std::string& policy,
                          const std::string& shape, const launch_plan& plan, dim3 block, dim3 grid) {
  check_launch(kernel, policy);
  launch_record r;
  r.policy = policy;
  r.shape = shape;
  r.plan = plan;
  r.block[0] = static_cast<int>(block.x), r.block[1] = static_cast<int>(block.y),
  r.block[2] = static_cast<int>(block.z);
  r.grid[0] = grid.x, r.grid[1] = grid.y, r.grid[2] = grid.z;
  record_launch(r);
}

inline dim3 grid_of(const launch_plan& p) {
  return dim3(static_cast<unsigned>(p.grid[0]), static_cast<unsigned>(p.grid[1]),
              static_cast<unsigned>(p.grid[2]));
}

/// The first statement of every kernel launched by launch_after_previous: waits until the
/// grid launched before it on the stream has finished and its writes are visible (a sweep
/// reads what the last one wrote and writes what it read), then lets the next grid
/// launch, whose blocks take the SMs this grid's blocks leave (runtime.hpp: overlapped
/// launches). Before sm_90, and for a grid launched without the attribute, it costs
/// nothing: there is no grid to wait for.
__device__ __forceinline__ void begin_after_previous_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/// Launches kernel k on grid x block threads with `dynamic_shared` bytes and the launch
/// attribute `attribute` (none where null). Throws backend_error naming `what` when the
/// launch fails. The one launch core the launchers below share.
template <class... KernelArgs, class... Args>
void launch_with_attribute(void (*k)(KernelArgs...), const std::string& what, dim3 grid, dim3 block,
                           std::size_t dynamic_shared, cudaStream_t stream, const cudaLaunchAttribute* attribute,
                           Args&&... args) {
  cudaLaunchAttribute copy{};
  if (attribute) copy = *attribute;
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = dynamic_shared;
  config.stream = stream;
  config.attrs = &copy;
  config.numAttrs = attribute ? 1 : 0;
  const cudaError_t launched = cudaLaunchKernelEx(&config, k, static_cast<Args&&>(args)...);
  if (launched != cudaSuccess) {
    (void)cudaGetLastError();
    throw backend_error("tessera: launching " + what + " failed: " + cudaGetErrorName(launched) + " (" +
                        cudaGetErrorString(launched) + ")");
  }
}

/// Launches kernel k, which must begin with begin_after_previous_grid() (else it would
/// race with the grid before it), with programmatic stream serialisation where
/// overlapped_launches() says so, on grid x block threads with `dynamic_shared` bytes.
/// Throws backend_error naming `what` when the launch fails.
template <class... KernelArgs, class... Args>
void launch_after_previous(void (*k)(KernelArgs...), const std::string& what, dim3 grid, dim3 block,
                           std::size_t dynamic_shared, cudaStream_t stream, Args&&... args) {
  cudaLaunchAttribute overlap{};
  overlap.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  overlap.val.programmaticStreamSerializationAllowed = 1;
  launch_with_attribute(k, what, grid, block, dynamic_shared, stream, overlapped_launches() ? &overlap : nullptr,
                        static_cast<Args&&>(args)...);
}

/// Launches kernel k cooperatively: the driver refuses (cudaErrorCooperativeLaunchTooLarge)
/// unless every block can be resident at once, which kernels whose blocks wait on each other
/// need. Throws backend_error naming `what` when the launch fails.
template <class... KernelArgs, class... Args>
void launch_cooperative(void (*k)(KernelArgs...), const std::string& what, dim3 grid, dim3 block,
                        std::size_t dynamic_shared, cudaStream_t stream, Args&&... args) {
  cudaLaunchAttribute cooperative{};
  cooperative.id = cudaLaunchAttributeCooperative;
  cooperative.val.cooperative = 1;
  launch_with_attribute(k, what, grid, block, dynamic_shared, stream, &cooperative, static_cast<Args&&>(args)...);
}

/// A question to a strategy's launcher instead of a launch: while one is alive on this host
/// thread, launch_kernel_after_previous launches nothing and answers how many blocks of the
/// kernel it was given an SM holds (the driver's occupancy for its registers, block and
/// shared memory; 0 where the driver cannot say). kernel_entry::resident_blocks asks it, so
/// a plan can be made again with the residency of the very kernel it launches.
class residency_query {
 public:
  residency_query() : previous_(current_) { current_ = this; }
  ~residency_query() { current_ = previous_; }
  residency_query(const residency_query&) = delete;
  residency_query& operator=(const residency_query&) = delete;
  static residency_query* current() { return current_; }
  int answer = 0;

 private:
  residency_query* previous_;
  static inline thread_local residency_query* current_ = nullptr;
};

/// Launches a strategy's kernel k, which begins with begin_after_previous_grid(), on the
/// plan's grid with `block` threads and `dynamic_shared` bytes of dynamic shared memory on
/// `stream` (raising the kernel's limit first where the plan needs the opt-in), overlapped
/// with the kernel before it where the device allows, then checks and records the launch
/// under the kernel's name and the policy's. Under a residency_query it answers it instead.
template <class... KernelArgs, class... Args>
void launch_kernel_after_previous(void (*k)(KernelArgs...), const char* kernel_name, const std::string& policy,
                                  const std::string& shape, const launch_plan& plan, dim3 block,
                                  std::size_t dynamic_shared, cudaStream_t stream, Args&&... args) {
  if (dynamic_shared > 0 && plan.needs_shared_opt_in)
    allow_shared_bytes(reinterpret_cast<const void*>(k), dynamic_shared, policy);
  if (residency_query* q = residency_query::current()) {
    q->answer = resident_blocks_per_sm(reinterpret_cast<const void*>(k), static_cast<int>(block.x * block.y * block.z),
                                       dynamic_shared);
    return;
  }
  const dim3 grid = grid_of(plan);
  launch_after_previous(k, std::string(kernel_name) + " [policy " + policy + "]", grid, block, dynamic_shared, stream,
                        static_cast<Args&&>(args)...);
  finish_launch(kernel_name, policy, shape, plan, block, grid);
}

}  // namespace tessera::cuda::detail
