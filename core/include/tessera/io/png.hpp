#pragma once
// PNG pictures of a 2D field, or of the middle z-slice of a 3D one, with a colour map,
// written by a small self-contained encoder (8-bit RGB, zlib "stored" blocks: no
// compression library needed on air-gapped machines). Values are scaled from the
// slice's min (dark blue) to its max (dark red); NaN is drawn magenta.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tessera/core/detail/checked_arithmetic.hpp"
#include "tessera/core/view.hpp"
#include "tessera/core/detail/view_checks.hpp"
#include "tessera/io/atomic_file.hpp"

namespace tessera::io {

namespace detail {

inline std::uint32_t crc32(const unsigned char* p, std::size_t n, std::uint32_t crc = 0) {
  crc = ~crc;
  for (std::size_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

inline void put32(std::vector<unsigned char>& b, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) b.push_back(static_cast<unsigned char>(v >> s));
}

inline void chunk(std::vector<unsigned char>& out, const char* type, const std::vector<unsigned char>& data) {
  put32(out, static_cast<std::uint32_t>(data.size()));
  std::vector<unsigned char> td(type, type + 4);
  td.insert(td.end(), data.begin(), data.end());
  out.insert(out.end(), td.begin(), td.end());
  put32(out, crc32(td.data(), td.size()));
}

/// A blue-cyan-green-yellow-red map, t in [0, 1].
inline std::array<unsigned char, 3> colour(double t) {
  static const double stops[5][3] = {{0.05, 0.05, 0.45}, {0.0, 0.65, 0.9}, {0.2, 0.8, 0.3}, {1.0, 0.85, 0.1}, {0.65, 0.05, 0.05}};
  t = std::clamp(t, 0.0, 1.0) * 4;
  const int i = std::min(3, static_cast<int>(t));
  const double f = t - i;
  std::array<unsigned char, 3> c{};
  for (int k = 0; k < 3; ++k)
    c[k] = static_cast<unsigned char>(std::lround(255 * (stops[i][k] * (1 - f) + stops[i + 1][k] * f)));
  return c;
}

}  // namespace detail

/// Writes a width x height RGB picture of `values` (row-major, row 0 at the top).
inline void write_png(const std::string& path, const std::vector<double>& values, index_t width, index_t height,
                      special_output special = special_output::refuse) {
  index_t pixels = 0;
  if (width <= 0 || height <= 0 || width > 0xffffff || height > 0xffffff ||
      !tessera::detail::checked_mul(width, height, pixels) || static_cast<index_t>(values.size()) != pixels)
    throw io_error("tessera::write_png('" + path + "'): a " + std::to_string(width) + "x" + std::to_string(height) +
                   " picture (sides of 1 to 16777215 pixels) needs width x height values; " +
                   std::to_string(values.size()) + " were given");
  double lo = INFINITY, hi = -INFINITY;
  for (double v : values)
    if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  if (!(hi > lo)) hi = lo + 1;  // a constant field: one colour
  std::vector<unsigned char> raw;
  raw.reserve(static_cast<std::size_t>(height * (1 + 3 * width)));
  for (index_t y = 0; y < height; ++y) {
    raw.push_back(0);  // filter: none
    for (index_t x = 0; x < width; ++x) {
      const double v = values[static_cast<std::size_t>(y * width + x)];
      const auto c = std::isfinite(v) ? detail::colour((v - lo) / (hi - lo)) : std::array<unsigned char, 3>{255, 0, 255};
      raw.insert(raw.end(), c.begin(), c.end());
    }
  }
  // zlib stream of stored blocks
  std::vector<unsigned char> z = {0x78, 0x01};
  std::uint32_t a = 1, b = 0;
  for (unsigned char ch : raw) a = (a + ch) % 65521, b = (b + a) % 65521;
  for (std::size_t pos = 0; pos < raw.size() || raw.empty(); pos += 65535) {
    const std::size_t len = std::min<std::size_t>(65535, raw.size() - pos);
    z.push_back(pos + len >= raw.size() ? 1 : 0);
    z.push_back(static_cast<unsigned char>(len & 0xff));
    z.push_back(static_cast<unsigned char>(len >> 8));
    z.push_back(static_cast<unsigned char>(~len & 0xff));
    z.push_back(static_cast<unsigned char>((~len >> 8) & 0xff));
    z.insert(z.end(), raw.begin() + static_cast<std::ptrdiff_t>(pos), raw.begin() + static_cast<std::ptrdiff_t>(pos + len));
    if (raw.empty()) break;
  }
  detail::put32(z, (b << 16) | a);
  std::vector<unsigned char> out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  std::vector<unsigned char> ihdr;
  detail::put32(ihdr, static_cast<std::uint32_t>(width));
  detail::put32(ihdr, static_cast<std::uint32_t>(height));
  ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0});  // 8-bit, RGB, deflate, no filter, no interlace
  detail::chunk(out, "IHDR", ihdr);
  detail::chunk(out, "IDAT", z);
  detail::chunk(out, "IEND", {});
  write_atomically(
      path, [&](std::ostream& f) { f.write(reinterpret_cast<const char*>(out.data()), static_cast<std::streamsize>(out.size())); },
      special);
}

/// A picture of a 2D field, or of the middle z-slice of a 3D field (interior only).
template <class T, int Rank>
void write_png(const std::string& path, const View<T, Rank, HostSpace>& v, special_output special = special_output::refuse) {
  static_assert(Rank >= 2, "tessera::write_png: a picture needs a 2D field or a 3D slice");
  tessera::detail::require_allocated(v, "tessera::write_png('" + path + "')", "view");
  const auto& n = v.extents();
  const index_t h = n[Rank - 2], w = n[Rank - 1];
  std::vector<double> values(static_cast<std::size_t>(h * w));
  for (index_t y = 0; y < h; ++y)
    for (index_t x = 0; x < w; ++x) {
      if constexpr (Rank == 2) values[static_cast<std::size_t>(y * w + x)] = v(y, x);
      else values[static_cast<std::size_t>(y * w + x)] = v(n[0] / 2, y, x);
    }
  write_png(path, values, w, h, special);
}

}  // namespace tessera::io
