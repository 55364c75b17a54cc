#pragma once
// VTK ImageData (.vti, XML, raw appended binary; opens in ParaView/VisIt) of the interior
// of a host view: one point-data array, spacing and origin per axis. tessera's row-major
// (z, y, x) order with x contiguous is VTK's point order (x fastest), so the payload is
// the interior as it lies in memory, row by row.
//
// read_vti treats the file as hostile. It accepts the XML that write_vti and VTK's own
// writers produce for one uncompressed, raw-appended scalar array and nothing looser:
// known elements in the VTK order, known attributes each once, decimal extents whose
// element and byte counts fit 64 bits, byte_order LittleEndian or BigEndian (swapped on
// reading), header_type UInt32 or UInt64, and an announced byte count that matches both
// the extents and the bytes in the file — checked before anything is allocated. Every
// failure is an io_error that names the file and what is wrong.
#include <algorithm>
#include <charconv>
#include <system_error>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "tessera/core/array.hpp"
#include "tessera/core/detail/checked_arithmetic.hpp"
#include "tessera/core/view.hpp"
#include "tessera/core/detail/view_checks.hpp"
#include "tessera/io/atomic_file.hpp"
#include "tessera/io/input_file.hpp"
#include "tessera/io/interior_rows.hpp"
#include "tessera/io/npy.hpp"

namespace tessera::io {

/// Where a grid's points lie, in tessera's axis order (z, y, x in 3D): interior point i
/// along axis d sits at origin[d] + i * spacing[d].
template <int Rank>
struct grid_geometry {
  array<double, Rank> spacing = uniform(1.0);
  array<double, Rank> origin = uniform(0.0);

  static constexpr array<double, Rank> uniform(double v) {
    array<double, Rank> a{};
    for (int d = 0; d < Rank; ++d) a[d] = v;
    return a;
  }
  /// Spacing h on every axis, interior point 0 at h (the ghost layer at 0): the
  /// geometry of a unit box with N interior points and h = 1 / (N + 1).
  static constexpr grid_geometry cell_centred_unit_box(const array<double, Rank>& h) { return {h, h}; }
};

namespace detail {

/// The shortest decimal that reads back as exactly v ("0.1", not "0.100000").
inline std::string vti_number(double v) {
  char b[32];
  const auto r = std::to_chars(b, b + sizeof b, v);
  return std::string(b, r.ptr);
}

/// One XML start tag of the small subset a .vti header uses: <name a="v" ...> or <.../>.
struct xml_tag {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;
  bool self_closing = false;
  bool closing = false;  // </name>

  const std::string* find(std::string_view key) const {
    for (const auto& [k, v] : attributes)
      if (k == key) return &v;
    return nullptr;
  }
};

/// A strict reader of the XML before the appended data. fail(why) must throw.
template <class Fail>
class vti_header_parser {
 public:
  vti_header_parser(std::string_view text, Fail fail) : s_(text), fail_(fail) {}

  /// The next tag, skipping whitespace, the XML declaration and comments.
  xml_tag next() {
    for (;;) {
      skip_ws();
      if (starts("<?xml")) {
        skip_past("?>", "an unterminated XML declaration");
      } else if (starts("<!--")) {
        skip_past("-->", "an unterminated comment");
      } else {
        break;
      }
    }
    if (peek() != '<') fail_("has text where an XML tag was expected at byte " + std::to_string(pos_));
    ++pos_;
    xml_tag t;
    if (peek() == '/') {
      t.closing = true;
      ++pos_;
    }
    t.name = name();
    for (;;) {
      skip_ws();
      if (peek() == '>') {
        ++pos_;
        return t;
      }
      if (peek() == '/' && !t.closing) {
        ++pos_;
        if (peek() != '>') fail_("has a malformed tag <" + t.name + ">");
        ++pos_;
        t.self_closing = true;
        return t;
      }
      if (t.closing) fail_("has a malformed closing tag </" + t.name + ">");
      std::string key = name();
      skip_ws();
      if (peek() != '=') fail_("has an attribute " + key + " without a value in <" + t.name + ">");
      ++pos_;
      skip_ws();
      const char q = peek();
      if (q != '"' && q != '\'') fail_("has an unquoted value for " + key + " in <" + t.name + ">");
      const auto end = s_.find(q, pos_ + 1);
      if (end == std::string_view::npos) fail_("has an unterminated attribute value in <" + t.name + ">");
      std::string value(s_.substr(pos_ + 1, end - pos_ - 1));
      if (value.find_first_of("<&") != std::string::npos)
        fail_("has '<' or an entity in the value of " + key + " in <" + t.name + ">");
      pos_ = end + 1;
      if (t.find(key)) fail_("repeats the attribute " + key + " in <" + t.name + ">");
      t.attributes.emplace_back(std::move(key), std::move(value));
    }
  }

  /// The next tag, which must be <name ...> (or </name> when closing).
  xml_tag expect(const char* name, bool closing = false) {
    xml_tag t = next();
    if (t.name != name || t.closing != closing)
      fail_(std::string("has <") + (t.closing ? "/" : "") + t.name + "> where <" + (closing ? "/" : "") + name +
            "> was expected");
    return t;
  }

  /// Refuses any attribute of t outside `known`.
  void only(const xml_tag& t, std::initializer_list<std::string_view> known) {
    for (const auto& [k, v] : t.attributes) {
      bool ok = false;
      for (auto n : known) ok = ok || k == n;
      if (!ok) fail_("has the unsupported attribute " + k + "=\"" + v.substr(0, 40) + "\" in <" + t.name + ">");
    }
  }

  /// True when only whitespace follows the last tag read.
  bool at_end() {
    skip_ws();
    return pos_ == s_.size();
  }

  /// Offset just past the '_' that starts the raw appended data.
  std::size_t appended_data_start() {
    skip_ws();
    if (peek() != '_') fail_("has no '_' marker before its appended data");
    return pos_ + 1;
  }

 private:
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  bool starts(std::string_view p) const { return s_.substr(pos_, p.size()) == p; }
  void skip_ws() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t')) ++pos_;
  }
  void skip_past(std::string_view end, const char* what) {
    const auto e = s_.find(end, pos_);
    if (e == std::string_view::npos) fail_(std::string("has ") + what);
    pos_ = e + end.size();
  }
  std::string name() {
    const std::size_t start = pos_;
    auto ok = [](char c, bool first) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
             (!first && ((c >= '0' && c <= '9') || c == '-' || c == '.'));
    };
    while (pos_ < s_.size() && ok(s_[pos_], pos_ == start)) ++pos_;
    if (pos_ == start || pos_ - start > 64) fail_("has a malformed XML name at byte " + std::to_string(start));
    return std::string(s_.substr(start, pos_ - start));
  }

  std::string_view s_;
  std::size_t pos_ = 0;
  Fail fail_;
};

/// n whitespace-separated decimal integers (optional '-'), nothing else.
template <class Fail>
std::vector<index_t> vti_integers(const std::string& v, std::size_t n, const char* what, Fail fail) {
  std::vector<index_t> out;
  std::size_t i = 0;
  while (out.size() < n + 1) {
    while (i < v.size() && v[i] == ' ') ++i;
    if (i == v.size()) break;
    const bool neg = v[i] == '-';
    if (neg) ++i;
    const std::size_t start = i;
    index_t x = 0;
    while (i < v.size() && v[i] >= '0' && v[i] <= '9') {
      if (!tessera::detail::checked_mul<index_t>(x, 10, x) || !tessera::detail::checked_add<index_t>(x, v[i] - '0', x))
        fail(std::string("has a ") + what + " value that does not fit 64 bits");
      ++i;
    }
    if (i == start || (i < v.size() && v[i] != ' '))
      fail(std::string("has a ") + what + " that is not " + std::to_string(n) + " decimal integers");
    out.push_back(neg ? -x : x);
  }
  if (out.size() != n) fail(std::string("has a ") + what + " that is not " + std::to_string(n) + " decimal integers");
  return out;
}

/// n whitespace-separated finite decimal numbers.
template <class Fail>
std::vector<double> vti_reals(const std::string& v, std::size_t n, const char* what, Fail fail) {
  std::vector<double> out;
  const char* p = v.c_str();
  const char* end = p + v.size();
  while (out.size() < n + 1) {
    while (p < end && *p == ' ') ++p;
    if (p == end) break;
    if (!((*p >= '0' && *p <= '9') || *p == '-' || *p == '+' || *p == '.'))
      fail(std::string("has a ") + what + " that is not " + std::to_string(n) + " decimal numbers");
    if (p + 1 < end && (p[1] == 'x' || p[1] == 'X' || (p + 2 < end && (p[2] == 'x' || p[2] == 'X'))))
      fail(std::string("has a ") + what + " in hexadecimal");
    // from_chars, not strtod: a decimal point whatever the program's locale (strtod under
    // de_DE read "0.5" as 0 and refused the files tessera writes); it takes no leading '+'
    const char* from = *p == '+' && p + 1 < end && p[1] != '-' && p[1] != '+' ? p + 1 : p;
    double x = 0;
    const auto [stop, ec] = std::from_chars(from, end, x, std::chars_format::general);
    if (ec != std::errc() || stop == from || !std::isfinite(x) || (stop < end && *stop != ' '))
      fail(std::string("has a ") + what + " that is not " + std::to_string(n) + " finite decimal numbers");
    out.push_back(x);
    p = stop;
  }
  if (out.size() != n) fail(std::string("has a ") + what + " that is not " + std::to_string(n) + " numbers");
  return out;
}

}  // namespace detail

/// Writes the interior of v as VTK ImageData with point-data array `name`, the given
/// per-axis spacing and origin (full precision), raw appended little-endian data.
/// `first`: the global index of v's interior point 0 when v is a piece of a larger grid
/// (a .pvti piece: its extent starts there, the origin stays the whole grid's).
template <class T, int Rank>
void write_vti(const std::string& path, const View<T, Rank, HostSpace>& v, const std::string& name,
               const grid_geometry<Rank>& geometry, const std::type_identity_t<array<index_t, Rank>>& first = {},
               special_output special = special_output::refuse) {
  tessera::detail::require_allocated(v, "tessera::write_vti('" + path + "')", "view");
  for (int d = 0; d < Rank; ++d)  // what read_vti accepts: finite numbers, and a grid that advances
    if (!std::isfinite(geometry.spacing[d]) || !(geometry.spacing[d] > 0) || !std::isfinite(geometry.origin[d]))
      throw io_error("tessera::write_vti('" + path + "'): axis " + std::to_string(d) + " has spacing " +
                     detail::vti_number(geometry.spacing[d]) + " and origin " + detail::vti_number(geometry.origin[d]) +
                     "; a grid needs a finite spacing > 0 and a finite origin");
  if (name.empty() || name.size() > 64 || name.find_first_of("\"'<>&") != std::string::npos ||
      std::any_of(name.begin(), name.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; }))
    throw io_error("tessera::write_vti('" + path + "'): array name '" + name +
                   "' must be 1-64 characters without quotes, '<', '>', '&' or control characters");
  index_t n[3] = {1, 1, 1}, f[3] = {0, 0, 0};  // x, y, z
  double h[3] = {1, 1, 1}, o[3] = {0, 0, 0};
  for (int d = 0; d < Rank; ++d) {
    n[d] = v.extents()[Rank - 1 - d];
    f[d] = first[Rank - 1 - d];
    h[d] = geometry.spacing[Rank - 1 - d];
    o[d] = geometry.origin[Rank - 1 - d];
  }
  std::string ext, spacing, origin;
  for (int a = 0; a < 3; ++a) {
    const char* sep = a < 2 ? " " : "";
    ext += std::to_string(f[a]) + " " + std::to_string(f[a] + n[a] - 1) + sep;
    spacing += detail::vti_number(h[a]) + sep;
    origin += detail::vti_number(o[a]) + sep;
  }
  const std::uint64_t bytes = static_cast<std::uint64_t>(v.size()) * sizeof(T);
  const std::string type = sizeof(T) == 4 ? "Float32" : "Float64";
  const std::string head =
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
      "  <ImageData WholeExtent=\"" + ext + "\" Origin=\"" + origin + "\" Spacing=\"" + spacing + "\">\n"
      "    <Piece Extent=\"" + ext + "\">\n"
      "      <PointData Scalars=\"" + name + "\">\n"
      "        <DataArray type=\"" + type + "\" Name=\"" + name + "\" format=\"appended\" offset=\"0\"/>\n"
      "      </PointData>\n"
      "    </Piece>\n"
      "  </ImageData>\n"
      "  <AppendedData encoding=\"raw\">\n_";
  write_atomically(path, [&](std::ostream& f) {
    f.write(head.data(), static_cast<std::streamsize>(head.size()));
    f.write(reinterpret_cast<const char*>(&bytes), sizeof bytes);  // little-endian hosts
    detail::for_each_interior_row(v, [&](const T* row, index_t k) {
      f.write(reinterpret_cast<const char*>(row), static_cast<std::streamsize>(k * sizeof(T)));
    });
    const std::string tail = "\n  </AppendedData>\n</VTKFile>\n";
    f.write(tail.data(), static_cast<std::streamsize>(tail.size()));
  }, special);
}

/// Spacing h on every axis, interior point 0 at the origin.
template <class T, int Rank>
void write_vti(const std::string& path, const View<T, Rank, HostSpace>& v, const std::string& name = "u",
               double h = 1.0) {
  write_vti(path, v, name, grid_geometry<Rank>{grid_geometry<Rank>::uniform(h), grid_geometry<Rank>::uniform(0.0)});
}

/// Reads a .vti file (ImageData, one uncompressed point-data array of T, raw appended)
/// into a new host view with the given ghost width; `geometry`, when given, receives
/// the file's spacing and origin, `first` the index its extent starts at (0 unless the
/// file is a piece of a larger grid). Throws io_error naming the file for anything else.
template <class T, int Rank>
View<T, Rank, HostSpace> read_vti(const std::string& path, const std::string& label, int ghost,
                                  grid_geometry<Rank>* geometry = nullptr, array<index_t, Rank>* first = nullptr) {
  input_file in(path, "tessera::read_vti");
  auto fail = [&](const std::string& why) { throw in.error(why); };
  // The XML header is small; 64 KiB holds any that tessera or VTK writes for one array.
  constexpr std::uint64_t max_header = 64 * 1024;
  std::string head(static_cast<std::size_t>(std::min(in.size(), max_header)), '\0');
  in.read(head.data(), head.size(), "its XML header");
  detail::vti_header_parser xml(head, fail);

  const auto file = xml.expect("VTKFile");
  xml.only(file, {"type", "version", "byte_order", "header_type", "compressor"});
  if (!file.find("type") || *file.find("type") != "ImageData") fail("is not a VTK ImageData file (VTKFile type)");
  if (file.find("compressor")) fail("is compressed (" + *file.find("compressor") + "); write it uncompressed");
  const std::string* order = file.find("byte_order");
  if (!order || (*order != "LittleEndian" && *order != "BigEndian"))
    fail("has byte_order '" + (order ? *order : std::string()) + "'; LittleEndian or BigEndian is required");
  const bool swap = *order == "BigEndian";
  const std::string* header_type = file.find("header_type");
  const std::string ht = header_type ? *header_type : "UInt32";  // VTK's default
  if (ht != "UInt32" && ht != "UInt64") fail("has header_type '" + ht + "'; UInt32 or UInt64 is required");
  const std::size_t count_bytes = ht == "UInt64" ? 8 : 4;

  const auto image = xml.expect("ImageData");
  xml.only(image, {"WholeExtent", "Origin", "Spacing", "Direction"});
  if (!image.find("WholeExtent")) fail("has no WholeExtent attribute");
  const auto whole = detail::vti_integers(*image.find("WholeExtent"), 6, "WholeExtent", fail);
  const auto origin = image.find("Origin") ? detail::vti_reals(*image.find("Origin"), 3, "Origin", fail)
                                            : std::vector<double>{0, 0, 0};
  const auto spacing = image.find("Spacing") ? detail::vti_reals(*image.find("Spacing"), 3, "Spacing", fail)
                                              : std::vector<double>{1, 1, 1};
  if (image.find("Direction") &&
      detail::vti_reals(*image.find("Direction"), 9, "Direction", fail) !=
          std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0, 1})
    fail("has a rotated grid (Direction is not the identity)");
  index_t n[3];  // x, y, z
  for (int a = 0; a < 3; ++a) {
    index_t len = 0;
    if (whole[2 * a + 1] < whole[2 * a] || !tessera::detail::checked_add<index_t>(whole[2 * a + 1], -whole[2 * a], len) ||
        !tessera::detail::checked_add<index_t>(len, 1, len))
      fail("has a WholeExtent with an empty or overflowing range on axis " + std::to_string(a));
    n[a] = len;
  }
  for (int a = Rank; a < 3; ++a)
    if (n[a] != 1)
      fail("is " + std::to_string(n[2] > 1 ? 3 : n[1] > 1 ? 2 : 1) + "D, a rank-" + std::to_string(Rank) +
           " field was expected");

  const auto piece = xml.expect("Piece");
  xml.only(piece, {"Extent"});
  if (!piece.find("Extent") || detail::vti_integers(*piece.find("Extent"), 6, "Piece Extent", fail) != whole)
    fail("has a Piece whose Extent is not the WholeExtent (one piece is supported)");
  auto data = xml.next();
  if (data.name == "PointData" && !data.closing && !data.self_closing) {
    xml.only(data, {"Scalars", "Vectors", "Normals", "Tensors", "TCoords"});
  } else {
    fail("has <" + data.name + "> where <PointData> holding the field was expected");
  }
  const auto array_tag = xml.expect("DataArray");
  xml.only(array_tag, {"type", "Name", "format", "offset", "NumberOfComponents", "RangeMin", "RangeMax"});
  if (!array_tag.self_closing) fail("has a DataArray with inline content; tessera reads appended data");
  const std::string want = sizeof(T) == 4 ? "Float32" : "Float64";
  const std::string* type = array_tag.find("type");
  if (!type || *type != want) fail("holds " + (type ? *type : std::string("no type")) + ", but " + want + " was asked for");
  if (!array_tag.find("format") || *array_tag.find("format") != "appended")
    fail("has a DataArray that is not format=\"appended\"");
  if (!array_tag.find("offset") || *array_tag.find("offset") != "0") fail("has a DataArray offset other than 0");
  if (array_tag.find("NumberOfComponents") && *array_tag.find("NumberOfComponents") != "1")
    fail("has a DataArray of " + *array_tag.find("NumberOfComponents") + " components; a scalar field is expected");
  xml.expect("PointData", true);
  auto after = xml.next();
  if (after.name == "CellData" && !after.closing) {  // an empty <CellData/> or <CellData></CellData>
    xml.only(after, {});
    if (!after.self_closing) xml.expect("CellData", true);
    after = xml.next();
  }
  if (after.name != "Piece" || !after.closing) fail("has <" + after.name + "> where </Piece> was expected");
  xml.expect("ImageData", true);
  const auto appended = xml.expect("AppendedData");
  xml.only(appended, {"encoding"});
  if (!appended.find("encoding") || *appended.find("encoding") != "raw")
    fail("has AppendedData that is not encoding=\"raw\" (base64 is not supported)");
  const std::size_t data_start = xml.appended_data_start();

  extents<Rank> e;
  for (int d = 0; d < Rank; ++d) e[d] = n[Rank - 1 - d];
  const std::uint64_t expected = in.data_bytes<T>(e);
  in.seek(data_start);
  unsigned char cb[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  in.read(cb, count_bytes, "the byte count before its data");
  std::uint64_t announced = 0;
  for (std::size_t i = 0; i < count_bytes; ++i) {
    const std::size_t k = swap ? i : count_bytes - 1 - i;  // most significant byte first
    announced = announced << 8 | cb[k];
  }
  if (announced != expected)
    fail("announces " + std::to_string(announced) + " data bytes for extents " + e.to_string() + " (" +
         std::to_string(expected) + " expected)");
  if (expected > in.remaining())
    fail("is truncated: " + std::to_string(expected) + " data bytes announced, " + std::to_string(in.remaining()) +
         " in the file");
  // What follows the data must be the closing tags (checked before the data is read).
  const std::uint64_t tail_bytes = in.remaining() - expected;
  if (tail_bytes > 4096) fail("has " + std::to_string(tail_bytes) + " bytes beyond its data");
  in.seek(data_start + count_bytes + expected);
  std::string tail(static_cast<std::size_t>(tail_bytes), '\0');
  in.read(tail.data(), tail_bytes, "its closing tags");
  {
    detail::vti_header_parser closing(tail, fail);
    closing.expect("AppendedData", true);
    closing.expect("VTKFile", true);
    if (!closing.at_end()) fail("has bytes after </VTKFile>");
  }

  auto v = in.new_view<T>(label, e, ghost);
  in.seek(data_start + count_bytes);
  detail::for_each_interior_row(v, [&](T* row, index_t k) {
    in.read(row, k * sizeof(T), "its data");
    if (swap) detail::swap_bytes(row, k);
  });
  if (geometry)
    for (int d = 0; d < Rank; ++d) {
      geometry->spacing[d] = spacing[Rank - 1 - d];
      geometry->origin[d] = origin[Rank - 1 - d];
    }
  if (first)
    for (int d = 0; d < Rank; ++d) (*first)[d] = whole[2 * (Rank - 1 - d)];
  return v;
}

}  // namespace tessera::io
