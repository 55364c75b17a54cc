#pragma once
// cuda::pipelined's kernel (nvcc only): shared_streaming's ring filled by cp.async, Stages
// planes in flight while one is computed.
#include "tessera/cuda/strategies/pipelined.hpp"
#include "tessera/cuda/kernels/async_copy.cuh"
#include "tessera/cuda/kernels/common.cuh"
#include "tessera/cuda/stencil_evaluator.hpp"
#include "tessera/cuda/strategies/pipelined/point_function.cuh"

namespace tessera::cuda::kernels {

/// S: the shape; T: the element type; BlockX x BlockY: the block; RowsPerThread: outputs
/// each thread computes per plane; Stages: planes whose copies are in flight while a plane
/// is computed; the planes per block are the `chunk` argument.
template <class S, class T, int BlockX, int BlockY, int RowsPerThread, int Stages>
__global__ void __launch_bounds__(BlockX * BlockY) pipelined_sweep(const params_for<S, T> p, const int chunk) {
  detail::begin_after_previous_grid();  // first: the sweep before may still run
  using L = detail::pipelined_layout<S, T, BlockX, BlockY, RowsPerThread, Stages>;
  using vs = detail::vshape<S>;
  constexpr int march = L::march, march_lo = L::march_lo, reach_planes = L::reach_planes, slots = L::slots,
                vec = L::vec;
  constexpr int ring_w = L::ring_w, plane_size = L::ring_h * L::ring_w, pieces_per_row = L::pieces_per_row;
  constexpr int threads = BlockX * BlockY, pieces_per_thread = (L::pieces + threads - 1) / threads;
  extern __shared__ __align__(16) unsigned char tessera_pipelined_shared[];
  T* ring = reinterpret_cast<T*>(tessera_pipelined_shared);  // [slots][ring_h][ring_w]

  const int tx = threadIdx.x, ty = L::has_y ? threadIdx.y : 0, me = ty * BlockX + tx;
  const index_t x0 = static_cast<index_t>(blockIdx.x) * L::tile_w;
  const index_t y0 = L::has_y ? static_cast<index_t>(blockIdx.y) * L::tile_h : 0;
  const index_t m0 = static_cast<index_t>(L::has_y ? blockIdx.z : blockIdx.y) * chunk;
  const int steps = static_cast<int>(min(static_cast<index_t>(chunk), p.n[march] - m0));
  const index_t ms = p.in_stride[march], oms = p.out_stride[march];
  const index_t ys = L::has_y ? p.in_stride[1] : 0, oys = L::has_y ? p.out_stride[1] : 0;
  const index_t nx = p.n[2], ny = L::has_y ? p.n[1] : 1;

  // The 16-byte pieces this thread copies per plane: piece q covers ring row q / pieces_per_row,
  // elements (q % pieces_per_row) * vec .. + vec - 1 of it. Where the layout rounds the x-halo out to
  // lines, ring rows are whole 128-byte lines (the interior of a row starts on one), so
  // each warp copies four whole lines. In-plane offsets are 32-bit (the plan refuses
  // larger planes).
  int piece_src[pieces_per_thread], piece_dst[pieces_per_thread];
  bool piece_mine[pieces_per_thread], piece_read[pieces_per_thread];
#pragma unroll
  for (int j = 0; j < pieces_per_thread; ++j) {
    const int q = me + j * threads;
    const int row = q / pieces_per_row, col = q % pieces_per_row * vec;
    const index_t gy = y0 + row - L::halo_y_lo, gx = x0 + col - L::pad_x_lo;
    piece_mine[j] = q < L::pieces;
    // Copied only if it holds an element within the shape's reach: the rest of a halo
    // line may lie outside the row (a layout with a 16-byte row alignment).
    piece_read[j] = gy < ny + L::halo_y_hi && gx < nx + L::halo_x_hi && gx + vec > -L::halo_x_lo;
    piece_src[j] = static_cast<int>(gy * ys + gx);
    piece_dst[j] = row * ring_w + col;
  }
  // Plane rel (= m0 + march_lo + rel) goes to slot rel % slots; planes past the chunk's reach are
  // not copied, but their (empty) commit group is.
  const int planes = steps + reach_planes - 1;
  auto issue = [&](int rel) {
    if (rel < planes) {
      const T* src = p.in + (m0 + march_lo + rel) * ms;
      T* dst = ring + rel % slots * plane_size;
#pragma unroll
      for (int j = 0; j < pieces_per_thread; ++j)
        if (piece_mine[j])  // a zero-filled piece reads nothing; its address is the grid's origin
          async_copy::copy16(dst + piece_dst[j], piece_read[j] ? src + piece_src[j] : p.in, piece_read[j]);
    }
    async_copy::commit();
  };

  // This thread's outputs: ring index within a plane, output offset, written or not.
  int at[RowsPerThread], out_off[RowsPerThread];
  bool writes[RowsPerThread];
#pragma unroll
  for (int r = 0; r < RowsPerThread; ++r) {
    const int cy = L::has_y ? ty * RowsPerThread + r : 0, cx = L::has_y ? tx : tx + r * BlockX;
    at[r] = (cy + L::halo_y_lo) * ring_w + cx + L::pad_x_lo;
    const index_t gy = y0 + cy, gx = x0 + cx;
    out_off[r] = static_cast<int>(gy * oys + gx);
    writes[r] = gx < nx && gy < ny;
  }

#pragma unroll
  for (int rel = 0; rel < reach_planes + Stages - 1; ++rel) issue(rel);

  int slot0 = 0;  // slot of plane m + march_lo, i.e. of rel = i
  for (int i = 0; i < steps; ++i) {
    async_copy::wait_pending<Stages - 1>();
    __syncthreads();
    issue(i + reach_planes + Stages - 1);  // refills slot (i - 1) % slots: read for the last time in step i - 1

    // Slot of plane m + d, d = march_lo .. march_hi.
    int slot[reach_planes];
#pragma unroll
    for (int d = 0; d < reach_planes; ++d) slot[d] = (slot0 + d < slots ? slot0 + d : slot0 + d - slots) * plane_size;
    // All reads before any store: a store through the output pointer could alias shared
    // memory as far as the compiler knows, and would stop it reusing rows across r.
    T acc[RowsPerThread];
#pragma unroll
    for (int r = 0; r < RowsPerThread; ++r) acc[r] = 0;
    tessera::detail::static_for<vs::size>([&](auto k) {
      constexpr int K = decltype(k)::value;
      constexpr int dm = vs::off(K, march), dy = L::has_y ? vs::off(K, 1) : 0, dx = vs::off(K, 2);
      const T* plane = ring + slot[dm - march_lo] + dy * ring_w + dx;
#pragma unroll
      for (int r = 0; r < RowsPerThread; ++r) acc[r] += p.template term<K>(plane[at[r]]);
    });
    const index_t m = m0 + i;
#pragma unroll
    for (int r = 0; r < RowsPerThread; ++r)
      if (writes[r]) __stcs(p.out + m * oms + out_off[r], acc[r]);  // evict-first: L2 keeps the inputs' halo
    slot0 = slot0 + 1 == slots ? 0 : slot0 + 1;
  }
  // The groups still outstanding are empty (past the chunk's reach); wait anyway, so no
  // copy can outlive the block whatever the geometry.
  async_copy::wait_pending<0>();
}

}  // namespace tessera::cuda::kernels

namespace tessera::cuda {

template <class S, class T, class Tile>
void launch_sweep(pipelined<>, sweep_of<S, T, Tile>, const launch_plan& plan, const params_for<S, T>& p,
                  cudaStream_t stream) {
  if constexpr (detail::pipelined_stencil_on_mainloop<S, T>) {  // the mainloop, the stencil as its evaluator
    detail::launch_points(detail::pipelined_points<typename Tile::template points<T, S::rank>, 0>{}, pipelined<>::name(),
                          shape_name<S>(), plan, detail::as_point_params<S>(p), stream);
  } else {
    detail::launch_kernel_after_previous(
        &kernels::pipelined_sweep<S, T, Tile::block_x, Tile::block_y, Tile::rows_per_thread, Tile::stages>,
        "pipelined_sweep", pipelined<>::name(), shape_name<S>(), plan, dim3(Tile::block_x, Tile::block_y, 1),
        plan.shared_bytes, stream, p, plan.chunk);
  }
}

}  // namespace tessera::cuda
