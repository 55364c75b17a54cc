#pragma once
// device_exchange<T, Rank>: the halos of distributed device views (CudaSpace). It writes
// every ghost cell as fill_halos writes a host view's (halo_exchange.hpp: axes in order,
// fill_ghosts' boxes, the boundary conditions on the global faces), bit for bit, with:
//   - packing and unpacking kernels on the GPU: one contiguous message per face neighbour
//     and axis (its edges and corners included, as on the host);
//   - a transport (transport.hpp): host-staged MPI, CUDA-aware MPI or NCCL;
//   - two non-blocking streams, `compute` for sweeps and `comm` for halos, so that a step
//     can sweep the cells that need no halo while the halos travel (device_iterate.hpp).
// Buffers, pinned host memory and the NCCL communicator are made once, in the
// constructor, which every rank of the domain calls together (NCCL's set-up is
// collective); a view of the same domain with a wider ghost layer grows the buffers the
// first time it is filled. Link tessera::mpi_cuda.
#include <cuda_runtime_api.h>

#include <memory>
#include <optional>

#include "tessera/core/boundary.hpp"
#include "tessera/cuda/memory_space.hpp"
#include "tessera/mpi/distributed_view.hpp"
#include "tessera/mpi/overlap_boxes.hpp"
#include "tessera/mpi/transport.hpp"

namespace tessera::mpi {

template <class T, int Rank>
class device_exchange {
 public:
  using view_type = distributed_view<T, Rank, CudaSpace>;
  using conditions = std::optional<boundary_conditions<Rank>>;

  /// For the views of `like`'s domain, whatever their ghost width (the buffers are sized
  /// for `like` and grow for a wider one). Throws unsupported_error naming the transport
  /// and the fix when it cannot run here (transport_unavailable_reason), on every rank
  /// alike; every call throws extent_mismatch_error for a view of another domain.
  explicit device_exchange(const view_type& like, transport t = transport::host_staged);
  ~device_exchange();
  device_exchange(const device_exchange&) = delete;
  device_exchange& operator=(const device_exchange&) = delete;
  device_exchange(device_exchange&&) noexcept;
  device_exchange& operator=(device_exchange&&) noexcept;

  transport kind() const;
  /// The stream sweeps run on while halos travel, and the one the halos travel on; both
  /// non-blocking (they do not wait for the legacy default stream: after_default_stream).
  cudaStream_t compute_stream() const;
  cudaStream_t comm_stream() const;

  /// Every ghost cell of u, as fill_halos writes a host view's; returns when they are
  /// written. Orders itself after work already queued on the legacy default stream.
  void fill(const view_type& u, const conditions& bc);

  /// True when a step on u can overlap (overlap_possible, overlap_boxes.hpp): some axis is
  /// split over processes (its halos are messages), the last axis is not (the boxes swept
  /// keep whole rows), and u's block has cells that need no halo (more than twice the
  /// ghost width along every split axis).
  bool can_overlap(const view_type& u) const;

  // The parts of an overlapped step (device_iterate.hpp), in the order it calls them:
  /// Both streams wait for the legacy default stream's work queued so far.
  void after_default_stream();
  /// On the compute stream: the ghosts of the axes not split over processes (no message)
  /// where every split axis' coordinate is inside the block: the ones the inner box's
  /// sweep reads (overlap_boxes).
  void fill_beside_interior(const view_type& u, const conditions& bc);
  /// The comm stream waits for the compute stream's work so far (the last step's sweep,
  /// and fill_beside_interior: the messages of a split axis carry the ghosts of the
  /// unsplit axes before it).
  void comm_waits_for_compute();
  /// On the comm stream: every split axis' halos exchanged and its global faces filled,
  /// and the unsplit axes' ghosts fill_beside_interior left (beside the split axes'
  /// ghosts), in the order fill() writes them; the host takes part in MPI transports
  /// (returns once the messages arrived), not in NCCL's.
  void exchange_then_fill_rest(const view_type& u, const conditions& bc);
  /// Streams for the shell's boxes, swept at once once the halos are in (each box is a few
  /// rows or planes: one at a time, their launches would leave most of the GPU idle on the
  /// step's critical path); shell_stream(i) for any i, modulo shell_streams.
  static constexpr int shell_streams = 4;
  cudaStream_t shell_stream(int i) const;
  /// Every shell stream waits for the comm stream's work so far (the halos).
  void shell_streams_wait_for_comm();
  /// The compute stream waits for every shell stream's work so far.
  void compute_waits_for_shell_streams();
  /// The compute stream waits for the comm stream's work so far.
  void compute_waits_for_comm();
  /// The legacy default stream waits for the compute stream's work so far: what the caller
  /// queues there next (a copy, the next step) sees what the step wrote, and the host does
  /// not wait (a host synchronisation a step leaves the GPU idle while the next step's
  /// launches are made).
  void default_stream_waits_for_compute();

 private:
  struct impl;
  std::unique_ptr<impl> p_;
};

}  // namespace tessera::mpi
