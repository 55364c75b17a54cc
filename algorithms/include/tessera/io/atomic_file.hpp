#pragma once
// Writes a file through a temporary name in the same folder and renames it into place,
// so a reader never sees a half-written file and a failed write leaves nothing behind.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "tessera/core/errors.hpp"

namespace tessera::io {

struct io_error : error {
  using error::error;
};

/// Calls write(std::ofstream&) on a temporary file, then renames it to `path`.
template <class Writer>
void write_atomically(const std::string& path, Writer&& write) {
  const std::string tmp = path + ".tmp-tessera";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw io_error("tessera: cannot open '" + tmp + "' for writing (does the folder exist and is it writable?)");
    try {
      write(f);
    } catch (...) {
      f.close();
      std::remove(tmp.c_str());
      throw;
    }
    f.flush();
    if (!f) {
      f.close();
      std::remove(tmp.c_str());
      throw io_error("tessera: writing '" + path + "' failed (disk full?)");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw io_error("tessera: cannot rename '" + tmp + "' to '" + path + "': " + ec.message());
  }
}

}  // namespace tessera::io
