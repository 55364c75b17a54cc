#pragma once
// The CUDA backend's entry for fused time steps, which tessera::iterate reaches by
// argument-dependent lookup on the policy (as apply reaches sweep):
//
//   fused_steps(policy, stencil, boundary)  the most steps one pass may fuse for this
//                                           stencil under these boundary conditions
//                                           (1 where only a step at a time is exact:
//                                           no conditions, or a Neumann face the
//                                           coefficients do not mirror)
//   sweep_steps(policy, stencil, in, out, steps, boundary[, stream])
//                                           `steps` steps from in to out in one pass, the
//                                           boundary conditions applied inside it (edge_rules.hpp):
//                                           out's interior = `steps` times (fill in's ghosts,
//                                           sweep), to rounding; no ghost cell of out is
//                                           written, and in is not written at all.
//
// Only the strategies with a fused pass (has_fused_steps_v: temporal_blocking) have them.
#include <cuda_runtime_api.h>

#include <optional>
#include <string>

#include "tessera/core/boundary.hpp"
#include "tessera/core/errors.hpp"
#include "tessera/core/stencil.hpp"
#include "tessera/core/view.hpp"
#include "tessera/cuda/dispatch.hpp"
#include "tessera/cuda/edge_rules.hpp"

namespace tessera::cuda {

template <kernel_policy Policy, class S, class T>
  requires has_fused_steps_v<Policy, S>
int fused_steps(const Policy&, const stencil<S, T>& st, const std::optional<boundary_conditions<S::rank>>& bc) {
  // Without boundary conditions each sweep reads its input view's own ghosts, so the
  // ghosts alternate between the two views step by step; a pass fusing several steps
  // would hold one view's for all of them. One step per pass is exact.
  if (!bc) return 1;
  if (!mirror_symmetric(st, bc)) return 1;  // a Neumann face the coefficients do not mirror
  return Policy::template tile<S>::steps;
}

template <kernel_policy Policy, class S, class T, int Rank, class Space>
  requires has_fused_steps_v<Policy, S>
void sweep_steps(const Policy& policy, const stencil<S, T>& st, const View<T, Rank, Space>& in,
                 const View<T, Rank, Space>& out, int steps, const std::optional<boundary_conditions<Rank>>& bc,
                 cudaStream_t stream = nullptr) {
  const std::string what = "tessera::iterate(" + Policy::name() + ", " + shape_name<S>() + ") on " + in.describe();
  if (steps > 1 && !mirror_symmetric(st, bc))
    throw unsupported_error(what + ": fusing " + std::to_string(steps) +
                            " steps under a Neumann face needs coefficients symmetric along that axis; "
                            "these are not, so fuse one step per pass (fused_steps says how many)");
  launch_plan plan = Policy::template plan_steps<S, T>(in.extents(), current_device_limits(), steps);
  if (plan.ok()) plan.reason = view_requirement(policy, in, out);
  if (!plan.ok()) throw unsupported_error(what + ": " + plan.reason);
  if constexpr (has_kernel_v<Policy, S>)
    kernel_entry<strategy_of_t<Policy>, typename Policy::template tile<S>, S, T>::launch_steps(
        plan, make_sweep_params(st, in, out), steps, make_edge_rules<Rank>(bc, in.ghost()), stream);
}

}  // namespace tessera::cuda
