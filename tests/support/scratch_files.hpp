#pragma once
// Scratch files for the I/O suites: one folder per process (ctest runs the cases of a
// suite as parallel processes, which must not share file names), removed at exit.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace tessera::test {

inline const std::filesystem::path& scratch_dir() {
  struct folder {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("tessera-tests-" + std::to_string(::getpid()));
    folder() { std::filesystem::create_directories(path); }
    ~folder() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  };
  static const folder f;
  return f.path;
}

inline std::string scratch_path(const std::string& name) { return (scratch_dir() / name).string(); }

/// Temporary files of tessera's writes (".tessera-XXXXXX") left in `folder`.
inline int leftover_temporaries(const std::filesystem::path& folder) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(folder))
    n += e.path().filename().string().rfind(".tessera-", 0) == 0;
  return n;
}

inline std::string slurp(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

inline void spit(const std::string& p, const std::string& bytes) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace tessera::test
