#pragma once
// Files of distributed views. write_pvti: every rank writes its block as a .vti piece
// (<stem>_<write>_<rank>.vti beside the index, its extent in global indices, one layer of its
// high neighbours' points included so that ParaView draws no gap between pieces), rank 0
// writes the .pvti index; ParaView opens the index as one field. read_pvti: every rank
// reads the index and the pieces that meet its block (io::read_pvti_box, hostile-file
// checks included), never the whole grid. For .npy, gather() on rank 0.
// Both are collective; an error on any rank is thrown on every rank.
//
// A write replaces an earlier one whole or not at all. Its pieces carry a name of their own
// (<write>: 8 random hex digits, one per write), so they never overwrite the pieces the
// earlier index names; the index is renamed into place (io::write_atomically) only after
// every rank has written its piece, and the earlier index's pieces are removed only after
// that. A write that fails on any rank removes its own pieces and leaves the earlier index
// and pieces as they were: a reader sees the old grid or the new one, never pieces of both.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "tessera/io/pvti.hpp"
#include "tessera/mpi/gather.hpp"
#include "tessera/mpi/halo_exchange.hpp"

namespace tessera::mpi {

namespace detail {
/// Throws io_error(what + each failing rank's message) on every rank when any rank failed.
template <int Rank>
void agree(const cartesian_domain<Rank>& dom, const std::string& what, const std::string& mine) {
  int failed = mine.empty() ? 0 : 1, any = 0;
  tessera::mpi::detail::check(MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, dom.comm()), "MPI_Allreduce");
  if (any) throw io::io_error(what + (mine.empty() ? ": failed on another rank" : ": " + mine));
}
}  // namespace detail

/// Writes u as `path` (.pvti) plus one .vti piece per rank (see the header comment). Fills
/// u's halos first (without boundary conditions) for the overlap layer, so u's ghost cells
/// change. `special`: as io::write_atomically, for the index.
template <class T, int Rank>
void write_pvti(const std::string& path, const distributed_view<T, Rank, HostSpace>& u, const std::string& name,
                const io::grid_geometry<Rank>& geometry, io::special_output special = io::special_output::refuse) {
  const auto& dom = u.domain();
  namespace fs = std::filesystem;
  const fs::path index(path);
  const std::string stem = index.stem().string();
  // this write's name, the same on every rank
  char write_id[9] = {};
  if (dom.rank() == 0) {
    std::random_device rd;
    const unsigned long long r = (static_cast<unsigned long long>(rd()) << 32) ^ rd() ^
                                 static_cast<unsigned long long>(std::chrono::steady_clock::now().time_since_epoch().count());
    std::snprintf(write_id, sizeof write_id, "%08llx", r & 0xffffffffULL);
  }
  tessera::mpi::detail::check(MPI_Bcast(write_id, sizeof write_id, MPI_CHAR, 0, dom.comm()), "MPI_Bcast");
  auto piece_name = [&](int r) { return stem + "_" + write_id + "_" + std::to_string(r) + ".vti"; };
  const fs::path mine = index.parent_path() / piece_name(dom.rank());
  // the block plus one layer towards each high neighbour inside the grid (needs a ghost layer)
  extents<Rank> n = u.local().extents();
  array<index_t, Rank> first{};
  if (u.ghost() > 0) fill_halos(u);
  for (int d = 0; d < Rank; ++d) {
    first[d] = dom.offset()[d];
    if (u.ghost() > 0 && first[d] + n[d] < dom.global_extents()[d]) n[d] += 1;
  }
  std::string error;
  try {
    View<T, Rank, HostSpace> piece(u.label() + "_piece", n, 0);
    const auto a = u.local().accessor();
    const auto b = piece.accessor();
    index_t hi[3] = {1, 1, 1};
    for (int d = 0; d < Rank; ++d) hi[3 - Rank + d] = n[d];
    for (index_t i = 0; i < hi[0]; ++i)
      for (index_t j = 0; j < hi[1]; ++j)
        for (index_t k = 0; k < hi[2]; ++k) {
          const index_t l[3] = {i, j, k};
          index_t src = 0, dst = 0;
          for (int d = 0; d < Rank; ++d) src += l[3 - Rank + d] * a.stride[d], dst += l[3 - Rank + d] * b.stride[d];
          b.origin[dst] = a.origin[src];
        }
    io::write_vti(mine.string(), piece, name, geometry, first);
  } catch (const std::exception& e) {
    error = e.what();
  }
  // a failure anywhere: every rank takes its new piece back (the earlier index names none)
  auto take_back = [&] {
    std::error_code ec;
    fs::remove(mine, ec);
  };
  try {
    detail::agree(dom, "tessera::mpi::write_pvti('" + path + "')", error);
  } catch (...) {
    take_back();
    throw;
  }
  // every piece's extent on rank 0, which writes the index
  std::vector<long long> extent(2 * Rank), all(static_cast<std::size_t>(2 * Rank * dom.size()));
  for (int d = 0; d < Rank; ++d) extent[d] = first[d], extent[Rank + d] = first[d] + n[d] - 1;
  tessera::mpi::detail::check(MPI_Gather(extent.data(), 2 * Rank, MPI_LONG_LONG, all.data(), 2 * Rank, MPI_LONG_LONG,
                                         0, dom.comm()),
                              "MPI_Gather");
  error.clear();
  std::vector<std::string> replaced;  // the earlier index's pieces (rank 0)
  if (dom.rank() == 0) {
    try {
      replaced = io::pvti_sources(path);
      std::vector<io::pvti_piece<Rank>> pieces(static_cast<std::size_t>(dom.size()));
      for (int r = 0; r < dom.size(); ++r) {
        for (int d = 0; d < Rank; ++d) pieces[r].first[d] = all[2 * Rank * r + d], pieces[r].last[d] = all[2 * Rank * r + Rank + d];
        pieces[r].source = piece_name(r);
      }
      io::write_pvti<T, Rank>(path, name, dom.global_extents(), geometry, pieces, special);
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  try {
    detail::agree(dom, "tessera::mpi::write_pvti('" + path + "')", error);
  } catch (...) {
    take_back();
    throw;
  }
  // the earlier write's pieces: plain files of the index's folder that the new index does
  // not name (a source through a link or out of the folder is left alone)
  if (dom.rank() == 0)
    for (const auto& src : replaced) {
      const fs::path sp(src);
      if (sp.has_parent_path() || sp.is_absolute() || src.rfind(stem + "_", 0) != 0) continue;
      const fs::path old = index.parent_path() / sp;
      std::error_code ec;
      if (fs::is_regular_file(fs::symlink_status(old, ec)) && src.find(write_id) == std::string::npos) fs::remove(old, ec);
    }
}

/// Reads a .pvti into u's interior: every rank opens the index and only the pieces that
/// meet its block (io::read_pvti_box, hostile-file checks included).
template <class T, int Rank>
void read_pvti(const std::string& path, const distributed_view<T, Rank, HostSpace>& u) {
  std::string error;
  View<T, Rank, HostSpace> block;
  try {
    extents<Rank> whole;
    io::grid_box<Rank> box{{}, u.domain().local_extents()};
    for (int d = 0; d < Rank; ++d) box.first[d] = u.domain().offset()[d];
    block = io::read_pvti_box<T, Rank>(path, u.label() + "_block", 0, box, &whole);
    if (!(whole == u.global_extents()))
      throw io::io_error("tessera::mpi::read_pvti: '" + path + "' holds a grid of " + whole.to_string() +
                         ", the domain's is " + u.global_extents().to_string());
  } catch (const std::exception& e) {
    error = e.what();
  }
  detail::agree(u.domain(), "tessera::mpi::read_pvti('" + path + "')", error);
  const auto from = block.accessor();
  const auto to = u.local().accessor();
  const auto& n = u.domain().local_extents();
  const index_t rows = n.size() / n[Rank - 1];
  for (index_t r = 0; r < rows; ++r) {  // row r of the block: its index on the axes before the last
    index_t src = 0, dst = 0, rest = r;
    for (int d = Rank - 2; d >= 0; --d) {
      const index_t i = rest % n[d];
      rest /= n[d];
      src += i * from.stride[d], dst += i * to.stride[d];
    }
    for (index_t x = 0; x < n[Rank - 1]; ++x) to.origin[dst + x] = from.origin[src + x];
  }
}

}  // namespace tessera::mpi
