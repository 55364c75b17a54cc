#pragma once
// Parallel VTK ImageData (.pvti): an index naming the pieces (.vti files) of one grid,
// which ParaView opens as one field. write_pvti writes the index for pieces already
// written (write_vti with the piece's first index); read_pvti assembles the whole grid
// from an index and its pieces.
//
// read_pvti treats the index and every piece as hostile: the strict XML subset write_pvti
// and VTK write (PImageData, one PDataArray, self-closing Pieces), at most 65,536 pieces,
// sources relative to the index's folder without '..' or symbolic links, each named once,
// each piece inside the
// WholeExtent and of the type asked for, every point of the WholeExtent covered by some
// piece (pieces may overlap, as VTK's do by one layer), and the pieces' files at least as
// large as their extents need, all checked before the whole grid is allocated. Pieces are
// read by read_vti (with all its checks), their extents compared with the index's.
// read_pvti_box reads one part of the grid: only the pieces that meet it are opened,
// and only the part is allocated (what each rank of a distributed run reads).
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "tessera/io/vti.hpp"

namespace tessera::io {

/// One piece of a .pvti: the global index range [first, last] per axis (inclusive, as VTK
/// writes extents; tessera's axis order) and its file, relative to the index's folder.
template <int Rank>
struct pvti_piece {
  array<index_t, Rank> first{}, last{};
  std::string source;
};

/// Writes the index `path` of a grid of `whole` extents made of `pieces`, array `name` of T.
template <class T, int Rank>
void write_pvti(const std::string& path, const std::string& name, const extents<Rank>& whole,
                const grid_geometry<Rank>& geometry, const std::vector<pvti_piece<Rank>>& pieces,
                special_output special = special_output::refuse) {
  auto ext = [](const array<index_t, Rank>& lo, const array<index_t, Rank>& hi) {
    std::string s;
    for (int a = 0; a < 3; ++a) {  // x, y, z
      const int d = Rank - 1 - a;
      if (a) s += ' ';
      if (d >= 0) {
        s += std::to_string(lo[d]);
        s += ' ';
        s += std::to_string(hi[d]);
      } else {
        s += "0 0";
      }
    }
    return s;
  };
  array<index_t, Rank> zero{}, last{};
  for (int d = 0; d < Rank; ++d) last[d] = whole[d] - 1;
  std::string spacing, origin;
  for (int a = 0; a < 3; ++a) {
    const int d = Rank - 1 - a;
    if (a) spacing += ' ', origin += ' ';
    spacing += detail::vti_number(d >= 0 ? geometry.spacing[d] : 1.0);
    origin += detail::vti_number(d >= 0 ? geometry.origin[d] : 0.0);
  }
  std::string text =
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"PImageData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
      "  <PImageData WholeExtent=\"" + ext(zero, last) + "\" GhostLevel=\"0\" Origin=\"" + origin + "\" Spacing=\"" +
      spacing + "\">\n"
      "    <PPointData Scalars=\"" + name + "\">\n"
      "      <PDataArray type=\"" + std::string(sizeof(T) == 4 ? "Float32" : "Float64") + "\" Name=\"" + name + "\"/>\n"
      "    </PPointData>\n";
  for (const auto& p : pieces) text += "    <Piece Extent=\"" + ext(p.first, p.last) + "\" Source=\"" + p.source + "\"/>\n";
  text += "  </PImageData>\n</VTKFile>\n";
  write_atomically(path, [&](std::ostream& f) { f.write(text.data(), static_cast<std::streamsize>(text.size())); },
                   special);
}

/// A box of a grid: the global index of its first point and its extents.
template <int Rank>
struct grid_box {
  array<index_t, Rank> first{};
  extents<Rank> n;
};

namespace detail {
/// read_pvti and read_pvti_box: the box of the index's grid (the whole grid when `box` is
/// null), checked against the WholeExtent, which goes to *whole when asked.
template <class T, int Rank>
View<T, Rank, HostSpace> read_pvti_part(const std::string& path, const std::string& label, int ghost,
                                        const grid_box<Rank>* box, extents<Rank>* whole_extents,
                                        grid_geometry<Rank>* geometry) {
  namespace fs = std::filesystem;
  input_file in(path, "tessera::read_pvti");
  auto fail = [&](const std::string& why) { throw in.error(why); };
  constexpr std::uint64_t max_index = 16 << 20;  // 65,536 pieces of ~200 bytes
  if (in.size() > max_index) fail("is larger than an index of 65,536 pieces can be (16 MiB)");
  std::string text(static_cast<std::size_t>(in.size()), '\0');
  in.read(text.data(), text.size(), "its XML");
  detail::vti_header_parser xml(text, fail);
  const auto file = xml.expect("VTKFile");
  xml.only(file, {"type", "version", "byte_order", "header_type", "compressor"});
  if (!file.find("type") || *file.find("type") != "PImageData") fail("is not a parallel VTK ImageData index (type PImageData)");
  const auto image = xml.expect("PImageData");
  xml.only(image, {"WholeExtent", "GhostLevel", "Origin", "Spacing"});
  if (!image.find("WholeExtent")) fail("has no WholeExtent attribute");
  if (image.find("GhostLevel") && *image.find("GhostLevel") != "0") fail("has a GhostLevel other than 0");
  const auto whole = detail::vti_integers(*image.find("WholeExtent"), 6, "WholeExtent", fail);
  const auto origin = image.find("Origin") ? detail::vti_reals(*image.find("Origin"), 3, "Origin", fail)
                                            : std::vector<double>{0, 0, 0};
  const auto spacing = image.find("Spacing") ? detail::vti_reals(*image.find("Spacing"), 3, "Spacing", fail)
                                              : std::vector<double>{1, 1, 1};
  extents<Rank> e;
  for (int a = 0; a < 3; ++a) {
    index_t len = 0;
    if (whole[2 * a] != 0 || whole[2 * a + 1] < 0 || !tessera::detail::checked_add<index_t>(whole[2 * a + 1], 1, len))
      fail("has a WholeExtent that does not start at 0 or is empty on axis " + std::to_string(a));
    if (a >= Rank && len != 1) fail("is not " + std::to_string(Rank) + "D");
    if (a < Rank) e[Rank - 1 - a] = len;
  }
  const auto pdata = xml.expect("PPointData");
  xml.only(pdata, {"Scalars", "Vectors", "Normals", "Tensors", "TCoords"});
  const auto parray = xml.expect("PDataArray");
  xml.only(parray, {"type", "Name", "NumberOfComponents"});
  const std::string want = sizeof(T) == 4 ? "Float32" : "Float64";
  if (!parray.self_closing) fail("has a PDataArray with content");
  if (!parray.find("type") || *parray.find("type") != want)
    fail("holds " + (parray.find("type") ? *parray.find("type") : std::string("no type")) + ", but " + want +
         " was asked for");
  if (parray.find("NumberOfComponents") && *parray.find("NumberOfComponents") != "1") fail("holds a vector field");
  xml.expect("PPointData", true);

  struct piece {
    array<index_t, Rank> first{}, count{};
    fs::path file;
  };
  std::vector<piece> pieces;
  std::set<std::string> sources;
  const fs::path folder = fs::path(path).parent_path();
  for (;;) {
    const auto t = xml.next();
    if (t.name == "PImageData" && t.closing) break;
    if (t.name != "Piece" || t.closing || !t.self_closing) fail("has <" + t.name + "> where a <Piece .../> was expected");
    xml.only(t, {"Extent", "Source"});
    if (pieces.size() == 65536) fail("has more than 65,536 pieces");
    if (!t.find("Extent") || !t.find("Source")) fail("has a Piece without Extent or Source");
    const auto ex = detail::vti_integers(*t.find("Extent"), 6, "Piece Extent", fail);
    const std::string& src = *t.find("Source");
    const fs::path sp(src);
    bool up = false;
    for (const auto& part : sp) up = up || part == "..";
    if (src.empty() || sp.is_absolute() || up)
      fail("has a Piece Source '" + src + "'; sources are relative paths inside the index's folder, without '..'");
    // a link anywhere on the way would lead out of the folder as '..' would
    fs::path on_the_way = folder;
    for (const auto& part : sp) {
      on_the_way /= part;
      if (fs::is_symlink(on_the_way))
        fail("has a Piece Source '" + src + "' through the symbolic link '" + on_the_way.string() +
             "'; pieces are files inside the index's folder");
    }
    if (!sources.insert(src).second)
      fail("names the piece '" + src + "' twice; each piece is one part of the grid");
    piece p;
    for (int a = 0; a < 3; ++a) {
      const bool inside = ex[2 * a] >= whole[2 * a] && ex[2 * a] <= ex[2 * a + 1] && ex[2 * a + 1] <= whole[2 * a + 1];
      if (!inside) fail("has a Piece ('" + src + "') whose Extent leaves the WholeExtent on axis " + std::to_string(a));
      if (a < Rank) p.first[Rank - 1 - a] = ex[2 * a], p.count[Rank - 1 - a] = ex[2 * a + 1] - ex[2 * a] + 1;
    }
    p.file = folder / sp;
    pieces.push_back(p);
  }
  xml.expect("VTKFile", true);
  if (!xml.at_end()) fail("has bytes after </VTKFile>");
  if (pieces.empty()) fail("has no pieces");
  if (!e.checked_size()) fail("has a WholeExtent whose point count overflows 64 bits");
  // The box read: the whole grid, or the caller's part of it.
  grid_box<Rank> box_read{{}, e};
  if (box) {
    for (int d = 0; d < Rank; ++d)
      if (box->first[d] < 0 || box->n[d] < 1 || box->first[d] > e[d] - box->n[d])
        fail("holds a grid of " + e.to_string() + "; the part asked for (" + box->n.to_string() +
             " points from index " + std::to_string(box->first[d]) + " on axis " + std::to_string(d) +
             ") does not lie inside it");
    box_read = *box;
  }
  // Only the pieces that meet the box are read.
  std::erase_if(pieces, [&](const piece& p) {
    for (int d = 0; d < Rank; ++d)
      if (p.first[d] + p.count[d] <= box_read.first[d] || p.first[d] >= box_read.first[d] + box_read.n[d]) return true;
    return false;
  });
  // Every point of the box covered, and every piece's file large enough for its extent,
  // before the box is allocated: a small index cannot make tessera allocate a large grid.
  const index_t box_points = box_read.n.size();
  index_t covered_points = 0;
  for (const auto& p : pieces) {
    index_t pts = 1, in_box = 1;  // within the WholeExtent's count, which did not overflow
    for (int d = 0; d < Rank; ++d) {
      pts *= p.count[d];
      in_box *= std::min(p.first[d] + p.count[d], box_read.first[d] + box_read.n[d]) - std::max(p.first[d], box_read.first[d]);
    }
    std::error_code ec;
    const auto size = fs::file_size(p.file, ec);
    if (ec) fail("names a piece '" + p.file.string() + "' that cannot be read (" + ec.message() + ")");
    if (size / sizeof(T) < static_cast<std::uint64_t>(pts))
      fail("names a piece '" + p.file.string() + "' smaller than its Extent's data");
    covered_points = covered_points > box_points - in_box ? box_points : covered_points + in_box;
  }
  const std::string part = box ? "the part asked for of its WholeExtent " : "its WholeExtent ";
  if (covered_points < box_points) fail("has pieces that cannot cover " + part + e.to_string());
  auto v = in.new_view<T>(label, box_read.n, ghost);
  std::vector<bool> covered(static_cast<std::size_t>(box_points), false);
  const auto a = v.accessor();
  for (const auto& p : pieces) {
    array<index_t, Rank> first{};
    const auto part = read_vti<T, Rank>(p.file.string(), label + "_piece", 0, nullptr, &first);
    for (int d = 0; d < Rank; ++d)
      if (first[d] != p.first[d] || part.extents()[d] != p.count[d])
        fail("names a piece '" + p.file.string() + "' whose own extent differs from the index's");
    const auto b = part.accessor();
    // the piece's points inside the box, in the piece's own indices
    index_t lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    for (int d = 0; d < Rank; ++d) {
      lo[3 - Rank + d] = std::max<index_t>(0, box_read.first[d] - p.first[d]);
      hi[3 - Rank + d] = std::min(p.count[d], box_read.first[d] + box_read.n[d] - p.first[d]);
    }
    for (index_t i = lo[0]; i < hi[0]; ++i)
      for (index_t j = lo[1]; j < hi[1]; ++j)
        for (index_t k = lo[2]; k < hi[2]; ++k) {
          const index_t l[3] = {i, j, k};
          index_t src = 0, dst = 0, flat = 0;
          for (int d = 0; d < Rank; ++d) {
            const index_t g = p.first[d] + l[3 - Rank + d] - box_read.first[d];  // in the box
            src += l[3 - Rank + d] * b.stride[d];
            dst += g * a.stride[d];
            flat = flat * box_read.n[d] + g;
          }
          a.origin[dst] = b.origin[src];
          covered[static_cast<std::size_t>(flat)] = true;
        }
  }
  for (std::size_t i = 0; i < covered.size(); ++i)
    if (!covered[i]) fail("has pieces that leave point " + std::to_string(i) + " (row-major) of " + part + "uncovered");
  if (whole_extents) *whole_extents = e;
  if (geometry)
    for (int d = 0; d < Rank; ++d) {
      geometry->spacing[d] = spacing[Rank - 1 - d];
      geometry->origin[d] = origin[Rank - 1 - d];
    }
  return v;
}
}  // namespace detail

/// The grid of a .pvti index, with `ghost` layers (zero), and its geometry when asked.
template <class T, int Rank>
View<T, Rank, HostSpace> read_pvti(const std::string& path, const std::string& label, int ghost,
                                   grid_geometry<Rank>* geometry = nullptr) {
  return detail::read_pvti_part<T, Rank>(path, label, ghost, nullptr, nullptr, geometry);
}

/// Part `box` of the grid of a .pvti index: reads only the pieces that meet the box (a
/// rank of a distributed run reads its block, not the grid). *whole gets the grid's extents.
template <class T, int Rank>
View<T, Rank, HostSpace> read_pvti_box(const std::string& path, const std::string& label, int ghost,
                                       const grid_box<Rank>& box, extents<Rank>* whole = nullptr,
                                       grid_geometry<Rank>* geometry = nullptr) {
  return detail::read_pvti_part<T, Rank>(path, label, ghost, &box, whole, geometry);
}

/// The Source of every Piece of the .pvti index `path`, as written there (relative to its
/// folder); empty when the file is absent or not an index tessera can parse. For replacing
/// an index's pieces (mpi::write_pvti removes the pieces of the index it replaced).
inline std::vector<std::string> pvti_sources(const std::string& path) {
  std::vector<std::string> out;
  try {
    input_file in(path, "tessera::pvti_sources");
    if (in.size() > (16 << 20)) return {};
    std::string text(static_cast<std::size_t>(in.size()), '\0');
    in.read(text.data(), text.size(), "its XML");
    auto fail = [&](const std::string& why) { throw in.error(why); };
    detail::vti_header_parser xml(text, fail);
    for (;;) {
      const auto t = xml.next();
      if (t.name == "VTKFile" && t.closing) break;
      if (t.name == "Piece" && t.find("Source")) out.push_back(*t.find("Source"));
    }
  } catch (const std::exception&) {
    return {};
  }
  return out;
}

}  // namespace tessera::io
