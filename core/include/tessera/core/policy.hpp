#pragma once
// What every execution policy provides. A policy is a small trivially copyable value
// type living in its backend's namespace (tessera::host, tessera::kokkos, tessera::cuda);
// it states which memory spaces it can reach and a name for tables and messages.
// tessera::apply finds the backend's `sweep` for it by argument-dependent lookup, so a
// new policy is a new header in its backend, not an edit to a central switch (a CUDA
// strategy: its header and one line in cuda/strategies.def; docs/design.md).
#include <concepts>
#include <string>
#include <type_traits>

#include "tessera/core/memory_space.hpp"

namespace tessera {

template <class P>
concept execution_policy = std::is_trivially_copyable_v<P> && requires {
  { P::name() } -> std::convertible_to<std::string>;
};

/// True when policy P can run a sweep on views in memory space Space.
template <class P, class Space>
inline constexpr bool policy_reaches_v = P::template reaches<Space>;

}  // namespace tessera
