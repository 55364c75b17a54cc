#pragma once
// The CUDA backend's entry for tessera::apply (found by argument-dependent lookup on the
// policy): plan the launch for this device, refuse with the plan's reason if it cannot
// run or the views do not serve, otherwise launch on the given stream (default: the
// legacy default stream). Launches are asynchronous; errors of the launch itself are
// checked at once. The same few lines serve every listed strategy.
#include <cuda_runtime_api.h>

#include <string>

#include "tessera/core/errors.hpp"
#include "tessera/core/stencil.hpp"
#include "tessera/core/view.hpp"
#include "tessera/cuda/launch.hpp"
#include "tessera/cuda/plan.hpp"
#include "tessera/cuda/runtime.hpp"
#include "tessera/cuda/sweep_params.hpp"

namespace tessera::cuda {

/// What a strategy needs of the views beyond their extents: empty when they serve (the
/// strategy's own view_requirement where it has one, e.g. pipelined's and
/// vector_streaming's 16-byte rows; else nothing).
template <kernel_policy Policy, class T, int Rank, class Space>
std::string view_requirement(const Policy&, const View<T, Rank, Space>& in, const View<T, Rank, Space>& out) {
  if constexpr (requires { Policy::view_requirement(in, out); }) return Policy::view_requirement(in, out);
  else return {};
}

/// The plan `policy` would run for shape S and element type T on extents e, on the
/// current device. A plan that chose its chunk by the blocks an SM holds
/// (launch_plan::resident_per_sm, the host's estimate) is made again with the driver's
/// answer for the kernel it launches, where the two differ: registers, which the host
/// cannot see, often hold fewer blocks than threads and shared memory allow.
template <class S, class T, class Policy>
launch_plan plan_for(const Policy& policy, const extents<S::rank>& e) {
  const auto plan_at = [&](const device_limits& lim) { return make_plan<S, T>(policy, e, lim); };
  if constexpr (kernel_policy<Policy>)
    return detail::with_driver_residency(current_device_limits(), plan_at, [](const launch_plan& plan) {
      return kernel_entry<strategy_of_t<Policy>, typename Policy::template tile<S>, S, T>::resident_blocks(plan);
    });
  else
    return plan_at(current_device_limits());
}

template <kernel_policy Policy, class S, class T, int Rank, class Space>
void sweep(const Policy& policy, const stencil<S, T>& st, const View<T, Rank, Space>& in,
           const View<T, Rank, Space>& out, cudaStream_t stream = nullptr) {
  launch_plan plan = plan_for<S, T>(policy, in.extents());
  if (plan.ok()) plan.reason = view_requirement(policy, in, out);
  if (!plan.ok())
    throw unsupported_error("tessera::apply(" + Policy::name() + ", " + shape_name<S>() + ") on " +
                            in.describe() + ": " + plan.reason);
  if constexpr (has_kernel_v<Policy, S>) launch<S, T>(policy, plan, make_sweep_params(st, in, out), stream);
}

}  // namespace tessera::cuda
