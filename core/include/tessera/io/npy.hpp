#pragma once
// NumPy .npy files (format 1.0/2.0/3.0, little-endian float32/float64, C order) for the
// interior of a host view: write_npy(path, view) and read_npy<T, Rank>(path, label, ghost).
//
// The reader treats the file as hostile. The header must be the dictionary numpy writes
// and nothing else: exactly the keys 'descr', 'fortran_order' and 'shape', each once;
// 'fortran_order' True or False; the shape a tuple of plain decimal integers (no sign,
// no leading zeros, no expressions) of the rank asked for, each at least 1, whose element
// and byte counts fit 64 bits. The header is at most 10,000 bytes (numpy's own limit).
// The data size the header announces must equal what the file holds before anything is
// allocated. Every failure is an io_error that names the file and what is wrong.
#include <bit>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/core/detail/checked_arithmetic.hpp"
#include "tessera/core/view.hpp"
#include "tessera/core/detail/view_checks.hpp"
#include "tessera/io/atomic_file.hpp"
#include "tessera/io/input_file.hpp"
#include "tessera/io/interior_rows.hpp"

namespace tessera::io {

static_assert(std::endian::native == std::endian::little,
              "tessera::io reads and writes little-endian data as it lies in memory");

namespace detail {
template <class T>
constexpr const char* npy_descr() {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "npy: float or double");
  return sizeof(T) == 4 ? "<f4" : "<f8";
}

/// numpy refuses headers longer than this by default (numpy.lib.format, max_header_size).
inline constexpr std::size_t npy_max_header_bytes = 10000;

/// What an .npy header declares.
struct npy_header {
  std::string descr;
  bool fortran_order = false;
  std::vector<index_t> shape;
};

/// A strict parser of the header dictionary: the Python literal numpy writes,
/// {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), } plus padding and '\n'.
/// fail(why) must throw.
template <class Fail>
class npy_header_parser {
 public:
  npy_header_parser(std::string_view text, int max_rank, Fail fail) : s_(text), max_rank_(max_rank), fail_(fail) {}

  npy_header parse() {
    if (s_.empty() || s_.back() != '\n') fail_("has a header that does not end in a newline");
    for (char c : s_)
      if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t')
        fail_("has a control character in its header");
    npy_header h;
    bool seen_descr = false, seen_order = false, seen_shape = false;
    skip_spaces();
    expect('{', "a '{' opening the header dictionary");
    skip_spaces();
    while (peek() != '}') {
      const std::string key = quoted("a quoted key");
      skip_spaces();
      expect(':', "':' after the key '" + key + "'");
      skip_spaces();
      if (key == "descr") {
        if (seen_descr) fail_("repeats the key 'descr' in its header");
        seen_descr = true;
        h.descr = quoted("a quoted dtype for 'descr'");
      } else if (key == "fortran_order") {
        if (seen_order) fail_("repeats the key 'fortran_order' in its header");
        seen_order = true;
        h.fortran_order = boolean();
      } else if (key == "shape") {
        if (seen_shape) fail_("repeats the key 'shape' in its header");
        seen_shape = true;
        h.shape = shape();
      } else {
        fail_("has the unknown key '" + printable(key) + "' in its header (only 'descr', 'fortran_order', 'shape')");
      }
      skip_spaces();
      if (peek() == ',') {
        ++pos_;
        skip_spaces();
      } else if (peek() != '}') {
        fail_("has a malformed header: ',' or '}' expected after the value of '" + key + "'");
      }
    }
    ++pos_;  // '}'
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n')) ++pos_;
    if (pos_ != s_.size()) fail_("has characters after the header dictionary");
    if (!seen_descr || !seen_order || !seen_shape)
      fail_(std::string("has no '") + (!seen_descr ? "descr" : !seen_order ? "fortran_order" : "shape") +
            "' in its header");
    return h;
  }

 private:
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void skip_spaces() {
    while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
  }
  void expect(char c, const std::string& what) {
    if (peek() != c) fail_("has a malformed header: " + what + " expected at byte " + std::to_string(pos_));
    ++pos_;
  }
  static std::string printable(std::string_view v) {
    std::string r;
    for (char c : v.substr(0, 40)) r += (c >= 0x20 && c < 0x7f) ? c : '?';
    return v.size() > 40 ? r + "..." : r;
  }
  std::string quoted(const std::string& what) {
    const char q = peek();
    if (q != '\'' && q != '"') fail_("has a malformed header: " + what + " expected at byte " + std::to_string(pos_));
    const auto end = s_.find(q, pos_ + 1);
    if (end == std::string_view::npos) fail_("has an unterminated string in its header");
    std::string v(s_.substr(pos_ + 1, end - pos_ - 1));
    if (v.find('\\') != std::string::npos) fail_("has an escape sequence in a header string");
    pos_ = end + 1;
    return v;
  }
  bool boolean() {
    if (s_.substr(pos_, 4) == "True" && !identifier_char(pos_ + 4)) return pos_ += 4, true;
    if (s_.substr(pos_, 5) == "False" && !identifier_char(pos_ + 5)) return pos_ += 5, false;
    fail_("has a 'fortran_order' that is neither True nor False");
    return false;
  }
  bool identifier_char(std::size_t i) const {
    if (i >= s_.size()) return false;
    const char c = s_[i];
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }
  /// A plain decimal integer: digits only, no sign, no leading zero, at most index_t.
  index_t integer() {
    const std::size_t start = pos_;
    index_t v = 0;
    while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
      if (!tessera::detail::checked_mul<index_t>(v, 10, v) ||
          !tessera::detail::checked_add<index_t>(v, s_[pos_] - '0', v))
        fail_("has a shape entry that does not fit 64 bits");
      ++pos_;
    }
    if (pos_ == start)
      fail_("has a shape entry that is not a plain decimal integer at byte " + std::to_string(start));
    if (pos_ - start > 1 && s_[start] == '0') fail_("has a shape entry with a leading zero");
    if (identifier_char(pos_)) fail_("has a shape entry that is not a plain decimal integer (e.g. hex)");
    return v;
  }
  std::vector<index_t> shape() {
    std::vector<index_t> dims;
    expect('(', "a '(' opening the shape tuple");
    skip_spaces();
    bool comma = false;
    while (peek() != ')') {
      if (static_cast<int>(dims.size()) == max_rank_)
        fail_("has a shape of more than " + std::to_string(max_rank_) + " dimensions");
      dims.push_back(integer());
      skip_spaces();
      comma = peek() == ',';
      if (comma) {
        ++pos_;
        skip_spaces();
      } else if (peek() != ')') {
        fail_("has a malformed shape: ',' or ')' expected at byte " + std::to_string(pos_));
      }
    }
    ++pos_;
    // Python spells a 1-tuple "(5,)": "(5)" is an integer, not a tuple.
    if (dims.size() == 1 && !comma) fail_("has the shape (" + std::to_string(dims[0]) + "), which is not a tuple: (n,)");
    return dims;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
  int max_rank_;
  Fail fail_;
};

inline std::string shape_string(const std::vector<index_t>& dims) {
  std::string s;
  for (auto d : dims) {
    if (!s.empty()) s += 'x';
    s += std::to_string(d);
  }
  return s.empty() ? "()" : s;
}
}  // namespace detail

template <class T, int Rank>
void write_npy(const std::string& path, const View<T, Rank, HostSpace>& v, special_output special = special_output::refuse) {
  tessera::detail::require_allocated(v, "tessera::write_npy('" + path + "')", "view");
  std::string shape = "(";
  for (int d = 0; d < Rank; ++d) shape += std::to_string(v.extents()[d]) + (Rank == 1 ? "," : d + 1 < Rank ? ", " : "");
  shape += ")";
  std::string header = std::string("{'descr': '") + detail::npy_descr<T>() + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // magic (6) + version (2) + header length (2) + header + '\n', padded to 64 bytes
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  write_atomically(path, [&](std::ostream& f) {
    f.write("\x93NUMPY\x01\x00", 8);
    const std::uint16_t len = static_cast<std::uint16_t>(header.size());
    const unsigned char le[2] = {static_cast<unsigned char>(len & 0xff), static_cast<unsigned char>(len >> 8)};
    f.write(reinterpret_cast<const char*>(le), 2);
    f.write(header.data(), static_cast<std::streamsize>(header.size()));
    detail::for_each_interior_row(v, [&](const T* row, index_t n) {
      f.write(reinterpret_cast<const char*>(row), static_cast<std::streamsize>(n * sizeof(T)));
    });
  }, special);
}

/// Reads an .npy file into a new host view with the file's shape and the given ghost
/// width (ghosts zero). The file's dtype must be T and its rank Rank; every extent at
/// least 1. Throws io_error naming the file for any file that is not such an array.
template <class T, int Rank>
View<T, Rank, HostSpace> read_npy(const std::string& path, const std::string& label, int ghost) {
  input_file in(path, "tessera::read_npy");
  auto fail = [&](const std::string& why) { throw in.error(why); };
  unsigned char magic[8];
  if (in.size() < 8) fail("is not a .npy file (shorter than the magic string and version)");
  in.read(magic, 8, "its magic string");
  if (std::memcmp(magic, "\x93NUMPY", 6) != 0) fail("is not a .npy file (the magic string \\x93NUMPY is missing)");
  const int major = magic[6], minor = magic[7];
  if (major < 1 || major > 3 || minor != 0)
    fail("has .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
         "; versions 1.0, 2.0 and 3.0 are supported");
  std::uint64_t hlen = 0;
  unsigned char b[4] = {0, 0, 0, 0};
  in.read(b, major == 1 ? 2 : 4, "its header length");
  hlen = b[0] | (b[1] << 8) | (std::uint64_t(b[2]) << 16) | (std::uint64_t(b[3]) << 24);
  if (hlen > detail::npy_max_header_bytes)
    fail("announces a header of " + std::to_string(hlen) + " bytes; at most " +
         std::to_string(detail::npy_max_header_bytes) + " are accepted (numpy's limit)");
  std::string header(static_cast<std::size_t>(hlen), '\0');
  in.read(header.data(), hlen, "its header");
  const auto h = detail::npy_header_parser(header, 3, fail).parse();

  if (h.descr != detail::npy_descr<T>())
    fail("holds dtype '" + h.descr + "', but " + detail::npy_descr<T>() + " (" + (sizeof(T) == 4 ? "float32" : "float64") +
         ") was asked for; convert it or choose --precision");
  if (h.fortran_order) fail("is in Fortran order; save it with numpy.ascontiguousarray first");
  if (static_cast<int>(h.shape.size()) != Rank)
    fail("has rank " + std::to_string(h.shape.size()) + " (shape " + detail::shape_string(h.shape) + "), but a rank-" +
         std::to_string(Rank) + " field was expected");
  extents<Rank> e;
  for (int d = 0; d < Rank; ++d) {
    if (h.shape[d] < 1)
      fail("has shape " + detail::shape_string(h.shape) + " with no points along an axis; a field needs at least one");
    e[d] = h.shape[d];
  }
  const std::uint64_t bytes = in.data_bytes<T>(e);
  // Compare what the header announces with what the file holds before allocating.
  if (bytes != in.remaining())
    fail(std::string(bytes > in.remaining() ? "is truncated" : "has bytes beyond its data") + ": the header announces " +
         std::to_string(bytes / sizeof(T)) + " values of shape " + e.to_string() + " (" + std::to_string(bytes) +
         " bytes) but the file holds " + std::to_string(in.remaining()) + " bytes of data");
  auto v = in.new_view<T>(label, e, ghost);
  detail::for_each_interior_row(v, [&](T* row, index_t n) { in.read(row, n * sizeof(T), "its data"); });
  return v;
}

}  // namespace tessera::io
