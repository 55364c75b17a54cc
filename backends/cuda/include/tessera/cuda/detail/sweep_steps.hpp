#pragma once
// The CUDA backend's entry for fused time steps, which tessera::iterate reaches by
// argument-dependent lookup on the policy (as apply reaches sweep):
//
//   fused_steps(policy, stencil, extents or view, boundary)
//                                           the most steps one pass may fuse for this
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
// The strategies with a fused pass (has_fused_steps_v) have them, and cuda::automatic,
// which fuses what its fusion table (backends/cuda/tuning/fusion.csv) measured to be
// faster than a sweep a step, with the strategy and tile the row names (cuda::
// temporal_blocking, with 64 x 32 columns on large 3D grids in fp32, or cuda::persistent
// where the grid fits on chip) (under faces whose ghosts a sweep a step would refill every
// step, the row's steps_refilled, which may be 1: a pass a step), and otherwise answers 0:
// iterate then sweeps a step at a time. tessera::automatic reaches
// cuda::automatic's for CudaSpace views.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>

#include "tessera/core/boundary.hpp"
#include "tessera/core/errors.hpp"
#include "tessera/core/stencil.hpp"
#include "tessera/core/view.hpp"
#include "tessera/cuda/automatic.hpp"
#include "tessera/cuda/detail/dispatch.hpp"
#include "tessera/cuda/detail/edge_rules.hpp"
#include "tessera/cuda/tuning.hpp"

namespace tessera::cuda {

template <kernel_policy Policy, class S, class T>
  requires has_fused_steps_v<Policy, S>
int fused_steps(const Policy&, const stencil<S, T>& st, const extents<S::rank>&,
                const std::type_identity_t<std::optional<boundary_conditions<S::rank>>>& bc) {
  const bool exact = several_steps_exact(st, bc) || (reflects_walls_v<Policy, S> && fuses_across_walls(st, bc));
  return exact ? Policy::template tile<S>::steps : 1;
}

/// What cuda::automatic fuses: the strategy and tile (an index into automatic_fusers) and
/// the steps a pass (0: a sweep a step, the single-sweep choice).
struct fused_choice {
  std::size_t fuser = 0;
  int steps = 0;
};

/// What cuda::automatic fuses on a device with limits lim: of `table`'s rows for
/// this device and case (nearest measured size), the first that fuses here and whose
/// strategy and tile can run the pass on these extents (the tile serves S in T, and its plan
/// fits: cuda::persistent's only where the grid fits on chip), with that row's steps within
/// what the strategy may fuse; a sweep a step where no row does (none for the case, rows
/// that say 1, a strategy that may fuse only one step). Where a face's ghosts must be
/// refilled every step (periodic, Neumann, a Dirichlet face a wide stencil reads beyond: a
/// sweep a step then runs a fill a step), a row's steps_refilled decides when it has one
/// (1: a pass a step, no fill; 0: not this row; k > 1: passes of k steps where several are
/// exact, else not this row).
template <class S, class T>
fused_choice fusion_pick(const std::vector<fusion_entry>& table, const device_limits& lim, const stencil<S, T>& st,
                         const extents<S::rank>& e,
                         const std::type_identity_t<std::optional<boundary_conditions<S::rank>>>& bc) {
  fused_choice choice;
  if constexpr (S::rank > 1) {
    bool decided = false;
    for (const fusion_entry& row : fusion_rows(table, make_tuning_key<S, T>(class_of(lim), double(e.size())))) {
      with_fuser(row.fuser, [&](auto policy) {
        using P = decltype(policy);
        if constexpr (has_fused_steps_v<P, S> && fuser_serves_v<P, S, T>) {
          const int most = fused_steps(policy, st, e, bc);  // 1 where only a step is exact
          int k = 0;
          if (row.steps_refilled && bc && !ghosts_read_are_constant(bc, shape_traits<S>::radius))
            // a row measured to fuse several steps does not stand for a pass a step where only
            // one is exact (a Dirichlet face a wide stencil reads beyond, unmirrored
            // coefficients under a Neumann face): a sweep and a fill a step there
            k = *row.steps_refilled <= 1 ? *row.steps_refilled : most > 1 ? std::min(*row.steps_refilled, most) : 0;
          else
            k = most > 1 && row.steps > 1 ? std::min(row.steps, most) : 0;
          if (k >= 1 && P::template plan_steps<S, T>(e, lim, k).ok()) choice = {row.fuser, k}, decided = true;
        }
      });
      if (decided) break;
    }
  }
  return choice;
}

/// fusion_pick on the fusion table compiled into the library.
template <class S, class T>
fused_choice fusion_pick(const device_limits& lim, const stencil<S, T>& st, const extents<S::rank>& e,
                         const std::type_identity_t<std::optional<boundary_conditions<S::rank>>>& bc) {
  return fusion_pick(builtin_fusion_table(), lim, st, e, bc);
}

/// The steps of fusion_pick (0: a sweep a step).
template <class S, class T>
int fusion_choice(const device_limits& lim, const stencil<S, T>& st, const extents<S::rank>& e,
                  const std::type_identity_t<std::optional<boundary_conditions<S::rank>>>& bc) {
  return fusion_pick(lim, st, e, bc).steps;
}

template <class S, class T>
int fused_steps(const automatic&, const stencil<S, T>& st, const extents<S::rank>& e,
                const std::type_identity_t<std::optional<boundary_conditions<S::rank>>>& bc) {
  return fusion_choice<S, T>(current_device_limits(), st, e, bc);
}

/// The form iterate calls: the views' extents.
template <class Policy, class S, class T, int Rank, class Space>
  requires(std::is_same_v<Policy, automatic> || has_fused_steps_v<Policy, S>)
int fused_steps(const Policy& policy, const stencil<S, T>& st, const View<T, Rank, Space>& u,
                const std::optional<boundary_conditions<Rank>>& bc) {
  return fused_steps(policy, st, u.extents(), bc);
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
  // past a Dirichlet wall: several steps where the pass computes the cells beyond it
  const bool reflects = steps > 1 && reflects_walls_v<Policy, S> && fuses_across_walls(st, bc);
  if (steps > 1 && reads_beyond_dirichlet_wall(bc, shape_traits<S>::radius) && !reflects)
    throw unsupported_error(
        what + ": fusing " + std::to_string(steps) + " steps reads past a Dirichlet wall (this stencil reaches " +
        std::to_string(shape_traits<S>::radius) + " cells), where a fill writes each step's reflection of the interior; " +
        (reflects_walls_v<Policy, S> ? "this pass computes those cells only where every Dirichlet face holds one value "
                                       "and the coefficients are symmetric along the axes with walls"
                                     : "this pass reads them as fixed") +
        ", so fuse one step per pass (fused_steps says how many)");
  using entry = kernel_entry<strategy_of_t<Policy>, typename Policy::template tile<S>, S, T>;
  launch_plan plan = detail::with_driver_residency(
      current_device_limits(),
      [&](const device_limits& lim) { return Policy::template plan_steps<S, T>(in.extents(), lim, steps); },
      [&](const launch_plan& q) { return entry::resident_blocks(q, steps); });
  if (plan.ok()) plan.reason = view_requirement(policy, in, out);
  if (!plan.ok()) throw unsupported_error(what + ": " + plan.reason);
  if constexpr (has_kernel_v<Policy, S>)
    entry::launch_steps(plan, make_sweep_params(st, in, out), steps,
                        reflects ? with_reflected_walls(make_edge_rules<Rank>(bc, in.ghost()), st, bc)
                                 : make_edge_rules<Rank>(bc, in.ghost()),
                        stream);
}

/// cuda::automatic's pass: the strategy and tile fusion_pick chose for these extents (the
/// one fused_steps answered for), with `steps` steps.
template <class S, class T, int Rank, class Space>
void sweep_steps(const automatic&, const stencil<S, T>& st, const View<T, Rank, Space>& in,
                 const View<T, Rank, Space>& out, int steps, const std::optional<boundary_conditions<Rank>>& bc,
                 cudaStream_t stream = nullptr) {
  with_fuser(fusion_pick(current_device_limits(), st, in.extents(), bc).fuser, [&](auto policy) {
    using P = decltype(policy);
    if constexpr (has_fused_steps_v<P, S> && fuser_serves_v<P, S, T>)
      sweep_steps(policy, st, in, out, steps, bc, stream);
  });
}

/// The customisation points tessera::automatic reaches for CudaSpace views.
template <class S, class T, int Rank>
int fused_steps_automatically(CudaSpace, const stencil<S, T>& st, const View<T, Rank, CudaSpace>& u,
                              const std::optional<boundary_conditions<Rank>>& bc) {
  return fused_steps(automatic{}, st, u.extents(), bc);
}
template <class S, class T, int Rank>
void sweep_steps_automatically(CudaSpace, const stencil<S, T>& st, const View<T, Rank, CudaSpace>& in,
                               const View<T, Rank, CudaSpace>& out, int steps,
                               const std::optional<boundary_conditions<Rank>>& bc) {
  sweep_steps(automatic{}, st, in, out, steps, bc);
}

}  // namespace tessera::cuda
