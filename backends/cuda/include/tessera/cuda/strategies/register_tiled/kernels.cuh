#pragma once
// cuda::register_tiled's kernel (nvcc only): the current plane in shared memory, the planes
// before and after it in each thread's registers.
#include "tessera/cuda/strategies/register_tiled.hpp"
#include "tessera/cuda/kernels/arrival_barrier.cuh"
#include "tessera/cuda/kernels/marching.cuh"
#include "tessera/cuda/point_function_streaming.cuh"

namespace tessera::cuda::detail {
/// Loads N vectors of V values from `row` (aligned to V values) into v: one shared-memory
/// load of up to 16 bytes each.
template <int V, int N, class T>
__device__ __forceinline__ void load_vectors(T (&v)[N * V], const T* row) {
  struct alignas(V * sizeof(T)) vector {
    T value[V];
  };
#pragma unroll
  for (int d = 0; d < N; ++d) {
    const vector w = reinterpret_cast<const vector*>(row)[d];
#pragma unroll
    for (int e = 0; e < V; ++e) v[d * V + e] = w.value[e];
  }
}
}  // namespace tessera::cuda::detail

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
/// (TileX / Cols) x (TileY / Rows) threads computes a TileX x TileY tile of outputs of
/// `chunk` planes, each thread Rows rows of Cols neighbouring columns (both from
/// detail::register_box_layout, as are the buffers' shape). acc[j][r * Cols + c]
/// is the partial sum of the output at row r, column c of plane zi - hz + j while input
/// plane zi is added: the plane adds each point (dz, dy, dx) of the shape to slot hz - dz,
/// slot 0 is then complete and stored, and the slots move on by one.
///
/// Input planes arrive in shared memory with their halo, in a ring of four buffers: a
/// thread stores its share of plane i + 1 (loaded into registers while plane i - 1 was
/// computed) at the start of iteration i, arrives on that buffer's barrier, starts the
/// loads of plane i + 2, then waits for plane i's barrier, whose arrivals came an
/// iteration earlier. A warp that finishes a plane early starts the next instead of idling
/// at a block-wide barrier. Buffer (i + 1) % 4 last held plane i - 3, which every thread
/// finished before it stored plane i - 1, which this thread waited for in iteration i - 1.
/// A thread reads the Cols + x-reach values of a row as vectors of up to 16 bytes (the
/// buffer's rows are padded to a multiple of a vector).
template <class S, class T, int TileX, int TileY>
__global__ void __launch_bounds__((TileX / detail::register_box_layout<S, T>::cols) *
                                  (TileY / detail::register_box_layout<S, T>::rows))
    register_tiled_box_sweep(const params_for<S, T> p, const int chunk) {
  using layout = detail::register_box_layout<S, T>;
  constexpr int Rows = layout::rows, Cols = layout::cols;
  detail::begin_after_previous_grid();  // first: the sweep before may still run
  static_assert(S::rank == 3 && TileY % Rows == 0 && TileX % Cols == 0,
                "register_tiled_box_sweep: 3D shapes, Rows dividing TileY and Cols dividing TileX");
  using vs = detail::vshape<S>;
  constexpr int lz = -vs::lo(0), hz = vs::hi(0), W = lz + hz + 1;
  constexpr int ly = -vs::lo(1), hy = vs::hi(1), lx = -vs::lo(2), hx = vs::hi(2);
  constexpr int V = layout::vector, pitch = layout::pitch(TileX), in_x = TileX + lx + hx, in_y = TileY + ly + hy;
  constexpr int in_cells = in_x * in_y, buffer = layout::buffer_elements(TileX, TileY), buffers = layout::buffers;
  constexpr int threads = (TileX / Cols) * (TileY / Rows);
  static_assert(threads <= 1024 && detail::register_box_shared_bytes<S, T>(TileX, TileY) <= 48 * 1024,
                "cuda::register_tiled on a 3D box: the tile needs more than 1024 threads a block or more than "
                "48 KiB of static shared memory for its input planes; use a smaller TileX x TileY");
  constexpr int share = (in_cells + threads - 1) / threads;  // input cells a thread loads a plane
  constexpr int span = (Cols + lx + hx + V - 1) / V;          // vectors a thread reads a row
  __shared__ __align__(16) T plane[buffers][buffer];
  __shared__ unsigned long long ready[buffers];

  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * (TileX / Cols) + tx;
  const index_t nz = p.n[0], ny = p.n[1], nx = p.n[2];
  const index_t x0 = static_cast<index_t>(blockIdx.x) * TileX, y0 = static_cast<index_t>(blockIdx.y) * TileY;
  const index_t z0 = static_cast<index_t>(blockIdx.z) * chunk, z_end = min(z0 + static_cast<index_t>(chunk), nz);
  const index_t sz = p.in_stride[0], sy = p.in_stride[1];

  // This thread's share of a plane: cell tid + k * threads of the input tile (row-major,
  // in_x a row), at in-plane offset at[k] from the tile's corner (x0 - lx, y0 - ly) and at
  // to[k] in a buffer (plane_too_large keeps the offsets in 32 bits). A cell past the
  // input's reach, which only outputs beyond the grid read, loads the nearest cell inside
  // it instead: any value serves there, and no load needs a predicate.
  int at[share], to[share];
  const int last_row = static_cast<int>(ny + hy - 1 - (y0 - ly)), last_col = static_cast<int>(nx + hx - 1 - (x0 - lx));
#pragma unroll
  for (int k = 0; k < share; ++k) {
    const int i = min(tid + k * threads, in_cells - 1), row = i / in_x, col = i - row * in_x;
    at[k] = static_cast<int>(min(row, last_row) * sy + min(col, last_col));
    to[k] = row * pitch + col;
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
      if (k + 1 < share || tid + k * threads < in_cells) plane[b][to[k]] = next[k];
    arrival_barrier::arrive(&ready[b]);
  };

  T acc[W][Rows * Cols] = {};  // [slot][r * Cols + c]
  const T none[Rows * Cols] = {};  // what a slot starts from when it enters at the far end

  if (tid == 0)
    for (int b = 0; b < buffers; ++b) arrival_barrier::init(&ready[b], threads);
  __syncthreads();
  const index_t z_first = z0 - lz, z_last = z_end - 1 + hz;
  fetch(z_first);
  publish(0);
  if (z_first < z_last) fetch(z_first + 1);
  const index_t y_first = y0 + ty * Rows, x_first = x0 + tx * Cols;
  T* const out_corner = p.out + y_first * p.out_stride[1] + x_first;
  int i = 0;  // planes done: plane z_first + i is in buffer i % buffers
  for (index_t zi = z_first; zi <= z_last; ++zi, ++i) {
    if (zi < z_last) publish((i + 1) % buffers);
    if (zi + 1 < z_last) fetch(zi + 2);  // in flight while this plane is computed
    arrival_barrier::wait(&ready[i % buffers], static_cast<unsigned>(i / buffers) & 1u);
    // input row ri of this thread's rows: tile row ty * Rows + ri feeds output row
    // ri - ly - dy through a point at dy
    const T* const rows_in = plane[i % buffers] + ty * Rows * pitch + tx * Cols;
    tessera::detail::static_for<Rows + ly + hy>([&](auto ri_) {
      constexpr int ri = decltype(ri_)::value;
      T v[span * V];
      detail::load_vectors<V, span>(v, rows_in + ri * pitch);
      tessera::detail::static_for<vs::size>([&](auto k_) {
        constexpr int K = decltype(k_)::value;
        constexpr int dz = vs::off(K, 0), dy = vs::off(K, 1), dx = vs::off(K, 2);
        constexpr int r = ri - ly - dy;
        if constexpr (r >= 0 && r < Rows) {
#pragma unroll
          for (int c = 0; c < Cols; ++c) acc[hz - dz][r * Cols + c] += p.template term<K>(v[c + dx + lx]);
        }
      });
    });
    const index_t zo = zi - hz;  // the output plane slot 0 now holds complete
    if (zo >= z0) {
      T* const out = out_corner + zo * p.out_stride[0];
#pragma unroll
      for (int r = 0; r < Rows; ++r)
#pragma unroll
        for (int c = 0; c < Cols; ++c)
          if (y_first + r < ny && x_first + c < nx) out[r * p.out_stride[1] + c] = acc[0][r * Cols + c];
    }
    push_row(acc, none);
  }
}

}  // namespace tessera::cuda::kernels

namespace tessera::cuda {

template <class S, class T, class Tile>
void launch_sweep(register_tiled<>, sweep_of<S, T, Tile>, const launch_plan& plan, const params_for<S, T>& p,
                  cudaStream_t stream) {
  if constexpr (detail::register_box_path<S>) {
    using layout = detail::register_box_layout<S, T>;
    detail::launch_kernel_after_previous(
        &kernels::register_tiled_box_sweep<S, T, Tile::tile_x, Tile::tile_y>,
        "register_tiled_box_sweep", register_tiled<>::name(), shape_name<S>(), plan,
        dim3(Tile::tile_x / layout::cols, Tile::tile_y / layout::rows, 1), 0, stream, p, plan.chunk);
  } else {
    detail::launch_kernel_after_previous(&kernels::register_tiled_sweep<S, T, Tile::tile_x, Tile::tile_y, Tile::chunk>,
                                         "register_tiled_sweep", register_tiled<>::name(), shape_name<S>(), plan,
                                         dim3(Tile::tile_x, Tile::tile_y, 1), 0, stream, p);
  }
}

}  // namespace tessera::cuda
