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
// process (with a fixed policy: automatic may choose other kernels for the boxes below).
// Where the process grid allows (overlap_possible with the function's largest reach r: some
// axis split, the last whole), the step overlaps as mpi::iterate's does (device_iterate.hpp):
// the inner box, r cells in from each split face, is swept on the compute stream while the
// halos travel, then the shell's boxes at once on the shell streams; overlap::off exchanges
// first and sweeps the block whole. Either way the call returns with the sweep queued, not
// done, ordered before what the caller then queues on the legacy default stream (a
// deep_copy, the next step). Without `exchange`, a host-staged one is made for the call
// (its buffers and streams cost a few allocations: make one and pass it when stepping in
// time). Like every CUDA point function, the call is compiled by nvcc (the kernels are
// instantiated there).
#include <optional>
#include <string>
#include <type_traits>

#include "tessera/algorithms/apply_point_function.hpp"
#include "tessera/core/boundary.hpp"
#include "tessera/core/point_function.hpp"
#include "tessera/core/policy.hpp"
#include "tessera/core/detail/static_for.hpp"
#include "tessera/cuda/cuda_check.hpp"
#include "tessera/mpi/device_exchange.hpp"
#include "tessera/mpi/overlap_boxes.hpp"
#include "tessera/mpi/device_overlapped_step.hpp"
#include "tessera/mpi/point_function.hpp"

namespace tessera::mpi {

namespace detail {
/// The largest reach of any of F's NI input fields.
template <point_function_type F, std::size_t NI>
constexpr int largest_reach() {
  int r = 0;
  for (std::size_t i = 0; i < NI; ++i) r = F::reach_type::radius[i] > r ? F::reach_type::radius[i] : r;
  return r;
}

/// Every view of group g cut to box b (View::box).
template <bool Output, class T, int Rank, std::size_t N>
field_group<Output, T, Rank, CudaSpace, N> boxed(const field_group<Output, T, Rank, CudaSpace, N>& g, const block_box<Rank>& b) {
  field_group<Output, T, Rank, CudaSpace, N> c;
  for (std::size_t i = 0; i < N; ++i) c.views[i] = g.views[i].box(b.first, b.count);
  return c;
}
}  // namespace detail

template <execution_policy Policy, point_function_type F, class T, int Rank, std::size_t NI, std::size_t NO>
void apply(const Policy& policy, const F& fn, const distributed_fields<false, T, Rank, CudaSpace, NI>& in,
           const distributed_fields<true, T, Rank, CudaSpace, NO>& out,
           const std::type_identity_t<std::optional<boundary_conditions<Rank>>>& bc, device_exchange<T, Rank>& exchange,
           overlap mode = overlap::automatic) {
  const std::string who = "tessera::mpi::apply(" + Policy::name() + ", point function, " + to_string(exchange.kind()) + ")";
  detail::check_one_domain(who, in, out);
  // every rank takes the same branches (the reach is a compile-time property of fn, the
  // process grid and the blocks' thinnest extent the same on every rank)
  constexpr int reach = detail::largest_reach<F, NI>();
  const auto& dom = in[0].domain();
  if (reach > 0 && mode == overlap::automatic && overlap_possible<Rank>(dom.dims(), dom.local_extents(), reach)) {
    const auto split = overlap_boxes<Rank>(dom.dims(), dom.local_extents(), reach);
    const auto local_in = in.local();
    const auto local_out = out.local();
    exchange.after_default_stream();
    overlapped_step(
        exchange, split,
        [&] {
          tessera::detail::static_for<static_cast<int>(NI)>([&](auto i) {
            if constexpr (F::reach_type::radius[decltype(i)::value] > 0)
              exchange.fill_beside_interior(in[decltype(i)::value], bc);
          });
        },
        [&] {
          tessera::detail::static_for<static_cast<int>(NI)>([&](auto i) {
            if constexpr (F::reach_type::radius[decltype(i)::value] > 0)
              exchange.exchange_then_fill_rest(in[decltype(i)::value], bc);
          });
        },
        [&](const block_box<Rank>& b, cudaStream_t s) {
          tessera::apply(policy, fn, detail::boxed(local_in, b), detail::boxed(local_out, b), s);
        });
    // what follows on the default stream (the caller's next step, a copy) sees the outputs,
    // and the host goes on to queue it: waiting here would leave the GPU idle while it does
    exchange.default_stream_waits_for_compute();
    return;
  }
  // each fill returns once the halos are written, and the sweep follows on the default stream
  tessera::detail::static_for<static_cast<int>(NI)>([&](auto i) {
    if constexpr (F::reach_type::radius[decltype(i)::value] > 0) exchange.fill(in[decltype(i)::value], bc);
  });
  tessera::apply(policy, fn, in.local(), out.local());
}

template <execution_policy Policy, point_function_type F, class T, int Rank, std::size_t NI>
void apply(const Policy& policy, const F& fn, const distributed_fields<false, T, Rank, CudaSpace, NI>& in,
           const distributed_view<T, Rank, CudaSpace>& out,
           const std::type_identity_t<std::optional<boundary_conditions<Rank>>>& bc, device_exchange<T, Rank>& exchange,
           overlap mode = overlap::automatic) {
  apply(policy, fn, in, outputs(out), bc, exchange, mode);
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
