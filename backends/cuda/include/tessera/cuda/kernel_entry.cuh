#pragma once
// The definition of kernel_entry (launch.hpp): calls the strategy's launcher (launch_sweep,
// found by argument-dependent lookup), compiled by nvcc together with the strategy's
// kernels. Include it, with the strategy's kernels (tessera/cuda/strategies/<name>/kernels.cuh,
// or tessera/cuda/strategies.hpp for every listed one), in the .cu file that writes
// TESSERA_CUDA_INSTANTIATE. nvcc only.
#include <cstdint>

#include "tessera/core/type_list.hpp"
#include "tessera/cuda/kernels/common.cuh"
#include "tessera/cuda/launch.hpp"

namespace tessera::cuda {

template <class Strategy, class Tile, class S, class T>
void kernel_entry<Strategy, Tile, S, T>::launch(const launch_plan& plan, const params_for<S, T>& p,
                                                cudaStream_t stream) {
  if constexpr (Strategy::template has_kernel<S>) launch_sweep(Strategy{}, sweep_of<S, T, Tile>{}, plan, p, stream);
}

template <class Strategy, class Tile, class S, class T>
void kernel_entry<Strategy, Tile, S, T>::launch_steps(const launch_plan& plan, const params_for<S, T>& p, int steps,
                                                      const edge_rules& rules, cudaStream_t stream) {
  if constexpr (Strategy::template has_kernel<S> && has_fused_steps_v<Strategy, S>)
    launch_fused_steps(Strategy{}, sweep_of<S, T, Tile>{}, plan, p, steps, rules, stream);
}

template <class Strategy, class Tile, class S, class T>
int kernel_entry<Strategy, Tile, S, T>::resident_blocks(const launch_plan& plan, int steps) {
  constexpr int most_steps = 16;
  if constexpr (Strategy::template has_kernel<S>) {
    static detail::cached_per_device<most_steps + 1> cache;  // keyed by steps (0: one sweep)
    return cache.get(steps, [&] {
      detail::residency_query q;  // the launcher answers instead of launching
      if (steps == 0) launch(plan, params_for<S, T>{}, cudaStream_t{});
      else launch_steps(plan, params_for<S, T>{}, steps, edge_rules{}, cudaStream_t{});
      return q.answer;
    });
  } else {
    return 0;
  }
}

namespace detail {
/// Compiles, in the translation unit that explicitly instantiates it, the sweep and fused
/// passes of Strategy's other tiles (automatic_fusion_tiles, strategy.hpp) for shape S in T where a
/// tile serves them, so that cuda::automatic's host code, which sees declarations only,
/// links to them (kernels/instantiate.cu.in). `addresses` returns the entries' addresses:
/// a use the compiler cannot drop, so their definitions are emitted here.
template <class Strategy, class T, class S>
struct fusion_tile_kernels {
  static std::uintptr_t addresses() {
    std::uintptr_t sum = 0;
    if constexpr (requires { typename Strategy::automatic_fusion_tiles; })
      for_each_type(typename Strategy::automatic_fusion_tiles{}, [&](auto policy) {
        using P = decltype(policy);
        if constexpr (P::template automatic_fuses_tile<S, T>) {
          using entry = kernel_entry<strategy_of_t<P>, typename P::template tile<S>, S, T>;
          sum += reinterpret_cast<std::uintptr_t>(&entry::launch) +
                 reinterpret_cast<std::uintptr_t>(&entry::launch_steps) +
                 reinterpret_cast<std::uintptr_t>(&entry::resident_blocks);
        }
      });
    return sum;
  }
};
}  // namespace detail

}  // namespace tessera::cuda
