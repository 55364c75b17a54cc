#pragma once
// View<T, Rank, Space>: a reference-counted, labelled grid with a ghost layer.
// Copies share the allocation (as Kokkos views do); the last copy frees it. Elements are
// zero-initialised on allocation. Rows are padded to whole 128-byte lines
// (default_row_alignment), so every row of every view starts where a GPU memory
// transaction does; pass a layout to choose otherwise. View::wrap makes a view of memory
// it does not own (a NumPy or CuPy array, a Kokkos view, another library's buffer): no
// copy, nothing freed, the same algorithms.
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "tessera/core/detail/accessor.hpp"
#include "tessera/core/detail/checked_arithmetic.hpp"
#include "tessera/core/errors.hpp"
#include "tessera/core/extents.hpp"
#include "tessera/core/layout.hpp"
#include "tessera/core/memory_space.hpp"

namespace tessera {

/// Row alignment (in elements) of a View built from extents: 128 bytes, the line size of
/// the GPU caches; the interior of every row starts on such a boundary (layout.hpp).
/// Unpadded rows of n + 2g elements start at every alignment, so a warp's row segment
/// touches one more 32-byte sector than it needs, partial sectors are written, and the
/// sector pattern differs from row to row; the padding costs < 256 bytes per row.
template <class T>
inline constexpr index_t default_row_alignment = sizeof(T) >= 128 ? 1 : 128 / sizeof(T);

template <class T, int Rank, memory_space Space = HostSpace>
class View {
  static_assert(std::is_arithmetic_v<T>, "tessera::View holds arithmetic element types");

 public:
  using value_type = T;
  using memory_space = Space;
  static constexpr int rank = Rank;

  /// An unallocated view: no label, no memory, extents 0. It answers label(), describe(),
  /// size() and allocated(); every algorithm given one throws invalid_argument_error.
  View() = default;

  /// label: names the view in every error message; ghost: ghost-layer width. Rows are
  /// padded to default_row_alignment<T> elements. Throws invalid_argument_error naming
  /// the view for negative or overflowing extents, before anything is allocated.
  View(std::string label, const extents<Rank>& interior, int ghost = 0)
      : View(label, make_layout(label, interior, ghost)) {}

  View(std::string label, const tessera::layout<Rank>& l) {
    const auto bytes = detail::checked_bytes(l.span(), sizeof(T));
    if (!bytes)
      throw invalid_argument_error("tessera::View: view '" + label + "' (" + l.describe() + ") needs " +
                                   std::to_string(l.span()) + " elements of " + std::to_string(sizeof(T)) +
                                   " bytes, more bytes than an address space holds; check the extents");
    auto st = std::make_shared<state>();
    st->label = std::move(label);
    st->layout = l;
    st->data = static_cast<T*>(Space::allocate(*bytes, st->label));
    state_ = std::move(st);
  }

  /// A view of memory it does not own, without copying: `data` is element (-ghost, ...,
  /// -ghost) of layout `l` (build it with layout::strided from the array's extents, ghost
  /// width and strides, or layout(extents, ghost, 1) for a packed C-ordered array) in
  /// memory space Space. Nothing is zeroed or freed; `keep_alive` (optional) is held by
  /// every copy of the view and its planes, so the memory's owner (an array object) lives
  /// as long as they do. Requires data aligned to alignof(T) and, for a device space,
  /// memory of that device (the backend asks the driver: check_wrappable). Throws
  /// invalid_argument_error naming the view for a null or misaligned pointer.
  static View wrap(std::string label, T* data, const tessera::layout<Rank>& l,
                   std::shared_ptr<const void> keep_alive = {}) {
    const std::string who = "tessera::View::wrap: view '" + label + "' (" + l.describe() + ", " + Space::name + ")";
    if (data == nullptr)
      throw invalid_argument_error(who + " was given a null pointer; pass the address of the array's first element "
                                   "(its first ghost cell)");
    if (reinterpret_cast<std::uintptr_t>(data) % alignof(T) != 0)
      throw invalid_argument_error(who + " was given an address that is not a multiple of " +
                                   std::to_string(alignof(T)) + " bytes (the alignment of its element type); copy "
                                   "the array into an aligned one");
    const auto bytes = detail::checked_bytes(l.span(), sizeof(T));
    if (!bytes) throw invalid_argument_error(who + " spans more bytes than an address space holds; check the strides");
    // Found by argument-dependent lookup on the space: each backend checks that the
    // memory is its own (the host's accepts any address it is given).
    check_wrappable(Space{}, data, *bytes, who);
    auto st = std::make_shared<state>();
    st->label = std::move(label);
    st->layout = l;
    st->data = data;
    st->owns = false;
    st->keep_alive = std::move(keep_alive);
    View v;
    v.state_ = std::move(st);
    return v;
  }

  /// The label; "" for an unallocated view.
  const std::string& label() const { return state_ ? state_->label : empty_label(); }
  /// The layout; an empty one (extents 0, ghost 0) for an unallocated view.
  const tessera::layout<Rank>& layout() const { return state_ ? state_->layout : empty_layout(); }
  const tessera::extents<Rank>& extents() const { return layout().interior(); }
  int ghost() const { return layout().ghost(); }
  /// Interior points (0 for an unallocated view).
  index_t size() const { return extents().size(); }
  /// Start of the allocation (the first ghost cell), not the interior origin; nullptr
  /// for an unallocated view.
  T* data() const { return state_ ? state_->data : nullptr; }
  std::size_t allocation_bytes() const { return static_cast<std::size_t>(layout().span()) * sizeof(T); }
  /// False for a default-constructed view.
  bool allocated() const { return state_ != nullptr; }
  /// False for a view made by wrap (and its planes): the memory is someone else's.
  bool owns_memory() const { return state_ && state_->owns; }
  long use_count() const { return state_.use_count(); }

  /// "'u' (interior 37x29x53, ghost 1, HostSpace)": the form every error message uses;
  /// "an unallocated (default-constructed) view" when there is none.
  std::string describe() const {
    if (!state_) return "an unallocated (default-constructed) " + std::string(Space::name) + " view";
    return "'" + label() + "' (" + layout().describe() + ", " + Space::name + ")";
  }

  /// Planes [first, first + count) of the outermost axis, as a view of their own that
  /// shares this view's memory (and keeps it alive): same ghost width and row layout, its
  /// ghost planes are this view's neighbouring planes (interior or ghost). A sweep into it
  /// writes those planes only, so one sweep can run as several (a distributed step sweeps
  /// the planes that need no halo while the halos travel). Labelled "u[planes a..b)".
  /// Throws invalid_argument_error, naming the view, for planes outside its interior.
  View planes(index_t first, index_t count) const
    requires(Rank >= 2)
  {
    const index_t n0 = extents()[0];
    // first + count is not formed until both are known to lie in [0, n0]: it could overflow
    if (!state_ || count < 1 || first < 0 || count > n0 || first > n0 - count)
      throw invalid_argument_error("tessera::View::planes: " + std::to_string(count) + " plane(s) from plane " +
                                   std::to_string(first) + " of " + describe() +
                                   " are not inside its interior [0, " + std::to_string(n0) +
                                   ") along axis 0; ask for at least one plane of the interior");
    return sub_view(label() + "[planes " + std::to_string(first) + ".." + std::to_string(first + count) + ")",
                    first * layout().stride(0), layout().with_planes(count));
  }

  /// The sub-box of `count` interior points a axis starting `first` points in, as a view of
  /// its own that shares this view's memory (and keeps it alive), as planes() does along
  /// every axis: same ghost width, strides and row padding; its ghost cells are this view's
  /// neighbouring cells (interior or ghost). A sweep into it writes the box only, so a
  /// distributed step can sweep the cells that need no halo while the halos travel, then the
  /// shell around them. A box of whole rows keeps the rows' 16-byte alignment (every CUDA
  /// strategy sweeps it); one that starts inside a row keeps it only when the offset is a
  /// multiple of 16 bytes. Labelled "u[box 1..5, 0..7, 2..9)". Throws invalid_argument_error,
  /// naming the view and the axis, for a box that leaves the interior or is empty.
  View box(const array<index_t, Rank>& first, const tessera::extents<Rank>& count) const {
    return box(first, count, ghost());
  }

  /// The same with a ghost layer `ghost` cells wide (0 to this view's ghost width), which
  /// lets the box reach into this view's ghost layer: `first` may go down to
  /// ghost - this->ghost() and the box end up to this->ghost() - ghost cells past the
  /// interior, so that the box and its own ghosts stay inside this view's cells. A rank
  /// whose halos are k steps deep sweeps its block grown into them this way, its k fused
  /// steps reading the outermost layer as fixed (tessera/mpi/fused_passes.hpp). Labelled as
  /// box() labels, with ", ghost g" where g differs. Throws invalid_argument_error, naming
  /// the view and the axis, for a box that leaves this view's cells or is empty, or a ghost
  /// width outside [0, ghost()].
  View box(const array<index_t, Rank>& first, const tessera::extents<Rank>& count, int ghost) const {
    const auto& n = extents();
    const index_t g = state_ ? this->ghost() : 0;
    if (state_ && (ghost < 0 || ghost > g))
      throw invalid_argument_error("tessera::View::box: a ghost width of " + std::to_string(ghost) + " for a box of " +
                                   describe() + "; ask for 0 to " + std::to_string(g) +
                                   " (a box's ghosts are cells of the view)");
    const index_t reach = g - ghost;  // how far past the interior the box may go
    std::string label_text = label() + "[box ";
    for (int d = 0; d < Rank; ++d) {
      // first + count is not formed until both are known to lie in [-reach, n + reach]: it
      // could overflow
      if (!state_ || count[d] < 1 || first[d] < -reach || count[d] > n[d] + 2 * reach ||
          first[d] > n[d] + reach - count[d])
        throw invalid_argument_error(
            "tessera::View::box: " + std::to_string(count[d]) + " point(s) from " + std::to_string(first[d]) +
            " along axis " + std::to_string(d) + " of " + describe() + " are not inside " +
            (reach == 0 ? "its interior [0, " + std::to_string(n[d]) + ")"
                        : "[" + std::to_string(-reach) + ", " + std::to_string(n[d] + reach) +
                              ") (its interior and the ghost layers a box with ghost " + std::to_string(ghost) +
                              " may cover)") +
            "; ask for a box of at least one point an axis inside the interior" +
            (reach == 0 ? "" : " or that many ghost layers"));
      label_text += (d ? ", " : "") + std::to_string(first[d]) + ".." + std::to_string(first[d] + count[d]);
    }
    if (ghost != g) label_text += ", ghost " + std::to_string(ghost);
    // the box's first ghost cell's row starts this far in (never before this view's rows)
    index_t offset = 0;
    for (int d = 0; d < Rank; ++d) offset += (first[d] + reach) * layout().stride(d);
    return sub_view(label_text + ")", offset, layout().with_box(first, count, ghost));
  }

  /// The trivially copyable accessor kernels and loops index.
  view_accessor<T, Rank> accessor() const {
    const auto& l = layout();
    view_accessor<T, Rank> a;
    a.origin = state_ ? state_->data + l.origin_offset() : nullptr;
    a.stride = l.strides();
    a.n = l.interior().n;
    a.ghost = l.ghost();
    a.label = label().c_str();
    if constexpr (Rank >= 2) {
      if (l.dense()) {  // rows of its own: the padding before and after each is the view's
        a.row_slack[0] = l.pad_left();
        a.row_slack[1] = l.stride(Rank - 2) - l.pad_left() - l.padded_extent(Rank - 1);
      }
    }
    return a;
  }

  /// Host element access in interior coordinates (ghosts at -1, n, ...).
  template <class... I>
    requires(sizeof...(I) == Rank && Space::host_accessible)
  T& operator()(I... i) const {
    return accessor()(i...);
  }

 private:
  /// planes() and box(): a view of `sub_layout` at `offset` elements into this view's memory,
  /// sharing it (and keeping it alive) under `sub_label`.
  View sub_view(std::string sub_label, index_t offset, const tessera::layout<Rank>& sub_layout) const {
    auto w = std::make_shared<state>();
    w->label = std::move(sub_label);
    w->layout = sub_layout;
    w->data = state_->data + offset;
    w->owner = state_;
    w->owns = state_->owns;
    View v;
    v.state_ = std::move(w);
    return v;
  }

  struct state {
    std::string label;
    tessera::layout<Rank> layout;
    T* data = nullptr;
    std::shared_ptr<state> owner;  // set for planes() and box(): the memory is the owner's
    bool owns = true;              // false for wrap(): the memory is someone else's
    std::shared_ptr<const void> keep_alive;  // wrap(): what keeps that memory alive
    ~state() {
      if (!owner && owns) Space::deallocate(data);
    }
  };

  static tessera::layout<Rank> make_layout(const std::string& label, const tessera::extents<Rank>& e,
                                           int ghost) {
    try {
      return tessera::layout<Rank>(e, ghost, default_row_alignment<T>);
    } catch (const invalid_argument_error& err) {
      throw invalid_argument_error(std::string(err.what()) + " (view '" + label + "')");
    }
  }

  static const std::string& empty_label() {
    static const std::string e;
    return e;
  }
  static const tessera::layout<Rank>& empty_layout() {
    static const tessera::layout<Rank> e;
    return e;
  }

  std::shared_ptr<state> state_;
};

template <class V>
inline constexpr bool is_view_v = false;
template <class T, int R, class S>
inline constexpr bool is_view_v<View<T, R, S>> = true;

}  // namespace tessera
