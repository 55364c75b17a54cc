#pragma once
// Lowering: (policy, shape, element type, extents, device limits) -> a launch plan, or a
// reason written for a human why the policy cannot serve this case. Plain host code:
// unit-tested on machines without a GPU; kernels only execute a plan. Each strategy plans
// itself (its `plan`, strategies/<name>.hpp); this is the one entry for all of them.
#include <string>

#include "tessera/cuda/launch_plan.hpp"
#include "tessera/cuda/policy.hpp"

namespace tessera::cuda {

namespace detail {
/// True for the policies of the listed strategies (any tile parameters).
template <class P>
inline constexpr bool is_kernel_policy = [] {
  if constexpr (requires { typename P::strategy; }) return list_contains<typename P::strategy, strategies>;
  else return false;
}();
}  // namespace detail

/// The policies of the listed strategies.
template <class P>
concept kernel_policy = detail::is_kernel_policy<P>;

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
