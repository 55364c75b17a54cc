#pragma once
// cuda::persistent's kernel and launcher (nvcc only): a cooperative pass that keeps the grid
// in shared memory across its steps (strategies/persistent.hpp says how and why).
#include <cuda/atomic>

#include "tessera/cuda/detail/edge_rules.hpp"
#include "tessera/cuda/kernels/common.cuh"
#include "tessera/cuda/strategies/persistent.hpp"

namespace tessera::cuda {

namespace detail {

/// C consecutive rows of one column (C a power of two that divides a thread's rows, at most
/// 16 bytes): the unit the box is laid out and moved in, one shared-memory instruction each.
template <class T, int C>
struct alignas(C * sizeof(T)) persistent_chunk {
  T v[C];
};

template <class T, int Rows, int C = 16 / static_cast<int>(sizeof(T))>
inline constexpr int persistent_chunk_rows =
    C <= 1 ? 1 : (Rows % C == 0 ? C : persistent_chunk_rows<T, Rows, (C > 1 ? C / 2 : 1)>);

/// The argument of a persistent pass (trivially copyable, by value).
template <class T, int N>
struct persistent_args {
  sweep_params<T, N> p;
  T* faces = nullptr;  // the face buffer: two parities of persistent_faces
  int* published = nullptr;  // per box, zeroed before the pass: how many times it published its faces
  persistent_faces layout;
  int box_rows = 1, box_planes = 1;
  int steps = 1;
  persistent_beyond beyond[3][2];  // (z, y, x) x (low, high)
};

}  // namespace detail

namespace kernels {

/// The pass: block (y, z) of the launch owns the box of rows y * box_rows.. and planes
/// z * box_planes.., thread (x, q) column x of the box's rows q * Rows .. q * Rows + Rows - 1.
///
/// The box in shared memory: per plane and per thread row (q), the Rows rows as Rows / C
/// chunks of C consecutive rows, each chunk a row of nx + 2 columns ([plane][q][chunk][x][C]).
/// So a thread moves C rows an instruction (16 bytes: a warp's 32 columns 512 contiguous
/// bytes, no bank conflict), and its rows sit at compile-time offsets from one address
/// whatever the grid's width: only the planes and chunks are run-time strides.
template <class S, class T, int Rows, int Group, int MaxThreads>
__global__ void __launch_bounds__(MaxThreads, 1)
    persistent_pass(const detail::persistent_args<T, shape_traits<S>::size> a) {
  using vs = detail::vshape<S>;
  constexpr int C = detail::persistent_chunk_rows<T, Rows>, H = Rows / C;  // rows a chunk, chunks a thread
  using chunk = detail::persistent_chunk<T, C>;
  extern __shared__ __align__(16) unsigned char persistent_shared[];
  T* const box = reinterpret_cast<T*>(persistent_shared);
  chunk* const chunks = reinterpret_cast<chunk*>(persistent_shared);
  const auto& p = a.p;
  const int nx = static_cast<int>(p.n[2]), ny = static_cast<int>(p.n[1]), nz = static_cast<int>(p.n[0]);
  const int W = nx + 2, BY = a.box_rows, BZ = a.box_planes;
  const int boxes_y = static_cast<int>(gridDim.y);
  const int y0 = static_cast<int>(blockIdx.y) * BY, z0 = static_cast<int>(blockIdx.z) * BZ;
  const int by = min(BY, ny - y0), bz = min(BZ, nz - z0);
  const int x = static_cast<int>(threadIdx.x), row0 = static_cast<int>(threadIdx.y) * Rows;
  const bool x_in = x < nx;
  const int xc = x_in ? x : nx - 1;  // threads past the row recompute its last column and store nothing
  const int last_r = by - 1 - row0;  // this thread's row that is the box's last, where 0 <= last_r < Rows
  const bool reads_hi_face = last_r >= 0 && last_r < Rows;
  const long long F = a.layout.per_parity();
  const index_t sz = p.in_stride[0], sy = p.in_stride[1];

  // The edge row y (or plane z) of its box: where it is published, side 0 its box's first,
  // 1 its last (a one-row box writes both).
  auto row_face = [&](int y) -> long long {
    const int b = y / BY;
    return 2LL * b + (y - b * BY == 0 ? 0 : 1);
  };
  auto plane_face = [&](int z) -> long long {
    const int b = z / BZ;
    return 2LL * b + (z - b * BZ == 0 ? 0 : 1);
  };
  // The rows beyond the box's first and last row (read at plane z as base[z * stride + x]),
  // and the planes beyond its first and last plane (read at row y as base[y * stride + x]):
  // a fixed face reads the input, everything else the face buffer (add F for odd steps).
  struct source {
    const T* base;
    long long stride, parity;
  };
  auto rows_beyond = [&](int y, int side) -> source {
    const index_t from = detail::persistent_source(y, ny, a.beyond[1][side]);
    if (from < 0) return {p.in + y * sy, sz, 0};
    return {a.faces + row_face(static_cast<int>(from)) * nx, 2LL * boxes_y * nx, F};
  };
  auto planes_beyond = [&](int z, int side) -> source {
    const index_t from = detail::persistent_source(z, nz, a.beyond[0][side]);
    if (from < 0) return {p.in + z * sz, sy, 0};
    return {a.faces + a.layout.row_faces + plane_face(static_cast<int>(from)) * ny * nx, nx, F};
  };
  const source y_lo = rows_beyond(y0 - 1, 0), y_hi = rows_beyond(y0 + by, 1);
  const source z_lo = planes_beyond(z0 - 1, 0), z_hi = planes_beyond(z0 + bz, 1);
  // The x-neighbours beyond the row's faces: fixed, or rewritten from the column they map to.
  const int x_lo_from = a.beyond[2][0].fixed ? -2 : static_cast<int>(a.beyond[2][0].at);
  const int x_hi_from = a.beyond[2][1].fixed ? -2 : static_cast<int>(a.beyond[2][1].at);

  // Where (column xx from -1 to nx, row ly, plane lz) of the box lies (see the layout above).
  const int Q = BY / Rows;  // thread rows a box (the plan makes BY a multiple of Rows)
  auto at = [&](int xx, int ly, int lz) -> int {
    const int q = ly / Rows, r = ly - q * Rows, h = r / C;
    return (((lz * Q + q) * H + h) * W + xx + 1) * C + (r - h * C);
  };
  // Where this box publishes its first and last row (per plane) and its first and last plane.
  const long long row_stride = 2LL * boxes_y * nx, rows_first = row_face(y0) * nx, rows_last = row_face(y0 + by - 1) * nx;
  const long long planes_first = a.layout.row_faces + plane_face(z0) * ny * nx,
                  planes_last = a.layout.row_faces + plane_face(z0 + bz - 1) * ny * nx;
  // Publishes the value v of (column, y0 + ly, z0 + lz) to the faces of parity `par` where the cell is on one.
  auto publish = [&](int column, int ly, int lz, T v, long long par) {
    T* f = a.faces + par;
    if (ly == 0) f[(z0 + lz) * row_stride + rows_first + column] = v;
    if (ly == by - 1) f[(z0 + lz) * row_stride + rows_last + column] = v;
    if (lz == 0) f[planes_first + (long long)(y0 + ly) * nx + column] = v;
    if (lz == bz - 1) f[planes_last + (long long)(y0 + ly) * nx + column] = v;
  };

  // The box at time 0 (rows and planes past the grid zero, never stored), then its faces
  // published. The interior a block row of box rows at a time, a column a thread (a batch of
  // rows' loads issued before their stores, so they are in flight together); a cell's place
  // is its row's place plus C a column (the layout above), so no division a cell.
  const int threads = static_cast<int>(blockDim.x * blockDim.y), tid = static_cast<int>(threadIdx.y * blockDim.x) + x;
  const int row_step = static_cast<int>(blockDim.y);
  constexpr int batch = 8;
  for (int r0 = static_cast<int>(threadIdx.y); r0 < BZ * BY; r0 += batch * row_step) {
    T v[batch];
#pragma unroll
    for (int k = 0; k < batch; ++k) {
      const int rr = r0 + k * row_step, lz = rr / BY, ly = rr - lz * BY;
      v[k] = rr < BZ * BY && ly < by && lz < bz && x_in ? __ldcs(p.in + (z0 + lz) * sz + (y0 + ly) * sy + x) : T(0);
    }
#pragma unroll
    for (int k = 0; k < batch; ++k) {
      const int rr = r0 + k * row_step, lz = rr / BY, ly = rr - lz * BY;
      if (rr < BZ * BY && x_in) box[at(0, ly, lz) + x * C] = v[k];
    }
  }
  // the x-neighbours beyond the rows' faces: the input's ghosts, or the column they map to
  for (int i = tid; i < 2 * BZ * BY; i += threads) {
    const int side = i & 1, rr = i >> 1, lz = rr / BY, ly = rr - lz * BY;
    const int xx = side == 0 ? -1 : nx;
    T v = T(0);
    if (ly < by && lz < bz) v = p.in[(z0 + lz) * sz + (y0 + ly) * sy + static_cast<int>(a.beyond[2][side].at)];
    box[at(xx, ly, lz)] = v;
  }
  __syncthreads();
  // the faces at time 0: the box's first and last row of each plane, its first and last plane
  for (int rr = static_cast<int>(threadIdx.y); rr < bz * BY; rr += row_step) {
    const int lz = rr / BY, ly = rr - lz * BY;
    if (ly >= by || !x_in || !(ly == 0 || ly == by - 1 || lz == 0 || lz == bz - 1)) continue;
    publish(x, ly, lz, box[at(0, ly, lz) + x * C], 0);
  }
  // A box waits for the boxes whose faces it reads, not for the whole grid: those beyond its
  // faces along y and z (a fixed face reads the input, a periodic or Neumann one the box the
  // face maps to). The relation is symmetric (a neighbour, or the partner across a periodic
  // face, reads this box's faces in turn), so a box that has seen its neighbours' faces of
  // step t + 1 also knows they are done reading its faces of step t, which it overwrites next.
  const int me = static_cast<int>(blockIdx.z) * boxes_y + static_cast<int>(blockIdx.y);
  const detail::persistent_waits waits_on =
      detail::persistent_waits_of(static_cast<int>(blockIdx.y), static_cast<int>(blockIdx.z), boxes_y, BY, BZ, ny, nz, a.beyond);
  const int waits = waits_on.count, polled = waits_on.box[tid & 3];  // threads below `waits` poll a box each
  // Publishing: every thread's face stores, a block barrier, then one thread's release of the
  // count (cumulative: it orders the stores the barrier put before it). Waiting: a thread a
  // box waited on spins on its count (acquire), then a block barrier hands the order on.
  auto publish_count = [&](int count) {
    __syncthreads();
    if (tid == 0) {
      ::cuda::atomic_ref<int, ::cuda::thread_scope_device>(a.published[me]).store(count, ::cuda::memory_order_release);
    }
  };
  auto wait_for = [&](int count) {
    if (tid < waits) {
      ::cuda::atomic_ref<int, ::cuda::thread_scope_device> theirs(a.published[polled]);
      while (theirs.load(::cuda::memory_order_acquire) < count) {
      }
    }
    __syncthreads();
  };
  publish_count(1);  // the faces at time 0
  wait_for(1);

  // Per thread, fixed for the pass: its column of the box (plane 0 of its first row), which
  // of its rows lie in the grid (bits by row), and
  // whether it rewrites an x-neighbour beyond a face. The loops below then branch once a
  // plane (the box's last plane reads the faces beyond), not once a row.
  const int PS = BY * W / C;  // a plane of the box, in chunks
  // chunk 0 of this thread's rows at plane 0, its column (chunk h at + h * W, column x + dx at + dx)
  const chunk* const mine = chunks + static_cast<int>(threadIdx.y) * H * W + xc + 1;
  constexpr unsigned all_rows = Rows >= 32 ? ~0u : (1u << Rows) - 1u;
  unsigned valid_rows = 0;
#pragma unroll
  for (int r = 0; r < Rows; ++r) {
    if (x_in && row0 + r < by) valid_rows |= 1u << r;
  }
  const bool writes_ghost = x_in && (x == x_lo_from || x == x_hi_from);
  // Which of the box's edge rows it publishes: most threads one at most (the first row as
  // their first, or the last as their last), and those take the loop's short path; a box one
  // thread tall (both rows) or cut short inside a thread's rows take the rare path with the
  // x-neighbours beyond a face, which reads the box's last row back from shared memory (its
  // own store: a run-time row, where registers would take a chain of selects).
  const bool pub_first = x_in && row0 == 0, pub_last = x_in && reads_hi_face;
  const bool publishes_one = pub_first != pub_last && (pub_first || last_r == Rows - 1);
  const int last_at = reads_hi_face ? (last_r / C) * W * C + last_r % C : 0;  // from its chunk 0, in elements
  const bool rare = ((pub_first || pub_last) && !publishes_one) || writes_ghost;
  // where: the rows' part at plane 0 (add a plane's row_stride, then rows_first or
  // rows_last), the planes' part at its first row (add planes_first or planes_last)
  // 32-bit offsets into the face buffer (the launch checks it holds fewer than 2^31 elements):
  // fewer live registers than 64-bit pointers in the loop
  const int Fi = static_cast<int>(F), row_stride_i = static_cast<int>(row_stride);
  const int rows_base = z0 * row_stride_i + x, planes_base = (y0 + row0) * nx + x;
  const int rows_first_i = static_cast<int>(rows_first), rows_last_i = static_cast<int>(rows_last);
  const int planes_first_i = static_cast<int>(planes_first), planes_last_i = static_cast<int>(planes_last);
  const int last_row = last_r < Rows - 1 ? last_r : Rows - 1;  // past it, rows read the box's last row's faces

  for (int t = 0; t < a.steps; ++t) {
    const long long par = (t & 1) ? F : 0;
    // the rows beyond the box's first and last row, moved on a plane at a time
    const T* yl = y_lo.base + (y_lo.parity ? par : 0) + (long long)z0 * y_lo.stride + xc;
    const T* yh = y_hi.base + (y_hi.parity ? par : 0) + (long long)z0 * y_hi.stride + xc;
    const long long yl_step = y_lo.stride, yh_step = y_hi.stride;
    const T* zl = z_lo.base + (z_lo.parity ? par : 0) + (long long)(y0 + row0) * z_lo.stride + xc;  // at row y0 + row0
    const T* zh = z_hi.base + (z_hi.parity ? par : 0) + (long long)(y0 + row0) * z_hi.stride + xc;
    if (by < BY) {  // a box cut short along y: the row past its last holds the face beyond it
      const T* src = y_hi.base + (y_hi.parity ? par : 0) + (long long)z0 * y_hi.stride;
      for (int i = tid; i < bz * nx; i += threads) {
        const int lz = i / nx, xx = i - lz * nx;
        box[at(xx, by, lz)] = __ldcg(src + lz * y_hi.stride + xx);
      }
      __syncthreads();
    }
    T below[Rows], mid[Rows], above[Rows];
#pragma unroll
    for (int r = 0; r < Rows; ++r) {
      below[r] = __ldcg(zl + (r < last_row ? r : last_row) * z_lo.stride);
    }
#pragma unroll
    for (int h = 0; h < H; ++h) {
      const chunk c = mine[h * W];
#pragma unroll
      for (int e = 0; e < C; ++e) mid[h * C + e] = c.v[e];
    }
    const chunk* rd = mine;  // plane `first` of the group being computed (and written in place)
    // the edge row this thread publishes (if one) at plane `first`, in the next step's parity
    T* pub = a.faces + ((t & 1) ? 0 : Fi) + rows_base + (pub_first ? rows_first_i : rows_last_i);
    // Group planes: computed into registers, then (after a barrier) written in place.
    auto group = [&](int first, auto checked) {
      T nv[Group][Rows];
      // the plane past the box's last, which only the last group reads: loaded as that
      // group starts, so its registers are not held through the step
      T beyond_top[decltype(checked)::value ? Rows : 1];
      if constexpr (decltype(checked)::value) {
#pragma unroll
        for (int r = 0; r < Rows; ++r) beyond_top[r] = __ldcg(zh + (r < last_row ? r : last_row) * z_hi.stride);
      }
#pragma unroll
      for (int j = 0; j < Group; ++j) {
        const int lz = first + j;
        if (decltype(checked)::value && lz >= bz) break;
        const chunk* plane = rd + j * PS;
        // only the last group holds the box's last plane, whose plane above lies beyond it
        const bool top = decltype(checked)::value && lz + 1 == bz;
        T xm[Rows], xp[Rows];  // the x-neighbours
#pragma unroll
        for (int h = 0; h < H; ++h) {
          const chunk l = plane[h * W - 1], g = plane[h * W + 1];
          chunk u{};
          if (!top) u = plane[PS + h * W];
#pragma unroll
          for (int e = 0; e < C; ++e) {
            xm[h * C + e] = l.v[e], xp[h * C + e] = g.v[e];
            if constexpr (decltype(checked)::value) above[h * C + e] = top ? beyond_top[h * C + e] : u.v[e];
            else above[h * C + e] = u.v[e];
          }
        }
        // the rows just beyond this thread's: the previous thread row's last chunk's last row
        const T ym = row0 == 0 ? __ldcg(yl) : plane[-W].v[C - 1];
        // the row past this thread's last: in the box (a box cut short holds the face
        // beyond its last row in that row: see the step's start), else the face beyond
        const T yp = row0 + Rows < BY ? plane[H * W].v[0] : __ldcg(yh);
        yl += yl_step, yh += yh_step;
#pragma unroll
        for (int r = 0; r < Rows; ++r) {
          const T up = r == 0 ? ym : mid[r - 1];
          const T dn = r == Rows - 1 ? yp : mid[r + 1 < Rows ? r + 1 : r];
          T s{};
          tessera::detail::static_for<vs::size>([&](auto k) {
            constexpr int K = decltype(k)::value;
            constexpr int dz = vs::off(K, 0), dy = vs::off(K, 1), dx = vs::off(K, 2);
            T v;
            if constexpr (dz < 0) v = below[r];
            else if constexpr (dz > 0) v = above[r];
            else if constexpr (dy < 0) v = up;
            else if constexpr (dy > 0) v = dn;
            else if constexpr (dx < 0) v = xm[r];
            else if constexpr (dx > 0) v = xp[r];
            else v = mid[r];
            // term 0 assigned, not added to a zero: ptxas keeps an addition of +0 (it would
            // turn -0 into +0), and the sum from zero costs registers and moves here
            if constexpr (K == 0) s = p.template term<K>(v);
            else s += p.template term<K>(v);
          });
          nv[j][r] = s;
        }
#pragma unroll
        for (int r = 0; r < Rows; ++r) below[r] = mid[r], mid[r] = above[r];
      }
      __syncthreads();  // every thread has read these planes: they may change
#pragma unroll
      for (int j = 0; j < Group; ++j) {
        const int lz = first + j;
        if (decltype(checked)::value && lz >= bz) break;
        // threads past the row (whose reads are of the row's last column) store nothing
        chunk* const row = const_cast<chunk*>(rd) + j * PS;
        if (valid_rows == all_rows) {  // every row of a thread inside the row and the box: a chunk at once
#pragma unroll
          for (int h = 0; h < H; ++h) {
            chunk c;
#pragma unroll
            for (int e = 0; e < C; ++e) c.v[e] = nv[j][h * C + e];
            row[h * W] = c;
          }
        } else {
#pragma unroll
          for (int r = 0; r < Rows; ++r)
            if (valid_rows >> r & 1u) row[(r / C) * W].v[r % C] = nv[j][r];
        }
        if (publishes_one) pub[j * row_stride_i] = pub_first ? nv[j][0] : nv[j][Rows - 1];
        // Only the first group's first plane and the last group's last are the box's edge
        // planes (compile-time false elsewhere); the rest is rare (see `rare`).
        const bool edge_plane = (j == 0 && first == 0) || (decltype(checked)::value && lz == bz - 1);
        if (!(rare || edge_plane)) continue;
        const int parity_at = (t & 1) ? 0 : Fi;
        if ((pub_first || pub_last) && !publishes_one) {  // both edge rows, or the last inside its rows
          const int at = parity_at + rows_base + lz * row_stride_i;
          if (pub_first) a.faces[at + rows_first_i] = nv[j][0];
          if (pub_last) a.faces[at + rows_last_i] = reinterpret_cast<const T*>(row)[last_at];
        }
        // the box's first and last plane
        if (x_in && edge_plane && (lz == 0 || lz == bz - 1)) {
          const int at = parity_at + planes_base + (lz == 0 ? planes_first_i : planes_last_i);
#pragma unroll
          for (int r = 0; r < Rows; ++r)
            if (valid_rows >> r & 1u) a.faces[at + r * nx] = nv[j][r];
        }
        // the x-neighbours beyond a periodic or Neumann face follow the column they map to
        if (writes_ghost) {
#pragma unroll
          for (int r = 0; r < Rows; ++r) {
            if (!(valid_rows >> r & 1u)) continue;
            if (x == x_lo_from) row[(r / C) * W - x - 1].v[r % C] = nv[j][r];
            if (x == x_hi_from) row[(r / C) * W - x + nx].v[r % C] = nv[j][r];
          }
        }
      }
    };
    // full groups short of the box's last plane, then the rest (1 to Group planes, the last among them)
    int first = 0;
    for (; first + Group < bz; first += Group, rd += Group * PS, pub += Group * row_stride_i)
      group(first, std::false_type{});
    group(first, std::true_type{});
    publish_count(t + 2);  // this box's faces at time t + 1
    wait_for(t + 2);   // and those it reads next
  }

  // the box's interior to the output, a box row a block row at a time
  for (int rr = static_cast<int>(threadIdx.y); rr < bz * BY; rr += row_step) {
    const int lz = rr / BY, ly = rr - lz * BY;
    if (ly < by && x_in) p.out[(z0 + lz) * p.out_stride[0] + (y0 + ly) * p.out_stride[1] + x] = box[at(0, ly, lz) + x * C];
  }
}

}  // namespace kernels

/// A pass of `steps` steps under `rules`: the face buffer is allocated on the stream for the
/// pass, the kernel launched cooperatively (its blocks must all be resident: the plan makes
/// at most one an SM, and the launch checks the driver agrees).
template <class S, class T, class Tile>
void launch_fused_steps(persistent<>, sweep_of<S, T, Tile>, const launch_plan& plan, const params_for<S, T>& p,
                        int steps, const edge_rules& rules, cudaStream_t stream) {
  constexpr int rows = detail::persistent_rows<Tile, T>;
  constexpr auto kernel = &kernels::persistent_pass<S, T, rows, Tile::group, Tile::max_threads>;
  const std::string policy = persistent<>::name();
  const dim3 block(static_cast<unsigned>(plan.block[0]), static_cast<unsigned>(plan.block[1]), 1);
  if (plan.needs_shared_opt_in) detail::allow_shared_bytes(reinterpret_cast<const void*>(kernel), plan.shared_bytes, policy);
  const int per_sm = detail::resident_blocks_per_sm(reinterpret_cast<const void*>(kernel),
                                                    static_cast<int>(block.x * block.y), plan.shared_bytes);
  if (detail::residency_query* q = detail::residency_query::current()) {
    q->answer = per_sm;
    return;
  }
  const dim3 grid = detail::grid_of(plan);
  const long long blocks = plan.grid[0] * plan.grid[1] * plan.grid[2];
  if (blocks > static_cast<long long>(per_sm) * current_device_limits().multiprocessors)
    throw unsupported_error("tessera: " + policy + " on " + shape_name<S>() + ": " + std::to_string(blocks) +
                            " boxes must all be resident at once, but the device holds " + std::to_string(per_sm) +
                            " of its blocks an SM on " + std::to_string(current_device_limits().multiprocessors) +
                            " SMs; use cuda::temporal_blocking");
  detail::persistent_args<T, shape_traits<S>::size> a;
  a.p = p;
  a.layout = detail::persistent_face_layout(p.n[2], p.n[1], p.n[0], plan.grid[1], plan.grid[2]);
  a.box_rows = plan.out_tile[1];
  a.box_planes = plan.out_tile[2];
  a.steps = steps;
  detail::persistent_beyonds(p.n, rules, a.beyond);
  if (2 * a.layout.per_parity() >= (1LL << 31))
    throw unsupported_error("tessera: " + policy + " on " + shape_name<S>() + ": the face buffer would hold 2^31 "
                            "elements or more, which the pass indexes in 32 bits; use cuda::temporal_blocking");
  // the faces, then a count a box (16-byte aligned after the faces)
  const std::size_t face_bytes = (static_cast<std::size_t>(2 * a.layout.per_parity()) * sizeof(T) + 15) / 16 * 16;
  const std::size_t count_bytes = static_cast<std::size_t>(blocks) * sizeof(int);
  void* faces = nullptr;
  if (const cudaError_t e = cudaMallocFromPoolAsync(&faces, face_bytes + count_bytes, detail::scratch_pool(), stream);
      e != cudaSuccess) {
    (void)cudaGetLastError();
    throw backend_error("tessera: " + policy + ": allocating its face buffer of " + detail::kib(face_bytes) +
                        " failed: " + cudaGetErrorName(e));
  }
  a.faces = static_cast<T*>(faces);
  a.published = reinterpret_cast<int*>(static_cast<unsigned char*>(faces) + face_bytes);
  if (const cudaError_t e = cudaMemsetAsync(a.published, 0, count_bytes, stream); e != cudaSuccess) {
    (void)cudaGetLastError();
    (void)cudaFreeAsync(faces, stream);
    throw backend_error("tessera: " + policy + ": clearing its boxes' step counts failed: " + cudaGetErrorName(e));
  }
  try {
    detail::launch_cooperative(kernel, "persistent_pass [policy " + policy + "]", grid, block, plan.shared_bytes, stream, a);
  } catch (...) {
    (void)cudaFreeAsync(faces, stream);
    throw;
  }
  (void)cudaFreeAsync(faces, stream);  // after the pass, in stream order
  detail::finish_launch("persistent_pass", policy, shape_name<S>(), plan, block, grid);
}

/// One sweep: a one-step pass whose faces are all fixed (the ghosts are read as they are:
/// the rules of a sweep without boundary conditions; persistent's shapes are 3D).
template <class S, class T, class Tile>
void launch_sweep(persistent<> s, sweep_of<S, T, Tile> k, const launch_plan& plan, const params_for<S, T>& p,
                  cudaStream_t stream) {
  launch_fused_steps(s, k, plan, p, 1, make_edge_rules<S::rank>(std::nullopt, shape_traits<S>::radius), stream);
}

}  // namespace tessera::cuda
