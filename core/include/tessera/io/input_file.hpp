#pragma once
// input_file: a file opened for one of tessera's readers, treated as hostile. It opens
// only regular files (a directory, FIFO or device would fail or block later), knows its
// size before anything is read, so a reader can compare what a header announces with
// what the file holds before allocating, and turns every failure into an io_error that
// names the reader, the file and what is wrong.
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "tessera/core/detail/checked_arithmetic.hpp"
#include "tessera/core/view.hpp"
#include "tessera/io/atomic_file.hpp"

namespace tessera::io {

class input_file {
 public:
  /// reader: the function name every message starts with ("tessera::read_npy").
  input_file(std::string path, std::string reader) : path_(std::move(path)), reader_(std::move(reader)) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const auto st = fs::status(path_, ec);
    if (ec || !fs::exists(st)) throw error("cannot open: no such file");
    if (!fs::is_regular_file(st))
      throw error(std::string("cannot be read: it is ") + (fs::is_directory(st) ? "a directory" : "not a regular file"));
    size_ = fs::file_size(path_, ec);
    if (ec) throw error("cannot be read: " + ec.message());
    f_.open(path_, std::ios::binary);
    if (!f_) throw error("cannot open: permission denied or unreadable");
  }

  const std::string& path() const { return path_; }
  /// Bytes in the file.
  std::uint64_t size() const { return size_; }
  /// Bytes from the read position to the end of the file.
  std::uint64_t remaining() { return size_ - position(); }

  /// "<reader>: '<path>' <why>".
  io_error error(const std::string& why) const { return io_error(reader_ + ": '" + path_ + "' " + why); }

  /// Reads exactly n bytes; a short read is "is truncated in <what>".
  void read(void* dst, std::uint64_t n, const char* what) {
    try {
      if (n > remaining() || !f_.read(static_cast<char*>(dst), static_cast<std::streamsize>(n)))
        throw error(std::string("is truncated in ") + what);
    } catch (const io_error&) {
      throw;
    } catch (const std::exception& e) {  // libstdc++ throws from filebuf on a read error
      throw error(std::string("could not be read (") + e.what() + ")");
    }
  }

  /// The bytes the data of a field of extents e in T take; "has extents ..., whose byte
  /// count overflows 64 bits" when that count cannot be represented.
  template <class T, int Rank>
  std::uint64_t data_bytes(const extents<Rank>& e) const {
    const auto points = e.checked_size();
    const auto bytes = points ? tessera::detail::checked_bytes(*points, sizeof(T)) : std::nullopt;
    if (!bytes) throw error("has extents " + e.to_string() + ", whose byte count overflows 64 bits");
    return *bytes;
  }

  /// The view a reader fills (interior e, given ghost width): an allocation failure names
  /// the file; a view that cannot exist is an io_error.
  template <class T, int Rank>
  View<T, Rank, HostSpace> new_view(const std::string& label, const extents<Rank>& e, int ghost) const {
    try {
      return View<T, Rank, HostSpace>(label, e, ghost);
    } catch (const allocation_error& err) {
      throw allocation_error(reader_ + ": '" + path_ + "': " + err.what());
    } catch (const invalid_argument_error& err) {
      throw error(std::string("cannot be held in a view: ") + err.what());
    }
  }

  std::uint64_t position() {
    const auto p = f_.tellg();
    if (p < 0) throw error("could not be read (tellg failed)");
    return static_cast<std::uint64_t>(p);
  }
  void seek(std::uint64_t offset) {
    if (offset > size_ || !f_.seekg(static_cast<std::streamoff>(offset))) throw error("could not be read (seek failed)");
  }

 private:
  std::string path_, reader_;
  std::uint64_t size_ = 0;
  std::ifstream f_;
};

}  // namespace tessera::io
