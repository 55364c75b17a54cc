#pragma once
// tessera::apply(policy, stencil, in, out): one sweep. Writes every interior point of
// `out` and no ghost cell; reads `in` at interior points and the ghosts within the
// shape's reach. The policy picks the backend (found by argument-dependent lookup of
// `sweep` in the policy's namespace); everything else stays the same when it changes.
#include <type_traits>
#include <utility>

#include "tessera/algorithms/detail/sweep_checks.hpp"
#include "tessera/core/policy.hpp"
#include "tessera/core/stencil.hpp"
#include "tessera/core/view.hpp"

namespace tessera {

template <execution_policy Policy, class S, class T, int Rank, class Space, class... Extra>
void apply(const Policy& policy, const stencil<S, T>& st, const View<T, Rank, Space>& in,
           const View<T, Rank, Space>& out, Extra&&... extra) {
  static_assert(S::rank == Rank,
                "tessera::apply: the stencil's shape and the views have different ranks");
  static_assert(policy_reaches_v<Policy, Space>,
                "tessera::apply: this policy cannot reach the views' memory space (host:: "
                "policies need HostSpace views, cuda:: policies CudaSpace views); pick a "
                "policy for that space, tessera::automatic, or deep_copy to a mirror");
  detail::check_sweep_arguments(st, in, out, Policy::name());
  if (in.size() == 0) return;  // an empty interior has nothing to write
  sweep(policy, st, in, out, std::forward<Extra>(extra)...);
}

}  // namespace tessera
