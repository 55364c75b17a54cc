#pragma once
// cuda::temporal_blocking's kernels (nvcc only): K time steps in one pass, the 3D pass here
// and the 2D warp pass in kernels/temporal_blocking_2d.cuh; the launchers of a pass and of
// one sweep.
#include "tessera/cuda/strategies/temporal_blocking.hpp"
#include "tessera/cuda/strategies/temporal_blocking/box_tile.cuh"
#include "tessera/cuda/kernels/marching.cuh"
#include "tessera/cuda/kernels/temporal_blocking_2d.cuh"
#include "tessera/cuda/point_function_streaming.cuh"

namespace tessera::cuda::kernels {

/// One pass of K fused steps of 3D shape S over a chunk of `chunk` outputs along z;
/// TileX x (TileY / Rows) threads, Rows input columns each (stacked along y). (2D:
/// temporal_blocking_warp_pass, kernels/temporal_blocking_2d.cuh.) Every level advances every step with straight-line code: the tile's rim reads a
/// padded border of the published planes and keeps its own value, fixed cells keep theirs
/// (a select, not a branch). The launch bounds name one block an SM: ptxas, not knowing the
/// shared memory that caps blocks an SM, otherwise trims registers to fit more blocks and
/// spills inside the loop (27-point box, 2 steps: 64 registers and spills, 0.59x the
/// one-sweep floor, against 95 registers and 0.76x).
template <class S, class T, int K, int TileX, int TileY, int Rows>
__global__ void __launch_bounds__(TileX * TileY / Rows, 1)
    temporal_blocking_pass(const params_for<S, T> p, const edge_rules rules, const int chunk) {
  detail::begin_after_previous_grid();  // first: the sweep before may still run
  using vs = detail::vshape<S>;
  using mg = marching<S>;
  using geo = detail::published_geometry<S, TileX, TileY>;
  static_assert(S::rank == 3, "the 3D pass; a 2D grid runs temporal_blocking_warp_pass");
  constexpr int march = mg::march;
  constexpr int lm = -vs::lo(march), hm = vs::hi(march), W = lm + hm + 1;  // queue: W planes
  constexpr int lx = -vs::lo(2), hx = vs::hi(2);
  constexpr int ly = -vs::lo(1), hy = vs::hi(1);
  // a box: each level sums a plane's contributions to the W outputs it feeds as the plane
  // arrives (partial sums), so it reads only the newest plane of the level below
  constexpr bool partial_sums = detail::reads_other_planes<S>();
  constexpr int R = detail::published_buffers;
  constexpr int PX = geo::row, plane_cells = geo::plane;  // a published plane, border included
  constexpr int out_x = TileX - K * (lx + hx), out_y = TileY - K * (ly + hy);
  constexpr int Ahead = W;  // level-0 planes loaded ahead of their step (>= 3 for every reach)

  extern __shared__ __align__(16) unsigned char temporal_blocking_shared[];
  T* const published = reinterpret_cast<T*>(temporal_blocking_shared);  // [level][R][PY][PX]

  const int tx = threadIdx.x, ty0 = threadIdx.y * Rows;  // row r: ty0 + r
  const index_t gx = static_cast<index_t>(blockIdx.x) * out_x - K * lx + tx;
  const index_t gy0 = static_cast<index_t>(blockIdx.y) * out_y - K * ly + ty0;
  // plane numbers along the marched axis are 32-bit (the plan refuses longer axes)
  const int m0 = static_cast<int>(blockIdx.z) * chunk;
  const int nm = static_cast<int>(p.n[march]);
  const int m_end = min(m0 + chunk, nm);

  // Each row's column, read through the edge rules, and whether it is fixed. Inner cells
  // compute; the tile's rim (its neighbours would lie outside the tile) and fixed columns
  // keep their value: they feed only halo columns that are not stored.
  bool fixed_x = false;
  const index_t mx = map_coordinate(gx, p.n[2], rules, 2, fixed_x);
  const bool inner_x = !fixed_x && tx >= lx && tx + hx < TileX;
  const bool stores_x = tx >= K * lx && tx < K * lx + out_x && gx < p.n[2];
  // Addresses are byte pointers moved on by byte offsets: one 64-bit add a row, where
  // T* + index costs a multiply-add and a shift a row and plane.
  const char* col[Rows];
  // bit r: row r computes; one mask, not Rows bools (the compiler packs bools in bytes and
  // unpacks one at each use)
  unsigned computes = 0, stores = 0;
#pragma unroll
  for (int r = 0; r < Rows; ++r) {
    const int ty = ty0 + r;
    const index_t gy = gy0 + r;
    bool fixed_y = false;
    const index_t my = map_coordinate(gy, p.n[1], rules, 1, fixed_y);
    col[r] = reinterpret_cast<const char*>(p.in + my * p.in_stride[1] + mx * p.in_stride[2]);
    computes |= inner_x && !fixed_y && ty >= ly && ty + hy < TileY ? 1u << r : 0u;
    stores |= stores_x && ty >= K * ly && ty < K * ly + out_y && gy < p.n[1] ? 1u << r : 0u;
  }
  const index_t ms_bytes = p.in_stride[march] * index_t(sizeof(T));
  // Bit (t - 1) * Rows + r: level t of row r computes this step. Outside a chunk's edge
  // steps it is the same every step (computes, once a level); the edge steps clear the
  // levels whose plane lies beyond a fixed face. One mask for all levels, so that a level
  // costs one bit-to-predicate move, not a test, a select and a move.
  using level_mask = std::conditional_t<(K * Rows <= 32), unsigned, unsigned long long>;
  constexpr level_mask row_bits = (level_mask(1) << Rows) - 1;
  level_mask computes_all = 0;
#pragma unroll
  for (int t = 1; t <= K; ++t) computes_all |= level_mask(computes) << ((t - 1) * Rows);

  for (int i = threadIdx.y * TileX + tx; i < K * R * plane_cells; i += TileX * (TileY / Rows)) published[i] = T(0);
  const int own = (ty0 + ly) * PX + tx + lx;  // row 0's cell; row r: own + r * PX

  // queue[t][j][r]: level t at plane (its newest) - (W - 1) + j of row r's column.
  T queue[K][W][Rows];
  clear_queues(queue);
  // partial sums (a box): acc[t - 1][i][r] is level t's output plane P - hm + i, where P is
  // the plane of level t - 1 that the next step reads, summed over the planes before P
  T acc[partial_sums ? K : 1][partial_sums ? W - 1 : 1][Rows];
  clear_queues(acc);

  // Level t computes plane base + s - t * (hm + 1) at step s.
  const int base = m0 - K * lm;
  const int steps_total = m_end - m0 + K * W;
  const int load_end = m_end + K * hm;  // level 0's planes: [base, load_end)
  // A plane outside the interior is fixed under a fixed face (asked only in the steps
  // that reach outside, below).
  auto fixed_plane = [&](int plane) {
    return static_cast<unsigned>(plane) >= static_cast<unsigned>(nm) && beyond_fixed_face(plane, nm, rules, march);
  };
  // The level-0 loads run Ahead steps before their use: every warp of the block meets at
  // each step's barrier, so a load consumed in the next step would expose the whole
  // DRAM latency once per step.
  // load_offset: the byte offset of plane `plane` when it lies inside, moved on by one
  // plane a step by the caller (an add, where a product a plane costs a multiply-add a row)
  auto load_plane = [&](int plane, index_t load_offset, T (&into)[Rows]) {
    if (plane >= load_end) {  // beyond what level K needs
#pragma unroll
      for (int r = 0; r < Rows; ++r) into[r] = T(0);
      return;
    }
    if (static_cast<unsigned>(plane) >= static_cast<unsigned>(nm)) {
      bool unused = false;
      load_offset = map_coordinate(plane, nm, rules, march, unused) * ms_bytes;
    }
#pragma unroll
    for (int r = 0; r < Rows; ++r) into[r] = __ldg(reinterpret_cast<const T*>(col[r] + load_offset));
  };
  T ahead[Ahead][Rows];
  index_t load_offset = index_t(base) * ms_bytes;
#pragma unroll
  for (int a = 0; a < Ahead; ++a, load_offset += ms_bytes) load_plane(base + a, load_offset, ahead[a]);
  __syncthreads();

  // Planes outside [0, nm) occur only in a chunk's first and last steps: the other steps
  // skip asking which planes are fixed (one uniform test a step).
  const int inner_begin = K * (hm + 1) - base, inner_end = nm + hm + 1 - base;  // steps whose planes all lie inside
  // level K's plane at step s, and where its rows go: a byte pointer moved on a plane a
  // step, the rows a byte stride apart. It points outside the output for the halo's
  // columns and the pipeline's first planes, where nothing is stored; a byte offset from
  // p.out or an integer address instead measured 2-6 more registers (fp64 at 2 steps: 130
  // or 134 instead of 128, one block an SM instead of two)
  int top_plane = base - K * (hm + 1);
  const index_t out_ms_bytes = p.out_stride[march] * index_t(sizeof(T));
  const index_t out_row_bytes = p.out_stride[1] * index_t(sizeof(T));
  char* out_plane =
      reinterpret_cast<char*>(p.out + gy0 * p.out_stride[1] + gx * p.out_stride[2]) + index_t(top_plane) * out_ms_bytes;

  // A star's loop unrolled by 2W: the queues, the loads ahead (W of them) and the double
  // buffer all come round, so their moves become register renaming (no instructions). A
  // box's by 2 (the double buffer): its W x 9 or more terms a level would make 2W copies of
  // the step too long to compile.
#pragma unroll(partial_sums ? 2 : 2 * W)
  for (int s = 0; s < steps_total; ++s) {
    T top[Rows];  // level K's plane this step
    // levels whose plane lies beyond a fixed face keep the level below: asked only in a
    // chunk's edge steps and in one branch a step (a branch a level would split the step
    // into blocks the compiler cannot interleave)
    level_mask live = computes_all;
    if (s < inner_begin || s >= inner_end) {
#pragma unroll
      for (int t = 1; t <= K; ++t)
        if (fixed_plane(base + s - t * (hm + 1))) live &= ~(row_bits << ((t - 1) * Rows));
    }
    const int read_buffer = (s + 1) & 1;  // the planes published last step
    const int write_slot = s & 1;         // where each level publishes this step's plane
#pragma unroll
    for (int t = K; t >= 1; --t) {
      // rows whose level-t value no stored output needs (within t reaches of the tile's
      // top and bottom) skip the level: a warp-uniform branch where a warp is a row, tested
      // only where some thread's rows can all lie there (t is compile-time here)
      if ((t * ly >= Rows && ty0 + Rows - 1 < t * ly) || (t * hy >= Rows && ty0 >= TileY - t * hy))
        continue;
      const T* below = published + ((t - 1) * R + read_buffer) * plane_cells + own;
      T v[Rows];
#pragma unroll
      for (int r = 0; r < Rows; ++r) {
        if constexpr (!partial_sums) {
          // a star: the in-plane neighbours from the published centre plane, the column's
          // own neighbours along z from the queue
          v[r] = T(0);
          tessera::detail::static_for<vs::size>([&](auto kk) {
            constexpr int Kp = decltype(kk)::value;
            constexpr int dm = mg::dm(Kp), dy = mg::dy(Kp), dx = mg::dx(Kp);
            if (dx == 0 && r + dy >= 0 && r + dy < Rows)  // the column or one of the thread's rows
              v[r] += p.template term<Kp>(queue[t - 1][lm + dm][r + dy]);
            else
              v[r] += p.template term<Kp>(below[(r + dy) * PX + dx]);
          });
        } else {
          // a box: the newest plane of level t - 1 (plane P) feeds output P - dm with its
          // terms at dm; sums[i] is output P - hm + i, whose first hm - i planes came before
          T sums[W];
#pragma unroll
          for (int i = 0; i + 1 < W; ++i) sums[i] = acc[t - 1][i][r];
          sums[W - 1] = T(0);
          tessera::detail::static_for<vs::size>([&](auto kk) {
            constexpr int Kp = decltype(kk)::value;
            constexpr int dm = mg::dm(Kp), dy = mg::dy(Kp), dx = mg::dx(Kp);
            if (dx == 0 && r + dy >= 0 && r + dy < Rows)  // the column or one of the thread's rows
              sums[hm - dm] += p.template term<Kp>(queue[t - 1][W - 1][r + dy]);
            else
              sums[hm - dm] += p.template term<Kp>(below[(r + dy) * PX + dx]);
          });
          v[r] = sums[0];  // output P - hm: its last plane has come
#pragma unroll
          for (int i = 0; i + 1 < W; ++i) acc[t - 1][i][r] = sums[i + 1];
        }
        // the level below, unchanged
        if (!((live >> ((t - 1) * Rows + r)) & 1u)) v[r] = queue[t - 1][lm][r];
      }
      if (t == K) {
        // stored at the end of the step: a branch here would split the step's code
#pragma unroll
        for (int r = 0; r < Rows; ++r) top[r] = v[r];
      } else {
        push_row(queue[t], v);
      }
    }
    if (top_plane >= m0 && top_plane < m_end) {
      char* row = out_plane;
#pragma unroll
      for (int r = 0; r < Rows; ++r, row += out_row_bytes)
        if ((stores >> r) & 1u) *reinterpret_cast<T*>(row) = top[r];
    }
    ++top_plane;
    out_plane += out_ms_bytes;
    // level 0: the loaded field, through the edge rules
    push_row(queue[0], ahead[0]);
#pragma unroll
    for (int a = 0; a + 1 < Ahead; ++a)
#pragma unroll
      for (int r = 0; r < Rows; ++r) ahead[a][r] = ahead[a + 1][r];
    load_plane(base + s + Ahead, load_offset, ahead[Ahead - 1]);
    load_offset += ms_bytes;
    // publish levels 0 .. K - 1 for the level above, next step: a box its newest plane, a
    // star its centre plane, the only one read in-plane
#pragma unroll
    for (int t = 0; t < K; ++t)
#pragma unroll
      for (int r = 0; r < Rows; ++r)
        published[(t * R + write_slot) * plane_cells + own + r * PX] =
            partial_sums ? queue[t][W - 1][r] : queue[t][lm][r];
    __syncthreads();
  }
}

}  // namespace tessera::cuda::kernels

namespace tessera::cuda {

namespace detail {
/// one_wave_chunk with the blocks an SM holds of `Kernel` (its registers decide):
/// cudaOccupancyMaxActiveBlocksPerMultiprocessor, cached per kernel and device.
template <auto Kernel>
launch_plan one_wave_chunk(const launch_plan& plan, int pipeline, long long n_march, int march, bool guarded) {
  if (guarded && 100LL * pipeline < 15LL * plan.chunk) return plan;  // before asking the driver
  const int per_sm = resident_blocks_per_sm<Kernel>(plan.threads(), plan.shared_bytes);
  if (per_sm < 1) return plan;
  return one_wave_chunk(plan, pipeline, n_march, march, guarded, per_sm, current_device_limits().multiprocessors);
}

/// Launches the kernel of `steps` steps (one of 1 .. sizeof...(I)).
template <class S, class T, class Tile, int... I>
void launch_temporal_blocking(std::integer_sequence<int, I...>, const std::string& policy, const launch_plan& plan,
                              const params_for<S, T>& p, int steps, const edge_rules& rules, cudaStream_t stream) {
  if constexpr (S::rank == 3) {
    auto launch = [&](auto k_steps) {
      constexpr int k = decltype(k_steps)::value;
      launch_plan columns = plan;
      if constexpr (Tile::box_tile && box_tile<S, T>::applies(k)) {
        // the plan is the box pass's (plan_steps); views it cannot read (rows not 16-byte
        // aligned, planes of 2^31 cells) run the one-column pass on a plan of its own
        if (box_pass_reads<T>(p)) {
          constexpr auto kernel = &kernels::temporal_blocking_box_pass<S, T, k>;
          launch_kernel_after_previous(kernel, "temporal_blocking_box_pass", policy, shape_name<S>(), plan,
                                       dim3(plan.block[0], plan.block[1], 1), plan.shared_bytes, stream, p, rules,
                                       plan.chunk);
          return;
        }
        columns = temporal_blocking<>::plan_columns<S, T, Tile>(extents<3>{p.n[0], p.n[1], p.n[2]},
                                                                current_device_limits(), k);
      }
      constexpr auto kernel = &kernels::temporal_blocking_pass<S, T, k, Tile::tile_x, Tile::tile_y, Tile::rows>;
      const launch_plan q = one_wave_chunk<kernel>(columns, fused_pipeline<S>(k), p.n[0], 2, true);
      launch_kernel_after_previous(kernel, "temporal_blocking_pass", policy, shape_name<S>(), q,
                                   dim3(Tile::tile_x, Tile::tile_y / Tile::rows, 1), q.shared_bytes, stream, p, rules,
                                   q.chunk);
    };
    ((steps == I + 1 ? launch(std::integral_constant<int, I + 1>{}) : void()), ...);
  } else {
    auto launch = [&](auto k_steps) {
      constexpr int k = decltype(k_steps)::value;
      constexpr auto kernel = &kernels::temporal_blocking_warp_pass<S, T, k, Tile::tile_x, Tile::strips>;
      const launch_plan q = one_wave_chunk<kernel>(plan, fused_pipeline<S>(k), p.n[1], 1, false);
      launch_kernel_after_previous(kernel, "temporal_blocking_warp_pass", policy, shape_name<S>(), q,
                                   dim3(32, Tile::strips, 1), 0, stream, p, rules, q.chunk);
    };
    ((steps == I + 1 ? launch(std::integral_constant<int, I + 1>{}) : void()), ...);
  }
}
}  // namespace detail

/// A pass of `steps` steps under `rules` (the plan's steps): one kernel per number of steps
/// (1 .. Tile::steps), so the halo, the levels and their queues are compile-time and the
/// level loop straight-line code.
template <class S, class T, class Tile>
void launch_fused_steps(temporal_blocking<>, sweep_of<S, T, Tile>, const launch_plan& plan, const params_for<S, T>& p,
                        int steps, const edge_rules& rules, cudaStream_t stream) {
  detail::launch_temporal_blocking<S, T, Tile>(std::make_integer_sequence<int, Tile::steps>{},
                                               temporal_blocking<>::name(), plan, p, steps, rules, stream);
}

/// One sweep: a one-step pass whose faces are all fixed (the ghosts are read as they are).
template <class S, class T, class Tile>
void launch_sweep(temporal_blocking<> s, sweep_of<S, T, Tile> k, const launch_plan& plan, const params_for<S, T>& p,
                  cudaStream_t stream) {
  edge_rules fixed;
  for (int v = 0; v < 3; ++v) fixed.ghost[v] = shape_traits<S>::radius;
  launch_fused_steps(s, k, plan, p, 1, fixed, stream);
}

}  // namespace tessera::cuda
