// Writes one file per class of hostile input (support/hostile_files.hpp) into a folder,
// for the command-line tests (app.hostile_inputs): tessera-hostile-files DIR
#include <cstdio>
#include <filesystem>
#include <fstream>

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
  return 0;
}
