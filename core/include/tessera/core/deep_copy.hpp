#pragma once
// deep_copy between views of any two spaces, and create_mirror. Copies move the whole
// allocation, ghosts included, so the two layouts must match exactly; a strided layout
// with memory between its rows (layout::dense() false: a wrapped array with gaps, a
// View::box) is copied row by row, so that memory, someone else's, is never written.
#include <functional>
#include <string>
#include <type_traits>

#include "tessera/core/view.hpp"
#include "tessera/core/detail/view_checks.hpp"

namespace tessera {

/// Copies src into dst, ghosts included. Throws extent_mismatch_error (naming both views)
/// unless their extents, ghost widths and paddings match.
template <class T, int Rank, class DstSpace, class SrcSpace>
void deep_copy(const View<T, Rank, DstSpace>& dst, const View<T, Rank, SrcSpace>& src) {
  detail::require_allocated(dst, "tessera::deep_copy", "destination");
  detail::require_allocated(src, "tessera::deep_copy", "source");
  if (!(dst.layout() == src.layout()))
    throw extent_mismatch_error("tessera::deep_copy: destination " + dst.describe() +
                                " and source " + src.describe() +
                                " differ in layout; create the destination with src.layout() "
                                "(or create_mirror(src))");
  if (dst.data() == src.data()) return;
  if constexpr (std::is_same_v<DstSpace, SrcSpace>) {
    // two views over one allocation (planes of one view): a copy between overlapping
    // ranges would read what it has already overwritten
    const auto* d = static_cast<const char*>(static_cast<const void*>(dst.data()));
    const auto* s = static_cast<const char*>(static_cast<const void*>(src.data()));
    const std::size_t bytes = src.allocation_bytes();
    if (std::less<const char*>{}(d, s + bytes) && std::less<const char*>{}(s, d + bytes))
      throw aliasing_error("tessera::deep_copy: destination " + dst.describe() + " and source " + src.describe() +
                           " overlap in memory (planes of one view, ghost planes included); copy through a view "
                           "of its own");
  }
  // Found by argument-dependent lookup on the spaces: core copies host to host, each
  // backend between its space and the host's (and within its own).
  const std::string what = "deep_copy " + src.describe() + " -> " + dst.describe();
  const auto& l = src.layout();
  if (l.dense()) {
    copy_bytes(DstSpace{}, SrcSpace{}, dst.data(), src.data(), src.allocation_bytes(), what);
    return;
  }
  // One copy per row, ghost rows included, from each row's first ghost cell (after the
  // row padding a box of a padded view keeps; a copy per row is slow across the bus; such
  // views are meant to be swept in place, not mirrored often).
  const std::size_t row_bytes = static_cast<std::size_t>(l.padded_extent(Rank - 1)) * sizeof(T);
  index_t rows = 1;
  for (int d = 0; d + 1 < Rank; ++d) rows *= l.padded_extent(d);
  for (index_t r = 0; r < rows; ++r) {
    index_t rest = r, offset = l.pad_left();
    for (int d = Rank - 2; d >= 0; --d) {
      offset += (rest % l.padded_extent(d)) * l.stride(d);
      rest /= l.padded_extent(d);
    }
    copy_bytes(DstSpace{}, SrcSpace{}, dst.data() + offset, src.data() + offset, row_bytes, what);
  }
}

/// A new host view with the same layout as v (label v.label() + "_mirror"); contents are
/// not copied.
template <class T, int Rank, class Space>
View<T, Rank, HostSpace> create_mirror(const View<T, Rank, Space>& v) {
  return View<T, Rank, HostSpace>(v.label() + "_mirror", v.layout());
}

/// A host view holding a copy of v's contents: v itself when v is already on the host.
template <class T, int Rank, class Space>
View<T, Rank, HostSpace> create_mirror_copy(const View<T, Rank, Space>& v) {
  if constexpr (Space::host_accessible) {
    return v;
  } else {
    auto m = create_mirror(v);
    deep_copy(m, v);
    return m;
  }
}

}  // namespace tessera
