#pragma once
// Lowering: (policy, shape, element type, extents, device limits) -> a launch plan, or a
// reason written for a human why the policy cannot serve this case. Plain host code:
// unit-tested on machines without a GPU; kernels only execute a plan.
#include <algorithm>
#include <cstddef>
#include <string>

#include "tessera/core/extents.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/cuda/device_limits.hpp"
#include "tessera/cuda/tile_config.hpp"

namespace tessera::cuda {

/// How a sweep is launched. Axes here are the kernels' virtual (x, y, z) = CUDA's dim3
/// order; tiles are counted in outputs. An empty reason means the plan can run.
struct launch_plan {
  std::string strategy;
  int block[3] = {1, 1, 1};          // threads (x, y, z)
  long long grid[3] = {1, 1, 1};     // blocks (x, y, z)
  std::size_t shared_bytes = 0;      // dynamic shared memory per block
  bool needs_shared_opt_in = false;  // shared_bytes above the default 48 KiB
  int out_tile[3] = {1, 1, 1};       // outputs per block along (x, y, z)
  int chunk = 1;                     // outputs per thread along the marching axis
  std::string reason;

  bool ok() const { return reason.empty(); }
  int threads() const { return block[0] * block[1] * block[2]; }
  std::string describe() const {
    auto v3 = [](auto a) {
      return std::to_string(a[0]) + "x" + std::to_string(a[1]) + "x" + std::to_string(a[2]);
    };
    return strategy + ": block " + v3(block) + ", grid " + v3(grid) + ", outputs/block " +
           v3(out_tile) + ", shared " + std::to_string(shared_bytes) + " B";
  }
};

namespace detail {

/// The shape's reach on virtual axis v (0 = z, 1 = y, 2 = x); absent axes reach 0.
template <class S>
struct virtual_reach {
  static constexpr int rank = S::rank;
  static constexpr int axis(int v) { return v - (3 - rank); }
  static constexpr int lo(int v) { return axis(v) < 0 ? 0 : shape_traits<S>::reach_lo[axis(v)]; }
  static constexpr int hi(int v) { return axis(v) < 0 ? 0 : shape_traits<S>::reach_hi[axis(v)]; }
  static constexpr int width(int v) { return hi(v) - lo(v); }  // halo cells on axis v
};

/// Elements of T in one 16-byte vector (the unit of pipelined's copies and of
/// vector_streaming's loads and stores).
template <class T>
inline constexpr int elements_per_16_bytes = sizeof(T) >= 16 ? 1 : 16 / static_cast<int>(sizeof(T));

/// Extent along virtual axis v (1 for axes the rank lacks).
template <int Rank>
long long virtual_extent(const extents<Rank>& e, int v) {
  const int d = v - (3 - Rank);
  return d < 0 ? 1 : static_cast<long long>(e[d]);
}

inline long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

inline std::string kib(std::size_t b) {
  std::string s = std::to_string(b / 1024);
  if (b % 1024) {
    s += '.';
    s += std::to_string(b % 1024 * 10 / 1024);
  }
  s += " KiB";
  return s;
}

/// Checks shared by every strategy: block and grid limits, shared memory.
inline void check_limits(launch_plan& p, const device_limits& lim) {
  if (!p.ok()) return;
  const char* ax = "xyz";
  if (p.threads() > lim.max_threads_per_block) {
    p.reason = "block " + std::to_string(p.block[0]) + "x" + std::to_string(p.block[1]) + "x" +
               std::to_string(p.block[2]) + " has " + std::to_string(p.threads()) +
               " threads; the device allows " + std::to_string(lim.max_threads_per_block) +
               " per block; choose smaller tile parameters";
    return;
  }
  for (int a = 0; a < 3; ++a) {
    if (p.block[a] > lim.max_block_dim[a]) {
      p.reason = std::string("block dimension ") + ax[a] + " = " + std::to_string(p.block[a]) +
                 " exceeds the device limit " + std::to_string(lim.max_block_dim[a]);
      return;
    }
    if (p.grid[a] > lim.max_grid_dim[a]) {
      p.reason = std::string("grid dimension ") + ax[a] + " = " + std::to_string(p.grid[a]) +
                 " exceeds the device limit " + std::to_string(lim.max_grid_dim[a]) +
                 "; use larger tiles (or a larger chunk) along that axis";
      return;
    }
  }
  if (p.shared_bytes > lim.shared_per_block_optin) {
    p.reason = "needs " + kib(p.shared_bytes) + " of shared memory per block; " + lim.name +
               " allows at most " + kib(lim.shared_per_block_optin) +
               " (opt-in); use a smaller tile, or float instead of double";
    return;
  }
  p.needs_shared_opt_in = p.shared_bytes > lim.shared_per_block;
}

/// The streaming strategies' refusal of a 1D grid (p.strategy names the strategy).
inline launch_plan refuse_1d_marching(launch_plan p) {
  p.reason = p.strategy + " marches along the slowest axis of a 2D or 3D grid; a 1D grid has no such axis: "
                          "use cuda::naive or cuda::tiled";
  return p;
}

/// Planes per block along the marching axis for the streaming strategies: long enough
/// that re-reading the reach at each chunk's start costs <= ~6% (32 planes per cell of
/// reach), halved while the grid would not give every SM twice the blocks it holds at
/// once (blocks_per_sm).
inline int streaming_chunk(int reach, long long tiles, long long n_march, int blocks_per_sm,
                           const device_limits& lim) {
  int chunk = 32 * (reach > 2 ? reach / 2 : 1);
  const long long want = 2LL * lim.multiprocessors * std::max(1, blocks_per_sm);
  while (chunk > 8 && tiles * ceil_div(n_march, chunk) < want) chunk /= 2;
  return chunk;
}

/// In-plane offsets are 32-bit in the shared-memory streaming kernels: a plane (rows
/// padded to 128 bytes) must stay below 2^31 elements.
template <class S, int Rank>
std::string plane_too_large(const extents<Rank>& e, const std::string& strategy) {
  const long long plane = (Rank == 3 ? virtual_extent(e, 1) + 2LL * shape_traits<S>::radius : 1) *
                          (virtual_extent(e, 2) + 2LL * shape_traits<S>::radius + 128);
  if (plane < (1LL << 31)) return {};
  return "a plane of " + e.to_string() + " has " + std::to_string(plane) + " elements; " + strategy +
         " indexes a plane with 32-bit offsets: use cuda::streaming";
}
}  // namespace detail

// --- one planner per strategy (overloads on the policy type) -----------------------------

template <class S, class T, int BX, int BY, int BZ>
launch_plan make_plan(const naive<BX, BY, BZ>&, const extents<S::rank>& e, const device_limits& lim) {
  using cfg = tile_config<naive<BX, BY, BZ>, S::rank>;
  launch_plan p;
  p.strategy = "naive";
  p.block[0] = cfg::bx, p.block[1] = cfg::by, p.block[2] = cfg::bz;
  for (int a = 0; a < 3; ++a) {
    p.out_tile[a] = p.block[a];
    p.grid[a] = detail::ceil_div(detail::virtual_extent(e, 2 - a), p.out_tile[a]);
  }
  detail::check_limits(p, lim);
  return p;
}

template <class S, class T, int TX, int TY, int TZ>
launch_plan make_plan(const tiled<TX, TY, TZ>&, const extents<S::rank>& e, const device_limits& lim) {
  using cfg = tile_config<tiled<TX, TY, TZ>, S::rank>;
  using r = detail::virtual_reach<S>;
  launch_plan p;
  p.strategy = "tiled";
  p.block[0] = cfg::bx, p.block[1] = cfg::by, p.block[2] = cfg::bz;
  if constexpr (S::rank == 1) {
    // The notes' 1D layout: the block computes its whole tile; the halo cells are
    // appended in dynamic shared memory (size fixed at launch).
    p.out_tile[0] = cfg::bx;
    p.shared_bytes = static_cast<std::size_t>(cfg::bx + r::width(2)) * sizeof(T);
  } else {
    // Textbook 2D/3D: the block is the input tile; the inner threads compute.
    std::size_t cells = 1;
    for (int a = 0; a < 3; ++a) {
      p.out_tile[a] = p.block[a] - r::width(2 - a);
      cells *= static_cast<std::size_t>(p.block[a]);
      if (p.out_tile[a] < 1) {
        p.reason = "input tile " + std::to_string(cfg::bx) + "x" + std::to_string(cfg::by) +
                   (S::rank == 3 ? "x" + std::to_string(cfg::bz) : std::string()) +
                   " leaves no outputs along " + "xyz"[a] + ": the shape " + shape_name<S>() +
                   " needs " + std::to_string(r::width(2 - a)) +
                   " halo cells there; use a larger tile";
        return p;
      }
    }
    p.shared_bytes = cells * sizeof(T);
  }
  for (int a = 0; a < 3; ++a)
    p.grid[a] = detail::ceil_div(detail::virtual_extent(e, 2 - a), p.out_tile[a]);
  detail::check_limits(p, lim);
  return p;
}

namespace detail {
/// Shared by coarsened and register_tiled: the xy (2D: x) input tile marching along the
/// slowest axis, `planes` z-planes (2D: rows) of the tile held in shared memory.
template <class S, class T, class cfg>
launch_plan plan_marching(const char* strategy, const extents<S::rank>& e, int planes,
                          const device_limits& lim) {
  using r = virtual_reach<S>;
  launch_plan p;
  p.strategy = strategy;
  p.block[0] = cfg::bx, p.block[1] = cfg::by, p.block[2] = 1;
  p.chunk = cfg::chunk;
  // x and (3D) y: the block is the input tile; z (3D) or y (2D): marched.
  const int march = 3 - S::rank;  // virtual axis marched along: z (3D) or y (2D)
  for (int a = 0; a < 2; ++a) {
    const int v = 2 - a;
    if (v <= march) continue;
    p.out_tile[a] = p.block[a] - r::width(v);
    if (p.out_tile[a] < 1) {
      p.reason = std::string("input tile ") + std::to_string(cfg::bx) +
                 (S::rank == 3 ? "x" + std::to_string(cfg::by) : std::string()) +
                 " leaves no outputs along " + "xyz"[a] + ": the shape " + shape_name<S>() +
                 " needs " + std::to_string(r::width(v)) + " halo cells there; use a larger tile";
      return p;
    }
  }
  const int march_dim = 2 - march;  // dim3 component of the marching axis
  p.out_tile[march_dim] = cfg::chunk;
  p.shared_bytes = static_cast<std::size_t>(planes) * cfg::bx * cfg::by * sizeof(T);
  for (int a = 0; a < 3; ++a)
    p.grid[a] = ceil_div(virtual_extent(e, 2 - a), p.out_tile[a]);
  check_limits(p, lim);
  return p;
}
}  // namespace detail

template <class S, class T, int TX, int TY, int C>
launch_plan make_plan(const coarsened<TX, TY, C>&, const extents<S::rank>& e, const device_limits& lim) {
  using cfg = tile_config<coarsened<TX, TY, C>, S::rank>;
  using r = detail::virtual_reach<S>;
  if constexpr (S::rank == 1) {
    // 1D coarsening: each thread computes `chunk` outputs of a bx*chunk tile whose halo
    // is appended in shared memory.
    launch_plan p;
    p.strategy = "coarsened";
    p.block[0] = cfg::bx;
    p.chunk = cfg::chunk;
    p.out_tile[0] = cfg::bx * cfg::chunk;
    p.shared_bytes = static_cast<std::size_t>(p.out_tile[0] + r::width(2)) * sizeof(T);
    p.grid[0] = detail::ceil_div(e[0], p.out_tile[0]);
    detail::check_limits(p, lim);
    return p;
  } else {
    const int planes = r::width(3 - S::rank) + 1;  // z-reach (2D: y-reach) + the centre
    return detail::plan_marching<S, T, cfg>("coarsened", e, planes, lim);
  }
}

template <class S, class T, int TX, int TY, int C>
launch_plan make_plan(const register_tiled<TX, TY, C>&, const extents<S::rank>& e,
                      const device_limits& lim) {
  using cfg = tile_config<register_tiled<TX, TY, C>, S::rank>;
  if constexpr (S::rank == 1) {
    launch_plan p;
    p.strategy = "register_tiled";
    p.reason = "register tiling marches along the slowest axis of a 2D or 3D grid and keeps its "
               "neighbours in registers; a 1D grid has no such axis: use cuda::tiled or "
               "cuda::coarsened";
    return p;
  } else if constexpr (!shape_traits<S>::slow_axis_neighbours_on_axis) {
    launch_plan p;
    p.strategy = "register_tiled";
    p.reason = "register tiling keeps only the " + std::string(S::rank == 3 ? "z" : "y") +
               "-neighbours on the marching axis in registers (offsets (d, 0" +
               (S::rank == 3 ? ", 0" : "") + ")), but " + shape_name<S>() +
               " has points off both that axis and the centre plane (a box or skewed shape "
               "needs whole neighbour planes): use cuda::coarsened, which keeps those planes "
               "in shared memory";
    return p;
  } else {
    return detail::plan_marching<S, T, cfg>("register_tiled", e, 1, lim);
  }
}

template <class S, class T, int BX, int BY, int C>
launch_plan make_plan(const streaming<BX, BY, C>&, const extents<S::rank>& e, const device_limits& lim) {
  using cfg = tile_config<streaming<BX, BY, C>, S::rank>;
  launch_plan p;
  p.strategy = "streaming";
  if constexpr (S::rank == 1) {
    return detail::refuse_1d_marching(p);
  } else {
    p.block[0] = cfg::bx, p.block[1] = cfg::by, p.block[2] = 1;
    p.chunk = cfg::chunk;
    p.out_tile[0] = cfg::bx;
    p.out_tile[1] = S::rank == 3 ? cfg::by : cfg::chunk;
    p.out_tile[2] = S::rank == 3 ? cfg::chunk : 1;
    for (int a = 0; a < 3; ++a)
      p.grid[a] = detail::ceil_div(detail::virtual_extent(e, 2 - a), p.out_tile[a]);
    detail::check_limits(p, lim);
    return p;
  }
}

namespace detail {
/// The shared-memory layout of a shared_streaming block (host and device constexpr): a
/// ring of `slots` planes, each the SH x SW tile with its in-plane halo. Planes m + d for
/// DLO <= d <= DHI are read by off-axis points; one slot more lets a single barrier per
/// step separate the writer of a slot from its last readers.
template <class S, int BX, int BY, int RY>
struct shared_streaming_layout {
  static constexpr int rank = S::rank;
  static constexpr int march = 3 - rank;  // virtual axis marched along
  static constexpr bool has_y = rank == 3;
  using r = virtual_reach<S>;
  static constexpr int off(int k, int v) { return r::axis(v) < 0 ? 0 : S::points[k][r::axis(v)]; }
  static constexpr int dm(int k) { return off(k, march); }
  static constexpr int dy(int k) { return has_y ? off(k, 1) : 0; }
  static constexpr int dx(int k) { return off(k, 2); }
  static constexpr int size = shape_traits<S>::size;
  static constexpr bool on_axis(int k) { return dx(k) == 0 && dy(k) == 0; }
  // Tile: 3D, BX columns x BY * RY rows; 2D, one row of BX * RY columns.
  static constexpr int TX = has_y ? BX : BX * RY, TY = has_y ? BY * RY : 1;
  static constexpr int RXL = -r::lo(2), RXH = r::hi(2);
  static constexpr int RYL = has_y ? -r::lo(1) : 0, RYH = has_y ? r::hi(1) : 0;
  static constexpr int SW = TX + RXL + RXH, SH = TY + RYL + RYH;
  static constexpr int DLO = [] {
    int d = 0;
    for (int k = 0; k < size; ++k)
      if (!on_axis(k) && dm(k) < d) d = dm(k);
    return d;
  }();
  static constexpr int DHI = [] {
    int d = 0;
    for (int k = 0; k < size; ++k)
      if (!on_axis(k) && dm(k) > d) d = dm(k);
    return d;
  }();
  static constexpr int slots = DHI - DLO + 2;
  static constexpr std::size_t shared_elements = std::size_t(slots) * SH * SW;
};
}  // namespace detail

template <class S, class T, int BX, int BY, int RY, int C>
launch_plan make_plan(const shared_streaming<BX, BY, RY, C>&, const extents<S::rank>& e,
                      const device_limits& lim) {
  using cfg = tile_config<shared_streaming<BX, BY, RY, C>, S::rank>;
  launch_plan p;
  p.strategy = "shared_streaming";
  if constexpr (S::rank == 1) {
    return detail::refuse_1d_marching(p);
  } else {
    using lay = detail::shared_streaming_layout<S, cfg::bx, cfg::by, cfg::bz>;
    p.block[0] = cfg::bx, p.block[1] = cfg::by, p.block[2] = 1;
    p.out_tile[0] = lay::TX;
    if constexpr (S::rank == 3) p.out_tile[1] = lay::TY;
    const int m_dim = S::rank == 3 ? 2 : 1;  // dim3 component of the marching axis
    const long long n_march = detail::virtual_extent(e, lay::march);
    long long tiles = 1;
    for (int a = 0; a < m_dim; ++a) tiles *= detail::ceil_div(detail::virtual_extent(e, 2 - a), p.out_tile[a]);
    const int chunk = cfg::chunk > 0 ? cfg::chunk
                                     : detail::streaming_chunk(detail::virtual_reach<S>::width(lay::march), tiles,
                                                               n_march, 1024 / p.threads(), lim);
    p.chunk = chunk;
    p.out_tile[m_dim] = chunk;
    for (int a = 0; a < 3; ++a)
      p.grid[a] = detail::ceil_div(detail::virtual_extent(e, 2 - a), p.out_tile[a]);
    p.shared_bytes = lay::shared_elements * sizeof(T);
    p.reason = detail::plane_too_large<S>(e, "shared_streaming");
    if (!p.ok()) return p;
    detail::check_limits(p, lim);
    return p;
  }
}

namespace detail {
/// The shared-memory layout of a pipelined block (host and device constexpr). A plane of
/// the ring is the SH x SW tile with its in-plane halo, the x-halo widened to whole
/// 16-byte pieces (AXL, AXH elements) because planes arrive by 16-byte asynchronous
/// copies. The ring holds the W planes the shape reaches along the marching axis plus
/// `stages` planes in flight.
template <class S, class T, int BX, int BY, int RY, int Stages>
struct pipelined_layout {
  static constexpr int rank = S::rank;
  static constexpr int march = 3 - rank;  // virtual axis marched along
  static constexpr bool has_y = rank == 3;
  using r = virtual_reach<S>;
  static constexpr int vec = elements_per_16_bytes<T>;  // elements per copy
  static constexpr int line = sizeof(T) >= 128 ? 1 : 128 / static_cast<int>(sizeof(T));  // elements per 128 B
  // Tile: 3D, BX columns x BY * RY rows (RY consecutive rows per thread); 2D, one row of
  // BX * RY columns (thread tx owns tx, tx + BX, ...).
  static constexpr int TX = has_y ? BX : BX * RY, TY = has_y ? BY * RY : 1;
  static constexpr int RXL = -r::lo(2), RXH = r::hi(2);
  static constexpr int RYL = has_y ? -r::lo(1) : 0, RYH = has_y ? r::hi(1) : 0;
  static constexpr int LO = r::lo(march), HI = r::hi(march), W = HI - LO + 1;
  static constexpr int stages = Stages;
  static constexpr int slots = W + Stages;
  // The x-halo is copied as whole 128-byte lines where the ring is small: a halo of
  // single 16-byte pieces, each a partial read of a line the neighbouring block reads in
  // full, cost the 7-point fp32 sweep ~9% of its time on an H100 for the same DRAM bytes.
  // A deep ring (a wide reach along the marching axis) takes 16-byte pieces instead: the
  // lines' shared memory would leave one block per SM (25-point: 0.60 vs 0.70 of copy).
  // Measured: perf/RESULTS.md.
  static constexpr bool halo_in_lines = slots <= 8;
  static constexpr int halo_unit = halo_in_lines ? line : vec;
  static constexpr int round_up(int a) { return (a + halo_unit - 1) / halo_unit * halo_unit; }
  static constexpr int AXL = round_up(RXL), AXH = round_up(RXH);
  static constexpr int SW = TX + AXL + AXH, SH = TY + RYL + RYH;
  static constexpr int pieces_per_row = SW / vec, pieces = SH * pieces_per_row;
  static constexpr std::size_t shared_elements = std::size_t(slots) * SH * SW;
  static_assert(TX % vec == 0, "tessera::cuda::pipelined: the tile width must be a multiple of 16 bytes");
  static_assert(line % vec == 0);
  static_assert(Stages >= 1, "tessera::cuda::pipelined: at least one plane in flight");
};

}  // namespace detail

template <class S, class T, int BX, int BY, int RY, int D, int C>
launch_plan make_plan(const pipelined<BX, BY, RY, D, C>&, const extents<S::rank>& e, const device_limits& lim) {
  using cfg = kernel_config<pipelined<BX, BY, RY, D, C>, S>;
  launch_plan p;
  p.strategy = "pipelined";
  if constexpr (S::rank == 1) {
    return detail::refuse_1d_marching(p);
  } else {
    using lay = detail::pipelined_layout<S, T, cfg::bx, cfg::by, cfg::bz, cfg::stages>;
    p.block[0] = cfg::bx, p.block[1] = cfg::by, p.block[2] = 1;
    p.out_tile[0] = lay::TX;
    if constexpr (S::rank == 3) p.out_tile[1] = lay::TY;
    const int m_dim = S::rank == 3 ? 2 : 1;  // dim3 component of the marching axis
    long long tiles = 1;
    for (int a = 0; a < m_dim; ++a) tiles *= detail::ceil_div(detail::virtual_extent(e, 2 - a), p.out_tile[a]);
    p.shared_bytes = lay::shared_elements * sizeof(T);
    // Blocks an SM holds at once: by threads (2048 per SM on sm_80/90) and by the ring's
    // shared memory (~1 KiB per block reserved). A deep ring leaves one block per SM, and
    // its chunk need not shrink to make blocks that cannot run anyway: the 25-point star
    // keeps 128 planes per block at 512^3 instead of 64 (the reach re-read 6% vs 12%).
    const auto by_shared = static_cast<int>((lim.shared_per_block_optin + 1024) / (p.shared_bytes + 1024));
    const int resident = std::max(1, std::min(2048 / p.threads(), by_shared));
    // Stars reaching one or two planes along z take short chunks (4, 8 planes) where an SM
    // holds two blocks or more: the resident blocks stay on neighbouring planes (chunk
    // edges hit in L2, DRAM reads a narrow window; vector_streaming.cuh). Measured on an
    // H100 (perf/RESULTS.md runs 6 and 7): 7-point 0.91 of copy vs 0.88 at 32 planes, fp64
    // 7-point 0.95 vs 0.91 (2 blocks an SM), 13-point 0.90 vs 0.87. With one block an SM
    // nothing hides a block's ring prologue: fp64 13-point 0.82 at 8 planes vs 0.89 at 64;
    // the 25-point at 8 planes 0.52 vs 0.72 at 128.
    const int short_chunk = cfg::short_chunks && resident >= 2 ? (lay::W <= 3 ? 4 : 8) : 0;
    p.chunk = cfg::planes > 0   ? cfg::planes
              : short_chunk > 0 ? short_chunk
                                : detail::streaming_chunk(lay::W - 1, tiles, detail::virtual_extent(e, lay::march),
                                                          resident, lim);
    p.out_tile[m_dim] = p.chunk;
    for (int a = 0; a < 3; ++a)
      p.grid[a] = detail::ceil_div(detail::virtual_extent(e, 2 - a), p.out_tile[a]);
    p.reason = detail::plane_too_large<S>(e, "pipelined");
    detail::check_limits(p, lim);
    return p;
  }
}

namespace detail {
/// vector_streaming's planes per block: short, so the resident blocks work on a few
/// neighbouring planes (chunk edges hit in L2, DRAM reads a narrow window), and longer
/// than the halo the shape reaches along the marching axis (`width` planes), which each
/// chunk loads again: 7-point 4, 13-point 6. Measured on an H100 (perf/RESULTS.md run
/// 7): 7-point chunk 3-5 within 1%, 6 and 8 lower; 13-point 6 best. Accumulated shapes
/// (3D stars reaching 3+ planes, kernels/vector_accumulate.cuh) 8: 25-point 0.83-0.85 of
/// copy vs 0.82 at 10 and 0.74-0.78 at 16 (run 8).
inline int vector_streaming_chunk(int width, bool accumulated) { return accumulated ? 8 : std::max(4, width + 2); }
}  // namespace detail

template <class S, class T, int BY, int C, int D>
launch_plan make_plan(const vector_streaming<BY, C, D>&, const extents<S::rank>& e, const device_limits& lim) {
  using cfg = kernel_config<vector_streaming<BY, C, D>, S>;
  launch_plan p;
  p.strategy = "vector_streaming";
  if constexpr (S::rank == 1) {
    return detail::refuse_1d_marching(p);
  } else {
    using r = detail::virtual_reach<S>;
    // elements of a row a warp owns (a warp holds cfg::rows_per_warp rows)
    constexpr int lanes_x = 32 / cfg::rows_per_warp * detail::elements_per_16_bytes<T>;
    constexpr int march = 3 - S::rank;
    p.block[0] = cfg::bx, p.block[1] = cfg::by, p.block[2] = 1;
    p.chunk = cfg::planes > 0 ? cfg::planes : detail::vector_streaming_chunk(r::width(march), accumulates_by_column<S>);
    if constexpr (S::rank == 3) {
      p.out_tile[0] = lanes_x, p.out_tile[1] = cfg::by * cfg::rows_per_warp, p.out_tile[2] = p.chunk;
    } else {
      p.out_tile[0] = lanes_x * cfg::by, p.out_tile[1] = p.chunk, p.out_tile[2] = 1;
    }
    for (int a = 0; a < 3; ++a)
      p.grid[a] = detail::ceil_div(detail::virtual_extent(e, 2 - a), p.out_tile[a]);
    detail::check_limits(p, lim);
    return p;
  }
}

/// True when `policy` can run shape S on extents e on a device with limits lim.
template <class S, class T, class Policy>
bool can_implement(const Policy& policy, const extents<S::rank>& e, const device_limits& lim,
                   std::string* reason = nullptr) {
  const auto p = make_plan<S, T>(policy, e, lim);
  if (reason) *reason = p.reason;
  return p.ok();
}

}  // namespace tessera::cuda
