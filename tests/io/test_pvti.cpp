// .pvti: an index and its .vti pieces written and read back as one grid; hostile indexes
// refused with the file and the reason named, before the whole grid is allocated.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <tessera/io/pvti.hpp>

#include "../support/scratch_files.hpp"
#include "../support/test_support.hpp"

namespace ts = tessera;
namespace io = tessera::io;
using namespace ts::test;

namespace {

/// Writes `whole` as pieces split along axis 0 at `cuts` (pieces overlap by `overlap`
/// layers on the high side, as VTK's do), plus the index; returns the index's path.
template <class T, int Rank>
std::string write_pieces(const std::string& stem, const ts::View<T, Rank>& whole, const std::vector<int>& cuts,
                         int overlap) {
  std::vector<io::pvti_piece<Rank>> pieces;
  const auto n = whole.extents();
  io::grid_geometry<Rank> geo{io::grid_geometry<Rank>::uniform(0.5), io::grid_geometry<Rank>::uniform(-1.0)};
  for (std::size_t p = 0; p + 1 < cuts.size(); ++p) {
    ts::extents<Rank> e = n;
    const int lo = cuts[p], hi = std::min<int>(cuts[p + 1] + overlap, static_cast<int>(n[0]));
    e[0] = hi - lo;
    ts::View<T, Rank> part("part", e, 0);
    for_each_point<Rank>(e, 0, [&](auto... i) {
      ts::index_t idx[] = {static_cast<ts::index_t>(i)...};
      idx[0] += lo;
      if constexpr (Rank == 2) part(i...) = whole(idx[0], idx[1]);
      else part(i...) = whole(idx[0], idx[1], idx[2]);
    });
    io::pvti_piece<Rank> pc;
    pc.first[0] = lo;
    pc.last[0] = hi - 1;
    for (int d = 1; d < Rank; ++d) pc.last[d] = n[d] - 1;
    pc.source = stem + "_" + std::to_string(p) + ".vti";
    io::write_vti(scratch_path(pc.source), part, "u", geo, pc.first);
    pieces.push_back(pc);
  }
  const std::string index = scratch_path(stem + ".pvti");
  io::write_pvti<T, Rank>(index, "u", n, geo, pieces);
  return index;
}

}  // namespace

TEST_CASE("pvti: pieces written and read back as one grid, 2D and 3D, with and without overlap") {
  ts::View<double, 3> a("a", ts::extents<3>{11, 7, 5}, 1);
  fill_random(a, 1);
  for (int overlap : {0, 1}) {
    const auto index = write_pieces("p3_" + std::to_string(overlap), a, {0, 4, 5, 11}, overlap);
    io::grid_geometry<3> geo;
    const auto b = io::read_pvti<double, 3>(index, "b", 2, &geo);
    CHECK(b.extents() == a.extents());
    CHECK(b.ghost() == 2);
    CHECK(max_relative_error(b, a) == 0);
    CHECK(geo.spacing[0] == 0.5);
    CHECK(geo.origin[2] == -1.0);
  }
  ts::View<float, 2> c("c", ts::extents<2>{9, 13}, 0);
  fill_random(c, 2);
  const auto d = io::read_pvti<float, 2>(write_pieces("p2", c, {0, 3, 9}, 1), "d", 0);
  CHECK(max_relative_error(d, c) == 0);
  const std::string text = slurp(scratch_path("p2.pvti"));
  CHECK(text.find("<Piece Extent=\"0 12 0 3 0 0\" Source=\"p2_0.vti\"/>") != std::string::npos);
}

TEST_CASE("pvti: a box of the grid reads only the pieces that meet it") {
  ts::View<double, 3> a("a", ts::extents<3>{11, 7, 5}, 0);
  fill_random(a, 3);
  const auto index = write_pieces("pbox", a, {0, 4, 5, 11}, 1);
  // every box of a few shapes and places, checked point by point against the grid
  for (const auto& [first, n] : {std::pair{ts::array<ts::index_t, 3>{{0, 0, 0}}, ts::extents<3>{11, 7, 5}},
                                 std::pair{ts::array<ts::index_t, 3>{{3, 2, 1}}, ts::extents<3>{5, 4, 3}},
                                 std::pair{ts::array<ts::index_t, 3>{{4, 0, 0}}, ts::extents<3>{1, 7, 5}},
                                 std::pair{ts::array<ts::index_t, 3>{{10, 6, 4}}, ts::extents<3>{1, 1, 1}}}) {
    ts::extents<3> whole;
    const auto b = io::read_pvti_box<double, 3>(index, "b", 1, io::grid_box<3>{first, n}, &whole);
    INFO(n.to_string());
    CHECK(whole == a.extents());
    CHECK(b.extents() == n);
    CHECK(b.ghost() == 1);
    ts::index_t bad = 0;
    for_each_point<3>(n, 0, [&](auto i, auto j, auto k) {
      if (!(b(i, j, k) == a(i + first[0], j + first[1], k + first[2]))) ++bad;
    });
    CHECK(bad == 0);
  }
  // a box inside the first piece never opens the others: remove the last piece's file
  std::filesystem::remove(scratch_path("pbox_2.vti"));
  const auto c = io::read_pvti_box<double, 3>(index, "c", 0, io::grid_box<3>{{{0, 0, 0}}, ts::extents<3>{4, 7, 5}});
  CHECK(c(3, 6, 4) == a(3, 6, 4));
  CHECK(message_of<io::io_error>([&] { io::read_pvti<double, 3>(index, "d", 0); }).find("pbox_2.vti") !=
        std::string::npos);
  // a box outside the grid is refused by name
  const auto msg = message_of<io::io_error>(
      [&] { io::read_pvti_box<double, 3>(index, "e", 0, io::grid_box<3>{{{8, 0, 0}}, ts::extents<3>{4, 7, 5}}); });
  CHECK(msg.find("does not lie inside it") != std::string::npos);
  CHECK(msg.find("pbox.pvti") != std::string::npos);
}

TEST_CASE("pvti: hostile indexes are refused by name") {
  ts::View<double, 3> a("a", ts::extents<3>{6, 5, 4}, 0);
  fill_random(a, 3);
  const auto index = write_pieces("h", a, {0, 3, 6}, 0);
  const std::string good = slurp(index);
  auto refused = [&](const std::string& text) {
    const std::string p = scratch_path("hostile.pvti");
    spit(p, text);
    return message_of<io::io_error>([&] { io::read_pvti<double, 3>(p, "x", 0); });
  };
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string t = good;
    const auto at = t.find(from);
    REQUIRE(at != std::string::npos);
    return t.replace(at, from.size(), to);
  };
  CHECK(refused(replaced("Source=\"h_1.vti\"", "Source=\"../h_1.vti\"")).find("without '..'") != std::string::npos);
  CHECK(refused(replaced("Source=\"h_1.vti\"", "Source=\"/etc/passwd\"")).find("relative paths") != std::string::npos);
  CHECK(refused(replaced("Source=\"h_1.vti\"", "Source=\"missing.vti\"")).find("cannot be read") != std::string::npos);
  // a gap: the second piece starts one layer late
  CHECK(refused(replaced("Extent=\"0 3 0 4 3 5\"", "Extent=\"0 3 0 4 4 5\"")).find("cannot cover") !=
        std::string::npos);
  CHECK(refused(replaced("Extent=\"0 3 0 4 3 5\"", "Extent=\"0 3 0 4 3 6\"")).find("leaves the WholeExtent") !=
        std::string::npos);
  CHECK(refused(replaced("type=\"Float64\"", "type=\"Float32\"")).find("holds Float32, but Float64") !=
        std::string::npos);
  // a grid of 2^40 points announced by a 600-byte index: refused before any allocation
  CHECK(refused(replaced("WholeExtent=\"0 3 0 4 0 5\"", "WholeExtent=\"0 1048575 0 1048575 0 5\""))
            .find("cannot cover") != std::string::npos);
  CHECK(refused(replaced("GhostLevel=\"0\"", "GhostLevel=\"1\"")).find("GhostLevel") != std::string::npos);
  CHECK(refused(replaced("</PImageData>", "<Piece/></PImageData>")).find("without Extent or Source") !=
        std::string::npos);
  CHECK(refused(good + "junk").find("bytes after") != std::string::npos);
  // a piece whose own extent is not the index's (the files of two pieces swapped)
  std::string swapped = replaced("Source=\"h_0.vti\"", "Source=\"h_X.vti\"");
  swapped.replace(swapped.find("Source=\"h_1.vti\""), 16, "Source=\"h_0.vti\"");
  swapped.replace(swapped.find("Source=\"h_X.vti\""), 16, "Source=\"h_1.vti\"");
  CHECK(refused(swapped).find("own extent differs") != std::string::npos);
  // one piece named many times (a small index that once kept a reader busy for minutes)
  std::string repeated = good;
  const std::string line = "    <Piece Extent=\"0 3 0 4 0 2\" Source=\"h_0.vti\"/>\n";
  REQUIRE(repeated.find(line) != std::string::npos);
  repeated.insert(repeated.find(line), line + line);
  CHECK(refused(repeated).find("names the piece 'h_0.vti' twice") != std::string::npos);
  // a piece that is a symbolic link (out of the folder, as '..' would lead)
  const auto outside = std::filesystem::temp_directory_path() / ("tessera-outside-" + std::to_string(::getpid()) + ".vti");
  std::filesystem::copy_file(scratch_path("h_1.vti"), outside, std::filesystem::copy_options::overwrite_existing);
  std::filesystem::remove(scratch_path("h_link.vti"));
  std::filesystem::create_symlink(outside, scratch_path("h_link.vti"));
  CHECK(refused(replaced("Source=\"h_1.vti\"", "Source=\"h_link.vti\"")).find("through the symbolic link") !=
        std::string::npos);
  std::filesystem::remove(outside);
}
