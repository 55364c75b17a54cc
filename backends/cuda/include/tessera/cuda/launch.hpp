#pragma once
// The generic launcher: runs the kernel of any listed strategy for a plan. Host code sees
// declarations only; the kernels are compiled in tessera_cuda for the built-in shapes
// (float and double, default tiles), one translation unit per strategy and precision
// generated from backends/cuda/kernels/instantiate.cu.in. Another shape or tile: include
// the strategy's kernels (tessera/cuda/strategies/<name>/kernels.cuh) and
// tessera/cuda/kernel_entry.cuh in one .cu file of your own and
// write TESSERA_CUDA_INSTANTIATE(policy, T, shape) there.
#include <cuda_runtime_api.h>

#include "tessera/cuda/detail/edge_rules.hpp"
#include "tessera/cuda/plan.hpp"

namespace tessera::cuda {

/// The strategy of a policy, its tile parameters stripped: naive<32, 8> -> naive<>.
template <class Policy>
using strategy_of_t = typename Policy::strategy;
template <class Policy>
struct strategy_of {
  using type = typename Policy::strategy;
};

/// False where a strategy has no kernel at all for a shape (register tiling of a shape
/// with off-axis slow-axis neighbours, a marching strategy on a 1D grid): its plan gives
/// the reason and no launcher is referenced.
template <class Policy, class S>
inline constexpr bool has_kernel_v = Policy::template has_kernel<S>;

/// One compiled launcher per strategy, resolved tile, shape and element type: the entry
/// tessera_cuda exports. Keyed by the *resolved* tile, so register_tiled<32, 32> and
/// register_tiled<> (the same tile) share one compiled kernel. Defined in kernel_entry.cuh.
template <class Strategy, class Tile, class S, class T>
struct kernel_entry {
  static void launch(const launch_plan& plan, const params_for<S, T>& p, cudaStream_t stream);
  /// A pass of several fused steps, for the strategies that have one (has_fused_steps_v);
  /// an empty function for the others.
  static void launch_steps(const launch_plan& plan, const params_for<S, T>& p, int steps, const edge_rules& rules,
                           cudaStream_t stream);
  /// The blocks an SM holds of the kernel `launch` (steps 0) or `launch_steps` (a pass of
  /// `steps`) runs for `plan`, as the driver answers: 0 where it cannot say, or where there is
  /// no such kernel. Asked once per device and steps; the launcher is asked instead of
  /// launching (kernels/common.cuh: residency_query).
  static int resident_blocks(const launch_plan& plan, int steps = 0);
};

/// True for the strategies that fuse several time steps in one pass (their plan_steps and
/// launch_steps; iterate reaches them through sweep_steps.hpp).
template <class Policy, class S>
inline constexpr bool has_fused_steps_v = requires(const extents<S::rank>& e, const device_limits& lim) {
  Policy::template plan_steps<S, float>(e, lim, 1);
};

/// Whether Policy's fused pass of S computes the cells beyond a Dirichlet wall itself
/// (edge_rule::reflect, edge_rules.hpp), so that a stencil reading past the wall may fuse
/// several steps (fuses_across_walls): a policy says so with a `reflects_walls<S>` member.
template <class Policy, class S>
inline constexpr bool reflects_walls_v = requires { requires Policy::template reflects_walls<S>; };

/// Launches `plan` for `Policy` (any tile parameters) on `stream`.
template <class S, class T, kernel_policy Policy>
void launch(const Policy&, const launch_plan& plan, const params_for<S, T>& p, cudaStream_t stream) {
  kernel_entry<strategy_of_t<Policy>, typename Policy::template tile<S>, S, T>::launch(plan, p, stream);
}

}  // namespace tessera::cuda

/// Explicit instantiation of the kernel one policy runs for one shape and element type:
/// TESSERA_CUDA_INSTANTIATE(tessera::cuda::naive<>, float, tessera::star<3, 1>). Use in a
/// .cu file that includes the strategy's kernels (tessera/cuda/strategies/<name>/kernels.cuh)
/// and tessera/cuda/kernel_entry.cuh. For a
/// shape the strategy has no kernel for, the entry is an empty function.
#define TESSERA_CUDA_INSTANTIATE(POLICY, T, ...)                                                              \
  template struct tessera::cuda::kernel_entry<tessera::cuda::strategy_of_t<POLICY>,                          \
                                              typename POLICY::template tile<__VA_ARGS__>, __VA_ARGS__, T>;
