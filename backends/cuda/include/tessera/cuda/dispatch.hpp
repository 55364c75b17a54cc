#pragma once
// The CUDA backend's entry for tessera::apply (found by argument-dependent lookup on the
// policy): plan the launch for this device, refuse with the plan's reason if it cannot
// run, otherwise launch on the given stream (default: the legacy default stream).
// Launches are asynchronous; errors of the launch itself are checked at once.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "tessera/core/errors.hpp"
#include "tessera/core/stencil.hpp"
#include "tessera/core/view.hpp"
#include "tessera/cuda/launch.hpp"
#include "tessera/cuda/plan.hpp"
#include "tessera/cuda/runtime.hpp"
#include "tessera/cuda/sweep_params.hpp"

namespace tessera::cuda {

namespace detail {
template <class P>
inline constexpr bool is_kernel_policy = false;
template <int A, int B, int C>
inline constexpr bool is_kernel_policy<naive<A, B, C>> = true;
template <int A, int B, int C>
inline constexpr bool is_kernel_policy<tiled<A, B, C>> = true;
template <int A, int B, int C>
inline constexpr bool is_kernel_policy<coarsened<A, B, C>> = true;
template <int A, int B, int C>
inline constexpr bool is_kernel_policy<register_tiled<A, B, C>> = true;
template <int A, int B, int C>
inline constexpr bool is_kernel_policy<streaming<A, B, C>> = true;
template <int A, int B, int C, int D>
inline constexpr bool is_kernel_policy<shared_streaming<A, B, C, D>> = true;
template <int A, int B, int C, int D, int E>
inline constexpr bool is_kernel_policy<pipelined<A, B, C, D, E>> = true;
template <int A, int B, int C>
inline constexpr bool is_kernel_policy<vector_streaming<A, B, C>> = true;

/// "" when every row of `v` starts its interior on a 16-byte boundary (the allocation
/// and the padded row length are multiples of 16 bytes); else why not, for `strategy`.
template <class T, int Rank, class Space>
std::string rows_on_16_bytes(const View<T, Rank, Space>& v, const std::string& strategy, const std::string& fallback) {
  const auto address = reinterpret_cast<std::uintptr_t>(v.data());
  const auto row_bytes = static_cast<std::size_t>(v.layout().row_alignment()) * sizeof(T);
  if (address % 16 == 0 && row_bytes % 16 == 0) return {};
  return strategy + " and needs every row's interior on a 16-byte boundary, but " + v.describe() +
         " has a row alignment of " + std::to_string(v.layout().row_alignment()) + " element(s) (" +
         std::to_string(row_bytes) +
         " bytes): build it from extents (rows padded to 128 bytes) or with a layout whose row alignment is a "
         "multiple of 16 bytes, or use " + fallback;
}
}  // namespace detail

/// What a strategy needs of the views beyond their extents: empty when they serve.
/// pipelined copies input rows in 16-byte pieces, vector_streaming reads and writes
/// 16-byte vectors: the allocation and every row's interior must start on a 16-byte
/// boundary — true of every View built from extents (rows padded to 128 bytes), not of a
/// layout with a smaller row alignment.
template <class Policy, class T, int Rank, class Space>
std::string view_requirement(const Policy&, const View<T, Rank, Space>&, const View<T, Rank, Space>&) {
  return {};
}
template <int A, int B, int C, int D, int E, class T, int Rank, class Space>
std::string view_requirement(const pipelined<A, B, C, D, E>&, const View<T, Rank, Space>& in,
                             const View<T, Rank, Space>&) {
  return detail::rows_on_16_bytes(in, "pipelined copies rows in 16-byte pieces", "cuda::shared_streaming");
}
template <int A, int B, int C, class T, int Rank, class Space>
std::string view_requirement(const vector_streaming<A, B, C>&, const View<T, Rank, Space>& in,
                             const View<T, Rank, Space>& out) {
  const std::string why = "vector_streaming reads and writes rows in 16-byte vectors";
  const auto r = detail::rows_on_16_bytes(in, why, "cuda::shared_streaming");
  return r.empty() ? detail::rows_on_16_bytes(out, why, "cuda::shared_streaming") : r;
}

/// The plan `policy` would run for shape S and element type T on extents e, on the
/// current device.
template <class S, class T, class Policy>
launch_plan plan_for(const Policy& policy, const extents<S::rank>& e) {
  return make_plan<S, T>(policy, e, current_device_limits());
}

template <class Policy, class S, class T, int Rank, class Space>
  requires detail::is_kernel_policy<Policy>
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
