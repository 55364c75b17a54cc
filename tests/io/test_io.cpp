// .npy round trips and bad files, .vti layout, PNG structure, atomic writes.
#include <doctest/doctest.h>

#include <clocale>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <fstream>
#include <string>

#include <tessera/algorithms/heat.hpp>
#include <tessera/io/npy.hpp>
#include <tessera/io/png.hpp>
#include <tessera/io/vti.hpp>

#include "../support/hostile_files.hpp"
#include "../support/scratch_files.hpp"
#include "../support/test_support.hpp"

namespace ts = tessera;
namespace io = tessera::io;
namespace fs = std::filesystem;
using namespace ts::test;

namespace {
template <class T, int Rank>
void round_trip(const ts::extents<Rank>& e) {
  ts::View<T, Rank> v("v", e, 2);
  fill_random(v, 42);
  const auto p = scratch_path("rt.npy");
  io::write_npy(p, v);
  const auto back = io::read_npy<T, Rank>(p, "back", 1);
  CHECK(back.extents() == e);
  CHECK(back.ghost() == 1);
  CHECK(ts::compare(back, v).max_abs_error == 0);
  const std::string bytes = slurp(p);
  CHECK(bytes.size() % 64 == (static_cast<std::size_t>(e.size()) * sizeof(T)) % 64);  // header padded to 64
}
}  // namespace

TEST_CASE("npy: round trips for float and double, rank 1 to 3") {
  round_trip<float, 1>(ts::extents<1>{7});
  round_trip<double, 2>(ts::extents<2>{5, 3});
  round_trip<float, 3>(ts::extents<3>{4, 3, 6});
  round_trip<double, 3>(ts::extents<3>{2, 5, 1});
}

TEST_CASE("npy: the header is what numpy writes") {
  ts::View<double, 2> v("v", ts::extents{3, 4}, 0);
  const auto p = scratch_path("hdr.npy");
  io::write_npy(p, v);
  const std::string b = slurp(p);
  CHECK(b.substr(0, 8) == std::string("\x93NUMPY\x01\x00", 8));
  CHECK(b.find("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }") != std::string::npos);
  ts::View<float, 1> w("w", ts::extents{5}, 0);
  io::write_npy(p, w);
  CHECK(slurp(p).find("'shape': (5,)") != std::string::npos);
}

TEST_CASE("npy: bad files give clear errors") {
  ts::View<float, 2> v("v", ts::extents{3, 4}, 0);
  const auto good = scratch_path("good.npy"), bad = scratch_path("bad.npy");
  io::write_npy(good, v);
  const std::string b = slurp(good);
  CHECK_THROWS_WITH_AS((io::read_npy<float, 2>(scratch_path("missing.npy"), "x", 0)), doctest::Contains("cannot open"),
                       io::io_error);
  spit(bad, "PK\x03\x04 not numpy at all");
  CHECK_THROWS_WITH_AS((io::read_npy<float, 2>(bad, "x", 0)), doctest::Contains("magic"), io::io_error);
  CHECK_THROWS_WITH_AS((io::read_npy<double, 2>(good, "x", 0)), doctest::Contains("dtype '<f4'"), io::io_error);
  CHECK_THROWS_WITH_AS((io::read_npy<float, 3>(good, "x", 0)), doctest::Contains("rank 2 (shape 3x4)"), io::io_error);
  spit(bad, b.substr(0, b.size() - 5));
  CHECK_THROWS_WITH_AS((io::read_npy<float, 2>(bad, "x", 0)), doctest::Contains("truncated"), io::io_error);
  spit(bad, b.substr(0, 30));
  CHECK_THROWS_WITH_AS((io::read_npy<float, 2>(bad, "x", 0)), doctest::Contains("truncated in its header"), io::io_error);
  CHECK_THROWS_WITH_AS((io::read_npy<float, 2>(fs::temp_directory_path().string(), "x", 0)),
                       doctest::Contains("is a directory"), io::io_error);
  std::string fortran = b;
  fortran.replace(fortran.find("False"), 5, "True ");
  spit(bad, fortran);
  CHECK_THROWS_WITH_AS((io::read_npy<float, 2>(bad, "x", 0)), doctest::Contains("Fortran order"), io::io_error);
}

TEST_CASE("vti: extents, type, and a raw payload of the interior in x-fastest order") {
  ts::View<float, 3> v("v", ts::extents{2, 3, 4}, 1);
  fill_random(v, 5);
  const auto p = scratch_path("f.vti");
  io::write_vti(p, v, "temperature", 0.5);
  const std::string b = slurp(p);
  CHECK(b.find("WholeExtent=\"0 3 0 2 0 1\" Origin=\"0 0 0\" Spacing=\"0.5 0.5 0.5\"") != std::string::npos);
  CHECK(b.find("type=\"Float32\" Name=\"temperature\"") != std::string::npos);
  const auto start = b.find("<AppendedData encoding=\"raw\">\n_") + std::string("<AppendedData encoding=\"raw\">\n_").size();
  std::uint64_t bytes = 0;
  std::memcpy(&bytes, b.data() + start, 8);
  CHECK(bytes == 24 * sizeof(float));
  float first = 0, last = 0;
  std::memcpy(&first, b.data() + start + 8, 4);
  std::memcpy(&last, b.data() + start + 8 + 23 * 4, 4);
  CHECK(first == v(0, 0, 0));
  CHECK(last == v(1, 2, 3));
  CHECK(b.substr(b.size() - 11) == "</VTKFile>\n");
}

TEST_CASE("vti: round trips, and bad files give clear errors") {
  ts::View<double, 3> v("v", ts::extents{5, 3, 4}, 1);
  fill_random(v, 8);
  const auto p = scratch_path("rt.vti"), bad = scratch_path("bad.vti");
  io::write_vti(p, v);
  const auto back = io::read_vti<double, 3>(p, "back", 2);
  CHECK(back.extents() == v.extents());
  CHECK(ts::compare(back, v).max_abs_error == 0);
  ts::View<float, 2> w("w", ts::extents{7, 2}, 0);
  fill_random(w, 9);
  io::write_vti(p, w);
  CHECK(ts::compare(io::read_vti<float, 2>(p, "w2", 0), w).max_abs_error == 0);
  CHECK_THROWS_WITH_AS((io::read_vti<double, 2>(p, "x", 0)), doctest::Contains("holds Float32"), io::io_error);
  io::write_vti(p, v);
  CHECK_THROWS_WITH_AS((io::read_vti<double, 2>(p, "x", 0)), doctest::Contains("is 3D"), io::io_error);
  const std::string b = slurp(p);
  spit(bad, b.substr(0, b.size() - 100));
  CHECK_THROWS_WITH_AS((io::read_vti<double, 3>(bad, "x", 0)), doctest::Contains("truncated"), io::io_error);
  spit(bad, "<VTKFile type=\"PolyData\">");
  CHECK_THROWS_WITH_AS((io::read_vti<double, 3>(bad, "x", 0)), doctest::Contains("not a VTK ImageData"), io::io_error);
}

TEST_CASE("png: signature, IHDR and size of a stored-deflate RGB image") {
  ts::View<double, 3> v("v", ts::extents{3, 20, 30}, 1);
  fill_random(v, 6);
  v(1, 4, 5) = std::numeric_limits<double>::quiet_NaN();  // drawn, not fatal
  const auto p = scratch_path("f.png");
  io::write_png(p, v);
  const std::string b = slurp(p);
  CHECK(b.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
  CHECK(b.substr(12, 4) == "IHDR");
  auto be32 = [&](std::size_t at) {
    return (std::uint32_t(std::uint8_t(b[at])) << 24) | (std::uint32_t(std::uint8_t(b[at + 1])) << 16) |
           (std::uint32_t(std::uint8_t(b[at + 2])) << 8) | std::uint32_t(std::uint8_t(b[at + 3]));
  };
  CHECK(be32(16) == 30);  // width: x
  CHECK(be32(20) == 20);  // height: y
  const std::size_t raw = 20 * (1 + 3 * 30);
  CHECK(b.size() == 8 + 25 + (12 + 2 + 5 + raw + 4) + 12);
  CHECK(b.substr(b.size() - 8, 4) == "IEND");
  // the CRC of IHDR, computed independently of the encoder's table-free loop
  CHECK(be32(29) == io::detail::crc32(reinterpret_cast<const unsigned char*>(b.data() + 12), 17));
  CHECK(io::detail::crc32(reinterpret_cast<const unsigned char*>("123456789"), 9) == 0xCBF43926u);
}

TEST_CASE("writes are atomic: a bad path throws and leaves nothing behind") {
  ts::View<float, 2> v("v", ts::extents{3, 3}, 0);
  const std::string p = scratch_path("no-such-folder/x.npy");
  CHECK_THROWS_WITH_AS(io::write_npy(p, v), doctest::Contains("cannot write"), io::io_error);
  CHECK_FALSE(fs::exists(p));
  const std::string q = scratch_path("atomic.npy");
  io::write_npy(q, v);
  CHECK(fs::exists(q));
  CHECK(leftover_temporaries(scratch_dir()) == 0);
}

TEST_CASE("heat_step: a time step above the stability limit is refused with the limit") {
  const ts::array<double, 3> h{0.1, 0.1, 0.1};
  const double limit = ts::heat_stability_limit<3, 2>(1.0, h);
  CHECK(limit == doctest::Approx(0.01 * 2 / 12));  // 2 / (3 * 4 / h^2)
  CHECK_NOTHROW((ts::heat_step<3, 2>(1.0, 0.99 * limit, h)));
  CHECK_THROWS_WITH_AS((ts::heat_step<3, 2>(1.0, 1.01 * limit, h)), doctest::Contains("stability limit dt <= 0.001667"),
                       ts::invalid_argument_error);
  // higher orders have a larger spectral radius: 16/3 per axis at order 4
  CHECK(ts::heat_stability_limit<1, 4>(1.0, ts::array<double, 1>{1.0}) == doctest::Approx(2.0 / (16.0 / 3)));
}

TEST_CASE("hostile files: every class of defect is an io_error naming the file, before any allocation") {
  for (const auto& h : hostile_files()) {
    CAPTURE(h.name);
    const auto p = scratch_path(h.name);
    spit(p, h.bytes);
    const bool npy = h.name.ends_with(".npy");
    try {
      if (npy) (void)io::read_npy<float, 3>(p, "x", 1);
      else (void)io::read_vti<float, 3>(p, "x", 1);
      FAIL("read without an error");
    } catch (const io::io_error& e) {
      const std::string m = e.what();
      CHECK(m.find(std::string(npy ? "tessera::read_npy: '" : "tessera::read_vti: '") + p + "'") == 0);
      CHECK_MESSAGE(m.find(h.expected) != std::string::npos, m);
    }
  }
}

TEST_CASE("npy: the strict header accepts what numpy writes (versions 1-3, either quote, spacing)") {
  const auto p = scratch_path("numpy.npy");
  const std::string payload = float_payload(24);
  for (int major : {1, 2, 3}) {
    spit(p, npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 4), }", payload, major));
    const auto v = io::read_npy<float, 3>(p, "v", 1);
    CHECK(v.extents() == ts::extents{2, 3, 4});
    CHECK(v(0, 0, 0) == 0.5f);
    CHECK(v(1, 2, 3) == 23.5f);
  }
  // key order free, double quotes, no trailing comma, a 1-tuple
  spit(p, npy_bytes("{\"shape\": (24,), \"descr\": \"<f4\", \"fortran_order\": False}", payload));
  const auto w = io::read_npy<float, 1>(p, "w", 0);
  CHECK(w.extents() == ts::extents<1>{24});
  CHECK(w(23) == 23.5f);
  spit(p, npy_bytes(npy_dict("<f4", "True", "(2, 3, 4)"), payload));
  CHECK_THROWS_WITH_AS((io::read_npy<float, 3>(p, "x", 0)), doctest::Contains("Fortran order"), io::io_error);
}

TEST_CASE("vti: spacing and origin round trip at full precision, BigEndian and UInt32 headers are read") {
  ts::View<double, 3> v("v", ts::extents{3, 4, 5}, 1);
  fill_random(v, 11);
  const auto p = scratch_path("geo.vti");
  const ts::array<double, 3> h{1.0 / 4, 1.0 / 5, 1.0 / 6};
  io::write_vti(p, v, "u", io::grid_geometry<3>::cell_centred_unit_box(h));
  CHECK(slurp(p).find("Origin=\"0.16666666666666666 0.2 0.25\"") != std::string::npos);
  io::grid_geometry<3> g;
  const auto back = io::read_vti<double, 3>(p, "back", 0, &g);
  CHECK(ts::compare(back, v).max_abs_error == 0);
  for (int d = 0; d < 3; ++d) {
    CHECK(g.spacing[d] == h[d]);  // exact: the shortest round-trip decimal
    CHECK(g.origin[d] == h[d]);
  }
  // the same data big-endian, with a 4-byte count
  std::string payload;
  for (int i = 0; i < 24; ++i) {
    const float f = 0.25f * static_cast<float>(i) - 2;
    const char* b = reinterpret_cast<const char*>(&f);
    payload += std::string{b[3], b[2], b[1], b[0]};
  }
  const std::string be_count{'\0', '\0', '\0', static_cast<char>(96)};
  spit(p, vti_bytes("0 3 0 2 0 1", "byte_order=\"BigEndian\" header_type=\"UInt32\"", be_count, payload));
  const auto f = io::read_vti<float, 3>(p, "f", 1);
  CHECK(f.extents() == ts::extents{2, 3, 4});
  CHECK(f(0, 0, 0) == -2.0f);
  CHECK(f(0, 0, 1) == -1.75f);
  CHECK(f(1, 2, 3) == 0.25f * 23 - 2);
  CHECK_THROWS_WITH_AS(io::write_vti(p, v, "a\"b"), doctest::Contains("array name"), io::io_error);
}

TEST_CASE("writers refuse an unallocated view by name") {
  ts::View<float, 2> none;
  CHECK_THROWS_WITH_AS(io::write_npy(scratch_path("n.npy"), none), doctest::Contains("unallocated"),
                       ts::invalid_argument_error);
  CHECK_THROWS_WITH_AS(io::write_vti(scratch_path("n.vti"), none), doctest::Contains("unallocated"),
                       ts::invalid_argument_error);
}

TEST_CASE("read_vti reads what write_vti wrote under a locale whose decimal point is a comma") {
  // a German locale, made here where the system has none installed (localedef, LOCPATH)
  const auto dir = scratch_dir() / "locales";
  fs::create_directories(dir);
  if (!std::setlocale(LC_ALL, "de_DE.UTF-8")) {
    const std::string make = "localedef -i de_DE -f UTF-8 '" + (dir / "de_DE.UTF-8").string() + "' >/dev/null 2>&1";
    REQUIRE_MESSAGE(std::system(make.c_str()) == 0, "localedef could not make de_DE.UTF-8 (glibc's locales data)");
    ::setenv("LOCPATH", dir.c_str(), 1);
    REQUIRE(std::setlocale(LC_ALL, "de_DE.UTF-8") != nullptr);
  }
  REQUIRE(std::strtod("0.5", nullptr) == 0.0);  // the locale reads "0.5" as 0: the case that failed
  ts::View<float, 3> v("v", ts::extents{3, 4, 5}, 1);
  fill_random(v, 9);
  const std::string p = scratch_path("comma.vti");
  io::write_vti(p, v, "u", io::grid_geometry<3>{{0.5, 0.25, 0.125}, {-1.5, 2.75, 0.0625}});
  io::grid_geometry<3> g;
  const auto back = io::read_vti<float, 3>(p, "back", 0, &g);
  std::setlocale(LC_ALL, "C");
  CHECK(g.spacing[0] == 0.5);
  CHECK(g.spacing[2] == 0.125);
  CHECK(g.origin[1] == 2.75);
  CHECK(back(2, 3, 4) == v(2, 3, 4));
}

TEST_CASE("write_vti refuses a spacing or origin read_vti would refuse") {
  ts::View<float, 2> v("v", ts::extents{3, 3}, 0);
  const std::string p = scratch_path("nan.vti");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH_AS(io::write_vti(p, v, "u", io::grid_geometry<2>{{nan, 1.0}, {0.0, 0.0}}),
                       doctest::Contains("spacing nan"), io::io_error);
  CHECK_THROWS_AS(io::write_vti(p, v, "u", io::grid_geometry<2>{{1.0, 0.0}, {0.0, 0.0}}), io::io_error);
  CHECK_THROWS_AS(io::write_vti(p, v, "u", io::grid_geometry<2>{{1.0, 1.0}, {0.0, -INFINITY}}), io::io_error);
  CHECK_FALSE(fs::exists(p));
}
