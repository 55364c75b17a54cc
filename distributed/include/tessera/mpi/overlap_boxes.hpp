#pragma once
// How an overlapped distributed step splits each rank's block (device_iterate.hpp): the
// inner box, whose sweep reads no halo that travels as a message, is swept while the halos
// travel; then the shell around it, as disjoint boxes (View::box), once they have arrived.
//
// Along an axis split over processes the inner box leaves out g cells on each side (g: the
// ghost width, the stencil's reach); along an axis held whole it takes every cell, for that
// axis' ghosts are local copies or boundary values, written beside it on the compute
// stream first. The last axis must be held whole: the boxes then keep whole rows, so their
// rows stay 16-byte aligned and every CUDA strategy sweeps them as it sweeps the block
// (a box that starts g elements into a row would not be).
#include <array>
#include <vector>

#include "tessera/core/array.hpp"
#include "tessera/core/extents.hpp"
#include "tessera/mpi/cartesian.hpp"

namespace tessera::mpi {

/// How mpi::iterate and mpi::apply run on device views: overlapped where the process grid
/// allows (overlap_possible), or the halos first, then the whole block.
enum class overlap { automatic, off };

/// A box of a rank's block: `count` cells a axis from `first` (View::box's arguments).
template <int Rank>
struct block_box {
  array<index_t, Rank> first{};
  extents<Rank> count{};
};

/// True when a step over process grid `dims` on blocks of `n` cells with ghost width `g`
/// can overlap its halo exchange with a sweep: some axis is split (dims > 1), the last is
/// not, and every split axis keeps cells that need no halo (n > 2 g).
template <int Rank>
bool overlap_possible(const std::array<int, Rank>& dims, const extents<Rank>& n, int g) {
  if (Rank < 2 || g < 1 || dims[Rank - 1] != 1) return false;
  bool split = false;
  for (int a = 0; a < Rank; ++a)
    if (dims[a] > 1) {
      split = true;
      if (n[a] <= 2 * index_t(g)) return false;
    }
  return split;
}

/// The inner box and the shell's boxes of a block (overlap_possible must hold): the shell
/// takes, for each split axis k in order, its two slabs of g cells, over the inner range of
/// the split axes before k and the whole range of every other axis. Inner and shell are
/// disjoint and cover the block. (overlap_boxes with faces_waiting below: only the faces
/// that read what the comm stream writes.)
template <int Rank>
struct overlap_split {
  block_box<Rank> inner;
  std::vector<block_box<Rank>> shell;
};

/// Per face (axis, low/high side): whether the block's cells within g of it wait for the
/// comm stream, that is, read ghosts it writes.
template <int Rank>
using faces_waiting = std::array<std::array<bool, 2>, Rank>;

/// The same where only the faces in `waits` wait: the inner box reaches every other face
/// of a split axis (a global face whose ghosts no step writes, such as Dirichlet walls
/// filled once), and the shell has slabs only where a face waits, so a block with one
/// neighbour an axis sweeps half the shell's boxes. Inner and shell still tile the block.
template <int Rank>
overlap_split<Rank> overlap_boxes(const std::array<int, Rank>& dims, const extents<Rank>& n, int g,
                                  const faces_waiting<Rank>& waits) {
  overlap_split<Rank> s;
  s.inner.count = n;
  for (int a = 0; a < Rank; ++a)
    if (dims[a] > 1)
      for (int side = 0; side < 2; ++side)
        if (waits[a][side]) {
          if (side == 0) s.inner.first[a] = g;
          s.inner.count[a] -= g;
        }
  for (int k = 0; k < Rank; ++k) {
    if (dims[k] == 1) continue;
    for (int side = 0; side < 2; ++side) {
      if (!waits[k][side]) continue;
      block_box<Rank> b;
      b.count = n;
      for (int j = 0; j < k; ++j) b.first[j] = s.inner.first[j], b.count[j] = s.inner.count[j];
      b.first[k] = side == 0 ? 0 : n[k] - g;
      b.count[k] = g;
      s.shell.push_back(b);
    }
  }
  return s;
}

/// The faces of this rank's block that wait for the comm stream in a step: those with a
/// neighbour (their halos are messages), and the global faces too where a step fills their
/// ghosts (`global_faces_filled`: conditions other than walls filled once).
template <int Rank>
faces_waiting<Rank> faces_waiting_for_halos(const cartesian_domain<Rank>& dom, bool global_faces_filled) {
  faces_waiting<Rank> w{};
  for (int a = 0; a < Rank; ++a)
    for (int side = 0; side < 2; ++side)
      w[a][side] = global_faces_filled || dom.neighbour(a, side) != MPI_PROC_NULL;
  return w;
}

template <int Rank>
overlap_split<Rank> overlap_boxes(const std::array<int, Rank>& dims, const extents<Rank>& n, int g) {
  faces_waiting<Rank> every{};
  for (auto& f : every) f = {true, true};
  return overlap_boxes<Rank>(dims, n, g, every);
}

}  // namespace tessera::mpi
