#pragma once
// cuda::register_tiled's kernel (nvcc only): the current plane in shared memory, the planes
// before and after it in each thread's registers.
#include "tessera/cuda/strategies/register_tiled.hpp"
#include "tessera/cuda/kernels/marching.cuh"
#include "tessera/cuda/point_function_streaming.cuh"

namespace tessera::cuda::kernels {

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

/// The register tile of outputs (3D shapes with points on other planes): a block of
/// TileX x (TileY / Rows) threads computes a TileX x TileY tile of outputs of `chunk`
/// planes, each thread Rows rows of one column. Input planes arrive in shared memory with
/// their halo (two buffers: a thread's share of the next plane is loaded into registers
/// while the current one is computed, then stored into the other buffer, one barrier a
/// plane). acc[j][r] is the partial sum of output row r of plane zi - hz + j while input
/// plane zi is added: the plane adds each point (dz, dy, dx) of the shape to slot hz - dz,
/// slot 0 is then complete and stored, and the slots move on by one.
template <class S, class T, int TileX, int TileY, int Rows>
__global__ void __launch_bounds__(TileX * (TileY / Rows))
    register_tiled_box_sweep(const params_for<S, T> p, const int chunk) {
  detail::begin_after_previous_grid();  // first: the sweep before may still run
  static_assert(S::rank == 3 && TileY % Rows == 0, "register_tiled_box_sweep: 3D shapes, Rows dividing TileY");
  using vs = detail::vshape<S>;
  constexpr int lz = -vs::lo(0), hz = vs::hi(0), W = lz + hz + 1;
  constexpr int ly = -vs::lo(1), hy = vs::hi(1), lx = -vs::lo(2), hx = vs::hi(2);
  constexpr int in_x = TileX + lx + hx, in_y = TileY + ly + hy, in_cells = in_x * in_y;
  constexpr int threads = TileX * (TileY / Rows);
  static_assert(threads <= 1024 && detail::register_box_shared_bytes<S, T>(TileX, TileY) <= 48 * 1024,
                "cuda::register_tiled on a 3D box: the tile needs more than 1024 threads a block or more than "
                "48 KiB of static shared memory for its two input planes; use a smaller TileX x TileY");
  constexpr int share = (in_cells + threads - 1) / threads;  // input cells a thread loads a plane
  __shared__ T plane[2][in_cells];

  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TileX + tx;
  const index_t nz = p.n[0], ny = p.n[1], nx = p.n[2];
  const index_t x0 = static_cast<index_t>(blockIdx.x) * TileX, y0 = static_cast<index_t>(blockIdx.y) * TileY;
  const index_t z0 = static_cast<index_t>(blockIdx.z) * chunk, z_end = min(z0 + static_cast<index_t>(chunk), nz);
  const index_t sz = p.in_stride[0], sy = p.in_stride[1];

  // This thread's share of a plane: cell tid + k * threads of the input tile (row-major,
  // in_x a row), at in-plane offset at[k] from the tile's corner (x0 - lx, y0 - ly)
  // (plane_too_large keeps the offsets in 32 bits). A cell past the input's reach, which
  // only outputs beyond the grid read, loads the nearest cell inside it instead: any value
  // serves there, and no load needs a predicate.
  int at[share];
  const int last_row = static_cast<int>(ny + hy - 1 - (y0 - ly)), last_col = static_cast<int>(nx + hx - 1 - (x0 - lx));
#pragma unroll
  for (int k = 0; k < share; ++k) {
    const int i = min(tid + k * threads, in_cells - 1), row = i / in_x, col = i - row * in_x;
    at[k] = static_cast<int>(min(row, last_row) * sy + min(col, last_col));
  }
  const T* const corner = p.in + (y0 - ly) * sy + (x0 - lx);
  T next[share];
  auto fetch = [&](index_t z) {
    const T* const base = corner + z * sz;
#pragma unroll
    for (int k = 0; k < share; ++k) next[k] = __ldg(base + at[k]);
  };
  auto publish = [&](int b) {
#pragma unroll
    for (int k = 0; k < share; ++k)
      if (k + 1 < share || tid + k * threads < in_cells) plane[b][tid + k * threads] = next[k];
  };

  T acc[W][Rows] = {};
  const T none[Rows] = {};  // what a slot starts from when it enters at the far end

  const index_t z_first = z0 - lz, z_last = z_end - 1 + hz;
  fetch(z_first);
  publish(0);
  __syncthreads();
  const index_t y_first = y0 + ty * Rows, x = x0 + tx;
  T* const out_column = p.out + y_first * p.out_stride[1] + x;
  int b = 0;
  for (index_t zi = z_first; zi <= z_last; ++zi) {
    if (zi < z_last) fetch(zi + 1);  // in flight while this plane is computed
    // input row ri of this thread's rows: tile row ty * Rows + ri feeds output row
    // ri - ly - dy through a point at dy
    const T* const rows_in = plane[b] + ty * Rows * in_x + tx;
    tessera::detail::static_for<Rows + ly + hy>([&](auto ri_) {
      constexpr int ri = decltype(ri_)::value;
      T v[lx + hx + 1];
#pragma unroll
      for (int d = 0; d < lx + hx + 1; ++d) v[d] = rows_in[ri * in_x + d];
      tessera::detail::static_for<vs::size>([&](auto k_) {
        constexpr int K = decltype(k_)::value;
        constexpr int dz = vs::off(K, 0), dy = vs::off(K, 1), dx = vs::off(K, 2);
        constexpr int r = ri - ly - dy;
        if constexpr (r >= 0 && r < Rows) acc[hz - dz][r] += p.template term<K>(v[dx + lx]);
      });
    });
    const index_t zo = zi - hz;  // the output plane slot 0 now holds complete
    if (zo >= z0 && x < nx) {
      T* const out = out_column + zo * p.out_stride[0];
#pragma unroll
      for (int r = 0; r < Rows; ++r)
        if (y_first + r < ny) out[r * p.out_stride[1]] = acc[0][r];
    }
    push_row(acc, none);
    if (zi < z_last) publish(b ^ 1);
    __syncthreads();
    b ^= 1;
  }
}

}  // namespace tessera::cuda::kernels

namespace tessera::cuda {

template <class S, class T, class Tile>
void launch_sweep(register_tiled<>, sweep_of<S, T, Tile>, const launch_plan& plan, const params_for<S, T>& p,
                  cudaStream_t stream) {
  if constexpr (detail::register_box_path<S>) {
    constexpr int rows = detail::register_box_rows<T>;
    detail::launch_kernel_after_previous(
        &kernels::register_tiled_box_sweep<S, T, Tile::tile_x, Tile::tile_y, rows>, "register_tiled_box_sweep",
        register_tiled<>::name(), shape_name<S>(), plan, dim3(Tile::tile_x, Tile::tile_y / rows, 1), 0, stream, p,
        plan.chunk);
  } else {
    detail::launch_kernel_after_previous(&kernels::register_tiled_sweep<S, T, Tile::tile_x, Tile::tile_y, Tile::chunk>,
                                         "register_tiled_sweep", register_tiled<>::name(), shape_name<S>(), plan,
                                         dim3(Tile::tile_x, Tile::tile_y, 1), 0, stream, p);
  }
}

}  // namespace tessera::cuda
