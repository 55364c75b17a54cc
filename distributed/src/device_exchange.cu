// device_exchange: packing kernels, the three transports and the streams behind
// tessera/mpi/device_exchange.hpp. Compiled into tessera_mpi_cuda for float and double,
// ranks 1 to 3.
#include <mpi.h>
#ifdef TESSERA_MPI_NCCL
#include <nccl.h>
#endif

#include <cstdlib>
#include <memory>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "tessera/core/errors.hpp"
#include "tessera/cuda/cuda_check.hpp"
#include "tessera/mpi/device_exchange.hpp"
#include "tessera/mpi/halo_exchange.hpp"

namespace tessera::mpi {

namespace {

/// A box [lo, hi) on the virtual axes (z, y, x) every kernel here walks; a rank-R view
/// fills the last R (the others: [0, 1), stride 0).
struct box3 {
  index_t lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  index_t count() const {
    index_t c = 1;
    for (int v = 0; v < 3; ++v) c *= hi[v] > lo[v] ? hi[v] - lo[v] : 0;
    return c;
  }
};

/// No limit on any axis (fill_axis' lim: indexed by real axis).
box3 every_cell() {
  box3 b;
  for (int v = 0; v < 3; ++v) b.lo[v] = -(index_t{1} << 62), b.hi[v] = index_t{1} << 62;
  return b;
}

template <class T, int Rank>
struct virtual_strides {
  index_t s[3] = {0, 0, 0};
  explicit virtual_strides(const view_accessor<T, Rank>& a) {
    for (int e = 0; e < Rank; ++e) s[e + 3 - Rank] = a.stride[e];
  }
};

/// Calls f(offset of the cell from origin, t, its index {z, y, x}) for the t-th cell of box
/// b in row-major order (the order pack and unpack agree on), one cell a thread, grid-stride.
template <class F>
__device__ void for_each_cell(index_t s0, index_t s1, index_t s2, const box3& b, F&& f) {
  const index_t ny = b.hi[1] - b.lo[1], nx = b.hi[2] - b.lo[2];
  const index_t total = (b.hi[0] - b.lo[0]) * ny * nx;
  for (index_t t = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; t < total;
       t += static_cast<index_t>(gridDim.x) * blockDim.x) {
    const index_t r = t / nx;
    const index_t i[3] = {r / ny + b.lo[0], r % ny + b.lo[1], t % nx + b.lo[2]};
    f(i[0] * s0 + i[1] * s1 + i[2] * s2, t, i);
  }
}

/// unpack == false copies the box into buf, true copies buf into the box.
template <class T>
__global__ void copy_box(T* origin, index_t s0, index_t s1, index_t s2, box3 b, T* buf, bool unpack) {
  for_each_cell(s0, s1, s2, b, [&](index_t off, index_t t, const index_t*) {
    if (unpack) origin[off] = buf[t];
    else buf[t] = origin[off];
  });
}

/// A periodic axis held by one process: each ghost cell of box b takes the interior cell
/// `shift` elements away (no message, no buffer: the compute and comm streams may both
/// run such copies at once, on disjoint boxes).
template <class T>
__global__ void copy_shifted(T* origin, index_t s0, index_t s1, index_t s2, box3 b, index_t shift) {
  for_each_cell(s0, s1, s2, b, [&](index_t off, index_t, const index_t*) { origin[off] = origin[off + shift]; });
}

/// The boundary condition b of face (axis v, side) on the cells of box (its ghost
/// layers on that face): Dirichlet writes the value on the wall and reflects about it
/// beyond, periodic and Neumann copy from detail::ghost_source, as every other fill does.
template <class T>
__global__ void fill_box(T* origin, index_t s0, index_t s1, index_t s2, box3 b, int v, index_t nv, boundary bc) {
  const index_t sv = v == 0 ? s0 : v == 1 ? s1 : s2;
  for_each_cell(s0, s1, s2, b, [&](index_t off, index_t, const index_t* i) {
    const bool dirichlet = bc.kind == boundary_kind::dirichlet;
    if (dirichlet && tessera::detail::on_wall(i[v], nv)) {
      origin[off] = static_cast<T>(bc.value);
      return;
    }
    const T x = origin[off + (tessera::detail::ghost_source(i[v], nv, bc.kind) - i[v]) * sv];
    origin[off] = dirichlet ? tessera::detail::reflect_about_wall(bc.value, x) : x;
  });
}

unsigned blocks_for(index_t count) {
  const index_t b = (count + 255) / 256;
  return static_cast<unsigned>(b < 4096 ? (b > 0 ? b : 1) : 4096);
}

#ifdef TESSERA_MPI_NCCL
/// An NCCL communicator, destroyed with its last user.
struct nccl_comm_holder {
  ncclComm_t comm = nullptr;
  ~nccl_comm_holder() {
    if (comm) ncclCommDestroy(comm);
  }
};

/// NCCL communicators already made, by the world ranks of their MPI communicator (in its
/// rank order) and this rank's device. Making one costs a collective set-up of most of a
/// second, so every exchange over the same processes and GPUs shares one, as long as
/// something holds it; the cache lets go of them when MPI_Finalize begins.
struct nccl_cache_entry {
  std::vector<int> world_ranks;
  int device = 0;
  std::shared_ptr<nccl_comm_holder> comm;
};

std::vector<nccl_cache_entry>& nccl_cache() {
  static std::vector<nccl_cache_entry> c;
  return c;
}

int release_nccl_cache(MPI_Comm, int, void*, void*) {
  nccl_cache().clear();
  return MPI_SUCCESS;
}

void check_nccl(ncclResult_t r, const char* call, const std::string& who) {
  if (r != ncclSuccess && r != ncclInProgress)
    throw backend_error("tessera::mpi: " + std::string(call) + " failed: " + ncclGetErrorString(r) + " [" + who + "]");
}

/// The NCCL communicator over `comm`'s processes, each on its current device: the cached
/// one when every rank has it, else a new one (collective over comm, as the constructor).
std::shared_ptr<nccl_comm_holder> shared_nccl_comm(MPI_Comm comm, int rank, int size, const std::string& who) {
  static const bool release_registered = [] {
    // an attribute of MPI_COMM_SELF is deleted first thing in MPI_Finalize
    int key = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, release_nccl_cache, &key, nullptr);
    MPI_Comm_set_attr(MPI_COMM_SELF, key, nullptr);
    return true;
  }();
  (void)release_registered;
  std::vector<int> mine(static_cast<std::size_t>(size)), world(static_cast<std::size_t>(size));
  std::iota(mine.begin(), mine.end(), 0);
  MPI_Group group, world_group;
  MPI_Comm_group(comm, &group);
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Group_translate_ranks(group, size, mine.data(), world_group, world.data());
  MPI_Group_free(&group);
  MPI_Group_free(&world_group);
  int device = 0;
  tessera::detail::cuda_check(cudaGetDevice(&device), "cudaGetDevice", who);
  auto& cache = nccl_cache();
  auto it = cache.begin();
  while (it != cache.end() && !(it->world_ranks == world && it->device == device)) ++it;
  int have = it != cache.end(), every_rank_has = 0;
  detail::check(MPI_Allreduce(&have, &every_rank_has, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce (NCCL communicator cached?)");
  if (every_rank_has) return it->comm;
  // NVLink multicast (NVLS) can take shared GPUs out of service on some hosts: off
  // unless the user set it explicitly.
  setenv("NCCL_NVLS_ENABLE", "0", /*overwrite=*/0);
  ncclUniqueId id;
  if (rank == 0) check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId", who);
  detail::check(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, comm), "MPI_Bcast (NCCL unique id)");
  auto made = std::make_shared<nccl_comm_holder>();
  check_nccl(ncclCommInitRank(&made->comm, size, id, rank), "ncclCommInitRank", who);
  if (it != cache.end()) it->comm = made;
  else cache.push_back({world, device, made});
  return made;
}
#endif

}  // namespace

template <class T, int Rank>
struct device_exchange<T, Rank>::impl {
  transport kind = transport::host_staged;
  cartesian_domain<Rank> dom;
  index_t g = 0;         // the ghost width of the view being filled
  index_t capacity = 0;  // elements of the largest message the buffers hold
  T* send[2] = {nullptr, nullptr};
  T* recv[2] = {nullptr, nullptr};
  T* host_send[2] = {nullptr, nullptr};  // pinned, host_staged only
  T* host_recv[2] = {nullptr, nullptr};
  cudaStream_t compute = nullptr, comm = nullptr;
  cudaEvent_t compute_done = nullptr, comm_done = nullptr, default_done = nullptr;
  // the shell's boxes, swept at once (shell_stream), and when each stream is done
  cudaStream_t shell[shell_streams] = {};
  cudaEvent_t shell_done[shell_streams] = {};
#ifdef TESSERA_MPI_NCCL
  std::shared_ptr<nccl_comm_holder> nccl_shared;  // shared with other exchanges (nccl_cache)
  ncclComm_t nccl = nullptr;
#endif
  std::string who;

  void check(cudaError_t e, const char* call) const { tessera::detail::cuda_check(e, call, who); }

  /// comm_done, recorded now on the comm stream: a stream that waits for it runs its next
  /// work after the halos the comm stream holds have arrived.
  cudaEvent_t record_comm_done() {
    check(cudaEventRecord(comm_done, comm), "cudaEventRecord");
    return comm_done;
  }

  void free_buffers() {
    for (int s = 0; s < 2; ++s) {
      cudaFree(send[s]);
      cudaFree(recv[s]);
      cudaFreeHost(host_send[s]);
      cudaFreeHost(host_recv[s]);
      send[s] = recv[s] = host_send[s] = host_recv[s] = nullptr;
    }
    capacity = 0;
  }

  /// Buffers for u's largest message (axis d's slab over the other axes' full range),
  /// grown when u needs more than the views before it (a wider ghost, a larger block):
  /// after both streams finished with the old ones.
  void ensure_capacity(const layout<Rank>& lay) {
    index_t need = 0;
    const auto& n = lay.interior();
    const index_t w = lay.ghost();
    for (int d = 0; d < Rank; ++d) {
      index_t c = w;
      for (int e = 0; e < Rank; ++e)
        if (e != d) c *= n[e] + 2 * w;
      need = c > need ? c : need;
    }
    if (need <= capacity) return;
    if (compute) check(cudaStreamSynchronize(compute), "cudaStreamSynchronize (before growing halo buffers)");
    if (comm) check(cudaStreamSynchronize(comm), "cudaStreamSynchronize (before growing halo buffers)");
    free_buffers();
    const std::size_t bytes = static_cast<std::size_t>(need) * sizeof(T);
    for (int s = 0; s < 2; ++s) {
      check(cudaMalloc(&send[s], bytes), "cudaMalloc (halo send buffer)");
      check(cudaMalloc(&recv[s], bytes), "cudaMalloc (halo receive buffer)");
      if (kind == transport::host_staged) {
        check(cudaMallocHost(&host_send[s], bytes), "cudaMallocHost (pinned halo buffer)");
        check(cudaMallocHost(&host_recv[s], bytes), "cudaMallocHost (pinned halo buffer)");
      }
    }
    capacity = need;
  }

  ~impl() {
    // errors are not thrown from here: a destructor runs during unwinding too
    free_buffers();
    for (cudaEvent_t e : {compute_done, comm_done, default_done})
      if (e) cudaEventDestroy(e);
    for (int i = 0; i < shell_streams; ++i) {
      if (shell_done[i]) cudaEventDestroy(shell_done[i]);
      if (shell[i]) cudaStreamDestroy(shell[i]);
    }
    if (compute) cudaStreamDestroy(compute);
    if (comm) cudaStreamDestroy(comm);
  }

  /// u's accessor, once u is known to be a block of this exchange's domain (the same
  /// communicator, blocks and offset on every rank alike) and the buffers hold its messages.
  view_accessor<T, Rank> accessor_of(const view_type& u) {
    if (u.domain().comm() != dom.comm() || !(u.domain().local_extents() == dom.local_extents()) ||
        !(u.domain().offset() == dom.offset()))
      throw extent_mismatch_error(who + ": " + u.local().describe() +
                                  " is not a block of the domain this exchange was made for; make one "
                                  "device_exchange per cartesian_domain");
    g = u.ghost();
    ensure_capacity(u.local().layout());
    return u.local().accessor();
  }

  void launch_copy(const view_accessor<T, Rank>& a, const box3& b, T* buf, bool unpack, cudaStream_t s) {
    const virtual_strides<T, Rank> vs(a);
    copy_box<T><<<blocks_for(b.count()), 256, 0, s>>>(a.origin, vs.s[0], vs.s[1], vs.s[2], b, buf, unpack);
    check(cudaGetLastError(), unpack ? "copy_box (unpack)" : "copy_box (pack)");
  }

  void launch_shifted(const view_accessor<T, Rank>& a, const box3& b, int v, index_t planes, cudaStream_t s) {
    const virtual_strides<T, Rank> vs(a);
    copy_shifted<T><<<blocks_for(b.count()), 256, 0, s>>>(a.origin, vs.s[0], vs.s[1], vs.s[2], b, planes * vs.s[v]);
    check(cudaGetLastError(), "copy_shifted (periodic axis on one process)");
  }

  void launch_fill(const view_accessor<T, Rank>& a, const box3& b, int d, const boundary& bc, cudaStream_t s) {
    if (bc.kind == boundary_kind::fixed) return;  // the caller's ghosts: left as they are
    const virtual_strides<T, Rank> vs(a);
    fill_box<T><<<blocks_for(b.count()), 256, 0, s>>>(a.origin, vs.s[0], vs.s[1], vs.s[2], b, d + 3 - Rank, a.n[d], bc);
    check(cudaGetLastError(), "fill_box (boundary condition)");
  }

  /// Axis d's halos: the slabs of fill_ghosts' boxes (ghost_slab: axes before d over
  /// their full range, after d over the interior), each other axis e further limited to
  /// [lim.lo[e], lim.hi[e]) (real axes; unlimited: every_cell()); exchanged with the two
  /// neighbours along d, then the global faces of d.
  void fill_axis(const view_accessor<T, Rank>& a, int d, const box3& lim, const conditions& bc, cudaStream_t s) {
    box3 base;
    for (int e = 0; e < Rank; ++e) {
      const int v = e + 3 - Rank;
      base.lo[v] = e < d ? -g : 0;
      base.hi[v] = e < d ? a.n[e] + g : a.n[e];
      if (e != d) {
        base.lo[v] = base.lo[v] > lim.lo[e] ? base.lo[v] : lim.lo[e];
        base.hi[v] = base.hi[v] < lim.hi[e] ? base.hi[v] : lim.hi[e];
      }
    }
    const int vd = d + 3 - Rank;
    base.lo[vd] = 0;
    base.hi[vd] = g;
    const index_t count = base.count();
    if (count == 0) return;
    int to[2], from[2];
    box3 out[2], in[2];  // message s: my slab on side s goes to neighbour (d, s); the one
    for (int m = 0; m < 2; ++m) {  // from neighbour (d, 1 - s) fills my ghosts on side 1 - s
      to[m] = dom.neighbour(d, m);
      from[m] = dom.neighbour(d, 1 - m);
      out[m] = in[m] = base;
      out[m].lo[vd] = m == 0 ? 0 : a.n[d] - g;
      out[m].hi[vd] = out[m].lo[vd] + g;
      in[m].lo[vd] = m == 0 ? a.n[d] : -g;
      in[m].hi[vd] = in[m].lo[vd] + g;
    }
    const std::size_t bytes = static_cast<std::size_t>(count) * sizeof(T);
    if (dom.dims()[d] == 1) {
      // a periodic axis held by one process: each message would go to this rank itself;
      // copied in place instead. Not through the message buffers: an overlapped step runs
      // these copies on the compute stream while axis 0's messages use the buffers.
      for (int m = 0; m < 2; ++m)
        if (to[m] != MPI_PROC_NULL) launch_shifted(a, in[m], vd, out[m].lo[vd] - in[m].lo[vd], s);
    } else {
      for (int m = 0; m < 2; ++m)
        if (to[m] != MPI_PROC_NULL) launch_copy(a, out[m], send[m], false, s);
      transfer(d, count, bytes, to, from, s);
      for (int m = 0; m < 2; ++m)
        if (from[m] != MPI_PROC_NULL) launch_copy(a, in[m], recv[m], true, s);
    }
    if (bc)
      for (int side = 0; side < 2; ++side)
        if (dom.neighbour(d, side) == MPI_PROC_NULL) launch_fill(a, in[1 - side], d, bc->faces[2 * d + side], s);
  }

  /// The packed messages of axis d from send[] to the neighbours' recv[], by the transport.
  void transfer(int d, index_t count, std::size_t bytes, const int* to, const int* from, cudaStream_t s) {
    if (kind == transport::nccl) {
#ifdef TESSERA_MPI_NCCL
      const ncclDataType_t type = std::is_same_v<T, float> ? ncclFloat : ncclDouble;
      nccl_check(ncclGroupStart(), "ncclGroupStart");
      for (int m = 0; m < 2; ++m) {
        if (to[m] != MPI_PROC_NULL) nccl_check(ncclSend(send[m], static_cast<std::size_t>(count), type, to[m], nccl, s), "ncclSend");
        if (from[m] != MPI_PROC_NULL) nccl_check(ncclRecv(recv[m], static_cast<std::size_t>(count), type, from[m], nccl, s), "ncclRecv");
      }
      nccl_check(ncclGroupEnd(), "ncclGroupEnd");
#endif
    } else {
      detail::check_message_count(who, count);
      const bool staged = kind == transport::host_staged;
      if (staged)
        for (int m = 0; m < 2; ++m)
          if (to[m] != MPI_PROC_NULL) check(cudaMemcpyAsync(host_send[m], send[m], bytes, cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync (to host)");
      check(cudaStreamSynchronize(s), "cudaStreamSynchronize (halo messages packed)");
      for (int m = 0; m < 2; ++m) {
        if (to[m] == MPI_PROC_NULL && from[m] == MPI_PROC_NULL) continue;
        const int tag = 2 * d + m;
        detail::check(MPI_Sendrecv(staged ? host_send[m] : send[m], static_cast<int>(count), detail::datatype<T>(), to[m], tag,
                                   staged ? host_recv[m] : recv[m], static_cast<int>(count), detail::datatype<T>(), from[m], tag,
                                   dom.comm(), MPI_STATUS_IGNORE),
                      "MPI_Sendrecv (device halo exchange)");
      }
      if (staged)
        for (int m = 0; m < 2; ++m)
          if (from[m] != MPI_PROC_NULL) check(cudaMemcpyAsync(recv[m], host_recv[m], bytes, cudaMemcpyHostToDevice, s), "cudaMemcpyAsync (to device)");
    }
  }

#ifdef TESSERA_MPI_NCCL
  void nccl_check(ncclResult_t r, const char* call) const { check_nccl(r, call, who); }
#endif
};

template <class T, int Rank>
device_exchange<T, Rank>::device_exchange(const view_type& like, transport t) : p_(std::make_unique<impl>()) {
  impl& p = *p_;
  p.kind = t;
  p.dom = like.domain();
  p.g = like.ghost();
  p.who = "tessera::mpi::device_exchange(" + to_string(t) + ", " + like.local().describe() + ", rank " +
          std::to_string(p.dom.rank()) + " of process grid " + p.dom.describe_grid() + ")";
  if (const std::string why = transport_unavailable_reason(t); !why.empty())
    throw unsupported_error(p.who + ": " + why);
  p.ensure_capacity(like.local().layout());
  // The comm stream at the highest priority: its packing kernels and NCCL's transfer
  // kernel take SMs as the interior sweep's blocks retire, instead of queueing behind the
  // whole sweep (which would leave the halos on the critical path).
  int least = 0, greatest = 0;
  p.check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange");
  p.check(cudaStreamCreateWithPriority(&p.compute, cudaStreamNonBlocking, least), "cudaStreamCreateWithPriority");
  p.check(cudaStreamCreateWithPriority(&p.comm, cudaStreamNonBlocking, greatest), "cudaStreamCreateWithPriority");
  for (cudaEvent_t* e : {&p.compute_done, &p.comm_done, &p.default_done})
    p.check(cudaEventCreateWithFlags(e, cudaEventDisableTiming), "cudaEventCreateWithFlags");
  // the shell's sweeps are the step's critical path once the halos are in: the highest
  // priority, as the comm stream
  for (int i = 0; i < shell_streams; ++i) {
    p.check(cudaStreamCreateWithPriority(&p.shell[i], cudaStreamNonBlocking, greatest), "cudaStreamCreateWithPriority");
    p.check(cudaEventCreateWithFlags(&p.shell_done[i], cudaEventDisableTiming), "cudaEventCreateWithFlags");
  }
#ifdef TESSERA_MPI_NCCL
  if (t == transport::nccl) {
    p.nccl_shared = shared_nccl_comm(p.dom.comm(), p.dom.rank(), p.dom.size(), p.who);
    p.nccl = p.nccl_shared->comm;
  }
#endif
}

template <class T, int Rank>
device_exchange<T, Rank>::~device_exchange() = default;
template <class T, int Rank>
device_exchange<T, Rank>::device_exchange(device_exchange&&) noexcept = default;
template <class T, int Rank>
device_exchange<T, Rank>& device_exchange<T, Rank>::operator=(device_exchange&&) noexcept = default;

template <class T, int Rank>
transport device_exchange<T, Rank>::kind() const {
  return p_->kind;
}
template <class T, int Rank>
cudaStream_t device_exchange<T, Rank>::compute_stream() const {
  return p_->compute;
}
template <class T, int Rank>
cudaStream_t device_exchange<T, Rank>::comm_stream() const {
  return p_->comm;
}
template <class T, int Rank>
cudaStream_t device_exchange<T, Rank>::shell_stream(int i) const {
  return p_->shell[((i % shell_streams) + shell_streams) % shell_streams];
}

template <class T, int Rank>
void device_exchange<T, Rank>::after_default_stream() {
  impl& p = *p_;
  p.check(cudaEventRecord(p.default_done, cudaStreamLegacy), "cudaEventRecord");
  p.check(cudaStreamWaitEvent(p.compute, p.default_done, 0), "cudaStreamWaitEvent");
  p.check(cudaStreamWaitEvent(p.comm, p.default_done, 0), "cudaStreamWaitEvent");
}

template <class T, int Rank>
void device_exchange<T, Rank>::fill(const view_type& u, const conditions& bc) {
  impl& p = *p_;
  const auto a = p.accessor_of(u);
  if (p.g == 0) return;
  detail::check_halo_fill(p.who, p.dom, p.g, bc);
  // no neighbour on any face (one process, no periodic axis) and no boundary condition:
  // not a cell to write, and no reason to wait for the streams
  bool alone = !bc;
  for (int d = 0; d < Rank; ++d) alone = alone && p.dom.neighbour(d, 0) == MPI_PROC_NULL && p.dom.neighbour(d, 1) == MPI_PROC_NULL;
  if (alone) return;
  after_default_stream();
  comm_waits_for_compute();
  for (int d = 0; d < Rank; ++d) p.fill_axis(a, d, every_cell(), bc, p.comm);
  p.check(cudaStreamSynchronize(p.comm), "cudaStreamSynchronize (halos filled)");
}

template <class T, int Rank>
bool device_exchange<T, Rank>::can_overlap(const view_type& u) const {
  return overlap_possible<Rank>(p_->dom.dims(), u.local().extents(), static_cast<int>(u.ghost()));
}

// Why the two halves below write what fill() writes. fill() runs fill_axis(d) for d in
// order; a split axis' (one with messages) slabs read the earlier axes' ghosts, an unsplit
// axis' (local copies and faces) only cells of the same row along d. Split the unsplit
// axes' boxes in two: P (every split axis' coordinate in its interior) and the rest (some
// split axis' coordinate among its ghosts: only a split axis before d can be there, fill_axis
// takes the axes after d over the interior).
//  - P needs nothing from a message: fill_beside_interior writes it, on the compute stream,
//    in axis order (a P cell reads only P cells of earlier axes and interior cells).
//  - exchange_then_fill_rest, on the comm stream after P (the caller's
//    comm_waits_for_compute), runs every split axis' fill_axis whole and every unsplit
//    axis' rest, in axis order: each reads what fill() would have written before it.
//  - the inner box's sweep reads interior cells and P cells only; the comm stream writes
//    split axes' ghosts and rest cells: the two run at once without touching the same cell.

template <class T, int Rank>
void device_exchange<T, Rank>::fill_beside_interior(const view_type& u, const conditions& bc) {
  impl& p = *p_;
  const auto a = p.accessor_of(u);
  detail::check_halo_fill(p.who, p.dom, p.g, bc);
  box3 interior_of_split = every_cell();
  for (int e = 0; e < Rank; ++e)
    if (p.dom.dims()[e] > 1) interior_of_split.lo[e] = 0, interior_of_split.hi[e] = a.n[e];
  for (int d = 0; d < Rank; ++d)
    if (p.dom.dims()[d] == 1) p.fill_axis(a, d, interior_of_split, bc, p.compute);
}

template <class T, int Rank>
void device_exchange<T, Rank>::exchange_then_fill_rest(const view_type& u, const conditions& bc) {
  impl& p = *p_;
  const auto a = p.accessor_of(u);
  for (int d = 0; d < Rank; ++d) {
    if (p.dom.dims()[d] > 1) {
      p.fill_axis(a, d, every_cell(), bc, p.comm);
      continue;
    }
    // the rest of unsplit axis d's slabs, as disjoint boxes: k, the first split axis
    // (before d) whose coordinate is a ghost, on one side; the split axes before k inside
    for (int k = 0; k < d; ++k) {
      if (p.dom.dims()[k] == 1) continue;
      for (int side = 0; side < 2; ++side) {
        box3 lim = every_cell();
        for (int j = 0; j < k; ++j)
          if (p.dom.dims()[j] > 1) lim.lo[j] = 0, lim.hi[j] = a.n[j];
        lim.lo[k] = side == 0 ? -p.g : a.n[k];
        lim.hi[k] = lim.lo[k] + p.g;
        p.fill_axis(a, d, lim, bc, p.comm);
      }
    }
  }
}

template <class T, int Rank>
void device_exchange<T, Rank>::comm_waits_for_compute() {
  impl& p = *p_;
  p.check(cudaEventRecord(p.compute_done, p.compute), "cudaEventRecord");
  p.check(cudaStreamWaitEvent(p.comm, p.compute_done, 0), "cudaStreamWaitEvent");
}

template <class T, int Rank>
void device_exchange<T, Rank>::shell_streams_wait_for_comm() {
  impl& p = *p_;
  const cudaEvent_t halos_in = p.record_comm_done();
  for (cudaStream_t s : p.shell) p.check(cudaStreamWaitEvent(s, halos_in, 0), "cudaStreamWaitEvent");
}

template <class T, int Rank>
void device_exchange<T, Rank>::compute_waits_for_shell_streams() {
  impl& p = *p_;
  for (int i = 0; i < shell_streams; ++i) {
    p.check(cudaEventRecord(p.shell_done[i], p.shell[i]), "cudaEventRecord");
    p.check(cudaStreamWaitEvent(p.compute, p.shell_done[i], 0), "cudaStreamWaitEvent");
  }
}

template <class T, int Rank>
void device_exchange<T, Rank>::compute_waits_for_comm() {
  impl& p = *p_;
  p.check(cudaStreamWaitEvent(p.compute, p.record_comm_done(), 0), "cudaStreamWaitEvent");
}

template <class T, int Rank>
void device_exchange<T, Rank>::default_stream_waits_for_compute() {
  impl& p = *p_;
  p.check(cudaEventRecord(p.compute_done, p.compute), "cudaEventRecord");
  p.check(cudaStreamWaitEvent(cudaStreamLegacy, p.compute_done, 0), "cudaStreamWaitEvent");
}

template class device_exchange<float, 1>;
template class device_exchange<float, 2>;
template class device_exchange<float, 3>;
template class device_exchange<double, 1>;
template class device_exchange<double, 2>;
template class device_exchange<double, 3>;

}  // namespace tessera::mpi
