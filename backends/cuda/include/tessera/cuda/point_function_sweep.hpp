#pragma once
// Point functions (core/point_function.hpp) on CUDA views. The kernels are templates on
// the user's function, so they are instantiated where apply is called: that translation
// unit must be compiled by nvcc (a .cu file, or LANGUAGE CUDA), and a lambda needs
// TESSERA_HD (tessera's CUDA flags turn on --extended-lambda).
//
// Every CUDA policy runs point functions, each lowered to its own idea of the sweep:
//   naive              one thread per output point, every neighbour through L1/L2;
//   tiled              each field's tile plus its halo staged in shared memory, one point a
//                      thread (cuda/point_function_tiled.hpp);
//   coarsened          2.5D: a block marches a chunk of planes along the slowest axis, each
//                      field's window of planes in a ring in shared memory, loaded when
//                      needed (cuda/point_function_ring.hpp);
//   shared_streaming   the same ring with rows per thread and each plane's loads issued a
//                      step ahead, in flight while the function runs (point_function_ring.hpp);
//   pipelined          the ring fed by asynchronous 16-byte copies (point_function_pipelined.hpp);
//   streaming, vector_streaming
//                      one thread per output column (vector_streaming: 16 bytes' worth, 32
//                      columns apart) marching a short chunk of planes, the planes it read kept
//                      in L1 and the next one prefetched (point_function_streaming.hpp);
//   register_tiled, temporal_blocking
//                      their kernels keep a column's neighbours in registers, which a window (a
//                      pointer) cannot address: each thread marches its column with the planes
//                      it read in L1 instead, the streaming kernel on the policy's tile and
//                      chunk (temporal_blocking: one step per pass, as for stencils in apply);
//   automatic          streaming in 2D and 3D, naive in 1D (streaming measured fastest on
//                      every point function: perf/RESULTS.md, the runs on point functions).
// In 1D, coarsened stages its tile as tiled does; the strategies that only march (streaming,
// vector_streaming, shared_streaming, pipelined, register_tiled, temporal_blocking) refuse
// 1D grids by name, as they do for stencils.
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "tessera/core/errors.hpp"
#include "tessera/core/fields.hpp"
#include "tessera/core/point_function.hpp"
#include "tessera/cuda/memory_space.hpp"
#include "tessera/cuda/point_function_pipelined.hpp"
#include "tessera/cuda/point_function_ring.hpp"
#include "tessera/cuda/point_function_streaming.hpp"
#include "tessera/cuda/point_function_tiled.hpp"
#include "tessera/cuda/point_params.hpp"
#include "tessera/cuda/policy.hpp"
#include "tessera/cuda/runtime.hpp"
#include "tessera/cuda/strategies.hpp"

namespace tessera::cuda {

namespace detail {

/// The error a point-function launch on `policy` raises when it cannot run, and why. Built
/// only when thrown: apply's path stays free of string work.
inline unsupported_error point_function_refused(const std::string& policy, const std::string& why) {
  return unsupported_error("tessera::apply(" + policy + ", point function): " + why);
}

/// Whether policy P is a variant of strategy S (S's defaults: tiled<>, naive<>).
template <class P, class S>
constexpr bool is_variant_of() {
  if constexpr (requires { typename P::strategy; })
    return std::is_same_v<typename P::strategy, S>;
  else
    return false;
}

template <class P>
struct is_pipelined : std::false_type {};
template <int X, int Y, int R, int S, int C>
struct is_pipelined<pipelined<X, Y, R, S, C>> : std::true_type {
  template <class T, int Rank>
  using point_tile = point_pipelined_tile<T, Rank, X, Y, R, S>;
  static constexpr int chunk = C;
};

/// The marching point-function kernel's tile for streaming, vector_streaming, register_tiled
/// and temporal_blocking policies.
template <class P>
struct marching_point_tile : std::false_type {};
template <int X, int Y, int C>
struct marching_point_tile<streaming<X, Y, C>> : std::true_type {
  template <class T, int Rank>
  using tile = point_streaming_tile<T, Rank, X, Y, C>;
  static constexpr const char* strategy = "streaming";
};
template <int W, int C, int D>
struct marching_point_tile<vector_streaming<W, C, D>> : std::true_type {
  template <class T, int Rank>
  using tile = point_vector_tile<T, Rank, W, C>;
  static constexpr const char* strategy = "vector_streaming";
};
template <int X, int Y, int C>
struct marching_point_tile<register_tiled<X, Y, C>> : std::true_type {
  template <int Rank>
  using policy_tile = typename register_tiled<X, Y, C>::template tile<star<Rank, 1>>;
  template <class T, int Rank>
  using tile = point_column_tile<policy_tile<Rank>::tile_x, policy_tile<Rank>::tile_y, 1,
                                 policy_tile<Rank>::chunk>;
  static constexpr const char* strategy = "register_tiled";
};
template <int S, int X, int Y, int R>
struct marching_point_tile<temporal_blocking<S, X, Y, R>> : std::true_type {
  template <int Rank>
  using policy_tile = typename temporal_blocking<S, X, Y, R>::template tile<star<Rank, 1>>;
  template <class T, int Rank>
  using tile = point_column_tile<policy_tile<Rank>::tile_x, policy_tile<Rank>::tile_y, 1, point_chunk<T>>;
  static constexpr const char* strategy = "temporal_blocking";
};

/// The ring kernel's tile for shared_streaming and coarsened policies.
template <class P>
struct ring_point_tile : std::false_type {};
/// shared_streaming's defaults for point functions (0): 32 x 8 threads x 2 rows in 3D (32 x 4
/// x 2 for 8-byte types: a deep ring of doubles), 128 threads x 2 columns in 2D; loads a step ahead.
template <int X, int Y, int Rows, int C>
struct ring_point_tile<shared_streaming<X, Y, Rows, C>> : std::true_type {
  template <class T, int Rank>
  using tile = point_ring_tile<(X > 0 ? X : Rank == 3 ? 32 : 128), (Rank == 3 ? (Y > 0 ? Y : sizeof(T) >= 8 ? 4 : 8) : 1),
                               (Rows > 0 ? Rows : 2), true, C>;
  static constexpr const char* strategy = "shared_streaming";
};
/// coarsened's tile and chunk (32 x 32 threads, 32 planes in 3D; 256 threads, 32 rows in 2D),
/// one output a thread, loads when needed.
template <int X, int Y, int C>
struct ring_point_tile<coarsened<X, Y, C>> : std::true_type {
  template <int Rank>
  using policy_tile = typename coarsened<X, Y, C>::template tile<star<Rank, 1>>;
  template <class T, int Rank>
  using tile = point_ring_tile<policy_tile<Rank>::tile_x, policy_tile<Rank>::tile_y, 1, false,
                               policy_tile<Rank>::chunk>;
  static constexpr const char* strategy = "coarsened";
};

/// "" when every field pipelined stages (radius > 0) has its rows on 16 bytes; else why not.
template <class F, class T, int Rank, std::size_t NI>
std::string point_rows_on_16_bytes(const input_fields<T, Rank, CudaSpace, NI>& in) {
  std::string why;
  tessera::detail::static_for<static_cast<int>(NI)>([&](auto i) {
    if (why.empty() && F::reach_type::radius[decltype(i)::value] > 0)
      why = rows_on_16_bytes(in[decltype(i)::value], "pipelined copies the rows of every field a point function "
                                                     "reads beyond the point in 16-byte pieces", "cuda::naive");
  });
  return why;
}
}  // namespace detail

#if defined(__CUDACC__)
namespace kernels {

/// One thread per output point: x from threadIdx.x (coalesced rows), y and z from the
/// block's other axes; the function's windows address global memory.
template <class F, class T, int Rank, std::size_t NI, std::size_t NO, int BlockX, int BlockY, int BlockZ>
__global__ void __launch_bounds__(BlockX * BlockY * BlockZ)
    naive_point_sweep(const detail::point_params<F, T, Rank, NI, NO> p) {
  detail::begin_after_previous_grid();  // first: the sweep before may still run
  const index_t x = static_cast<index_t>(blockIdx.x) * BlockX + threadIdx.x;
  const index_t y = Rank >= 2 ? static_cast<index_t>(blockIdx.y) * BlockY + threadIdx.y : 0;
  const index_t z = Rank >= 3 ? static_cast<index_t>(blockIdx.z) * BlockZ + threadIdx.z : 0;
  const index_t idx[3] = {z, y, x};
  // the point on the field's axes (the last Rank of z, y, x)
  for (int a = 0; a < Rank; ++a)
    if (idx[3 - Rank + a] >= p.n[a]) return;
  const T* at[NI];
  for (std::size_t i = 0; i < NI; ++i) {
    index_t o = x;
    for (int a = 0; a + 1 < Rank; ++a) o += idx[3 - Rank + a] * p.in_stride[i][a];
    at[i] = p.in[i] + o;
  }
  const auto r = tessera::detail::call_point_function<T, Rank>(p.fn, at, p.in_stride, std::make_index_sequence<NI>{});
  tessera::detail::static_for<static_cast<int>(NO)>([&](auto j) {
    index_t o = x;
    for (int a = 0; a + 1 < Rank; ++a) o += idx[3 - Rank + a] * p.out_stride[j][a];
    p.out[j][o] = static_cast<T>(tessera::detail::result_at<decltype(j)::value>(r));
  });
}

}  // namespace kernels

namespace detail {

template <class F, class T, int Rank, std::size_t NI, std::size_t NO>
point_params<F, T, Rank, NI, NO> make_point_params(const F& fn, const input_fields<T, Rank, CudaSpace, NI>& in,
                                                   const output_fields<T, Rank, CudaSpace, NO>& out) {
  point_params<F, T, Rank, NI, NO> p{fn, {}, {}, {}, {}, {}};
  for (std::size_t i = 0; i < NI; ++i) {
    const auto a = in[i].accessor();
    p.in[i] = a.origin;
    for (int d = 0; d + 1 < Rank; ++d) p.in_stride[i][d] = a.stride[d];
  }
  for (std::size_t j = 0; j < NO; ++j) {
    const auto b = out[j].accessor();
    p.out[j] = b.origin;
    for (int d = 0; d + 1 < Rank; ++d) p.out_stride[j][d] = b.stride[d];
  }
  const auto& n = in[0].extents();
  for (int d = 0; d < Rank; ++d) p.n[d] = n[d];
  return p;
}

/// Naive is the policy's own tile (naive<X, Y, Z>) or naive<>'s.
template <class Naive, class F, class T, int Rank, std::size_t NI, std::size_t NO>
void naive_point_launch(const std::string& policy, const point_params<F, T, Rank, NI, NO>& p,
                        const input_fields<T, Rank, CudaSpace, NI>& in, cudaStream_t stream) {
  using tile = typename Naive::template tile<star<Rank, 1>>;
  // block axes: x along the last axis, y and z along the ones before it
  launch_plan plan;
  plan.strategy = "naive";
  plan.block[0] = tile::block_x, plan.block[1] = tile::block_y, plan.block[2] = tile::block_z;
  const auto& n = in[0].extents();
  const index_t per_axis[3] = {n[Rank - 1], Rank >= 2 ? n[Rank - 2] : 1, Rank >= 3 ? n[0] : 1};
  const index_t limit[3] = {2147483647, 65535, 65535};
  for (int a = 0; a < 3; ++a) {
    const index_t blocks = (per_axis[a] + plan.block[a] - 1) / plan.block[a];
    if (blocks > limit[a])
      throw point_function_refused(policy, in[0].describe() + " needs " + std::to_string(blocks) +
                                               " blocks along one launch axis, beyond CUDA's " +
                                               std::to_string(limit[a]) + "; split the grid");
    plan.grid[a] = blocks;
  }
  launch_kernel_after_previous(&kernels::naive_point_sweep<F, T, Rank, NI, NO, tile::block_x, tile::block_y, tile::block_z>,
                "naive_point_sweep", policy, "point function", plan,
                dim3(tile::block_x, tile::block_y, tile::block_z), 0, stream, p);
}

/// The marching kernel (streaming's, or vector_streaming's with Tile::vec > 1) over p, or
/// unsupported_error with the reason: a 1D grid, a grid beyond CUDA's limits.
template <class Tile, class F, class T, int Rank, std::size_t NI, std::size_t NO>
void marching_point_launch(const std::string& strategy, const std::string& policy,
                           const point_params<F, T, Rank, NI, NO>& p, const input_fields<T, Rank, CudaSpace, NI>& in,
                           cudaStream_t stream) {
  const auto plan = point_column_plan<Tile>(strategy, in[0].extents(), current_device_limits());
  if (!plan.ok()) throw point_function_refused(policy, plan.reason);
  if constexpr (Rank >= 2)
    launch_kernel_after_previous(
        &kernels::marching_point_sweep<F, T, Rank, NI, NO, Tile::block_x, Tile::block_y, Tile::vec>,
        "marching_point_sweep", policy, "point function", plan,
        dim3(Tile::block_x, Tile::block_y, 1), 0, stream, p, plan.chunk);
}

/// The ring kernel (shared_streaming's or coarsened's tile) over p, or unsupported_error.
template <class Tile, class F, class T, int Rank, std::size_t NI, std::size_t NO>
void ring_point_launch(const std::string& strategy, const std::string& policy,
                       const point_params<F, T, Rank, NI, NO>& p, const input_fields<T, Rank, CudaSpace, NI>& in,
                       cudaStream_t stream) {
  const auto plan = point_ring_plan<F, T, Rank, Tile>(strategy, in[0].extents(), current_device_limits());
  if (!plan.ok()) throw point_function_refused(policy, plan.reason);
  if constexpr (Rank >= 2)
    launch_kernel_after_previous(&kernels::ring_point_sweep<F, T, Rank, NI, NO, Tile::block_x, Tile::block_y, Tile::rows,
                                                            Tile::ahead, point_params<F, T, Rank, NI, NO>>,
                                 "ring_point_sweep", policy, "point function", plan, dim3(Tile::block_x, Tile::block_y, 1),
                                 plan.shared_bytes, stream, p, plan.chunk);
}

/// The tiled kernel on tiled's tile (Tiled::tile) over p, or unsupported_error.
template <class Tiled, class F, class T, int Rank, std::size_t NI, std::size_t NO>
void tiled_point_launch(const std::string& strategy, const std::string& policy,
                        const point_params<F, T, Rank, NI, NO>& p, const input_fields<T, Rank, CudaSpace, NI>& in,
                        cudaStream_t stream) {
  using tile = typename Tiled::template tile<star<Rank, 1>>;
  const auto plan = point_tiled_plan<F, T, Rank, tile>(strategy, in[0].extents(), current_device_limits());
  if (!plan.ok()) throw point_function_refused(policy, plan.reason);
  launch_kernel_after_previous(&kernels::tiled_point_sweep<F, T, Rank, NI, NO, tile::tile_x, tile::tile_y, tile::tile_z,
                                                           point_params<F, T, Rank, NI, NO>>,
                               "tiled_point_sweep", policy, "point function", plan,
                               dim3(tile::tile_x, tile::tile_y, tile::tile_z), plan.shared_bytes, stream, p);
}

template <class Tile, class F, class T, int Rank, std::size_t NI, std::size_t NO>
void pipelined_point_launch(const std::string& policy, const launch_plan& plan,
                            const point_params<F, T, Rank, NI, NO>& p, cudaStream_t stream) {
  launch_kernel_after_previous(&kernels::pipelined_point_sweep<F, T, Rank, NI, NO, Tile::block_x, Tile::block_y, Tile::stages,
                                                point_params<F, T, Rank, NI, NO>>,
                "pipelined_point_sweep", policy, "point function", plan, dim3(Tile::block_x, Tile::block_y, 1),
                plan.shared_bytes, stream, p, plan.chunk);
}

}  // namespace detail
#endif

template <class Policy, point_function_type F, class T, int Rank, std::size_t NI, std::size_t NO>
  requires std::is_base_of_v<device_policy, Policy>
void sweep(const Policy& policy, const F& fn, const input_fields<T, Rank, CudaSpace, NI>& in,
           const output_fields<T, Rank, CudaSpace, NO>& out, cudaStream_t stream = nullptr) {
#if !defined(__CUDACC__)
  static_assert(sizeof(F) == 0,
                "tessera: a point function on CUDA views runs in a kernel instantiated where apply is called; "
                "compile this file with nvcc (a .cu file, or set_source_files_properties(... LANGUAGE CUDA))");
#else
  using result = decltype(tessera::detail::call_point_function<T, Rank>(
      fn, std::declval<const T* const (&)[NI]>(), std::declval<const window_strides<Rank> (&)[NI]>(),
      std::make_index_sequence<NI>{}));
  static_assert(tessera::detail::result_count<std::remove_cvref_t<result>>::value == static_cast<int>(NO),
                "tessera::apply: the point function returns a different number of values than the output views "
                "given (return T for one output, tessera::array<T, M> for outputs(v1, ..., vM))");
  const auto p = detail::make_point_params(fn, in, out);
  if constexpr (detail::is_pipelined<Policy>::value) {
    using tile = typename detail::is_pipelined<Policy>::template point_tile<T, Rank>;
    if (const auto why = detail::point_rows_on_16_bytes<F>(in); !why.empty())
      throw detail::point_function_refused(Policy::name(), why);
    const auto plan = detail::point_pipelined_plan<F, T, Rank, tile>(in[0].extents(), current_device_limits(),
                                                                     detail::is_pipelined<Policy>::chunk);
    if (!plan.ok()) throw detail::point_function_refused(Policy::name(), plan.reason);
    detail::pipelined_point_launch<tile>(Policy::name(), plan, p, stream);
  } else if constexpr (detail::marching_point_tile<Policy>::value) {
    using marching = detail::marching_point_tile<Policy>;
    detail::marching_point_launch<typename marching::template tile<T, Rank>>(marching::strategy, Policy::name(), p,
                                                                             in, stream);
  } else if constexpr (detail::ring_point_tile<Policy>::value && Rank == 1 &&
                       detail::is_variant_of<Policy, coarsened<>>()) {
    // coarsened's 1D stencil kernel coarsens along x; for point functions its 1D block
    // stages its tile like tiled's (one point a thread, TileX threads)
    using tile = typename Policy::template tile<star<1, 1>>;
    detail::tiled_point_launch<tiled<tile::tile_x>>("coarsened", Policy::name(), p, in, stream);
  } else if constexpr (detail::ring_point_tile<Policy>::value) {
    using ring = detail::ring_point_tile<Policy>;
    detail::ring_point_launch<typename ring::template tile<T, Rank>>(ring::strategy, Policy::name(), p, in, stream);
  } else if constexpr (detail::is_variant_of<Policy, tiled<>>()) {
    detail::tiled_point_launch<Policy>("tiled", Policy::name(), p, in, stream);
  } else if constexpr (std::is_same_v<Policy, automatic>) {
    // streaming with its defaults in 2D and 3D: the fastest on every point function measured
    // (perf/RESULTS.md, the runs on point functions); naive in 1D, where nothing marches
    using marching = detail::marching_point_tile<streaming<>>;
    if constexpr (Rank >= 2)
      detail::marching_point_launch<typename marching::template tile<T, Rank>>(marching::strategy, Policy::name(), p,
                                                                               in, stream);
    else
      detail::naive_point_launch<naive<>>(Policy::name(), p, in, stream);
  } else {
    static_assert(detail::is_variant_of<Policy, naive<>>(),
                  "tessera: a CUDA policy without a point-function lowering (add one in point_function_sweep.hpp)");
    detail::naive_point_launch<Policy>(Policy::name(), p, in, stream);
  }
#endif
}

}  // namespace tessera::cuda

namespace tessera {
/// What tessera::automatic runs for a point function on CUDA views: cuda::automatic.
template <point_function_type F, class T, int Rank, std::size_t NI, std::size_t NO>
void sweep_automatically(CudaSpace, const F& fn, const input_fields<T, Rank, CudaSpace, NI>& in,
                         const output_fields<T, Rank, CudaSpace, NO>& out) {
  cuda::sweep(cuda::automatic{}, fn, in, out);
}
}  // namespace tessera
