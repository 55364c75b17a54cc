#pragma once
// What tessera::automatic runs on host views: host::parallel, for stencils and point
// functions alike (sweep_automatically, the
// customisation point the portable policy reaches for HostSpace views), and the host's
// synchronize, which has nothing to wait for.
#include "tessera/core/memory_space.hpp"
#include "tessera/core/stencil.hpp"
#include "tessera/core/view.hpp"
#include "tessera/host/parallel.hpp"
#include "tessera/host/detail/point_function_sweep.hpp"

namespace tessera {

template <class S, class T, int Rank>
void sweep_automatically(HostSpace, const stencil<S, T>& st, const View<T, Rank, HostSpace>& in,
                         const View<T, Rank, HostSpace>& out) {
  host::sweep(host::parallel{}, st, in, out);
}

template <class S, class T, int Rank, class... Extra>
  requires(sizeof...(Extra) > 0)
void sweep_automatically(HostSpace, const stencil<S, T>&, const View<T, Rank, HostSpace>&,
                         const View<T, Rank, HostSpace>&, Extra&&...) {
  static_assert(sizeof...(Extra) == 0, "tessera::automatic on host views takes no stream");
}

/// Point functions on host views: host::parallel.
template <point_function_type F, class T, int Rank, std::size_t NI, std::size_t NO>
void sweep_automatically(HostSpace, const F& fn, const input_fields<T, Rank, HostSpace, NI>& in,
                         const output_fields<T, Rank, HostSpace, NO>& out) {
  host::sweep(host::parallel{}, fn, in, out);
}

/// Host work is finished when its call returns.
inline void synchronize(HostSpace) {}

}  // namespace tessera
