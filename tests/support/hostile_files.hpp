#pragma once
// Files built to attack tessera's readers: one per class of defect found by fuzzing the
// old .npy/.vti readers (sizes that overflow 64 bits, headers that announce gigabytes in
// a few bytes, lenient numbers, bad flags, ignored byte orders, malformed XML), plus the
// builders the fuzz test mutates. Used by the io suite (each class is refused with a
// named error), the fuzz test (as seeds) and tessera-hostile-files (the CLI tests).
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::test {

/// An .npy file: magic, version major.0, the header dictionary `dict` padded to 64 bytes
/// and ended by '\n' (as numpy does), then `payload`.
inline std::string npy_bytes(const std::string& dict, const std::string& payload, int major = 1) {
  const std::size_t prefix = major == 1 ? 10 : 12;
  std::string header = dict;
  header.append((64 - (prefix + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  std::string b = "\x93NUMPY";
  b += static_cast<char>(major);
  b += '\0';
  const std::uint32_t n = static_cast<std::uint32_t>(header.size());
  for (std::size_t i = 0; i < (major == 1 ? 2u : 4u); ++i) b += static_cast<char>((n >> (8 * i)) & 0xff);
  return b + header + payload;
}

inline std::string npy_dict(const std::string& descr, const std::string& order, const std::string& shape) {
  return "{'descr': '" + descr + "', 'fortran_order': " + order + ", 'shape': " + shape + ", }";
}

/// `n` little-endian float32 values 0.5, 1.5, ... as raw bytes.
inline std::string float_payload(std::size_t n) {
  std::string p;
  for (std::size_t i = 0; i < n; ++i) {
    const float v = 0.5f + static_cast<float>(i);
    p.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  return p;
}

/// A .vti file with the given WholeExtent text, attributes of <VTKFile>, byte-count
/// field (already encoded) and payload.
inline std::string vti_bytes(const std::string& whole_extent, const std::string& file_attributes,
                             const std::string& count, const std::string& payload, const std::string& type = "Float32") {
  return "<?xml version=\"1.0\"?>\n<VTKFile type=\"ImageData\" version=\"1.0\" " + file_attributes +
         ">\n  <ImageData WholeExtent=\"" + whole_extent + "\" Origin=\"0 0 0\" Spacing=\"1 1 1\">\n    <Piece Extent=\"" +
         whole_extent + "\">\n      <PointData Scalars=\"u\">\n        <DataArray type=\"" + type +
         "\" Name=\"u\" format=\"appended\" offset=\"0\"/>\n      </PointData>\n    </Piece>\n  </ImageData>\n"
         "  <AppendedData encoding=\"raw\">\n_" +
         count + payload + "\n  </AppendedData>\n</VTKFile>\n";
}

/// A little-endian unsigned integer of `bytes` bytes.
inline std::string le_count(std::uint64_t v, int bytes = 8) {
  std::string s;
  for (int i = 0; i < bytes; ++i) s += static_cast<char>((v >> (8 * i)) & 0xff);
  return s;
}

inline const char* const le64 = "byte_order=\"LittleEndian\" header_type=\"UInt64\"";

struct hostile_file {
  std::string name;      // file name, ending in .npy or .vti
  std::string bytes;
  std::string expected;  // a fragment of the reader's message (after the file name)
};

/// One file per class of hostile input; each must be refused by read_npy<float, 3> or
/// read_vti<float, 3> with an io_error naming the file and containing `expected`.
inline std::vector<hostile_file> hostile_files() {
  const std::string ok_dict = npy_dict("<f4", "False", "(2, 3, 4)");
  std::vector<hostile_file> f = {
      // element or byte counts that overflow 64 bits (heap overwrite before)
      {"overflow_shape.npy", npy_bytes(npy_dict("<f4", "False", "(1, 1, 4611686018427387904)"), float_payload(4)),
       "byte count overflows"},
      {"overflow_product.npy", npy_bytes(npy_dict("<f4", "False", "(2097152, 2097152, 4194304)"), float_payload(4)),
       "overflows"},
      {"shape_too_long.npy", npy_bytes(npy_dict("<f4", "False", "(99999999999999999999, 1, 1)"), float_payload(1)),
       "does not fit 64 bits"},
      // gigabytes announced by a small file (8 GB were allocated and zeroed before, for doubles)
      {"announces_4GB.npy", npy_bytes(npy_dict("<f4", "False", "(1000, 1000, 1000)"), std::string(64, '\0')),
       "is truncated: the header announces 1000000000 values"},
      // an empty shape with a huge extent (a loop over 2^62 rows before)
      {"empty_huge.npy", npy_bytes(npy_dict("<f4", "False", "(4611686018427387904, 0, 5)"), ""),
       "no points along an axis"},
      // lenient numbers
      {"hex_shape.npy", npy_bytes(npy_dict("<f4", "False", "(0x4, 5, 6)"), float_payload(120)), "not a plain decimal"},
      {"expression_shape.npy", npy_bytes(npy_dict("<f4", "False", "(3-1, 5, 6)"), float_payload(60)),
       "malformed shape"},
      {"negative_shape.npy", npy_bytes(npy_dict("<f4", "False", "(-2, 3, 4)"), float_payload(24)),
       "not a plain decimal"},
      {"leading_zero.npy", npy_bytes(npy_dict("<f4", "False", "(02, 3, 4)"), float_payload(24)), "leading zero"},
      {"not_a_tuple.npy", npy_bytes(npy_dict("<f4", "False", "(24)"), float_payload(24)), "not a tuple"},
      // flags
      {"fortran_maybe.npy", npy_bytes(npy_dict("<f4", "Maybe", "(2, 3, 4)"), float_payload(24)),
       "neither True nor False"},
      {"fortran_one.npy", npy_bytes(npy_dict("<f4", "1", "(2, 3, 4)"), float_payload(24)), "neither True nor False"},
      {"big_endian.npy", npy_bytes(npy_dict(">f4", "False", "(2, 3, 4)"), float_payload(24)), "dtype '>f4'"},
      // header structure
      {"duplicate_key.npy",
       npy_bytes("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 4), }", float_payload(24)),
       "repeats the key 'descr'"},
      {"unknown_key.npy",
       npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 4), 'evil': 1, }", float_payload(24)),
       "unknown key"},
      {"missing_key.npy", npy_bytes("{'descr': '<f4', 'shape': (2, 3, 4), }", float_payload(24)),
       "no 'fortran_order'"},
      {"huge_header.npy", npy_bytes(ok_dict + std::string(20000, ' '), float_payload(24), 2), "at most 10000"},
      {"bad_version.npy", [&] {
         auto b = npy_bytes(ok_dict, float_payload(24));
         b[6] = 7;
         return b;
       }(), "format version 7.0"},
      {"trailing_bytes.npy", npy_bytes(ok_dict, float_payload(30)), "bytes beyond its data"},
      {"empty.npy", "", "shorter than the magic"},
      // .vti: an extent of 2^62 with a byte count of 0 (SIGSEGV before)
      {"huge_extent.vti", vti_bytes("0 4611686018427387903 0 0 0 0", le64, le_count(0), ""), "overflows 64 bits"},
      {"zero_count.vti", vti_bytes("0 1099511627775 0 0 0 0", le64, le_count(0), ""), "announces 0 data bytes"},
      {"overflow_extent.vti", vti_bytes("0 9223372036854775807 0 0 0 0", le64, le_count(0), ""),
       "overflowing range"},
      {"product_overflow.vti", vti_bytes("0 2097151 0 2097151 0 4194303", le64, le_count(0), ""), "overflows 64 bits"},
      {"byte_order.vti", vti_bytes("0 3 0 2 0 1", "byte_order=\"MiddleEndian\" header_type=\"UInt64\"",
                                   le_count(96), float_payload(24)),
       "byte_order 'MiddleEndian'"},
      {"header_type.vti", vti_bytes("0 3 0 2 0 1", "byte_order=\"LittleEndian\" header_type=\"UInt16\"",
                                    le_count(96, 2), float_payload(24)),
       "header_type 'UInt16'"},
      {"compressed.vti", vti_bytes("0 3 0 2 0 1", std::string(le64) + " compressor=\"vtkZLibDataCompressor\"",
                                   le_count(96), float_payload(24)),
       "is compressed"},
      {"reversed_extent.vti", vti_bytes("3 0 0 2 0 1", le64, le_count(96), float_payload(24)), "empty or overflowing"},
      {"hex_extent.vti", vti_bytes("0 0x3 0 2 0 1", le64, le_count(96), float_payload(24)), "decimal integers"},
      {"truncated.vti", vti_bytes("0 3 0 2 0 1", le64, le_count(96), float_payload(10)), "is truncated"},
      {"count_mismatch.vti", vti_bytes("0 3 0 2 0 1", le64, le_count(1ull << 40), float_payload(24)),
       "announces 1099511627776 data bytes"},
      {"duplicate_attribute.vti",
       vti_bytes("0 3 0 2 0 1", std::string(le64) + " byte_order=\"BigEndian\"", le_count(96), float_payload(24)),
       "repeats the attribute byte_order"},
      {"unterminated.vti", "<VTKFile type=\"ImageData", "unterminated attribute"},
      {"not_xml.vti", std::string("\x89PNG\r\n\x1a\n", 8) + std::string(64, 'x'), "text where an XML tag"},
  };
  f.push_back({"trailing_garbage.vti", vti_bytes("0 3 0 2 0 1", le64, le_count(96), float_payload(24)) + "<evil/>",
               "bytes after </VTKFile>"});
  return f;
}

}  // namespace tessera::test
