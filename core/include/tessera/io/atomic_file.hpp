#pragma once
// Outputs written whole or not at all. write_atomically(path, writer) fills a new file of
// a unique name in path's folder, created exclusively (mkstemp: never through a link,
// never over another file, whoever else writes there at the same time), flushes it to
// the disk (fsync) and renames it onto `path`: a reader, or a second run writing the same
// output at once, sees the old file or a whole new one, never a mixture or a truncated
// one. A failed or interrupted write removes its temporary file and leaves `path` as it
// was.
//
// An output that is a symbolic link, a FIFO or a device is refused by name (a rename
// would replace the link or the node itself), unless the caller asks to write through it
// (special_output::write_through: opened as it is, written in place, not atomically).
//
// Interrupts: a program that installs io::remove_unfinished_outputs_on_signals() (the
// tessera command does) has the temporary files of writes in progress removed on SIGINT
// and SIGTERM, and a line saying so, before it ends as the signal asks.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <streambuf>
#include <string>
#include <system_error>

#include "tessera/core/errors.hpp"

namespace tessera::io {

struct io_error : error {
  using error::error;
};

/// What write_atomically does with an output that is a symbolic link, a FIFO or a device.
enum class special_output {
  refuse,         // an io_error naming it (the default)
  write_through,  // open it as it is and write into it (the link's target, the pipe, the device)
};

namespace detail {

/// The temporary files of the writes in progress, for a signal handler to remove: fixed
/// slots of fixed size, claimed and released with atomics (no allocation, no lock, so that
/// remove_unfinished_outputs may run in a handler).
struct unfinished_outputs {
  static constexpr int slots = 16;
  static constexpr std::size_t path_max = 4096;
  std::array<std::atomic<int>, slots> state{};  // 0 free, 1 being filled, 2 holds a path
  std::array<std::array<char, path_max>, slots> path{};

  static unfinished_outputs& get() {
    static unfinished_outputs u;
    return u;
  }
  /// A slot holding `p`, or -1 when every slot is taken or p is too long (the write goes
  /// on; only its clean-up on a signal is lost).
  int add(const std::string& p) {
    if (p.size() + 1 > path_max) return -1;
    for (int i = 0; i < slots; ++i) {
      int expected = 0;
      if (state[i].compare_exchange_strong(expected, 1)) {
        std::memcpy(path[i].data(), p.c_str(), p.size() + 1);
        state[i].store(2);
        return i;
      }
    }
    return -1;
  }
  void remove(int i) {
    if (i >= 0) state[i].store(0);
  }
};

/// This process's umask, read without changing it (umask(2) would, for every thread).
inline mode_t current_umask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
  return 022;
}

/// A std::streambuf writing to a file descriptor through a buffer of its own.
class fd_streambuf : public std::streambuf {
 public:
  explicit fd_streambuf(int fd) : fd_(fd) { setp(buffer_.data(), buffer_.data() + buffer_.size()); }
  /// The first error a write met (0: none).
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (sync() != 0) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override {
    const char* p = pbase();
    while (p < pptr()) {
      const ssize_t n = ::write(fd_, p, static_cast<std::size_t>(pptr() - p));
      if (n < 0) {
        if (errno == EINTR) continue;
        error_ = errno;
        return -1;
      }
      p += n;
    }
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return 0;
  }

 private:
  int fd_;
  int error_ = 0;
  std::array<char, 1 << 16> buffer_{};
};

/// What `path` is when it is not a regular file to be replaced: "" (absent, or a regular
/// file), else its kind, with a link's target.
inline std::string special_kind(const std::string& path) {
  struct stat st{};
  if (::lstat(path.c_str(), &st) != 0) return {};
  if (S_ISLNK(st.st_mode)) {
    std::error_code ec;
    const auto to = std::filesystem::read_symlink(path, ec);
    return "symbolic link" + (ec ? std::string() : " (to '" + to.string() + "')");
  }
  if (S_ISDIR(st.st_mode)) return "folder";
  if (S_ISFIFO(st.st_mode)) return "FIFO";
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) return "device";
  if (S_ISSOCK(st.st_mode)) return "socket";
  return {};
}

inline std::string folder_of(const std::string& path) {
  const auto parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

/// A new, empty file of a unique name in `folder` (mkstemp: created exclusively, so never a
/// link or another's file); its descriptor, and its name in `name`.
inline int make_temporary(const std::string& folder, const std::string& path, std::string& name) {
  name = folder + "/.tessera-XXXXXX";
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0)
    throw io_error("tessera: cannot write '" + path + "': cannot create a file in the folder '" + folder + "' (" +
                   std::strerror(errno) + "): does the folder exist, and is it writable?");
  return fd;
}

}  // namespace detail

/// Throws io_error, naming `path` and why, when it cannot be written: an output that is a
/// folder, or (refused by default) a symbolic link, a FIFO or a device; or a folder where
/// no new file can be made (checked by making one and removing it: no other file is
/// touched). Meant for a program to check its outputs before hours of work.
inline void check_writable(const std::string& path, special_output special = special_output::refuse) {
  if (path.empty()) throw io_error("tessera: an output needs a file name");
  const std::string kind = detail::special_kind(path);
  if (kind == "folder") throw io_error("tessera: the output '" + path + "' is a folder; name a file");
  if (!kind.empty() && special == special_output::refuse)
    throw io_error("tessera: the output '" + path + "' is a " + kind +
                   "; tessera replaces an output by renaming a finished file onto it, which would replace the " +
                   kind.substr(0, kind.find(' ') == std::string::npos ? kind.size() : kind.find(' ')) +
                   " itself: name a regular file, or write through it (--write-through)");
  if (!kind.empty()) return;  // written through as it is
  std::string name;
  const int fd = detail::make_temporary(detail::folder_of(path), path, name);
  ::close(fd);
  ::unlink(name.c_str());
}

/// Calls write(std::ostream&) to fill a new temporary file, flushes it to the disk and
/// renames it onto `path` (see the header comment). The writer's exception, or a failed
/// write, leaves `path` as it was and removes the temporary file.
template <class Writer>
void write_atomically(const std::string& path, Writer&& write, special_output special = special_output::refuse) {
  const std::string kind = detail::special_kind(path);
  if (!kind.empty()) {
    check_writable(path, special);  // throws unless it may be written through
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (!f) throw io_error("tessera: cannot open the " + kind + " '" + path + "' for writing");
    write(static_cast<std::ostream&>(f));
    f.flush();
    if (!f) throw io_error("tessera: writing through the " + kind + " '" + path + "' failed");
    return;
  }
  const std::string folder = detail::folder_of(path);
  std::string tmp;
  const int fd = detail::make_temporary(folder, path, tmp);
  auto& unfinished = detail::unfinished_outputs::get();
  const int slot = unfinished.add(tmp);
  auto fail = [&](const std::string& why) {
    ::close(fd);
    ::unlink(tmp.c_str());
    unfinished.remove(slot);
    return io_error("tessera: writing '" + path + "' failed: " + why + " (the earlier file, if any, is untouched)");
  };
  {
    detail::fd_streambuf buf(fd);
    std::ostream out(&buf);
    try {
      write(out);
    } catch (...) {
      ::close(fd);
      ::unlink(tmp.c_str());
      unfinished.remove(slot);
      throw;
    }
    out.flush();
    if (!out || buf.error()) throw fail(std::strerror(buf.error() ? buf.error() : EIO));
  }
  // the permissions a new file gets (mkstemp makes it 0600), or the replaced file's
  struct stat old{};
  const mode_t mode = ::stat(path.c_str(), &old) == 0 ? (old.st_mode & 07777) : (0666 & ~detail::current_umask());
  if (::fchmod(fd, mode) != 0) throw fail(std::string("chmod: ") + std::strerror(errno));
  if (::fsync(fd) != 0) throw fail(std::string("fsync: ") + std::strerror(errno));
  if (::close(fd) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    unfinished.remove(slot);
    throw io_error("tessera: writing '" + path + "' failed: close: " + std::strerror(e));
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    unfinished.remove(slot);
    throw io_error("tessera: cannot rename the finished '" + tmp + "' onto '" + path + "': " + std::strerror(e));
  }
  unfinished.remove(slot);
  // the rename itself on the disk: the folder's entry
  const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

/// Removes the temporary files of the writes in progress. Async-signal-safe: for a signal
/// handler (remove_unfinished_outputs_on_signals installs one).
inline void remove_unfinished_outputs() noexcept {
  auto& u = detail::unfinished_outputs::get();
  for (int i = 0; i < detail::unfinished_outputs::slots; ++i)
    if (u.state[i].load() == 2) ::unlink(u.path[i].data());
}

namespace detail {
inline const char*& interrupted_program() {
  static const char* name = "tessera";
  return name;
}
inline void on_interrupt(int sig) {
  remove_unfinished_outputs();
  const char* who = interrupted_program();
  const char* what = sig == SIGINT ? ": interrupted (SIGINT)" : ": terminated (SIGTERM)";
  const char* rest = "; no output was left half-written, earlier results are untouched\n";
  [[maybe_unused]] ssize_t r = ::write(2, who, std::strlen(who));
  r = ::write(2, what, std::strlen(what));
  r = ::write(2, rest, std::strlen(rest));
  std::raise(sig);  // the default action now (SA_RESETHAND): the process ends as the signal asked
}
}  // namespace detail

/// Installs handlers for SIGINT and SIGTERM that remove the temporary files of the writes
/// in progress, say so on standard error (as `program`), and end the process as the signal
/// asked. For programs; a library does not take signals from its host.
inline void remove_unfinished_outputs_on_signals(const char* program) {
  detail::unfinished_outputs::get();  // made before any signal can come
  detail::interrupted_program() = program;
  struct sigaction sa{};
  sa.sa_handler = detail::on_interrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
}

}  // namespace tessera::io
