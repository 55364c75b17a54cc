#pragma once
// tessera::automatic: the portable policy. It picks the backend from the views' memory
// space — CUDA views run cuda::automatic, host views host::parallel — so code written
// against it runs unchanged on either.
#include <string>
#include <utility>

#include "tessera/core/policy.hpp"
#include "tessera/host/parallel.hpp"
#if TESSERA_ENABLE_CUDA
#include "tessera/cuda/automatic.hpp"
#endif

namespace tessera {

struct automatic {
  static std::string name() { return "automatic"; }
  template <class Space>
  static constexpr bool reaches = true;
};

template <class S, class T, int Rank, class Space, class... Extra>
void sweep(const automatic&, const stencil<S, T>& st, const View<T, Rank, Space>& in,
           const View<T, Rank, Space>& out, Extra&&... extra) {
  if constexpr (Space::host_accessible) {
    static_assert(sizeof...(Extra) == 0, "tessera::automatic on host views takes no stream");
    host::sweep(host::parallel{}, st, in, out);
  } else {
#if TESSERA_ENABLE_CUDA
    cuda::sweep(cuda::automatic{}, st, in, out, std::forward<Extra>(extra)...);
#endif
  }
}

}  // namespace tessera
