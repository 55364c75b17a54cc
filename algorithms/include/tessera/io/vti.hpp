#pragma once
// VTK ImageData (.vti, XML, raw appended binary, opens in ParaView/VisIt) of the interior
// of a host view: point data named `name`, spacing h, origin 0. tessera's row-major
// (z, y, x) order with x contiguous is VTK's point order (x fastest), so the payload is
// the interior as it lies in memory, row by row.
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "tessera/core/view.hpp"
#include "tessera/io/atomic_file.hpp"
#include "tessera/io/npy.hpp"

namespace tessera::io {

template <class T, int Rank>
void write_vti(const std::string& path, const View<T, Rank, HostSpace>& v, const std::string& name = "u",
               double h = 1.0) {
  index_t n[3] = {1, 1, 1};  // x, y, z
  for (int d = 0; d < Rank; ++d) n[d] = v.extents()[Rank - 1 - d];
  std::string ext, spacing;
  for (int a = 0; a < 3; ++a) {
    ext += "0 " + std::to_string(n[a] - 1) + (a < 2 ? " " : "");
    spacing += std::to_string(h) + (a < 2 ? " " : "");
  }
  const std::uint64_t bytes = static_cast<std::uint64_t>(v.size()) * sizeof(T);
  const std::string type = sizeof(T) == 4 ? "Float32" : "Float64";
  const std::string head =
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
      "  <ImageData WholeExtent=\"" + ext + "\" Origin=\"0 0 0\" Spacing=\"" + spacing + "\">\n"
      "    <Piece Extent=\"" + ext + "\">\n"
      "      <PointData Scalars=\"" + name + "\">\n"
      "        <DataArray type=\"" + type + "\" Name=\"" + name + "\" format=\"appended\" offset=\"0\"/>\n"
      "      </PointData>\n"
      "    </Piece>\n"
      "  </ImageData>\n"
      "  <AppendedData encoding=\"raw\">\n_";
  write_atomically(path, [&](std::ofstream& f) {
    f.write(head.data(), static_cast<std::streamsize>(head.size()));
    f.write(reinterpret_cast<const char*>(&bytes), sizeof bytes);  // little-endian hosts
    detail::for_each_interior(v, [&](const T& x) { f.write(reinterpret_cast<const char*>(&x), sizeof(T)); });
    const std::string tail = "\n  </AppendedData>\n</VTKFile>\n";
    f.write(tail.data(), static_cast<std::streamsize>(tail.size()));
  });
}

/// Reads a .vti file written by write_vti (ImageData, one point-data array, raw appended,
/// UInt64 header, little-endian) into a new host view with the given ghost width. A file
/// of another layout, element type or rank is an io_error naming what was found.
template <class T, int Rank>
View<T, Rank, HostSpace> read_vti(const std::string& path, const std::string& label, int ghost) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw io_error("tessera::read_vti: cannot open '" + path + "'");
  const std::string all((std::istreambuf_iterator<char>(f)), {});
  auto bad = [&](const std::string& why) { return io_error("tessera::read_vti: '" + path + "' " + why); };
  auto attribute = [&](const std::string& key) {
    const auto k = all.find(key + "=\"");
    if (k == std::string::npos) throw bad("has no " + key + " attribute (not an ImageData file written by tessera?)");
    const auto b = k + key.size() + 2;
    return all.substr(b, all.find('"', b) - b);
  };
  if (all.find("type=\"ImageData\"") == std::string::npos) throw bad("is not a VTK ImageData file");
  if (all.find("header_type=\"UInt64\"") == std::string::npos || all.find("encoding=\"raw\"") == std::string::npos)
    throw bad("is not raw-appended with UInt64 headers (the layout write_vti produces)");
  const std::string want = sizeof(T) == 4 ? "Float32" : "Float64";
  const auto tpos = all.find("<DataArray type=\"");
  const std::string type = tpos == std::string::npos ? "" : all.substr(tpos + 17, all.find('"', tpos + 17) - tpos - 17);
  if (type != want) throw bad("holds " + (type.empty() ? std::string("no DataArray") : type) + ", but " + want + " was asked for");
  std::stringstream ss(attribute("WholeExtent"));
  index_t ext[6];
  for (auto& v : ext)
    if (!(ss >> v)) throw bad("has a malformed WholeExtent");
  index_t n[3];  // x, y, z
  for (int a = 0; a < 3; ++a) n[a] = ext[2 * a + 1] - ext[2 * a] + 1;
  for (int a = Rank; a < 3; ++a)
    if (n[a] != 1) throw bad("is " + std::to_string(n[2] > 1 ? 3 : n[1] > 1 ? 2 : 1) + "D, a rank-" + std::to_string(Rank) + " field was expected");
  extents<Rank> e;
  for (int d = 0; d < Rank; ++d) e[d] = n[Rank - 1 - d];
  const auto start = all.find("<AppendedData encoding=\"raw\">");
  const auto us = all.find('_', start);
  if (us == std::string::npos || us + 8 > all.size()) throw bad("is truncated before its data");
  std::uint64_t bytes = 0;
  std::memcpy(&bytes, all.data() + us + 1, 8);
  if (bytes != static_cast<std::uint64_t>(e.size()) * sizeof(T))
    throw bad("announces " + std::to_string(bytes) + " data bytes for extents " + e.to_string() + " (" +
              std::to_string(e.size() * sizeof(T)) + " expected)");
  if (us + 9 + bytes > all.size()) throw bad("is truncated: fewer data bytes than announced");
  View<T, Rank, HostSpace> v(label, e, ghost);
  const char* p = all.data() + us + 9;
  detail::for_each_interior(v, [&](T& x) {
    std::memcpy(&x, p, sizeof(T));
    p += sizeof(T);
  });
  return v;
}

}  // namespace tessera::io
