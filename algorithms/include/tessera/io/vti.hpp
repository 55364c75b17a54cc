#pragma once
// VTK ImageData (.vti, XML, raw appended binary, opens in ParaView/VisIt) of the interior
// of a host view: point data named `name`, spacing h, origin 0. tessera's row-major
// (z, y, x) order with x contiguous is VTK's point order (x fastest), so the payload is
// the interior as it lies in memory, row by row.
#include <cstdint>
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

}  // namespace tessera::io
