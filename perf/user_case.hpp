#pragma once
// tessera-bench's user-chosen case: --shape CLASS<rank>d:RADIUS (a built-in shape: star1d,
// star2d, star3d with radius 1-4, box2d, box3d with radius 1-2), --size AxB[xC] (one extent
// per axis of the shape's rank), --precision float|double. Plain host code: every value
// from the command line is checked here, with a message that names it and the fix, before
// anything is allocated.
#include <cerrno>
#include <cstdlib>
#include <string>

namespace tessera::bench {

struct user_case {
  std::string shape_class;  // "star" or "box"; empty: no user case
  int rank = 0, radius = 0;
  long long n[3] = {1, 1, 1};  // the first `rank` are the extents
  bool is_double = false;
  std::string size_text;
};

/// The largest extent along one axis, and the most interior points of a case: one fp64
/// view of that many points is 8 GiB, and the bench holds at least four.
inline constexpr long long max_user_extent = 1LL << 20;
inline constexpr long long max_user_points = 1LL << 30;

/// "" when s names a built-in shape (c takes it); else why not.
inline std::string parse_shape(const std::string& s, user_case& c) {
  const std::string want =
      "--shape wants a built-in shape, star1d:R, star2d:R or star3d:R (R = 1..4) or box2d:R or box3d:R (R = 1..2), "
      "got '" +
      s + "'";
  const auto colon = s.find(':');
  if (colon == std::string::npos || colon < 3) return want;
  const std::string name = s.substr(0, colon), radius = s.substr(colon + 1);
  const std::string cls = name.substr(0, name.size() - 2), dims = name.substr(name.size() - 2);
  if ((cls != "star" && cls != "box") || dims.size() != 2 || dims[1] != 'd' || dims[0] < '1' || dims[0] > '3')
    return want;
  const int rank = dims[0] - '0';
  if (radius.size() != 1 || radius[0] < '1' || radius[0] > '9') return want;
  const int r = radius[0] - '0';
  if ((cls == "star" && r > 4) || (cls == "box" && (r > 2 || rank == 1))) return want;
  c.shape_class = cls, c.rank = rank, c.radius = r;
  return {};
}

/// "" when s is `rank` extents joined by 'x', each in [1, max_user_extent], at most
/// max_user_points in all (c takes them); else why not. Call after parse_shape.
inline std::string parse_user_size(const std::string& s, user_case& c) {
  const std::string want = "--size wants " + std::to_string(c.rank) + " extent(s) joined by 'x' for a " +
                           std::to_string(c.rank) + "D shape (e.g. " +
                           (c.rank == 3   ? std::string("384x384x384")
                            : c.rank == 2 ? std::string("8192x8192")
                                          : std::string("1000000")) +
                           "), each from 1 to " + std::to_string(max_user_extent) + ", got '" + s + "'";
  long long points = 1;
  std::size_t pos = 0;
  for (int d = 0; d < c.rank; ++d) {
    const std::size_t end = d + 1 < c.rank ? s.find('x', pos) : s.size();
    if (end == std::string::npos || end == pos) return want;
    const std::string part = s.substr(pos, end - pos);
    if (part.find_first_not_of("0123456789") != std::string::npos || part.size() > 9) return want;
    errno = 0;
    const long long v = std::strtoll(part.c_str(), nullptr, 10);
    if (errno == ERANGE || v < 1 || v > max_user_extent) return want;
    c.n[d] = v;
    points *= v;  // <= 2^20 per factor, so no overflow before the check below
    if (points > max_user_points)
      return "--size " + s + " has more than " + std::to_string(max_user_points) +
             " interior points; the bench holds four views of the field: choose a smaller case";
    pos = end + 1;
  }
  c.size_text = s;
  return {};
}

/// "" when s is float or double (c takes it); else why not.
inline std::string parse_precision(const std::string& s, user_case& c) {
  if (s != "float" && s != "double") return "--precision wants float or double, got '" + s + "'";
  c.is_double = s == "double";
  return {};
}

}  // namespace tessera::bench
