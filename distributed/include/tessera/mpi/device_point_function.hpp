#pragma once
// Point functions over distributed device views (CudaSpace), as point_function.hpp does on
// host views:
//
//   mpi::apply(policy, fn, mpi::inputs(u, k, ...), out, bc, exchange)
//   mpi::apply(policy, fn, mpi::inputs(u, k, ...), mpi::outputs(a, ...), bc, exchange)
//
// fills the halos of every input the function reads beyond the point through `exchange`
// (one device_exchange of the fields' domain serves every input, whatever its ghost
// width), then runs fn on every rank's block with the CUDA policy, bit for bit as on one
// process. Without `exchange`, a host-staged one is made for the call (its buffers and
// streams cost a few allocations: make one and pass it when stepping in time). Like every
// CUDA point function, the call is compiled by nvcc (the kernels are instantiated there).
#include <optional>
#include <string>
#include <type_traits>

#include "tessera/algorithms/apply_point_function.hpp"
#include "tessera/core/boundary.hpp"
#include "tessera/core/point_function.hpp"
#include "tessera/core/policy.hpp"
#include "tessera/core/detail/static_for.hpp"
#include "tessera/mpi/device_exchange.hpp"
#include "tessera/mpi/point_function.hpp"

namespace tessera::mpi {

template <execution_policy Policy, point_function_type F, class T, int Rank, std::size_t NI, std::size_t NO>
void apply(const Policy& policy, const F& fn, const distributed_fields<false, T, Rank, CudaSpace, NI>& in,
           const distributed_fields<true, T, Rank, CudaSpace, NO>& out,
           const std::type_identity_t<std::optional<boundary_conditions<Rank>>>& bc, device_exchange<T, Rank>& exchange) {
  const std::string who = "tessera::mpi::apply(" + Policy::name() + ", point function, " + to_string(exchange.kind()) + ")";
  detail::check_one_domain(who, in, out);
  // every rank takes the same branches (the reach is a compile-time property of fn); each
  // fill returns once the halos are written, and the sweep follows on the default stream
  tessera::detail::static_for<static_cast<int>(NI)>([&](auto i) {
    if constexpr (F::reach_type::radius[decltype(i)::value] > 0) exchange.fill(in[decltype(i)::value], bc);
  });
  tessera::apply(policy, fn, in.local(), out.local());
}

template <execution_policy Policy, point_function_type F, class T, int Rank, std::size_t NI>
void apply(const Policy& policy, const F& fn, const distributed_fields<false, T, Rank, CudaSpace, NI>& in,
           const distributed_view<T, Rank, CudaSpace>& out,
           const std::type_identity_t<std::optional<boundary_conditions<Rank>>>& bc, device_exchange<T, Rank>& exchange) {
  apply(policy, fn, in, outputs(out), bc, exchange);
}

template <execution_policy Policy, point_function_type F, class T, int Rank, std::size_t NI, std::size_t NO>
void apply(const Policy& policy, const F& fn, const distributed_fields<false, T, Rank, CudaSpace, NI>& in,
           const distributed_fields<true, T, Rank, CudaSpace, NO>& out,
           const std::type_identity_t<std::optional<boundary_conditions<Rank>>>& bc = {}) {
  device_exchange<T, Rank> exchange(in[0], transport::host_staged);
  apply(policy, fn, in, out, bc, exchange);
}

template <execution_policy Policy, point_function_type F, class T, int Rank, std::size_t NI>
void apply(const Policy& policy, const F& fn, const distributed_fields<false, T, Rank, CudaSpace, NI>& in,
           const distributed_view<T, Rank, CudaSpace>& out,
           const std::type_identity_t<std::optional<boundary_conditions<Rank>>>& bc = {}) {
  apply(policy, fn, in, outputs(out), bc);
}

}  // namespace tessera::mpi
