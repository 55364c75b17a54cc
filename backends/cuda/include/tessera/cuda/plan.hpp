#pragma once
// Lowering: (policy, shape, element type, extents, device limits) -> a launch plan, or a
// reason written for a human why the policy cannot serve this case. Plain host code:
// unit-tested on machines without a GPU; kernels only execute a plan. Each strategy plans
// itself (its `plan`, strategies/<name>.hpp); this is the one entry for all of them.
#include <string>
#include <type_traits>

#include "tessera/cuda/launch_plan.hpp"
#include "tessera/cuda/policy.hpp"

namespace tessera::cuda {

/// The policies of a strategy (any tile parameters): a device_policy with the members
/// strategy.hpp describes. The listed strategies are such policies, and so is a strategy
/// written outside the library (its kernels compiled with TESSERA_CUDA_INSTANTIATE).
template <class P>
concept kernel_policy = std::is_base_of_v<device_policy, P> && requires { typename P::strategy; } &&
                        requires(const extents<3>& e, const device_limits& lim) {
                          P::template plan<star<3, 1>, float>(e, lim);
                        };

/// The plan `policy` runs for shape S and element type T on extents e, on a device with
/// limits lim.
template <class S, class T, kernel_policy Policy>
launch_plan make_plan(const Policy&, const extents<S::rank>& e, const device_limits& lim) {
  return Policy::template plan<S, T>(e, lim);
}

/// True when `policy` can run shape S on extents e on a device with limits lim.
template <class S, class T, class Policy>
bool can_implement(const Policy& policy, const extents<S::rank>& e, const device_limits& lim,
                   std::string* reason = nullptr) {
  const auto p = make_plan<S, T>(policy, e, lim);
  if (reason) *reason = p.reason;
  return p.ok();
}

}  // namespace tessera::cuda
