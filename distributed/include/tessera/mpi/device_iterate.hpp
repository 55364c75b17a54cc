#pragma once
// mpi::iterate on distributed device views (CudaSpace): each step fills the input's halos
// through a device_exchange and sweeps every rank's block with a CUDA policy (or
// tessera::automatic), the views alternating as in tessera::iterate; the result's halos are
// filled at the end.
//
// Overlap. Where some axes are split over the processes and the last axis is not
// (exchange.can_overlap: a slab such as 4x1x1, or a block grid such as 2x2x1), a step runs
//   compute stream: the ghosts of the unsplit axes beside the block's inside (local: no
//                   message), then the sweep of the inner box, which reads no halo that
//                   travels (overlap_boxes.hpp: g cells in from each split face);
//   comm stream:    at the same time, every split axis' halos packed, sent, received,
//                   unpacked, its global faces filled, then the unsplit axes' remaining
//                   ghosts (beside the split axes' ghosts);
//   shell streams:  once the halos are in, the sweeps of the shell's boxes (two slabs of g
//                   cells a split axis), at once; the compute stream waits for them.
// Every ghost cell holds what the unoverlapped fill writes (the same boxes, in an order
// that respects what each reads: device_exchange.cu), and each cell is swept by the same
// policy, so the result is the unoverlapped one; with a fixed policy (not automatic, which
// may choose other kernels for the thin shell boxes) it is bit for bit.
//
// Dirichlet faces. When every face is Dirichlet and the stencil reads only the walls (reach
// 1: ghosts_read_are_constant), the ghost cells it reads on the global faces hold
// constants that no sweep writes: both views are filled once, and a step exchanges only
// the messages between processes (whose edges and corners carry the same constants the
// full fill writes there), as tessera::iterate fills such ghosts once on one GPU (the face
// fills are a fifth of a step at 512^3 a GPU: perf/RESULTS.md).
//
// Temporal blocking across ranks (fused_passes.hpp): with a policy that fuses steps
// (cuda::temporal_blocking; cuda::automatic and tessera::automatic where the fusion table
// fuses the grown block) and halos k r cells deep (u created with ghost k r, r the
// stencil's radius), a rank exchanges once every k steps, on the legacy default stream
// ordered after the last pass, and runs them as one fused pass over its block grown into
// the halos (not overlapped: the exchange waits for the pass). The result equals the
// sweep-a-step one to rounding; its halos are filled at the end.
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "tessera/algorithms/apply.hpp"
#include "tessera/core/boundary.hpp"
#include "tessera/core/errors.hpp"
#include "tessera/core/policy.hpp"
#include "tessera/core/stencil.hpp"
#include "tessera/mpi/device_exchange.hpp"
#include "tessera/mpi/overlap_boxes.hpp"
#include "tessera/mpi/device_overlapped_step.hpp"
#include "tessera/mpi/fused_passes.hpp"

namespace tessera::mpi {

template <execution_policy Policy, class S, class T, int Rank>
distributed_view<T, Rank, CudaSpace> iterate(const Policy& policy, const stencil<S, T>& st,
                                             const distributed_view<T, Rank, CudaSpace>& u,
                                             const distributed_view<T, Rank, CudaSpace>& scratch, int steps,
                                             const std::type_identity_t<std::optional<boundary_conditions<Rank>>>& bc,
                                             device_exchange<T, Rank>& exchange, overlap mode = overlap::automatic) {
  const std::string who = "tessera::mpi::iterate(" + Policy::name() + ", " + to_string(exchange.kind()) + ")";
  if (steps < 0) throw invalid_argument_error(who + ": steps must be >= 0, got " + std::to_string(steps));
  tessera::detail::refuse_fixed_faces(who, bc);
  if (u.domain().comm() != scratch.domain().comm() || !(u.local().layout() == scratch.local().layout()))
    throw extent_mismatch_error(who + ": " + u.local().describe() + " and " + scratch.local().describe() +
                                " are not blocks of one domain with one layout; create scratch as "
                                "distributed_view(label, u)");
  if constexpr (fuses_steps<Policy, S, T, Rank, CudaSpace>) {
    if (const int k = steps > 0 ? steps_between_exchanges(policy, st, u, bc) : 1; k >= 2) {
      // the passes run on the legacy default stream, which fill() orders itself after and
      // which waits for fill() (it returns once the halos are written)
      const auto result = fused_passes(
          st, u, scratch, steps, *bc, k, [&](const auto& v, const auto& conditions) { exchange.fill(v, conditions); },
          [&](const auto& in, const auto& out, int s, const auto& conditions) {
            sweep_steps(policy, st, in, out, s, conditions);  // the legacy default stream
          });
      tessera::detail::cuda_check(cudaStreamSynchronize(cudaStream_t{}), "cudaStreamSynchronize", who);
      return result;
    }
  }
  const bool overlapped = mode == overlap::automatic && exchange.can_overlap(u);
  const cudaStream_t compute = exchange.compute_stream();
  // all faces Dirichlet, reach 1: the global faces' ghosts of both views filled here, once (each
  // fill also exchanges, as every step's does); the steps then leave them as they are, so
  // only the faces with a neighbour wait for the comm stream
  const bool constant_faces = steps > 0 && ghosts_read_are_constant(bc, shape_traits<S>::radius);
  const auto split = overlapped ? overlap_boxes<Rank>(u.domain().dims(), u.local().extents(), static_cast<int>(u.ghost()),
                                                      faces_waiting_for_halos(u.domain(), !constant_faces && bc))
                                : overlap_split<Rank>{};
  distributed_view<T, Rank, CudaSpace> in = u, out = scratch;
  exchange.after_default_stream();
  if (constant_faces) {
    exchange.fill(in, bc);
    exchange.fill(out, bc);
  }
  const std::optional<boundary_conditions<Rank>> step_bc = constant_faces ? std::nullopt : bc;
  for (int k = 0; k < steps; ++k) {
    if (overlapped) {
      overlapped_step(
          exchange, split, [&] { exchange.fill_beside_interior(in, step_bc); },
          [&] { exchange.exchange_then_fill_rest(in, step_bc); },
          [&](const block_box<Rank>& b, cudaStream_t s) {
            apply(policy, st, in.local().box(b.first, b.count), out.local().box(b.first, b.count), s);
          });
    } else {
      exchange.fill(in, step_bc);
      apply(policy, st, in.local(), out.local(), compute);
    }
    std::swap(in, out);
  }
  tessera::detail::cuda_check(cudaStreamSynchronize(compute), "cudaStreamSynchronize", who);
  exchange.fill(in, bc);  // the result's halos, as tessera::iterate fills the result's ghosts
  return in;
}

/// The same with a host-staged exchange made for this call (the transport that works with
/// every MPI; make a device_exchange once and pass it to choose another, or to time steps
/// without its set-up).
template <execution_policy Policy, class S, class T, int Rank>
distributed_view<T, Rank, CudaSpace> iterate(const Policy& policy, const stencil<S, T>& st,
                                             const distributed_view<T, Rank, CudaSpace>& u,
                                             const distributed_view<T, Rank, CudaSpace>& scratch, int steps,
                                             const std::type_identity_t<std::optional<boundary_conditions<Rank>>>& bc = {}) {
  device_exchange<T, Rank> exchange(u, transport::host_staged);
  return iterate(policy, st, u, scratch, steps, bc, exchange);
}

/// fill_halos for device views, through `exchange` (device_exchange.hpp).
template <class T, int Rank>
void fill_halos(const distributed_view<T, Rank, CudaSpace>& u,
                const std::type_identity_t<std::optional<boundary_conditions<Rank>>>& bc,
                device_exchange<T, Rank>& exchange) {
  exchange.fill(u, bc);
}

}  // namespace tessera::mpi
