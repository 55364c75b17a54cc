#pragma once
// What a CUDA strategy is, and the building blocks its unit uses.
//
// A strategy is one unit: a header, tessera/cuda/strategies/<name>.hpp, named after its
// policy template, holding what host code sees of it:
//
//   template <int... = 0> struct <name> : device_policy {  // the policy users write; reaches
//                                                         // the views in device memory
//     static std::string name();                          // "cuda:<name>", what the CLI spells
//     using strategy = <name><>;                          // the unit all its tilings share
//     template <class S> using tile = <name>_tile<...>;   // the compiled configuration for
//                                                         // shape S, named fields, 0 resolved
//     template <class S> static constexpr bool has_kernel; // false: the plan refuses S always
//     template <class S, class T>
//     static launch_plan plan(const extents<S::rank>&, const device_limits&);  // or a reason
//     // optional: what it needs of the views beyond their extents ("" when they serve)
//     template <class T, int Rank, class Space>
//     static std::string view_requirement(const View<T, Rank, Space>& in, const View<T, Rank, Space>& out);
//     // point functions (core/point_function.hpp) on this policy: the mainloop and tile,
//     // a tag type whose sweep_points(tag, policy, point_params, inputs, stream), found by
//     // argument-dependent lookup beside the mainloop's kernel (nvcc only), plans, refuses
//     // naming the policy the user wrote, or launches
//     template <class T, int Rank> using point_mainloop = detail::marching_points<...>;
//     static constexpr bool automatic_candidate;          // cuda::automatic may choose it
//     // optional roles in cuda::automatic (absent: none), read by candidates.hpp:
//     static constexpr bool automatic_default;            // runs stencils no table row knows
//     static constexpr bool automatic_point_default;      // runs point functions (rank >= 2)
//     template <class F, class T, int Rank>
//     static constexpr bool automatic_points_for;         // runs these point functions instead
//     static constexpr std::size_t automatic_points_from, // ... on grids of [from, below)
//                                  automatic_points_below; // points (each optional)
//     static constexpr int automatic_fallback;            // 1, 2, ...: tried in this order when
//                                                         // the choice cannot run on the views;
//                                                         // the last is the last resort (and
//                                                         // runs what needs no marching axis)
//     static constexpr bool automatic_fuses;              // may run iterate's fused passes: the
//                                                         // fusion table names it by policy
//                                                         // name (the first listed: rows that
//                                                         // name none; sweep_steps.hpp)
//     using automatic_fusion_tiles = type_list<name<...>>; // other tiles a row may name (its
//                                                         // tile column), each policy with
//     //   static std::string tile_name();                 // the column's text ("64x32") and
//     //   template <class S, class T>
//     //   static constexpr bool automatic_fuses_tile;     // the shapes and types it serves
//     //                                                   // (tessera_cuda compiles those)
//   };
//
// plus its kernels and launcher in strategies/<name>/kernels.cuh (nvcc only):
//   template <class S, class T, class Tile>
//   void launch_sweep(<name><>, sweep_of<S, T, Tile>, const launch_plan&, const params_for<S, T>&, cudaStream_t);
// found by argument-dependent lookup from kernel_entry.cuh (sweep_of below), so the class declares no launcher. A
// strategy's unit serves both stencils and point functions: the stencil kernels are its
// own; for point functions it names a point-function mainloop (its own, as naive's and
// pipelined's, or one it shares: ring_points, marching_points, tiled_points in
// point_function_ring.hpp, point_function_streaming.hpp, point_function_tiled.hpp, their
// kernels in the .cuh beside each, which the strategy's kernels.cuh includes) and the tile
// it runs it on. Host code
// compiled by a C++ compiler sees the declarations; the kernels are compiled in
// tessera_cuda for the built-in shapes (one translation unit per strategy and precision).
// The generic adapter (plan.hpp, launch.hpp, dispatch.hpp) plans, checks and launches any
// of them; the list in strategies.def is the only other place a strategy is named.
//
// Kernels see every grid as 3D with "virtual axes" (z, y, x) = (0, 1, 2): a rank-R grid
// occupies the last R of them and the missing slow axes have extent 1 and offset 0. So a
// block (x, y, z) is CUDA's dim3 order and plans count axes that way.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "tessera/core/extents.hpp"
#include "tessera/core/fields.hpp"
#include "tessera/core/memory_space.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/core/view.hpp"
#include "tessera/cuda/device_limits.hpp"
#include "tessera/cuda/launch_plan.hpp"
#include "tessera/cuda/memory_space.hpp"
#include "tessera/cuda/point_params.hpp"
#include "tessera/cuda/sweep_params.hpp"

namespace tessera::cuda {

/// The argument of shape S's kernels for element type T.
template <class S, class T>
using params_for = sweep_params<T, shape_traits<S>::size>;

namespace detail {

/// Every CUDA policy sweeps views in device memory only.
template <class Space>
inline constexpr bool is_device_space = !Space::host_accessible;

/// A policy's tile parameter: v, or the default d where v is 0.
constexpr int or_default(int v, int d) { return v > 0 ? v : d; }

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

/// Elements of T in one 128-byte line (the unit DRAM and L2 serve; pipelined's x-halos are
/// copied in whole lines).
template <class T>
inline constexpr int elements_per_128_bytes = sizeof(T) >= 128 ? 1 : 128 / static_cast<int>(sizeof(T));

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

/// A strategy's name in launch plans and records: its policy's name() without "cuda:", '-'
/// read as '_' (cuda:shared-streaming: shared_streaming). Built once per strategy.
template <class Policy>
const std::string& plan_label() {
  static const std::string label = [] {
    std::string s = Policy::name();
    if (s.rfind("cuda:", 0) == 0) s.erase(0, 5);
    std::replace(s.begin(), s.end(), '-', '_');
    return s;
  }();
  return label;
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

/// The grid that covers extents e with p.out_tile outputs per block.
template <int Rank>
void cover(launch_plan& p, const extents<Rank>& e) {
  for (int a = 0; a < 3; ++a) p.grid[a] = ceil_div(virtual_extent(e, 2 - a), p.out_tile[a]);
}

/// Covers extents e with p's output tile and checks the device's limits: p, or why it
/// cannot run (a reason already set stands).
template <int Rank>
launch_plan covered(launch_plan p, const extents<Rank>& e, const device_limits& lim) {
  cover(p, e);
  check_limits(p, lim);
  return p;
}

/// Output tiles of out_x x out_y points (2D: out_x points of a row) a plane of e needs.
template <int Rank>
long long plane_tiles(const extents<Rank>& e, int out_x, int out_y) {
  return ceil_div(virtual_extent(e, 2), out_x) * (Rank == 3 ? ceil_div(virtual_extent(e, 1), out_y) : 1);
}

/// A block marching `chunk` planes along the slowest axis of a 2D or 3D grid over an
/// out_x x out_y output tile of each plane (2D: out_x points of each row): p with that
/// output tile, covering e, checked against the device's limits.
template <int Rank>
launch_plan marched(launch_plan p, const extents<Rank>& e, int out_x, int out_y, int chunk, const device_limits& lim) {
  static_assert(Rank >= 2, "tessera::cuda: only 2D and 3D grids have a slowest axis to march");
  p.chunk = chunk;
  p.out_tile[0] = out_x;
  p.out_tile[1] = Rank == 3 ? out_y : chunk;
  p.out_tile[2] = Rank == 3 ? chunk : 1;
  return covered(p, e, lim);
}

/// Blocks an SM holds at once of the kernel p launches by the SM's bounds alone: threads,
/// blocks and shared memory and, where the strategy knows about how many its kernel takes,
/// registers a thread (0: not counted). The host's estimate, before any kernel is known.
inline int resident_blocks_by_bounds(const launch_plan& p, const device_limits& lim, int registers_per_thread = 0) {
  const int threads = std::max(1, p.threads());
  const int by_threads = lim.max_threads_per_multiprocessor / threads;
  const int by_registers = registers_per_thread > 0 ? lim.registers_per_multiprocessor / (registers_per_thread * threads)
                                                    : lim.max_blocks_per_multiprocessor;
  const int by_shared =
      p.shared_bytes == 0
          ? lim.max_blocks_per_multiprocessor
          : static_cast<int>(lim.shared_per_multiprocessor / (p.shared_bytes + lim.reserved_shared_per_block));
  return std::max(1, std::min({by_threads, by_registers, by_shared, lim.max_blocks_per_multiprocessor}));
}

/// Blocks an SM holds at once of the kernel p launches: the driver's answer where the launch
/// gave it (lim.kernel_blocks_per_sm, dispatch.hpp), else resident_blocks_by_bounds. A plan
/// whose chunk depends on it records what it took (launch_plan::resident_per_sm), so that the
/// launch can plan again with the driver's answer; the driver is asked by calling the
/// strategy's launcher under a residency_query, so such a strategy launches through
/// launch_kernel_after_previous.
inline int resident_blocks(const launch_plan& p, const device_limits& lim, int registers_per_thread = 0) {
  if (lim.kernel_blocks_per_sm > 0) return lim.kernel_blocks_per_sm;
  return resident_blocks_by_bounds(p, lim, registers_per_thread);
}

/// plan_at(lim) -> launch_plan, made again with the driver's answer where the plan chose its
/// chunk by an estimate of the blocks an SM holds (resident_per_sm) and the driver, asked
/// by driver_blocks(plan) for the kernel that plan launches, answers otherwise (0: it cannot
/// say, and the estimate stands).
template <class PlanAt, class DriverBlocks>
launch_plan with_driver_residency(const device_limits& lim, PlanAt&& plan_at, DriverBlocks&& driver_blocks) {
  launch_plan plan = plan_at(lim);
  if (!plan.ok() || plan.resident_per_sm == 0 || lim.kernel_blocks_per_sm > 0) return plan;
  const int per_sm = driver_blocks(static_cast<const launch_plan&>(plan));
  if (per_sm < 1 || per_sm == plan.resident_per_sm) return plan;
  device_limits known = lim;
  known.kernel_blocks_per_sm = per_sm;
  return plan_at(static_cast<const device_limits&>(known));
}

/// The marching strategies' refusal of a 1D grid (p.strategy names the strategy).
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

/// "" when every row of `v` starts its interior on a 16-byte boundary (the interior's
/// first element and the padded row length are multiples of 16 bytes; the strides are
/// multiples of the row length); else why not, for `strategy`.
template <class T, int Rank, class Space>
std::string rows_on_16_bytes(const View<T, Rank, Space>& v, const std::string& strategy, const std::string& fallback) {
  const auto address = reinterpret_cast<std::uintptr_t>(v.accessor().origin);
  const auto row_bytes = static_cast<std::size_t>(v.layout().row_alignment()) * sizeof(T);
  if (address % 16 == 0 && row_bytes % 16 == 0) return {};
  return strategy + " and needs every row's interior on a 16-byte boundary, but " + v.describe() +
         " has a row alignment of " + std::to_string(v.layout().row_alignment()) + " element(s) (" +
         std::to_string(row_bytes) +
         " bytes): build it from extents (rows padded to 128 bytes) or with a layout whose row alignment is a "
         "multiple of 16 bytes, or use " + fallback;
}

}  // namespace detail

/// The kernel a launcher runs: shape S, element type T, the strategy's resolved tile Tile.
/// A strategy's unit defines its launcher beside its kernels (strategies/<name>/kernels.cuh,
/// nvcc only), found by argument-dependent lookup, so its policy class declares none:
///   template <class S, class T, class Tile>
///   void launch_sweep(<name><>, sweep_of<S, T, Tile>, const launch_plan&, const params_for<S, T>&, cudaStream_t);
/// and, a strategy that fuses time steps (has_fused_steps_v), launch_fused_steps(<name><>,
/// sweep_of<S, T, Tile>, plan, params, steps, edge_rules, stream).
template <class S, class T, class Tile>
struct sweep_of {};

/// What every CUDA policy shares: it sweeps views in device memory only.
struct device_policy {
  template <class Space>
  static constexpr bool reaches = detail::is_device_space<Space>;
};

/// The base of a strategy whose kernels march along the slowest axis of a 2D or 3D grid: it
/// has no kernel in 1D, where its plan says why and names the strategies that run there;
/// Derived::plan_march<S, T>(extents, limits) plans 2D and 3D grids.
template <class Derived>
struct marching_policy : device_policy {
  template <class S>
  static constexpr bool has_kernel = S::rank >= 2;

  template <class S, class T>
  static launch_plan plan(const extents<S::rank>& e, const device_limits& lim) {
    if constexpr (S::rank == 1) {
      launch_plan p;
      p.strategy = detail::plan_label<Derived>();
      return detail::refuse_1d_marching(p);
    } else {
      return Derived::template plan_march<S, T>(e, lim);
    }
  }
};

}  // namespace tessera::cuda
