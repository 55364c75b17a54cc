#pragma once
// cuda::temporal_blocking's 3D pass for boxes (shapes with points off the marched axis in
// other planes) over views whose rows start on 16-byte boundaries: a register tile of
// Rows x one vector of cells a thread (detail::box_tile in temporal_blocking.hpp says why
// and how large). nvcc only.
//
// Per step, each level t = 1..K reads the newest plane of level t - 1 from shared memory,
// a row at a time as one vector and its x-neighbours, adds that plane's terms to the partial
// sums of the outputs it feeds (one a plane of z reach), and completes the oldest; level 0
// arrives in a ring of shared planes by cp.async, loaded ring - 1 steps ahead, so no
// register holds a plane in flight. One __syncthreads a step.
#include "tessera/core/detail/static_for.hpp"
#include "tessera/cuda/kernels/async_copy.cuh"
#include "tessera/cuda/kernels/common.cuh"
#include "tessera/cuda/kernels/marching.cuh"
#include "tessera/cuda/strategies/temporal_blocking.hpp"

namespace tessera::cuda::kernels {

namespace detail_box_tile {
/// A 16-byte vector of T, for shared-memory loads and stores of a thread's columns.
template <class T>
struct alignas(16) vector16 {
  T v[tessera::cuda::detail::elements_per_16_bytes<T>];
};

/// Stores v at a when `store`, without a branch (a branch a cell would split the step's
/// code into blocks the compiler cannot interleave).
__device__ __forceinline__ void store_if(float* a, float v, bool store) {
  asm volatile("{\n .reg .pred q;\n setp.ne.b32 q, %2, 0;\n @q st.global.f32 [%0], %1;\n}\n" ::"l"(a), "f"(v),
               "r"(static_cast<int>(store))
               : "memory");
}
__device__ __forceinline__ void store_if(double* a, double v, bool store) {
  asm volatile("{\n .reg .pred q;\n setp.ne.b32 q, %2, 0;\n @q st.global.f64 [%0], %1;\n}\n" ::"l"(a), "d"(v),
               "r"(static_cast<int>(store))
               : "memory");
}

/// The plane a plane beyond the grid along z reads. Out of line, reading the edge rules in
/// the kernel's parameters (__grid_constant__): only a chunk's edge steps call it, and its
/// loop and divisions stay out of theirs.
__device__ __noinline__ inline int mapped_plane(int plane, int nm, const edge_rules* rules) {
  bool unused = false;
  return static_cast<int>(map_coordinate(plane, nm, *rules, 0, unused));
}
}  // namespace detail_box_tile

/// One pass of K fused steps of the 3D box S over a chunk of `chunk` planes along z; the
/// geometry is detail::box_tile<S, T>. The caller has checked that the pass can read p.in
/// (detail::box_pass_reads: every row 16-byte aligned, a plane's cells in 32 bits).
template <class S, class T, int K>
__global__ void __launch_bounds__(tessera::cuda::detail::box_tile<S, T>::threads, 2)
    temporal_blocking_box_pass(const __grid_constant__ params_for<S, T> p, const __grid_constant__ edge_rules rules,
                               const int chunk) {
  detail::begin_after_previous_grid();  // first: the sweep before may still run
  using g = tessera::cuda::detail::box_tile<S, T>;
  using mg = marching<S>;
  using vec = detail_box_tile::vector16<T>;
  constexpr int V = g::vector, Rows = g::rows, TX = g::threads_x, NT = g::threads;
  constexpr int lx = g::lx, hx = g::hx, ly = g::ly, hy = g::hy, lm = g::lm, hm = g::hm, W = lm + hm + 1;
  constexpr int PX = g::row, PC = g::plane, D = g::ring, A = D - 1;
  constexpr int NC = Rows * V;                              // a thread's cells
  constexpr int pieces = (PX / V) * g::plane_rows;          // 16-byte pieces of a level-0 plane
  constexpr int LPT = (pieces + NT - 1) / NT;               // pieces a thread copies
  static_assert(S::rank == 3 && mg::march == 0, "the 3D box pass marches along z");

  extern __shared__ __align__(16) unsigned char temporal_blocking_box_shared[];
  T* const ring = reinterpret_cast<T*>(temporal_blocking_box_shared);  // [D][PC]: level 0
  T* const published = ring + D * PC;                                  // [K - 1][2][PC], then the column map

  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TX + tx;
  const index_t x0 = static_cast<index_t>(blockIdx.x) * g::out_x(K) - g::left(K);  // the tile's column 0
  const index_t y0 = static_cast<index_t>(blockIdx.y) * g::out_y(K) - K * ly;   // and row 0
  // plane numbers along z are 32-bit (the plan refuses longer axes)
  const int nm = static_cast<int>(p.n[0]);
  const int m0 = static_cast<int>(blockIdx.z) * chunk, m_end = min(m0 + chunk, nm);
  const int zb = m0 - K * lm;                        // level 0's first plane
  const int load_end = m_end + K * hm;               // level 0's planes: [zb, load_end)

  // Level 0's pieces: piece i is buffer row i / (PX / V), vector i % (PX / V), copied as
  // one 16-byte vector from its source, mapped through the edge rules, when every cell of
  // it that matters comes from V consecutive cells starting on a vector. Beyond a fixed face
  // only the cells within the shape's reach of it matter (an output reads them; a fixed
  // cell keeps the value of the cell it is at every level, so no output ever reads one
  // further out): the others ("wild") take whatever the vector brings, and a piece or a row
  // of nothing but wild cells is not copied at all (zero-filled). A vector that reaches
  // beyond the readable cells [-g, n + g) of its row stays inside the view's memory except
  // in a plane's first and last rows (the view's first and last cells may be its
  // allocation's), so there the piece is copied cell by cell ("scattered"), as is a piece
  // whose cells a face maps apart (a mirror, a wrap onto a row that is not whole vectors):
  // its offset is then its row's, and each cell's mapped column comes from `columns`, the
  // tile's column map in shared memory. Blocks with such a piece run the steps that ask.
  int* const columns = reinterpret_cast<int*>(published + 2 * (K - 1) * PC);  // [PX]
  for (int c = tid; c < PX; c += NT) {
    bool unused = false;
    columns[c] = static_cast<int>(map_coordinate(x0 - V + c, p.n[2], rules, 2, unused));
  }
  __syncthreads();  // the column map, which the pieces below read
  int piece_offset[LPT];   // 32-bit: the launch runs this pass only on planes below 2^31 cells
  unsigned scattered = 0;  // bit k: piece k copies cell by cell
  unsigned skipped = 0;    // bit k: piece k holds wild cells only (zero-filled)
  {
    const int nx = static_cast<int>(p.n[2]), ny = static_cast<int>(p.n[1]);
    const int gx = static_cast<int>(rules.ghost[2]), gy = static_cast<int>(rules.ghost[1]);
    const bool fixed_x0 = rules.face[2][0] == edge_rule::fixed, fixed_x1 = rules.face[2][1] == edge_rule::fixed;
    const bool fixed_y0 = rules.face[1][0] == edge_rule::fixed, fixed_y1 = rules.face[1][1] == edge_rule::fixed;
#pragma unroll
    for (int k = 0; k < LPT; ++k) {
      const int i = min(tid + k * NT, pieces - 1), row = i / (PX / V), cv = i % (PX / V);
      const int y = static_cast<int>(y0) - ly + row;
      bool unused = false;
      const int my = static_cast<int>(map_coordinate(y, p.n[1], rules, 1, unused));
      bool matters = !((fixed_y0 && y < -ly) || (fixed_y1 && y >= ny + hy));  // a wild row
      bool whole = true, any = false;
      int from = 0;  // the vector's first column, once a cell that matters fixes it
#pragma unroll
      for (int v = 0; v < V; ++v) {
        const int x = static_cast<int>(x0) - V + cv * V + v;
        if ((fixed_x0 && x < -lx) || (fixed_x1 && x >= nx + hx)) continue;  // wild
        const int m = columns[cv * V + v];
        whole = whole && (any ? m == from + v : (m - v) % V == 0);
        if (!any) from = m - v, any = true;
      }
      matters = matters && any;
      // a vector reaching beyond [-g, n + g) in a plane's first or last row: cell by cell
      const bool beyond = from < -gx || from + V > nx + gx;
      whole = whole && !(beyond && (my == -gy || my == ny + gy - 1));
      const bool scatter = matters && !whole;
      piece_offset[k] = matters ? my * static_cast<int>(p.in_stride[1]) + (scatter ? 0 : from) : 0;
      scattered |= scatter ? 1u << k : 0u;
      skipped |= matters ? 0u : 1u << k;
    }
  }
  // Level 0's plane `plane` into ring slot `slot`. edge: pieces of wild cells only are
  // zero-filled (blocks on a fixed face); scatter: scattered pieces are copied cell by cell;
  // planes: a plane beyond the grid along z is mapped (a chunk's first and last steps).
  // Piece i lands at i * V: a plane's rows are whole vectors.
  auto load_plane = [&](int plane, int slot, auto edge_, auto planes_, auto scatter_) {
    constexpr bool edge = decltype(edge_)::value, planes = decltype(planes_)::value;
    constexpr bool scatter = decltype(scatter_)::value;
    if (plane < load_end) {
      int mapped = plane;
      if constexpr (planes)
        if (static_cast<unsigned>(plane) >= static_cast<unsigned>(nm)) mapped = detail_box_tile::mapped_plane(plane, nm, &rules);
      const T* const from = p.in + index_t(mapped) * p.in_stride[0];
      T* const to = ring + slot * PC;
#pragma unroll
      for (int k = 0; k < LPT; ++k) {
        const int i = tid + k * NT;
        if (k + 1 < LPT || i < pieces) {
          if (scatter && ((scattered >> k) & 1u)) {
            const int* const mapped_columns = columns + (i % (PX / V)) * V;
#pragma unroll
            for (int v = 0; v < V; ++v) async_copy::copy_element(to + i * V + v, from + piece_offset[k] + mapped_columns[v]);
          } else {
            async_copy::copy16(to + i * V, from + piece_offset[k], !edge || !((skipped >> k) & 1u));
          }
        }
      }
    }
    async_copy::commit();  // one group a step, empty or not: the waits count steps
  };

  for (int i = tid; i < 2 * (K - 1) * PC; i += NT) published[i] = T(0);  // borders never written
#pragma unroll
  for (int a = 0; a < A; ++a) load_plane(zb + a, a, std::true_type{}, std::true_type{}, std::true_type{});

  // The thread's cells: tile rows ty * Rows + r, columns tx * V + c. Fixed cells (beyond a
  // fixed face) keep their value; stored cells are the inner outputs inside the grid.
  unsigned fixed_xy = 0, stores_xy = 0;
#pragma unroll
  for (int r = 0; r < Rows; ++r) {
    const int row = ty * Rows + r;
    bool fixed_y = false;
    map_coordinate(y0 + row, p.n[1], rules, 1, fixed_y);
    const bool stores_y = row >= K * ly && row < K * ly + g::out_y(K) && y0 + row < p.n[1];
#pragma unroll
    for (int c = 0; c < V; ++c) {
      const int col = tx * V + c;
      bool fixed_x = false;
      map_coordinate(x0 + col, p.n[2], rules, 2, fixed_x);
      const bool stores_x = col >= g::left(K) && col < g::left(K) + g::out_x(K) && x0 + col < p.n[2];
      fixed_xy |= fixed_x || fixed_y ? 1u << (r * V + c) : 0u;
      stores_xy |= stores_x && stores_y ? 1u << (r * V + c) : 0u;
    }
  }
  // a block with a fixed cell or a piece of wild cells (a block on a fixed face) runs the
  // steps that ask, one with a scattered piece (a block on a mirror, a corner) the steps
  // that ask everything; the others never ask
  const bool edge_block = __syncthreads_or(fixed_xy != 0 || skipped != 0);
  const bool scatter_block = __syncthreads_or(scattered != 0);
  const int own = (ty * Rows + ly) * PX + V + tx * V;  // the thread's row 0, column 0 in a plane
  T* out_column = p.out + (y0 + ty * Rows) * p.out_stride[1] + (x0 + tx * V);

  // acc[t - 1][i]: level t's output P - hm + i summed over the planes before P (the plane
  // of level t - 1 read this step); centres[t - 1][j]: level t - 1's own cells at plane
  // P - hm + j, the value a fixed cell keeps
  T acc[K][W > 1 ? W - 1 : 1][NC];
  T centres[K][hm > 0 ? hm : 1][NC];
#pragma unroll
  for (int t = 0; t < K; ++t)
#pragma unroll
    for (int c = 0; c < NC; ++c) {
#pragma unroll
      for (int i = 0; i + 1 < W; ++i) acc[t][i][c] = T(0);
#pragma unroll
      for (int j = 0; j < (hm > 0 ? hm : 1); ++j) centres[t][j][c] = T(0);
    }
  async_copy::wait_pending<A - 1>();
  __syncthreads();

  auto fixed_plane = [&](int plane) {
    return static_cast<unsigned>(plane) >= static_cast<unsigned>(nm) && beyond_fixed_face(plane, nm, rules, 0);
  };
  // Step s: level t reads plane P = zb + s - (t - 1)(hm + 1) of level t - 1 and completes
  // output O = P - hm; level K's O is stored, the others published for the next step.
  // edge: the block's fixed cells keep their value, its pieces of wild cells are not read;
  // scatter: its scattered pieces are copied cell by cell; planes: the levels' planes beyond
  // a fixed face keep theirs, level K stores only planes of the chunk, and level 0's planes
  // beyond the grid are mapped
  auto step = [&](const int s, auto edge_, auto planes_, auto scatter_) {
    constexpr bool edge = decltype(edge_)::value, planes = decltype(planes_)::value;
    constexpr bool selects = edge || planes;
#pragma unroll
    for (int t = 1; t <= K; ++t) {
      const T* const below = (t == 1 ? ring + (s & (D - 1)) * PC : published + ((t - 2) * 2 + ((s + 1) & 1)) * PC) + own;
      T sums[W][NC], centre[NC];
#pragma unroll
      for (int c = 0; c < NC; ++c) {
#pragma unroll
        for (int i = 0; i + 1 < W; ++i) sums[i][c] = acc[t - 1][i][c];
        sums[W - 1][c] = T(0);
      }
      // input rows -ly .. Rows - 1 + hy of the thread's, each read once
      tessera::detail::static_for<Rows + ly + hy>([&](auto i_) {
        constexpr int i = decltype(i_)::value - ly;  // the input row, relative to the thread's row 0
        const T* const row = below + i * PX;
        T v[V + lx + hx];  // v[lx + c]: column c
        const vec w = *reinterpret_cast<const vec*>(row);
#pragma unroll
        for (int c = 0; c < V; ++c) v[lx + c] = w.v[c];
#pragma unroll
        for (int c = 1; c <= lx; ++c) v[lx - c] = row[-c];
#pragma unroll
        for (int c = 0; c < hx; ++c) v[lx + V + c] = row[V + c];
        if constexpr (i >= 0 && i < Rows) {
#pragma unroll
          for (int c = 0; c < V; ++c) centre[i * V + c] = v[lx + c];
        }
        tessera::detail::static_for<mg::vs::size>([&](auto kk) {
          constexpr int Kp = decltype(kk)::value;
          constexpr int dm = mg::dm(Kp), dy = mg::dy(Kp), dx = mg::dx(Kp);
          constexpr int r = i - dy;  // the output row this input row feeds at dy
          if constexpr (r >= 0 && r < Rows) {
#pragma unroll
            for (int c = 0; c < V; ++c) sums[hm - dm][r * V + c] += p.template term<Kp>(v[lx + c + dx]);
          }
        });
      });
      T(&done)[NC] = sums[0];  // output P - hm: its last plane has come
      if constexpr (selects) {
        const unsigned keep = planes && fixed_plane(zb + s - t * (hm + 1) + 1) ? ~0u : edge ? fixed_xy : 0u;
#pragma unroll
        for (int c = 0; c < NC; ++c)
          if ((keep >> c) & 1u) done[c] = hm > 0 ? centres[t - 1][0][c] : centre[c];
      }
#pragma unroll
      for (int c = 0; c < NC; ++c) {
#pragma unroll
        for (int i = 0; i + 1 < W; ++i) acc[t - 1][i][c] = sums[i + 1][c];
        if constexpr (hm > 0) {
#pragma unroll
          for (int j = 0; j + 1 < hm; ++j) centres[t - 1][j][c] = centres[t - 1][j + 1][c];
          centres[t - 1][hm - 1][c] = centre[c];
        }
      }
      if (t < K) {
        T* const to = published + ((t - 1) * 2 + (s & 1)) * PC + own;
#pragma unroll
        for (int r = 0; r < Rows; ++r) {
          vec w;
#pragma unroll
          for (int c = 0; c < V; ++c) w.v[c] = done[r * V + c];
          *reinterpret_cast<vec*>(to + r * PX) = w;
        }
      } else {
        const int o = zb + s - K * (hm + 1) + 1;
        if (!planes || (o >= m0 && o < m_end)) {
          T* const plane = out_column + index_t(o) * p.out_stride[0];
#pragma unroll
          for (int r = 0; r < Rows; ++r)
#pragma unroll
            for (int c = 0; c < V; ++c)
              detail_box_tile::store_if(plane + r * p.out_stride[1] + c, done[r * V + c], (stores_xy >> (r * V + c)) & 1u);
        }
      }
    }
    load_plane(zb + s + A, (s + A) & (D - 1), edge_, planes_, scatter_);
    async_copy::wait_pending<A - 1>();  // the plane read next step has landed (this thread's part)
    __syncthreads();                    // and everyone's
  };
  // The first K * W - 1 steps store nothing and the last few reach planes beyond the grid
  // (or load them): they ask which planes are fixed and map the loads; the steps between do
  // not, nor, in a block with no fixed cell and no wild piece, which cells are; a block with
  // a scattered piece asks everything every step (one loop: its code stays out of the others').
  const int steps_total = m_end - m0 + K * W - 1;
  const int body_begin = K * W - 1;
  const int body_end = min(min(nm + hm - zb, m_end - zb + K * (hm + 1) - 1), nm - A - zb);
  const auto yes = std::true_type{};
  const auto no = std::false_type{};
  int s = 0;
  if (scatter_block) {
    for (; s < steps_total; ++s) step(s, yes, yes, yes);
  } else if (edge_block) {
    for (; s < steps_total; ++s) step(s, yes, yes, no);
  } else {
    for (; s < min(body_begin, steps_total); ++s) step(s, no, yes, no);
    for (; s < body_end; ++s) step(s, no, no, no);
    for (; s < steps_total; ++s) step(s, no, yes, no);
  }
}

}  // namespace tessera::cuda::kernels
