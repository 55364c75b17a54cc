#pragma once
// What tessera-bench's GPU sections share beside a row: the fields they sweep and the
// names of tile variants.
#include <string>

#include <tessera/core/view.hpp>

namespace tessera::bench {

/// "<a,b,...>": a tile variant's template arguments up to its last non-zero one (0 is
/// every argument's default), the suffix its rows carry after the policy's name.
template <template <int...> class Policy, int... Args>
std::string tile_arguments(Policy<Args...>) {
  const int args[] = {Args...};
  int n = static_cast<int>(sizeof...(Args));
  while (n > 0 && args[n - 1] == 0) --n;
  std::string s = "<";
  for (int i = 0; i < n; ++i) {
    if (i > 0) s += ',';
    s += std::to_string(args[i]);
  }
  return s + ">";
}

/// A host field of extents e and ghost width g, every cell (ghosts and padding too) a
/// deterministic pseudo-random value in [0, 1).
template <class T, int Rank>
tessera::View<T, Rank, tessera::HostSpace> patterned_field(const tessera::extents<Rank>& e, int g) {
  tessera::View<T, Rank, tessera::HostSpace> v("init", e, g);
  T* p = v.data();
  const auto n = v.layout().span();
  for (tessera::index_t i = 0; i < n; ++i) p[i] = static_cast<T>((i * 2654435761u % 1000) * 1e-3);
  return v;
}

}  // namespace tessera::bench
