#pragma once
// Memory layout of a grid with a ghost (halo) layer of uniform width on every side.
// Row-major, last index contiguous. Coordinates are interior coordinates: the interior
// spans [0, n_d) on each axis and the ghosts span [-ghost, 0) and [n_d, n_d + ghost).
//
// Rows may be padded (row_alignment, in elements) so that the interior of every row
// starts on an aligned boundary: each row begins with pad_left = (-ghost) mod
// row_alignment unused elements, then the ghosts, the interior and the far ghosts, and is
// rounded up to a multiple of row_alignment. Aligned interiors let a warp's row segment
// (and a thread's vector of elements) start where a memory transaction does, and whole
// output sectors be written. Strides and the origin carry the padding, so accessors and
// kernels never assume stride(Rank-2) == n + 2*ghost.
//
// A layout may also describe memory laid out by someone else (layout::strided: a NumPy or
// CuPy array, a Kokkos view, a sub-box of a larger grid): explicit strides, the last axis
// contiguous, rows and planes that do not overlap, and possibly memory between them that
// belongs to others (dense() is false then, and nothing may write there).
#include <string>

#include "tessera/core/array.hpp"
#include "tessera/core/detail/checked_arithmetic.hpp"
#include "tessera/core/errors.hpp"
#include "tessera/core/extents.hpp"

namespace tessera {

template <int Rank>
class layout {
 public:
  constexpr layout() = default;

  /// ghost: width of the ghost layer; row_alignment: padded row length is a multiple of it.
  /// Throws invalid_argument_error for a negative extent or ghost width, a row alignment
  /// below 1, and extents whose padded lengths, strides or element count overflow index_t.
  layout(const extents<Rank>& interior, int ghost, index_t row_alignment = 1)
      : interior_(interior), ghost_(ghost), row_alignment_(row_alignment) {
    for (int d = 0; d < Rank; ++d)
      if (interior[d] < 0)
        throw invalid_argument_error("tessera::layout: extents " + interior.to_string() +
                                     " have a negative extent; extents must be >= 0");
    if (ghost < 0)
      throw invalid_argument_error("tessera::layout: ghost width " + std::to_string(ghost) +
                                   " is negative; use 0 or more");
    if (row_alignment < 1)
      throw invalid_argument_error("tessera::layout: row_alignment must be >= 1 element");
    auto too_large = [&] {
      return invalid_argument_error("tessera::layout: extents " + interior.to_string() + " with ghost " +
                                    std::to_string(ghost) + " and rows padded to " + std::to_string(row_alignment) +
                                    " elements need more than 2^63 elements (strides or element count overflow); "
                                    "no machine holds such a grid: check the extents");
    };
    pad_left_ = (row_alignment - ghost % row_alignment) % row_alignment;
    const index_t two_ghosts = 2 * static_cast<index_t>(ghost);
    index_t s = 1;
    for (int d = Rank - 1; d >= 0; --d) {
      stride_[d] = s;
      index_t len = 0;
      if (!detail::checked_add(interior[d], two_ghosts, len)) throw too_large();
      if (d == Rank - 1) {
        index_t padded = 0;
        if (!detail::checked_add(len, pad_left_ + row_alignment - 1, padded)) throw too_large();
        len = padded / row_alignment * row_alignment;
      }
      if (!detail::checked_mul(s, len, s)) throw too_large();
    }
    span_ = s;
    origin_ = pad_left_;
    for (int d = 0; d < Rank; ++d) origin_ += ghost * stride_[d];
  }

  /// A layout over memory someone else laid out: `strides` in elements (slowest axis
  /// first), the ghost cells inside that memory, element (-ghost, ..., -ghost) at offset 0.
  /// The last axis must be contiguous (stride 1) and each axis' stride must step over the
  /// whole padded extent of the axes inside it (rows and planes may be farther apart, not
  /// overlap). row_alignment() is 1 and pad_left() 0: nothing is known of the rows'
  /// alignment, so the kernels that read whole 16-byte vectors refuse such a layout.
  /// Throws invalid_argument_error naming the axis and the fix.
  static layout strided(const extents<Rank>& interior, int ghost, const array<index_t, Rank>& strides) {
    layout l(interior, ghost, 1);  // checks extents, ghost and the packed sizes
    if (strides[Rank - 1] != 1)
      throw invalid_argument_error("tessera::layout: stride " + std::to_string(strides[Rank - 1]) +
                                   " along the last axis (" + std::to_string(Rank - 1) + ") of extents " +
                                   interior.to_string() + "; tessera needs the last axis contiguous (stride 1): "
                                   "pass a C-ordered (row-major) array or copy it into one");
    index_t span = 1;
    for (int d = Rank - 2; d >= 0; --d) {
      index_t inner = 0;
      if (!detail::checked_mul(strides[d + 1], l.padded_extent(d + 1), inner) || strides[d] < inner)
        throw invalid_argument_error(
            "tessera::layout: stride " + std::to_string(strides[d]) + " along axis " + std::to_string(d) +
            " of extents " + interior.to_string() + " with ghost " + std::to_string(ghost) +
            " is shorter than what axis " + std::to_string(d + 1) + " spans (" +
            (inner > 0 ? std::to_string(inner) : std::string("more than 2^63")) +
            " elements, ghosts included): its rows or planes would overlap; pass the array's strides in "
            "elements, the ghost layer inside the array");
    }
    for (int d = 0; d < Rank; ++d) {
      index_t reach = 0;
      if (l.padded_extent(d) > 0 && (!detail::checked_mul(l.padded_extent(d) - 1, strides[d], reach) ||
                                     !detail::checked_add(span, reach, span)))
        throw invalid_argument_error("tessera::layout: extents " + interior.to_string() + " with strides " +
                                     strides_to_string(strides) + " span more than 2^63 elements; check the strides");
    }
    l.stride_ = strides;
    l.span_ = span;
    l.origin_ = 0;
    for (int d = 0; d < Rank; ++d) l.origin_ += ghost * strides[d];
    l.dense_ = true;
    for (int d = 0; d + 1 < Rank; ++d) l.dense_ = l.dense_ && strides[d] == strides[d + 1] * l.padded_extent(d + 1);
    return l;
  }

  const extents<Rank>& interior() const { return interior_; }
  int ghost() const { return ghost_; }
  index_t row_alignment() const { return row_alignment_; }
  /// Unused elements at the start of each row, before the first ghost.
  index_t pad_left() const { return pad_left_; }
  /// Extent including both ghost layers (not the padding).
  index_t padded_extent(int d) const { return interior_[d] + 2 * ghost_; }
  index_t stride(int d) const { return stride_[d]; }
  const array<index_t, Rank>& strides() const { return stride_; }
  /// Elements in the allocation, ghosts and padding included.
  index_t span() const { return span_; }
  /// Offset of interior point (0, ..., 0) from the start of the allocation.
  index_t origin_offset() const { return origin_; }
  /// True when every element of [0, span()) belongs to this layout (its rows, ghosts
  /// included, or its own row padding), so a copy may move the span whole; false for a
  /// strided layout with memory between its rows or planes (a sub-box of a larger array).
  bool dense() const { return dense_; }

  /// The same rows and strides with another extent along axis 0 (a slab of planes of
  /// this layout, View::planes): the strides stay, the span shrinks.
  layout with_planes(index_t count) const {
    auto e = interior_;
    e[0] = count;
    layout l = *this;
    l.interior_ = e;
    l.span_ = span_ - (interior_[0] - count) * stride_[0];
    return l;
  }

  /// The same rows and strides over a sub-box of `count` interior points a axis, starting
  /// `first` points in, with a ghost layer `ghost` wide (View::box), for memory that starts
  /// at the box's first ghost cell's row (first + this ghost - ghost rows and planes in, and
  /// as many elements into the row). The caller checks that the box and its ghosts lie in
  /// this layout's cells. Row alignment and padding stay, so a box whose rows start
  /// `first[Rank-1]` elements in keeps its interior aligned when that offset is a multiple
  /// of the alignment (the whole row: 0); the layout is dense only where the box takes
  /// whole rows and planes below axis 0 with the same ghost width.
  layout with_box(const array<index_t, Rank>& first, const extents<Rank>& count, int ghost) const {
    bool whole_below_axis0 = ghost == ghost_;
    for (int d = 1; d < Rank; ++d) whole_below_axis0 = whole_below_axis0 && first[d] == 0 && count[d] == interior_[d];
    if (whole_below_axis0) return with_planes(count[0]);
    layout l = *this;
    l.interior_ = count;
    l.ghost_ = ghost;
    l.dense_ = false;
    l.origin_ = pad_left_;
    for (int d = 0; d < Rank; ++d) l.origin_ += index_t(ghost) * stride_[d];
    // the box's last element, ghosts included, from its first ghost cell's row start
    l.span_ = pad_left_ + 1;
    for (int d = 0; d < Rank; ++d) l.span_ += (count[d] + 2 * index_t(ghost) - 1) * stride_[d];
    return l;
  }

  friend bool operator==(const layout& a, const layout& b) {
    return a.interior_ == b.interior_ && a.ghost_ == b.ghost_ && a.stride_ == b.stride_;
  }

  /// "interior 37x29x53, ghost 1": the form every error message uses.
  std::string describe() const {
    return "interior " + interior_.to_string() + ", ghost " + std::to_string(ghost_);
  }

 private:
  extents<Rank> interior_{};
  int ghost_ = 0;
  index_t row_alignment_ = 1;
  index_t pad_left_ = 0;
  array<index_t, Rank> stride_{};
  index_t span_ = 0;
  index_t origin_ = 0;
  bool dense_ = true;

  static std::string strides_to_string(const array<index_t, Rank>& s) {
    std::string r = "(";
    for (int d = 0; d < Rank; ++d) r += (d ? ", " : "") + std::to_string(s[d]);
    return r + ")";
  }
};

}  // namespace tessera
