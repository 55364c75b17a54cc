#pragma once
// tessera::apply(policy, point_function, inputs(u, k, ...), out | outputs(a, b, ...)):
// one sweep of a point function (core/point_function.hpp). Writes every interior point
// of every output and no ghost cell; reads each input at interior points and the ghosts
// within the function's declared reach for that field. The policy picks the backend by
// argument-dependent lookup of `sweep`, as for constant-coefficient stencils.
//
//   apply(policy, fn, u, out)                           one input, one output
//   apply(policy, fn, inputs(u, k), out)                several inputs
//   apply(policy, fn, inputs(u, v), outputs(a, b))      fn returns tessera::array<T, 2>
// A backend's sweep may take more arguments, passed after the outputs (a CUDA policy: the
// stream the sweep is queued on).
#include <cstddef>
#include <utility>

#include "tessera/algorithms/detail/sweep_checks.hpp"
#include "tessera/core/fields.hpp"
#include "tessera/core/point_function.hpp"
#include "tessera/core/policy.hpp"
#include "tessera/core/view.hpp"

namespace tessera {

template <execution_policy Policy, point_function_type F, class T, int Rank, class Space, std::size_t NI,
          std::size_t NO, class... Extra>
void apply(const Policy& policy, const F& fn, const input_fields<T, Rank, Space, NI>& in,
           const output_fields<T, Rank, Space, NO>& out, Extra&&... extra) {
  static_assert(F::reach_type::fields == static_cast<int>(NI),
                "tessera::apply: the point function's reach<...> lists a different number of fields than the "
                "input views given (one reach entry per input, in the order the function takes them)");
  static_assert(policy_reaches_v<Policy, Space>,
                "tessera::apply: this policy cannot reach the views' memory space (host:: policies need "
                "HostSpace views, cuda:: policies CudaSpace views); pick a policy for that space or deep_copy");
  detail::check_point_sweep_arguments(fn, in, out, Policy::name());
  if (in[0].size() == 0) return;  // an empty interior has nothing to write
  sweep(policy, fn, in, out, std::forward<Extra>(extra)...);
}

template <execution_policy Policy, point_function_type F, class T, int Rank, class Space, std::size_t NI,
          class... Extra>
void apply(const Policy& policy, const F& fn, const input_fields<T, Rank, Space, NI>& in,
           const View<T, Rank, Space>& out, Extra&&... extra) {
  apply(policy, fn, in, outputs(out), std::forward<Extra>(extra)...);
}

template <execution_policy Policy, point_function_type F, class T, int Rank, class Space>
void apply(const Policy& policy, const F& fn, const View<T, Rank, Space>& in, const View<T, Rank, Space>& out) {
  apply(policy, fn, inputs(in), outputs(out));
}

}  // namespace tessera
