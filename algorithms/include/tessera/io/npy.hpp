#pragma once
// NumPy .npy files (format 1.0/2.0, little-endian float32/float64, C order) for the
// interior of a host view: write_npy(path, view) and read_npy<T, Rank>(path, label, ghost).
// A bad file — wrong magic, unsupported version, dtype, Fortran order, rank or a
// truncated payload — is an io_error that names the file and what was found.
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tessera/core/view.hpp"
#include "tessera/io/atomic_file.hpp"

namespace tessera::io {

namespace detail {
template <class T>
constexpr const char* npy_descr() {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "npy: float or double");
  return sizeof(T) == 4 ? "<f4" : "<f8";
}

template <class T, int Rank, class F>
void for_each_interior(const View<T, Rank, HostSpace>& v, F&& f) {
  const auto& n = v.extents();
  if constexpr (Rank == 1) {
    for (index_t x = 0; x < n[0]; ++x) f(v(x));
  } else if constexpr (Rank == 2) {
    for (index_t y = 0; y < n[0]; ++y)
      for (index_t x = 0; x < n[1]; ++x) f(v(y, x));
  } else {
    for (index_t z = 0; z < n[0]; ++z)
      for (index_t y = 0; y < n[1]; ++y)
        for (index_t x = 0; x < n[2]; ++x) f(v(z, y, x));
  }
}
}  // namespace detail

template <class T, int Rank>
void write_npy(const std::string& path, const View<T, Rank, HostSpace>& v) {
  std::string shape = "(";
  for (int d = 0; d < Rank; ++d) shape += std::to_string(v.extents()[d]) + (Rank == 1 ? "," : d + 1 < Rank ? ", " : "");
  shape += ")";
  std::string header = std::string("{'descr': '") + detail::npy_descr<T>() + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // magic (6) + version (2) + header length (2) + header + '\n', padded to 64 bytes
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  write_atomically(path, [&](std::ofstream& f) {
    f.write("\x93NUMPY\x01\x00", 8);
    const std::uint16_t len = static_cast<std::uint16_t>(header.size());
    const unsigned char le[2] = {static_cast<unsigned char>(len & 0xff), static_cast<unsigned char>(len >> 8)};
    f.write(reinterpret_cast<const char*>(le), 2);
    f.write(header.data(), static_cast<std::streamsize>(header.size()));
    detail::for_each_interior(v, [&](const T& x) { f.write(reinterpret_cast<const char*>(&x), sizeof(T)); });
  });
}

/// Reads an .npy file into a new host view with the file's shape and the given ghost
/// width (ghosts zero). The file's dtype must be T and its rank Rank.
template <class T, int Rank>
View<T, Rank, HostSpace> read_npy(const std::string& path, const std::string& label, int ghost) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw io_error("tessera::read_npy: cannot open '" + path + "'");
  auto bad = [&](const std::string& why) { return io_error("tessera::read_npy: '" + path + "' " + why); };
  char magic[8];
  if (!f.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0)
    throw bad("is not a .npy file (the magic string \\x93NUMPY is missing)");
  const int major = static_cast<unsigned char>(magic[6]);
  std::size_t hlen = 0;
  if (major == 1) {
    unsigned char b[2];
    if (!f.read(reinterpret_cast<char*>(b), 2)) throw bad("is truncated in its header");
    hlen = b[0] | (b[1] << 8);
  } else if (major == 2 || major == 3) {
    unsigned char b[4];
    if (!f.read(reinterpret_cast<char*>(b), 4)) throw bad("is truncated in its header");
    hlen = b[0] | (b[1] << 8) | (b[2] << 16) | (std::size_t(b[3]) << 24);
  } else {
    throw bad("has .npy format version " + std::to_string(major) + "; versions 1-3 are supported");
  }
  std::string header(hlen, '\0');
  if (!f.read(header.data(), static_cast<std::streamsize>(hlen))) throw bad("is truncated in its header");
  auto field = [&](const std::string& key) {
    const auto k = header.find("'" + key + "'");
    if (k == std::string::npos) throw bad("has no '" + key + "' in its header");
    return header.substr(header.find(':', k) + 1);
  };
  const std::string descr_field = field("descr");
  const auto q1 = descr_field.find('\''), q2 = descr_field.find('\'', q1 + 1);
  const std::string descr = descr_field.substr(q1 + 1, q2 - q1 - 1);
  if (descr != detail::npy_descr<T>())
    throw bad("holds dtype '" + descr + "', but " + detail::npy_descr<T>() + " (" +
              (sizeof(T) == 4 ? "float32" : "float64") + ") was asked for; convert it or choose --precision");
  if (field("fortran_order").find("True") < field("fortran_order").find(','))
    throw bad("is in Fortran order; save it with numpy.ascontiguousarray first");
  const std::string shape_field = field("shape");
  const auto p1 = shape_field.find('('), p2 = shape_field.find(')');
  std::vector<index_t> dims;
  std::stringstream ss(shape_field.substr(p1 + 1, p2 - p1 - 1));
  std::string item;
  while (std::getline(ss, item, ','))
    if (item.find_first_not_of(' ') != std::string::npos) dims.push_back(std::stoll(item));
  if (static_cast<int>(dims.size()) != Rank) {
    std::string s;
    for (auto d : dims) {
      if (!s.empty()) s += 'x';
      s += std::to_string(d);
    }
    throw bad("has rank " + std::to_string(dims.size()) + " (shape " + (s.empty() ? "()" : s) + "), but a rank-" +
              std::to_string(Rank) + " field was expected");
  }
  extents<Rank> e;
  for (int d = 0; d < Rank; ++d) e[d] = dims[d];
  View<T, Rank, HostSpace> v(label, e, ghost);
  index_t read = 0;
  detail::for_each_interior(v, [&](T& x) {
    if (f.read(reinterpret_cast<char*>(&x), sizeof(T))) ++read;
  });
  if (read != e.size())
    throw bad("is truncated: the header announces " + std::to_string(e.size()) + " values of shape " + e.to_string() +
              " but the file holds " + std::to_string(read));
  return v;
}

}  // namespace tessera::io
