#pragma once
// temporal_blocking's 2D pass: each warp fuses K steps over its own strip of columns,
// with no shared memory and no barrier. nvcc only.
//
// A warp owns TileX input columns along x (halo included), C = TileX / 32 of them a lane,
// side by side, and marches along y. Every level's values sit in registers: a lane keeps,
// per level below K, the reach along y of its C columns (a queue of W rows), so
//   * the centre, the y-neighbours and the x-neighbours among the lane's own columns are
//     registers;
//   * the x-neighbours in the lanes beside it come by one warp shuffle a row, reach and
//     side (a 5-point star with C = 4: two shuffles for four cells);
//   * a warp never waits for another: the 3D kernel's per-step barrier, its shared-memory
//     stores and loads are gone.
// The strip loses one reach of columns a level on each side (lane 0's left neighbour and
// lane 31's right one are the lanes' own values: their results are the halo, never
// stored), so level K is stored for the inner TileX - K * (reach_x lo + hi) columns.
// Boundary conditions are read through the edge rules, as in the 3D pass; a stencil of
// reach 2 or more may also meet reflect faces (Dirichlet walls it reads past: edge_rules.hpp),
// whose cells beyond the wall it computes like interior ones, adding the rules' shift a
// level where a cell lies beyond an odd number of walls.
//
// Middle steps: where a step's levels and the row it loads all lie inside the grid along
// y, a pass that has them (has_middle_steps: float radius-1 passes, the ones measured
// faster so in perf/RESULTS.md) asks no face rule; a strip whose columns all lie inside
// also selects nothing and reaches its columns as immediate offsets of one address a row.
// The strips at the x faces keep their selects and a pointer a column, but take middle
// steps too: every block of a pass is in one wave, so the pass ends with its slowest.
//
// Measured slower and not kept (perf/RESULTS.md): each level's row handed up to the next
// within the same step with partial sums (W - 1 rows a level instead of W: fewer registers,
// a shorter pipeline) -- the levels become one dependency chain a step; the step loop as W
// compile-time phases with the queues' slots rotated (no register moves).
#include "tessera/cuda/detail/edge_rules.hpp"
#include "tessera/cuda/kernels/marching.cuh"

namespace tessera::cuda::kernels {

namespace detail_2d {
/// Whether a level needs a neighbouring lane's column: the shape has a point at
/// (dm, dx) with dx reaching `d` columns past the lane's C (left: dx <= -d, right: dx >= d).
template <class S, int C>
constexpr bool needs_lane(int j_dm, int side, int d) {
  using vs = detail::vshape<S>;
  for (int k = 0; k < vs::size; ++k) {
    const int dm = vs::off(k, 1), dx = vs::off(k, 2);
    if (dm != j_dm) continue;
    for (int c = 0; c < C; ++c) {
      const int x = c + dx;
      if (side == 0 && x < 0 && -x == d) return true;
      if (side == 1 && x >= C && x - C + 1 == d) return true;
    }
  }
  return false;
}

/// Whether the pass of K steps runs middle steps: float, radius 1, up to 7 steps (the
/// cases measured faster; at 8 steps the pass needs more registers than 12 warps an SM
/// leave and spills).
template <class S, class T, int K>
inline constexpr bool has_middle_steps = sizeof(T) == 4 && shape_traits<S>::radius == 1 && K <= 7;

/// The blocks of `Warps` warps an SM the pass is compiled for: 12 warps with middle steps
/// (168 registers: the register file is per scheduler, 3 warps each; left free, ptxas
/// spends more on the face strips' middle steps and only 8 warps fit), else none (0: the
/// same code as a kernel with no minimum; 1 changes what ptxas emits).
template <class S, class T, int K, int Warps>
inline constexpr int min_blocks = has_middle_steps<S, T, K> ? (12 + Warps - 1) / Warps : 0;
}  // namespace detail_2d

/// One pass of K fused steps of 2D shape S over a chunk of `chunk` rows; Warps warps a
/// block, each its own strip of TileX columns (TileX / 32 a lane).
template <class S, class T, int K, int TileX, int Warps>
__global__ void __launch_bounds__(32 * Warps, detail_2d::min_blocks<S, T, K, Warps>)
    temporal_blocking_warp_pass(const params_for<S, T> p, const edge_rules rules, const int chunk) {
  detail::begin_after_previous_grid();  // first: the sweep before may still run
  static_assert(S::rank == 2, "the warp pass is the 2D one");
  static_assert(TileX % 32 == 0 && TileX / 32 <= 8,
                "temporal_blocking in 2D: TileX is a warp's columns, 32 to 256 in steps of 32");
  using vs = detail::vshape<S>;
  constexpr int C = TileX / 32;
  constexpr int lm = -vs::lo(1), hm = vs::hi(1), W = lm + hm + 1;  // queue: W rows
  constexpr int lx = -vs::lo(2), hx = vs::hi(2);
  static_assert(lx <= C && hx <= C, "temporal_blocking in 2D: a lane's columns must cover the x reach");
  constexpr int out_x = TileX - K * (lx + hx);
  constexpr int Ahead = W;  // level-0 rows loaded ahead of their step
  constexpr unsigned all = 0xffffffffu;

  const int lane = threadIdx.x;
  const index_t strip = static_cast<index_t>(blockIdx.x) * Warps + threadIdx.y;
  const index_t gx0 = strip * out_x - K * lx + lane * C;  // the lane's first column
  if (strip * out_x >= p.n[2]) return;  // a strip beyond the grid (the block's last warps)
  const int m0 = static_cast<int>(blockIdx.y) * chunk;
  const int nm = static_cast<int>(p.n[1]);
  const int m_end = min(m0 + chunk, nm);

  // bit c: column c computes (else it lies beyond a fixed face and keeps its value); one
  // mask, not C bools: the compiler packs bools in bytes and unpacks one per use
  const T* __restrict__ col[C];
  unsigned computes = 0;
  // reflect faces: only a reach of 2 or more reads past a wall. Bit c of odd_x: column c
  // is reflected about a wall an odd number of times (it reads 2v - u of its image)
  constexpr bool may_reflect = shape_traits<S>::radius >= 2;
  unsigned odd_x = 0;
  bool stores[C];
#pragma unroll
  for (int c = 0; c < C; ++c) {
    const index_t gx = gx0 + c;
    bool fixed_x = false, odd = false;
    index_t mx;
    if constexpr (may_reflect) mx = map_reflecting(gx, p.n[2], rules, 2, fixed_x, odd);
    else mx = map_coordinate(gx, p.n[2], rules, 2, fixed_x);
    col[c] = p.in + mx * p.in_stride[2];
    computes |= fixed_x ? 0u : 1u << c;
    odd_x |= odd ? 1u << c : 0u;
    const int x_in_strip = lane * C + c;
    stores[c] = x_in_strip >= K * lx && x_in_strip < K * lx + out_x && gx < p.n[2];
  }
  T* __restrict__ const out_col = p.out + gx0 * p.out_stride[2];
  const index_t ms = p.in_stride[1];

  // queue[t][j][c]: level t at row (its newest) - (W - 1) + j of column c.
  T queue[K][W][C];
  clear_queues(queue);

  // Level t computes row base + s - t * (hm + 1) at step s (as in the 3D pass).
  const int base = m0 - K * lm;
  const int steps_total = m_end - m0 + K * W;
  const int load_end = m_end + K * hm;
  // whether a row lies beyond a fixed face; `odd`: whether a row outside [0, nm) is
  // reflected about a wall an odd number of times (one walk of the face rules for both)
  auto row_rule = [&](int row, bool& odd) {
    odd = false;
    if constexpr (may_reflect) {
      bool fixed = false;
      if (static_cast<unsigned>(row) >= static_cast<unsigned>(nm)) map_reflecting(row, nm, rules, 1, fixed, odd);
      return fixed;
    } else {
      return static_cast<unsigned>(row) >= static_cast<unsigned>(nm) && beyond_fixed_face(row, nm, rules, 1);
    }
  };
  const T two_v = T(2) * static_cast<T>(rules.wall);  // as reflect_about_wall computes it
  const T shift = static_cast<T>(rules.reflect_shift);
  auto load_row = [&](int row, T (&into)[C]) {
    if (row >= load_end) {
#pragma unroll
      for (int c = 0; c < C; ++c) into[c] = T(0);
      return;
    }
    bool unused = false, odd = false;
    index_t mm = row;
    if (static_cast<unsigned>(row) >= static_cast<unsigned>(nm)) {
      if constexpr (may_reflect) mm = map_reflecting(row, nm, rules, 1, unused, odd);
      else mm = map_coordinate(row, nm, rules, 1, unused);
    }
    const index_t offset = mm * ms;
#pragma unroll
    for (int c = 0; c < C; ++c) into[c] = __ldg(col[c] + offset);
    if constexpr (may_reflect) {
      const unsigned flips = odd ? ~odd_x : odd_x;  // a cell beyond walls on both axes: even
#pragma unroll
      for (int c = 0; c < C; ++c)
        if ((flips >> c) & 1u) into[c] = two_v - into[c];
    }
  };
  T ahead[Ahead][C];
#pragma unroll
  for (int a = 0; a < Ahead; ++a) load_row(base + a, ahead[a]);

  const int inner_begin = K * (hm + 1) - base, inner_end = nm + hm + 1 - base;  // steps whose levels' rows all lie inside
  // Level t's row this step, from the queue of level t - 1: columns whose bit is clear in
  // `live` keep the level below; a cell beyond an odd number of walls, its row's (bit t of
  // `odd_levels`) and its column's (odd_x) counted together, adds the reflection's shift.
  auto level = [&](int t, unsigned live, unsigned odd_levels, T (&v)[C]) {
    const auto& below = queue[t - 1];
    // the lanes beside: left[j][d - 1] is column -d of queue row j, right[j][d - 1]
    // column C - 1 + d (only those the shape reads)
    T left[W][lx > 0 ? lx : 1], right[W][hx > 0 ? hx : 1];
    tessera::detail::static_for<W>([&](auto jj) {
      constexpr int j = decltype(jj)::value;
      tessera::detail::static_for<lx>([&](auto dd) {
        constexpr int d = decltype(dd)::value + 1;
        if constexpr (detail_2d::needs_lane<S, C>(j - lm, 0, d))
          left[j][d - 1] = __shfl_up_sync(all, below[j][C - d], 1);
      });
      tessera::detail::static_for<hx>([&](auto dd) {
        constexpr int d = decltype(dd)::value + 1;
        if constexpr (detail_2d::needs_lane<S, C>(j - lm, 1, d))
          right[j][d - 1] = __shfl_down_sync(all, below[j][d - 1], 1);
      });
    });
#pragma unroll
    for (int c = 0; c < C; ++c) {
      v[c] = T(0);
      tessera::detail::static_for<vs::size>([&](auto kk) {
        constexpr int Kp = decltype(kk)::value;
        constexpr int j = lm + vs::off(Kp, 1), dx = vs::off(Kp, 2);
        const int x = c + dx;
        v[c] += p.template term<Kp>(x < 0 ? left[j][-x - 1] : x >= C ? right[j][x - C] : below[j][x]);
      });
      if constexpr (may_reflect) {  // beyond an odd number of walls: the reflection's shift
        const unsigned odd = (odd_levels >> t) & 1u ? ~odd_x : odd_x;
        if ((odd >> c) & 1u) v[c] += shift;
      }
      if (!((live >> c) & 1u)) v[c] = below[lm][c];  // fixed: the level below, unchanged
    }
  };
  // every level, newest (K) first, each from the queue below as the step found it; top: level K
  auto advance_levels = [&](unsigned live_fixed, unsigned fixed_levels, unsigned odd_levels, T (&top)[C]) {
#pragma unroll
    for (int t = K; t >= 1; --t) {
      T v[C];
      level(t, (fixed_levels >> t) & 1u ? 0u : live_fixed, odd_levels, v);
      if (t == K) {
#pragma unroll
        for (int c = 0; c < C; ++c) top[c] = v[c];
      } else {
        push_row(queue[t], v);
      }
    }
  };
  auto next_ahead = [&]() {
    push_row(queue[0], ahead[0]);
#pragma unroll
    for (int a = 0; a + 1 < Ahead; ++a)
#pragma unroll
      for (int c = 0; c < C; ++c) ahead[a][c] = ahead[a + 1][c];
  };

  if constexpr (!detail_2d::has_middle_steps<S, T, K>) {
    // one kind of step: its face questions and its store stay written out here (as
    // edge_step's lambdas below they change the code ptxas emits for these passes)
#pragma unroll W
    for (int s = 0; s < steps_total; ++s) {
      T top[C];
      // bit t: level t's row lies beyond a fixed face (asked only in a chunk's edge steps, in
      // one branch a step: a branch a level would split the step into blocks the compiler
      // cannot interleave)
      unsigned fixed_levels = 0, odd_levels = 0;  // odd_levels bit t: level t's row is reflected an odd number of times
      if (s < inner_begin || s >= inner_end) {
#pragma unroll
        for (int t = 1; t <= K; ++t) {
          bool odd;
          fixed_levels |= row_rule(base + s - t * (hm + 1), odd) ? 1u << t : 0u;
          odd_levels |= odd ? 1u << t : 0u;
        }
      }
      advance_levels(computes, fixed_levels, odd_levels, top);
      const int top_row = base + s - K * (hm + 1);
      if (top_row >= m0 && top_row < m_end) {
        T* const out_row = out_col + index_t(top_row) * p.out_stride[1];
#pragma unroll
        for (int c = 0; c < C; ++c)
          if (stores[c]) out_row[c * p.out_stride[2]] = top[c];
      }
      next_ahead();
      load_row(base + s + Ahead, ahead[Ahead - 1]);
    }
  } else {
    auto store_top = [&](int s, const T (&top)[C], bool unit_stride) {
      const int top_row = base + s - K * (hm + 1);
      if (top_row >= m0 && top_row < m_end) {
        T* const out_row = out_col + index_t(top_row) * p.out_stride[1];
#pragma unroll
        for (int c = 0; c < C; ++c)
          if (stores[c]) out_row[unit_stride ? c : c * p.out_stride[2]] = top[c];
      }
    };
    // A chunk's edge steps: the levels' rows and the row loaded may lie outside.
    auto edge_step = [&](int s) {
      T top[C];
      // bit t: level t's row lies beyond a fixed face (asked in one branch a step: a branch
      // a level would split the step into blocks the compiler cannot interleave)
      unsigned fixed_levels = 0, odd_levels = 0;  // odd_levels bit t: level t's row is reflected an odd number of times
      if (s < inner_begin || s >= inner_end) {
#pragma unroll
        for (int t = 1; t <= K; ++t) {
          bool odd;
          fixed_levels |= row_rule(base + s - t * (hm + 1), odd) ? 1u << t : 0u;
          odd_levels |= odd ? 1u << t : 0u;
        }
      }
      advance_levels(computes, fixed_levels, odd_levels, top);
      store_top(s, top, false);
      next_ahead();
      load_row(base + s + Ahead, ahead[Ahead - 1]);
    };
    static_assert(!may_reflect, "middle steps: a radius-1 shape never reads past a wall");
    // Middle steps: every level's row and the row loaded lie inside [0, nm), so a middle step
    // asks no face rule and loads its row unmapped (a row past load_end, which the edge steps
    // zero, is read as it is: it feeds only rows past m_end, never stored).
    const int middle_begin = max(inner_begin, -base - Ahead), middle_end = min(inner_end, nm - base - Ahead);
    // A strip whose columns all lie inside, one cell apart in memory, runs its middle steps
    // with no select a column and reaches its columns as immediate offsets of one address a
    // row (the other strips keep a pointer a column and the selects of their fixed columns).
    const bool contiguous =
        __all_sync(all, gx0 >= 0 && gx0 + C <= p.n[2]) && p.in_stride[2] == 1 && p.out_stride[2] == 1;
    constexpr unsigned every_column = (1u << C) - 1;

    // A middle step: no face rule; a contiguous strip also no select, its row loaded through
    // one address with the columns as immediate offsets (Mapped: a pointer a column and the
    // selects of the strip's fixed columns).
    auto middle_step = [&](int s, auto mapped) {
      constexpr bool Mapped = decltype(mapped)::value;
      T top[C];
      advance_levels(Mapped ? computes : every_column, 0u, 0u, top);
      store_top(s, top, !Mapped);
      next_ahead();
      index_t offset = index_t(base + s + Ahead) * ms;
      if constexpr (Mapped) {
        // the row's offset opaque to the compiler, which otherwise keeps a pointer a column
        // and step of the unrolled group
        asm("mov.b64 %0, %0;" : "+l"(offset));
#pragma unroll
        for (int c = 0; c < C; ++c) ahead[Ahead - 1][c] = __ldg(col[c] + offset);
      } else {
        const T* const row = col[0] + offset;
#pragma unroll
        for (int c = 0; c < C; ++c) ahead[Ahead - 1][c] = __ldg(row + c);
      }
    };

    // Three phases, edge, middle and edge steps, the first two in groups of W steps: after
    // W steps the levels' queues have come round, so each group starts with them in the
    // registers where the previous one left them and no step moves them (a branch a step
    // between the kinds of step instead merges their registers at every step, and a move of
    // a row still in flight waits for its load).
    int s = 0;
    const int mid_begin = min((max(middle_begin, 0) + W - 1) / W * W, steps_total);
    const int mid_groups = max(min(middle_end, steps_total) - mid_begin, 0) / W;
    if (mid_groups > 0) {
#pragma unroll 1
      for (; s < mid_begin; s += W)
#pragma unroll
        for (int j = 0; j < W; ++j) edge_step(s + j);
      const int mid_end = mid_begin + mid_groups * W;
      if (contiguous) {
#pragma unroll 1
        for (; s < mid_end; s += W)
#pragma unroll
          for (int j = 0; j < W; ++j) middle_step(s + j, std::false_type{});
      } else {
#pragma unroll 1
        for (; s < mid_end; s += W)
#pragma unroll
          for (int j = 0; j < W; ++j) middle_step(s + j, std::true_type{});
      }
    }
#pragma unroll W
    for (; s < steps_total; ++s) edge_step(s);
  }
}

}  // namespace tessera::cuda::kernels
