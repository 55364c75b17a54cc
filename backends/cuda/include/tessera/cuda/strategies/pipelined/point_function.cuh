#pragma once
// pipelined's point-function kernel and its sweep_points (nvcc only): every field's planes
// in cp.async rings, Stages planes in flight (point_function.hpp).
#include "tessera/cuda/strategies/pipelined/point_function.hpp"
#include "tessera/cuda/kernels/async_copy.cuh"
#include "tessera/cuda/kernels/common.cuh"

namespace tessera::cuda::kernels {

/// The pipelined point-function kernel (the top of point_function.hpp says how it works). P: point_params.
/// One output a thread in 512-thread blocks asks for two resident blocks an SM (at most 64
/// registers a thread): left alone, ptxas gave div_k_grad's blocks 76 registers, one block
/// an SM. With several rows a thread the registers hold the rows' shared reads.
template <class F, class T, int Rank, std::size_t NI, std::size_t NO, int BlockX, int BlockY, int Rows, int Stages,
          class P>
__global__ void __launch_bounds__(BlockX * BlockY, BlockX * BlockY == 512 && Rows == 1 ? 2 : 1)
    pipelined_point_sweep(const P p, const int chunk) {
  detail::begin_after_previous_grid();  // first: the sweep before may still run
  using reach_type = typename F::reach_type;
  using geometry = detail::point_ring_geometry<Rank, BlockX, BlockY, Rows>;
  using rings = detail::point_rings<F, T, Rank, BlockX, BlockY, Rows, Stages>;
  constexpr bool has_y = Rank == 3;
  constexpr int threads = BlockX * BlockY, rmax = reach_type::max, ni = static_cast<int>(NI), no = static_cast<int>(NO);
  extern __shared__ __align__(16) unsigned char tessera_point_shared[];
  T* shared = reinterpret_cast<T*>(tessera_point_shared);

  const int tx = threadIdx.x, ty = has_y ? threadIdx.y : 0, me = ty * BlockX + tx;
  const index_t x0 = static_cast<index_t>(blockIdx.x) * geometry::tile_w;
  const index_t y0 = has_y ? static_cast<index_t>(blockIdx.y) * geometry::tile_h : 0;
  const index_t m0 = static_cast<index_t>(has_y ? blockIdx.z : blockIdx.y) * chunk;
  const int steps = static_cast<int>(min(static_cast<index_t>(chunk), p.n[0] - m0));
  const index_t nx = p.n[Rank - 1], ny = has_y ? p.n[1] : 1;
  // offset of row y within a plane of a field with strides s (0 in 2D: a plane is a row)
  const auto row_offset = [](const window_strides<Rank>& s, index_t y) -> index_t {
    if constexpr (has_y)
      return y * s[1];
    else
      return 0;
  };
  // for every staged field (radius > 0)
  const auto each_staged = [&](auto&& body) {
    tessera::detail::static_for<ni>([&](auto fi) {
      if constexpr (reach_type::radius[decltype(fi)::value] > 0) body(fi);
    });
  };

  // The 16-byte pieces this thread copies of each staged field's planes, computed once: piece
  // q (j-th of the thread's, q = me + j threads) covers ring row q / pieces_per_row, elements
  // (q % pieces_per_row) vec .. + vec - 1 of it; its source offset within the field's plane
  // (32-bit: the plan refuses larger planes); whether it holds an element within the field's
  // reach (else it is zero-filled, reading nothing).
  constexpr int table = rings::pieces > 0 ? rings::pieces : 1;
  int piece_src[table], piece_dst[table];
  bool piece_mine[table], piece_read[table];
  each_staged([&](auto fi) {
    constexpr int I = decltype(fi)::value, R = reach_type::radius[I], base = rings::template piece<I>();
    using ring = typename rings::template ring<I>;
#pragma unroll
    for (int j = 0; j < ring::per_thread; ++j) {
      const int q = me + j * threads;
      const int row = q / ring::pieces_per_row, col = q % ring::pieces_per_row * ring::vec;
      const index_t py = has_y ? y0 + row - R : 0, px = x0 + col - ring::pad_x;
      piece_mine[base + j] = q < ring::pieces;
      piece_read[base + j] = (!has_y || py < ny + R) && px < nx + R && px + ring::vec > -R;
      piece_src[base + j] = static_cast<int>(row_offset(p.in_stride[I], py) + px);
      piece_dst[base + j] = row * ring::ring_w + col;
    }
  });
  // Group t carries, for each field of radius R, its plane rel = t - 2 rmax + 2R of the
  // chunk (plane m0 - R + rel): the planes step i needs arrive with groups <= i + 2 rmax.
  const auto issue = [&](int t) {
    each_staged([&](auto fi) {
      constexpr int I = decltype(fi)::value, R = reach_type::radius[I], base = rings::template piece<I>();
      using ring = typename rings::template ring<I>;
      const int rel = t - 2 * rmax + 2 * R;
      if (rel >= 0 && rel < steps + 2 * R) {
        const T* src = p.in[I] + (m0 - R + rel) * p.in_stride[I][0];
        T* dst = shared + rings::template offset<I>() + rel % ring::slots * ring::plane;
#pragma unroll
        for (int j = 0; j < ring::per_thread; ++j)
          if (piece_mine[base + j])  // a zero-filled piece reads nothing; its address is the field's origin
            async_copy::copy16(dst + piece_dst[base + j], piece_read[base + j] ? src + piece_src[base + j] : p.in[I],
                               piece_read[base + j]);
      }
    });
    async_copy::commit();
  };
  // This thread's pieces of field I's plane rel, copied behind the ring where its slot is
  // one of the first 2R (called after this thread's copies of it landed).
  const auto duplicate = [&](auto fi, int rel) {
    constexpr int I = decltype(fi)::value, R = reach_type::radius[I], base = rings::template piece<I>();
    using ring = typename rings::template ring<I>;
    const int slot = rel % ring::slots;
    if (slot >= 2 * R || rel >= steps + 2 * R) return;
    T* from = shared + rings::template offset<I>() + slot * ring::plane;
    T* to = from + ring::slots * ring::plane;
#pragma unroll
    for (int j = 0; j < ring::per_thread; ++j)
      if (piece_mine[base + j])
        *reinterpret_cast<int4*>(to + piece_dst[base + j]) = *reinterpret_cast<const int4*>(from + piece_dst[base + j]);
  };

  // This thread's outputs: 3D rows ty Rows + r of column tx, 2D columns tx + r BlockX.
  const auto local_x = [&](int r) { return has_y ? tx : tx + r * BlockX; };
  const auto local_y = [&](int r) { return has_y ? ty * Rows + r : 0; };

  for (int t = 0; t < 2 * rmax + Stages; ++t) issue(t);

  int first_slot[NI] = {};  // slot of the window's lowest plane (rel = i) per field
  for (int i = 0; i < steps; ++i) {
    async_copy::wait_pending<Stages - 1>();
    each_staged([&](auto fi) {
      constexpr int R = reach_type::radius[decltype(fi)::value];
      if (i == 0)
        for (int rel = 0; rel < 2 * R; ++rel) duplicate(fi, rel);
      duplicate(fi, i + 2 * R);
    });
    __syncthreads();
    issue(i + 2 * rmax + Stages);  // refills the slots step i - 1 read last

    // Every row's function first, then the stores: a store through an output pointer could
    // alias shared memory as far as the compiler knows, and would stop it reusing the
    // shared reads that neighbouring rows have in common.
    const index_t m = m0 + i;
    T value[NO][Rows];
#pragma unroll
    for (int r = 0; r < Rows; ++r) {
      const index_t gx = x0 + local_x(r), gy = y0 + local_y(r);
      const bool inside = gx < nx && gy < ny;
      const T* at[NI];
      window_strides<Rank> stride[NI];
      tessera::detail::static_for<ni>([&](auto fi) {
        constexpr int I = decltype(fi)::value, R = reach_type::radius[I];
        using ring = typename rings::template ring<I>;
        if constexpr (R > 0) {
          at[I] = shared + rings::template offset<I>() + (first_slot[I] + R) * ring::plane +
                  (has_y ? (local_y(r) + R) * ring::ring_w : 0) + local_x(r) + ring::pad_x;
          stride[I][0] = ring::plane;
          if constexpr (has_y) stride[I][1] = ring::ring_w;
        } else {  // read at the point in global memory; a point outside the grid reads the field's origin
          at[I] = inside ? p.in[I] + m * p.in_stride[I][0] + row_offset(p.in_stride[I], gy) + gx : p.in[I];
          stride[I] = p.in_stride[I];
        }
      });
      const auto result = tessera::detail::call_point_function<T, Rank>(p.fn, at, stride, std::make_index_sequence<NI>{});
      tessera::detail::static_for<no>([&](auto j) {
        value[decltype(j)::value][r] = static_cast<T>(tessera::detail::result_at<decltype(j)::value>(result));
      });
    }
#pragma unroll
    for (int r = 0; r < Rows; ++r) {
      const index_t gx = x0 + local_x(r), gy = y0 + local_y(r);
      if (gx < nx && gy < ny)
        tessera::detail::static_for<no>([&](auto j) {
          const index_t o = m * p.out_stride[j][0] + row_offset(p.out_stride[j], gy) + gx;
          __stcs(p.out[j] + o, value[decltype(j)::value][r]);  // evict-first: L2 keeps the inputs' halo
        });
    }
    each_staged([&](auto fi) {
      using ring = typename rings::template ring<decltype(fi)::value>;
      constexpr int I = decltype(fi)::value;
      first_slot[I] = first_slot[I] + 1 == ring::slots ? 0 : first_slot[I] + 1;
    });
  }
  async_copy::wait_pending<0>();  // the outstanding groups are empty; none outlives the block
}

}  // namespace tessera::cuda::kernels

namespace tessera::cuda::detail {

/// The pipelined mainloop's kernel on Tile (a point_pipelined_tile, resolved for F) for
/// argument type point_params<F, T, Rank, NI, NO>.
template <class Arguments, class F, class T, int Rank, std::size_t NI, std::size_t NO,
          class Tile = pipelined_tile_for<Arguments, F>>
inline constexpr auto pipelined_point_kernel =
    &kernels::pipelined_point_sweep<F, T, Rank, NI, NO, Tile::block_x, Tile::block_y, Tile::rows, Tile::stages,
                                    point_params<F, T, Rank, NI, NO>>;

/// The pipelined mainloop's launch on `plan`, for a point function's argument or a stencil's
/// (as_point_params); `policy` and `what` (the shape, or "point function") name it.
template <class Tile, int Chunk, class F, class T, int Rank, std::size_t NI, std::size_t NO>
void launch_points(pipelined_points<Tile, Chunk>, const std::string& policy, const std::string& what,
                   const launch_plan& plan, const point_params<F, T, Rank, NI, NO>& p, cudaStream_t stream) {
  using tile = pipelined_tile_for<Tile, F>;
  launch_kernel_after_previous(pipelined_point_kernel<Tile, F, T, Rank, NI, NO>, "pipelined_point_sweep", policy, what,
                               plan, dim3(tile::block_x, tile::block_y, 1), plan.shared_bytes, stream, p, plan.chunk);
}

template <class Tile, int Chunk, class F, class T, int Rank, std::size_t NI, std::size_t NO>
void sweep_points(pipelined_points<Tile, Chunk>, const std::string& policy, const point_params<F, T, Rank, NI, NO>& p,
                  const input_fields<T, Rank, CudaSpace, NI>& in, cudaStream_t stream) {
  if (const auto why = point_rows_on_16_bytes<F>(in); !why.empty()) throw point_function_refused(policy, why);
  constexpr auto kernel = pipelined_point_kernel<Tile, F, T, Rank, NI, NO>;
  const auto plan = with_driver_residency(
      current_device_limits(),
      [&](const device_limits& lim) { return point_pipelined_plan<F, T, Rank, Tile>(in[0].extents(), lim, Chunk); },
      [](const launch_plan& q) { return resident_blocks_per_sm<kernel>(q.threads(), q.shared_bytes); });
  if (!plan.ok()) throw point_function_refused(policy, plan.reason);
  launch_points(pipelined_points<Tile, Chunk>{}, policy, "point function", plan, p, stream);
}

}  // namespace tessera::cuda::detail
