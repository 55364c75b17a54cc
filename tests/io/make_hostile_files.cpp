// Writes one file per class of hostile input (support/hostile_files.hpp) into a folder,
// for the command-line tests (app.hostile_inputs): tessera-hostile-files DIR. Into
// DIR/nonfinite it writes readable fields that hold NaN or infinite values, which the
// readers accept and `tessera run` must refuse by name (app.nonfinite_*).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <utility>

#include "../support/hostile_files.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: tessera-hostile-files DIR\n");
    return 2;
  }
  std::filesystem::create_directories(argv[1]);
  int n = 0;
  for (const auto& h : tessera::test::hostile_files()) {
    std::ofstream f(std::filesystem::path(argv[1]) / h.name, std::ios::binary | std::ios::trunc);
    f.write(h.bytes.data(), static_cast<std::streamsize>(h.bytes.size()));
    if (!f) return std::fprintf(stderr, "cannot write %s\n", h.name.c_str()), 1;
    ++n;
  }
  std::printf("wrote %d hostile files into %s\n", n, argv[1]);
  // 6x6x6 float32 fields: three NaN (the first at (0, 1, 2)), one infinity, all NaN, and
  // values near float's largest
  const auto dir = std::filesystem::path(argv[1]) / "nonfinite";
  std::filesystem::create_directories(dir);
  auto field = [](auto at) {
    std::string p;
    for (int i = 0; i < 216; ++i) {
      const float v = at(i);
      p.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
    return tessera::test::npy_bytes(tessera::test::npy_dict("<f4", "False", "(6, 6, 6)"), p);
  };
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const std::pair<const char*, std::string> fields[] = {
      {"some_nan.npy", field([&](int i) { return i == 8 || i == 100 || i == 215 ? nan : 0.25f * i; })},
      {"one_inf.npy", field([&](int i) { return i == 42 ? -inf : 1.0f; })},
      {"all_nan.npy", field([&](int) { return nan; })},
      // finite, but a 4th-order heat step overflows float (its positive neighbour weights sum
      // past 1): the result holds infinities
      {"huge.npy", field([&](int) { return 3.4e38f; })}};
  for (const auto& [name, bytes] : fields) {
    std::ofstream f(dir / name, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!f) return std::fprintf(stderr, "cannot write %s\n", name), 1;
  }
  return 0;
}
