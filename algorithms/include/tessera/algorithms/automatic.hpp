#pragma once
// tessera::automatic: the portable policy. It picks the backend from the views' memory
// space — CUDA views run cuda::automatic, host views host::parallel — so code written
// against it runs unchanged on either.
#include <cstddef>
#include <optional>
#include <string>
#include <utility>

#include "tessera/core/boundary.hpp"
#include "tessera/core/fields.hpp"
#include "tessera/core/point_function.hpp"
#include "tessera/core/policy.hpp"
#include "tessera/core/stencil.hpp"
#include "tessera/core/view.hpp"

namespace tessera {

struct automatic {
  static std::string name() { return "automatic"; }
  template <class Space>
  static constexpr bool reaches = true;
};

/// Runs sweep_automatically of the views' memory space, found by argument-dependent lookup
/// on it: host::parallel for HostSpace (tessera/host/detail/automatic.hpp), cuda::automatic for
/// CudaSpace (tessera/cuda/automatic.hpp), which also takes a stream.
template <class S, class T, int Rank, class Space, class... Extra>
void sweep(const automatic&, const stencil<S, T>& st, const View<T, Rank, Space>& in,
           const View<T, Rank, Space>& out, Extra&&... extra) {
  sweep_automatically(Space{}, st, in, out, std::forward<Extra>(extra)...);
}

/// Point functions: the views' memory space's sweep_automatically (host::parallel on the
/// host, cuda::automatic on CUDA views, which also takes a stream).
template <point_function_type F, class T, int Rank, class Space, std::size_t NI, std::size_t NO, class... Extra>
void sweep(const automatic&, const F& fn, const input_fields<T, Rank, Space, NI>& in,
           const output_fields<T, Rank, Space, NO>& out, Extra&&... extra) {
  sweep_automatically(Space{}, fn, in, out, std::forward<Extra>(extra)...);
}

/// Fused time steps (iterate): the views' memory space's, where it has them
/// (fused_steps_automatically / sweep_steps_automatically: CudaSpace, tessera/cuda/detail/sweep_steps.hpp).
template <class S, class T, int Rank, class Space>
  requires requires(const stencil<S, T>& st, const View<T, Rank, Space>& u,
                    const std::optional<boundary_conditions<Rank>>& bc) {
    fused_steps_automatically(Space{}, st, u, bc);
  }
int fused_steps(const automatic&, const stencil<S, T>& st, const View<T, Rank, Space>& u,
                const std::optional<boundary_conditions<Rank>>& bc) {
  return fused_steps_automatically(Space{}, st, u, bc);
}

template <class S, class T, int Rank, class Space>
  requires requires(const stencil<S, T>& st, const View<T, Rank, Space>& u,
                    const std::optional<boundary_conditions<Rank>>& bc) {
    sweep_steps_automatically(Space{}, st, u, u, 1, bc);
  }
void sweep_steps(const automatic&, const stencil<S, T>& st, const View<T, Rank, Space>& in,
                 const View<T, Rank, Space>& out, int steps, const std::optional<boundary_conditions<Rank>>& bc) {
  sweep_steps_automatically(Space{}, st, in, out, steps, bc);
}

}  // namespace tessera
