#pragma once
// cuda::register_tiled: as coarsened, but only the current plane is in shared memory
// (where the in-plane neighbours are read); the z-neighbours (2D: y-neighbours) of each
// thread's column live in its registers — reach_hi - reach_lo + 1 values, shifted one
// step per plane. Shared memory drops from (2r + 1) planes to one, so larger tiles and
// more blocks fit. Serves shapes whose off-plane points all lie on the marching axis.
#include "tessera/cuda/point_function_streaming.hpp"
#include "tessera/cuda/strategies/coarsened.hpp"

namespace tessera::cuda {

/// Register tiling: as coarsened, but only the current z-plane (2D: row) is in shared
/// memory; each thread keeps its own column of z-neighbours in registers. Serves shapes
/// whose off-plane points all lie on the z axis (stars, not boxes); rank >= 2. Tiles and
/// defaults as coarsened.
template <int TileX = 0, int TileY = 0, int Chunk = 0>
struct register_tiled : device_policy {
  static std::string name() { return "cuda:register-tiled"; }
  using strategy = register_tiled<>;
  static constexpr bool automatic_candidate = false;

  template <class S>
  using tile = typename coarsened<TileX, TileY, Chunk>::template tile<S>;

  /// Only shapes of rank 2 and 3 whose off-plane points lie on the marching axis.
  /// Point functions: a window is a pointer, which registers cannot serve, so each
  /// thread marches its column with the planes it read in L1, on this tile and chunk.
  template <class T, int Rank>
  using point_mainloop =
      detail::marching_points<register_tiled<>, detail::point_column_tile<tile<star<Rank, 1>>::tile_x,
                                                                          tile<star<Rank, 1>>::tile_y, 1,
                                                                          tile<star<Rank, 1>>::chunk>>;

  template <class S>
  static constexpr bool has_kernel = S::rank >= 2 && shape_traits<S>::slow_axis_neighbours_on_axis;

  template <class S, class T>
  static launch_plan plan(const extents<S::rank>& e, const device_limits& lim) {
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
                 "-neighbours on the marching axis in registers (offsets (d, 0" + (S::rank == 3 ? ", 0" : "") +
                 ")), but " + shape_name<S>() +
                 " has points off both that axis and the centre plane (a box or skewed shape "
                 "needs whole neighbour planes): use cuda::coarsened, which keeps those planes "
                 "in shared memory";
      return p;
    } else {
      return detail::plan_marching<S, T, tile<S>>("register_tiled", e, 1, lim);
    }
  }

  template <class S, class T, class Tile>
  static void launch(const launch_plan& plan, const params_for<S, T>& p, cudaStream_t stream);
};

}  // namespace tessera::cuda

#if defined(__CUDACC__)
#include "tessera/cuda/kernels/marching.cuh"

namespace tessera::cuda {
namespace kernels {

/// S: the shape; T: the element type; TileX x TileY: the xy input tile (halo included) and
/// the block; Chunk: output planes the block marches.
template <class S, class T, int TileX, int TileY, int Chunk>
__global__ void __launch_bounds__(TileX * TileY) register_tiled_sweep(const params_for<S, T> p) {
  detail::begin_after_previous_grid();  // first: the sweep before may still run
  static_assert(shape_traits<S>::slow_axis_neighbours_on_axis && S::rank >= 2,
                "register_tiled_sweep: the shape's off-plane points must lie on the marching axis");
  using vs = detail::vshape<S>;
  using mg = marching<S>;
  constexpr int march = mg::march, planes = mg::planes;
  __shared__ T plane[TileY][TileX];
  const column c = locate_column<S, TileX, TileY, Chunk>(p);
  const int tx = c.tx, ty = c.ty;
  const index_t m0 = c.m0, m_end = c.m_end, in_plane = c.in_plane, ms_in = c.ms_in;
  const bool plane_ok = c.loads;

  // window[j] holds plane m + lo + j of this thread's (y, x); window[-lo] is the centre.
  T window[planes];
#pragma unroll
  for (int q = 0; q < planes - 1; ++q)
    window[q] = plane_ok ? p.in[(m0 + vs::lo(march) + q) * ms_in + in_plane] : T(0);

  for (index_t m = m0; m < m_end; ++m) {
    window[planes - 1] = plane_ok ? p.in[(m + vs::hi(march)) * ms_in + in_plane] : T(0);
    plane[ty][tx] = window[-vs::lo(march)];
    __syncthreads();
    if (c.computes) {
      T acc = 0;
      tessera::detail::static_for<vs::size>([&](auto k) {
        constexpr int K = decltype(k)::value;
        if constexpr (mg::dm(K) == 0)
          acc += p.template term<K>(plane[ty + mg::dy(K)][tx + mg::dx(K)]);
        else
          acc += p.template term<K>(window[mg::dm(K) - vs::lo(march)]);
      });
      p.out[m * c.ms_out + c.out_plane] = acc;
    }
    __syncthreads();  // the next step overwrites the plane
#pragma unroll
    for (int q = 0; q < planes - 1; ++q) window[q] = window[q + 1];
  }
}

}  // namespace kernels

template <int TileX, int TileY, int Chunk>
template <class S, class T, class Tile>
void register_tiled<TileX, TileY, Chunk>::launch(const launch_plan& plan, const params_for<S, T>& p,
                                                 cudaStream_t stream) {
  detail::launch_kernel_after_previous(&kernels::register_tiled_sweep<S, T, Tile::tile_x, Tile::tile_y, Tile::chunk>,
                        "register_tiled_sweep", name(), shape_name<S>(), plan, dim3(Tile::tile_x, Tile::tile_y, 1),
                        0, stream, p);
}

}  // namespace tessera::cuda
#endif
