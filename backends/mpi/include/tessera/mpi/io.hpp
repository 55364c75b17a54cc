#pragma once
// Files of distributed views. write_pvti: every rank writes its block as a .vti piece
// (<stem>_<rank>.vti beside the index, its extent in global indices, one layer of its high
// neighbours' points included so that ParaView draws no gap between pieces), rank 0
// writes the .pvti index; ParaView opens the index as one field. read_pvti: every rank
// reads the index and the pieces (io::read_pvti, hostile-file checks included) and keeps
// its block (fine for the sizes one process can hold). For .npy, gather() on rank 0.
// Both are collective; an error on any rank is thrown on every rank.
#include <mpi.h>

#include <filesystem>
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

/// Writes u as `path` (.pvti) plus one .vti piece per rank. Fills u's halos first (without
/// boundary conditions) for the overlap layer, so u's ghost cells change.
template <class T, int Rank>
void write_pvti(const std::string& path, const distributed_view<T, Rank, HostSpace>& u, const std::string& name,
                const io::grid_geometry<Rank>& geometry) {
  const auto& dom = u.domain();
  namespace fs = std::filesystem;
  const fs::path index(path);
  const std::string stem = index.stem().string();
  const std::string source = stem + "_" + std::to_string(dom.rank()) + ".vti";
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
    io::write_vti((index.parent_path() / source).string(), piece, name, geometry, first);
  } catch (const std::exception& e) {
    error = e.what();
  }
  detail::agree(dom, "tessera::mpi::write_pvti('" + path + "')", error);
  // every piece's extent on rank 0, which writes the index
  std::vector<long long> mine(2 * Rank), all(static_cast<std::size_t>(2 * Rank * dom.size()));
  for (int d = 0; d < Rank; ++d) mine[d] = first[d], mine[Rank + d] = first[d] + n[d] - 1;
  tessera::mpi::detail::check(MPI_Gather(mine.data(), 2 * Rank, MPI_LONG_LONG, all.data(), 2 * Rank, MPI_LONG_LONG, 0,
                                         dom.comm()),
                              "MPI_Gather");
  error.clear();
  if (dom.rank() == 0) {
    try {
      std::vector<io::pvti_piece<Rank>> pieces(static_cast<std::size_t>(dom.size()));
      for (int r = 0; r < dom.size(); ++r) {
        for (int d = 0; d < Rank; ++d) pieces[r].first[d] = all[2 * Rank * r + d], pieces[r].last[d] = all[2 * Rank * r + Rank + d];
        pieces[r].source = stem + "_" + std::to_string(r) + ".vti";
      }
      io::write_pvti<T, Rank>(path, name, dom.global_extents(), geometry, pieces);
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  detail::agree(dom, "tessera::mpi::write_pvti('" + path + "')", error);
}

/// Reads a .pvti into u's interior (every rank reads the whole grid and keeps its block).
template <class T, int Rank>
void read_pvti(const std::string& path, const distributed_view<T, Rank, HostSpace>& u) {
  std::string error;
  View<T, Rank, HostSpace> whole;
  try {
    whole = io::read_pvti<T, Rank>(path, u.label() + "_whole", 0);
    if (!(whole.extents() == u.global_extents()))
      throw io::io_error("tessera::mpi::read_pvti: '" + path + "' holds a grid of " + whole.extents().to_string() +
                         ", the domain's is " + u.global_extents().to_string());
  } catch (const std::exception& e) {
    error = e.what();
  }
  detail::agree(u.domain(), "tessera::mpi::read_pvti('" + path + "')", error);
  scatter_from(whole, u);
}

}  // namespace tessera::mpi
