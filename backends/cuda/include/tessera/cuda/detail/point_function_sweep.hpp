#pragma once
// Point functions (core/point_function.hpp) on CUDA views. The kernels are templates on
// the user's function, so they are instantiated where apply is called: that translation
// unit must be compiled by nvcc (a .cu file, or LANGUAGE CUDA), and a lambda needs
// TESSERA_HD (tessera's CUDA flags turn on --extended-lambda).
//
// The same few lines serve every CUDA policy, as dispatch.hpp does for stencils: build the
// kernels' argument (the function, each field's origin and strides, the extents) and hand it
// to the policy's point_mainloop. Each strategy's unit says how it lowers a point function
// (cuda/strategy.hpp): on a mainloop it shares with others (tiled_points: a staged tile;
// ring_points: 2.5D rings of planes; marching_points: columns marching through L1) or on
// its own (pipelined's cp.async rings, naive's one thread a point). cuda::automatic
// runs the strategy that claims the function, else its point-function default
// (candidates.hpp).
// The strategies that only march refuse 1D grids by name, as they do for stencils.
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "tessera/core/errors.hpp"
#include "tessera/core/fields.hpp"
#include "tessera/core/point_function.hpp"
#include "tessera/cuda/memory_space.hpp"
#include "tessera/cuda/point_params.hpp"
#include "tessera/cuda/policy.hpp"

namespace tessera::cuda {

#if defined(__CUDACC__)
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

/// Runs F on strategy P where P claims it at this size (automatic_point_claim) and takes the
/// caller's views; false where it does not claim it or refuses (refusals come before anything
/// launches: rows off its alignment, a plan the device cannot hold).
template <class P, class F, class T, int Rank, std::size_t NI, std::size_t NO>
bool sweep_points_if_claimed(std::size_t cells, const std::string& policy, const point_params<F, T, Rank, NI, NO>& p,
                             const input_fields<T, Rank, CudaSpace, NI>& in, cudaStream_t stream) {
  if constexpr (claims_points<P, F, T, Rank>) {
    if (!automatic_point_claim<P, F, T, Rank>(cells)) return false;
    try {
      sweep_points(typename P::template point_mainloop<T, Rank>{}, policy, p, in, stream);
      return true;
    } catch (const unsupported_error&) {  // refused: the next claimant or the point default
    }
  }
  return false;
}

/// cuda::automatic's point functions in 2D and 3D: on the first listed strategy that claims
/// F at the grid's size and takes the caller's views, else on the point default.
template <class F, class T, int Rank, std::size_t NI, std::size_t NO>
void sweep_points(automatic_points, const std::string& policy, const point_params<F, T, Rank, NI, NO>& p,
                  const input_fields<T, Rank, CudaSpace, NI>& in, cudaStream_t stream) {
  const auto cells = static_cast<std::size_t>(in[0].extents().size());
  const bool ran = [&]<class... Ps>(type_list<Ps...>) {
    return (sweep_points_if_claimed<Ps>(cells, policy, p, in, stream) || ...);
  }(strategies{});
  if (!ran)
    sweep_points(typename automatic_point_default_strategy::template point_mainloop<T, Rank>{}, policy, p, in, stream);
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
  static_assert(requires { typename Policy::template point_mainloop<T, Rank>; },
                "tessera: a CUDA policy without a point-function lowering: its unit names its point_mainloop "
                "(cuda/strategy.hpp says what a strategy holds)");
  // the mainloop's sweep_points, found by argument-dependent lookup where its kernels are
  // (the strategy's kernels.cuh includes them)
  sweep_points(typename Policy::template point_mainloop<T, Rank>{}, Policy::name(), p, in, stream);
#endif
}

}  // namespace tessera::cuda

namespace tessera {
/// What tessera::automatic runs for a point function on CUDA views: cuda::automatic.
template <point_function_type F, class T, int Rank, std::size_t NI, std::size_t NO>
void sweep_automatically(CudaSpace, const F& fn, const input_fields<T, Rank, CudaSpace, NI>& in,
                         const output_fields<T, Rank, CudaSpace, NO>& out, cudaStream_t stream = nullptr) {
  cuda::sweep(cuda::automatic{}, fn, in, out, stream);
}
}  // namespace tessera
