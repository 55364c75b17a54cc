#pragma once
// Point functions (core/point_function.hpp) on CUDA views. The kernels are templates on
// the user's function, so they are instantiated where apply is called: that translation
// unit must be compiled by nvcc (a .cu file, or LANGUAGE CUDA), and a lambda needs
// TESSERA_HD (tessera's CUDA flags turn on --extended-lambda).
//
// Lowered today by cuda::naive (one thread per output point, each field's neighbours
// read from global memory through L1/L2) and cuda::automatic (which picks naive). The
// other strategies refuse point functions at compile time instead of silently running
// naive: their shared-memory and register pipelines take constant coefficients
// (sweep_params' term<K>) and are not yet lowered for fields read through windows.
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "tessera/core/errors.hpp"
#include "tessera/core/fields.hpp"
#include "tessera/core/point_function.hpp"
#include "tessera/cuda/memory_space.hpp"
#include "tessera/cuda/policy.hpp"
#include "tessera/cuda/strategies/naive.hpp"

namespace tessera::cuda {

namespace detail {
template <class P>
inline constexpr bool runs_point_functions = std::is_same_v<P, automatic>;
template <int X, int Y, int Z>
inline constexpr bool runs_point_functions<naive<X, Y, Z>> = true;

/// Everything a point-function kernel reads, by value: each field's origin (interior
/// point 0) and strides, the interior extents, the function.
template <class F, class T, int Rank, std::size_t NI, std::size_t NO>
struct point_params {
  F fn;
  const T* in[NI];
  window_strides<Rank> in_stride[NI];
  T* out[NO];
  window_strides<Rank> out_stride[NO];
  index_t n[Rank];
};
}  // namespace detail

/// True for the CUDA policies that run point functions (naive, automatic).
template <class P>
inline constexpr bool runs_point_functions_v = detail::runs_point_functions<P>;

#if defined(__CUDACC__)
namespace kernels {

/// One thread per output point: x from threadIdx.x (coalesced rows), y and z from the
/// block's other axes; the function's windows address global memory.
template <class F, class T, int Rank, std::size_t NI, std::size_t NO, int BlockX, int BlockY, int BlockZ>
__global__ void __launch_bounds__(BlockX * BlockY * BlockZ)
    naive_point_sweep(const detail::point_params<F, T, Rank, NI, NO> p) {
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
#endif

template <class Policy, point_function_type F, class T, int Rank, std::size_t NI, std::size_t NO>
  requires std::is_base_of_v<device_policy, Policy>
void sweep(const Policy& policy, const F& fn, const input_fields<T, Rank, CudaSpace, NI>& in,
           const output_fields<T, Rank, CudaSpace, NO>& out, cudaStream_t stream = nullptr) {
  static_assert(detail::runs_point_functions<Policy>,
                "tessera: this CUDA strategy does not run point functions yet (its kernels take constant "
                "coefficients); use cuda::naive or cuda::automatic for point functions");
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
  using tile = typename naive<>::template tile<star<Rank, 1>>;
  detail::point_params<F, T, Rank, NI, NO> p{fn, {}, {}, {}, {}, {}};
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
  // block axes: x along the last axis, y and z along the ones before it
  launch_plan plan;
  plan.strategy = "naive";
  plan.block[0] = tile::block_x, plan.block[1] = tile::block_y, plan.block[2] = tile::block_z;
  const index_t per_axis[3] = {n[Rank - 1], Rank >= 2 ? n[Rank - 2] : 1, Rank >= 3 ? n[0] : 1};
  const index_t limit[3] = {2147483647, 65535, 65535};
  for (int a = 0; a < 3; ++a) {
    const index_t blocks = (per_axis[a] + plan.block[a] - 1) / plan.block[a];
    if (blocks > limit[a])
      throw unsupported_error("tessera::apply(" + Policy::name() + ", point function): " + in[0].describe() +
                              " needs " + std::to_string(blocks) + " blocks along one launch axis, beyond CUDA's " +
                              std::to_string(limit[a]) + "; split the grid");
    plan.grid[a] = blocks;
  }
  detail::launch_kernel(
      &kernels::naive_point_sweep<F, T, Rank, NI, NO, tile::block_x, tile::block_y, tile::block_z>,
      "naive_point_sweep", policy.name(), "point function", plan,
      dim3(tile::block_x, tile::block_y, tile::block_z), 0, stream, p);
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
