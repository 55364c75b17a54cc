#pragma once
// Memory that tessera does not own, for the tests of View::wrap: a block with sentinel
// margins before and after, and (for a strided layout with gaps) sentinels between rows
// and planes, so a sweep that writes anything but the layout's points shows.
#include <cstring>
#include <stdexcept>
#include <vector>

#include <tessera/tessera.hpp>

#include "test_support.hpp"

namespace tessera::test {

/// A strided layout of extents n and ghost width g whose rows are `row_gap` elements
/// longer than n + 2g and (3D) whose planes are `plane_gap` elements farther apart than
/// their rows need: the layout of a sub-box of a larger array. Gaps 0: a packed C-ordered
/// array (equal to layout(n, g, 1)).
template <int Rank>
layout<Rank> gapped_layout(const extents<Rank>& n, int g, index_t row_gap, index_t plane_gap = 0) {
  array<index_t, Rank> s{};
  s[Rank - 1] = 1;
  if constexpr (Rank >= 2) s[Rank - 2] = n[Rank - 1] + 2 * g + row_gap;
  if constexpr (Rank >= 3) s[0] = s[1] * (n[1] + 2 * g) + plane_gap;
  return layout<Rank>::strided(n, g, s);
}

/// The elements of a foreign block: `margin` elements, the layout's span, `margin` more.
/// Every element that is not a point of the layout (ghost or interior) holds `sentinel`.
template <class T, int Rank>
struct foreign_block {
  static constexpr index_t margin = 48;
  static constexpr T sentinel = T(-4242.5);
  layout<Rank> lay;
  std::vector<T> memory;
  std::vector<char> point;  // 1 where the element is a point of the layout

  explicit foreign_block(const layout<Rank>& l)
      : lay(l), memory(static_cast<std::size_t>(l.span() + 2 * margin), sentinel),
        point(static_cast<std::size_t>(l.span() + 2 * margin), 0) {
    for_each_point<Rank>(l.interior(), l.ghost(), [&](auto... i) {
      const index_t idx[] = {static_cast<index_t>(i)...};
      index_t off = margin + l.origin_offset();
      for (int d = 0; d < Rank; ++d) off += idx[d] * l.stride(d);
      point[static_cast<std::size_t>(off)] = 1;
    });
  }
  T* first() { return memory.data() + margin; }
  std::size_t bytes() const { return memory.size() * sizeof(T); }

  /// Elements of `now` (this block's memory, later) outside the layout's points that no
  /// longer hold the sentinel: what a sweep wrote where it must not.
  index_t foreign_changed(const std::vector<T>& now) const {
    index_t changed = 0;
    for (std::size_t k = 0; k < now.size(); ++k)
      if (!point[k] && std::memcmp(&now[k], &sentinel, sizeof(T)) != 0) ++changed;
    return changed;
  }
  index_t foreign_changed() const { return foreign_changed(memory); }
};

/// An owned host view with the default layout holding v's values, ghosts included.
template <class T, int Rank, class Space>
View<T, Rank, HostSpace> owned_copy(const View<T, Rank, Space>& v, const std::string& label) {
  static_assert(Space::host_accessible);
  View<T, Rank, HostSpace> c(label, v.extents(), v.ghost());
  for_each_point<Rank>(v.extents(), v.ghost(), [&](auto... i) { c(i...) = v(i...); });
  return c;
}

}  // namespace tessera::test

#if TESSERA_ENABLE_CUDA
#include <cuda_runtime_api.h>

namespace tessera::test {

/// foreign_block's pattern in device memory (cudaMalloc'd here, freed here: tessera only
/// wraps it).
template <class T, int Rank>
struct device_block {
  foreign_block<T, Rank> pattern;
  T* base = nullptr;

  explicit device_block(const layout<Rank>& l) : pattern(l) {
    void* p = nullptr;
    if (cudaMalloc(&p, pattern.bytes()) != cudaSuccess || !(base = static_cast<T*>(p)) ||
        cudaMemcpy(base, pattern.memory.data(), pattern.bytes(), cudaMemcpyHostToDevice) != cudaSuccess)
      throw std::runtime_error("device_block: cudaMalloc/cudaMemcpy failed");
  }
  device_block(const device_block&) = delete;
  device_block& operator=(const device_block&) = delete;
  ~device_block() { cudaFree(base); }
  T* first() { return base + foreign_block<T, Rank>::margin; }

  /// Elements outside the layout's points that a kernel changed.
  index_t foreign_changed() const {
    std::vector<T> now(pattern.memory.size());
    if (cudaMemcpy(now.data(), base, pattern.bytes(), cudaMemcpyDeviceToHost) != cudaSuccess)
      throw std::runtime_error("device_block: cudaMemcpy failed");
    return pattern.foreign_changed(now);
  }
};

}  // namespace tessera::test
#endif
