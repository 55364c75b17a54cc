#pragma once
// Device-side helpers shared by the strategies' kernels: a shape's offsets on the virtual
// axes (z, y, x), and the launch epilogue (error check + launch record). nvcc only.
#include <cuda_runtime.h>

#include "tessera/core/static_for.hpp"
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

/// Launches kernel k on the plan's grid with `block` threads and `dynamic_shared` bytes
/// of dynamic shared memory on `stream` (raising the kernel's limit first where the plan
/// needs the opt-in), then checks and records the launch under the kernel's name and the
/// policy's.
template <class... KernelArgs, class... Args>
void launch_kernel(void (*k)(KernelArgs...), const char* kernel_name, const std::string& policy,
                   const std::string& shape, const launch_plan& plan, dim3 block, std::size_t dynamic_shared,
                   cudaStream_t stream, Args&&... args) {
  if (dynamic_shared > 0 && plan.needs_shared_opt_in)
    allow_shared_bytes(reinterpret_cast<const void*>(k), dynamic_shared, policy);
  const dim3 grid = grid_of(plan);
  k<<<grid, block, dynamic_shared, stream>>>(static_cast<Args&&>(args)...);
  finish_launch(kernel_name, policy, shape, plan, block, grid);
}

}  // namespace tessera::cuda::detail
