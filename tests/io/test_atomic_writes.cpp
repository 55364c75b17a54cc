// Outputs are never lost or mixed (io/atomic_file.hpp): a unique temporary file per write,
// never through a link and never over another file; links, FIFOs and devices refused as
// outputs unless written through on purpose; long names; a writer's failure or a signal
// leaves the earlier file as it was and no temporary file behind.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <stdexcept>
#include <string>

#include <tessera/io/npy.hpp>
#include <tessera/io/vti.hpp>

#include "../support/scratch_files.hpp"
#include "../support/test_support.hpp"

namespace ts = tessera;
namespace io = tessera::io;
namespace fs = std::filesystem;
using namespace ts::test;

namespace {
/// A folder of its own for one case, so that counting leftovers sees only its files.
fs::path fresh_folder(const std::string& name) {
  const auto d = scratch_dir() / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}
void write_text(const std::string& path, const std::string& text) {
  io::write_atomically(path, [&](std::ostream& f) { f << text; });
}
}  // namespace

TEST_CASE("a file at the old fixed temporary name, or a link planted there, is never touched") {
  const auto d = fresh_folder("planted");
  const std::string out = (d / "result.npy").string();
  spit(out + ".tmp-tessera", "a user's own file");  // the name writes once used
  const std::string victim = (d / "victim.txt").string();
  spit(victim, "precious");
  fs::create_symlink(victim, d / "result.vti.tmp-tessera");
  ts::View<float, 2> v("v", ts::extents{4, 5}, 1);
  fill_random(v, 1);
  io::write_npy(out, v);
  io::write_vti((d / "result.vti").string(), v);
  CHECK(slurp(out + ".tmp-tessera") == "a user's own file");
  CHECK(slurp(victim) == "precious");
  CHECK(io::read_npy<float, 2>(out, "back", 0)(3, 4) == v(3, 4));
  CHECK(leftover_temporaries(d) == 0);
}

TEST_CASE("links, FIFOs and devices named as outputs are refused by name, or written through on request") {
  const auto d = fresh_folder("special");
  const std::string target = (d / "target.txt").string();
  spit(target, "old");
  const std::string link = (d / "link.txt").string();
  fs::create_symlink(target, link);
  CHECK_THROWS_WITH_AS(write_text(link, "new"), doctest::Contains("is a symbolic link (to '"), io::io_error);
  CHECK(fs::is_symlink(link));
  CHECK(slurp(target) == "old");
  CHECK_THROWS_WITH_AS(io::check_writable(link), doctest::Contains("--write-through"), io::io_error);
  // asked for: the link's target is written in place, the link stays
  io::write_atomically(link, [](std::ostream& f) { f << "through"; }, io::special_output::write_through);
  CHECK(fs::is_symlink(link));
  CHECK(slurp(target) == "through");
  const std::string fifo = (d / "pipe").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_WITH_AS(write_text(fifo, "x"), doctest::Contains("is a FIFO"), io::io_error);
  CHECK(fs::is_fifo(fifo));
  CHECK_THROWS_WITH_AS(write_text("/dev/null", "x"), doctest::Contains("is a device"), io::io_error);
  CHECK_THROWS_WITH_AS(io::check_writable(d.string()), doctest::Contains("is a folder"), io::io_error);
  CHECK(leftover_temporaries(d) == 0);
}

TEST_CASE("names up to the system's limit are written") {
  const auto d = fresh_folder("long");
  const long name_max = ::pathconf(d.c_str(), _PC_NAME_MAX);
  REQUIRE(name_max >= 14);
  const std::string name = std::string(static_cast<std::size_t>(name_max) - 4, 'n') + ".npy";  // exactly NAME_MAX
  ts::View<double, 1> v("v", ts::extents<1>{7}, 0);
  fill_random(v, 2);
  const std::string out = (d / name).string();
  CHECK_NOTHROW(io::check_writable(out));
  io::write_npy(out, v);
  CHECK(io::read_npy<double, 1>(out, "back", 0)(6) == v(6));
  CHECK(leftover_temporaries(d) == 0);
}

TEST_CASE("a writer that fails leaves the earlier file whole and no temporary file") {
  const auto d = fresh_folder("failing");
  const std::string out = (d / "out.txt").string();
  write_text(out, "the earlier result");
  CHECK_THROWS_WITH_AS(io::write_atomically(out,
                                            [](std::ostream& f) {
                                              f << "half of a new";
                                              throw std::runtime_error("the run diverged");
                                            }),
                       "the run diverged", std::runtime_error);
  CHECK(slurp(out) == "the earlier result");
  CHECK(leftover_temporaries(d) == 0);
  // a finished write keeps the replaced file's permissions
  REQUIRE(::chmod(out.c_str(), 0640) == 0);
  write_text(out, "the next result");
  struct stat st{};
  REQUIRE(::stat(out.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0640);
  CHECK(slurp(out) == "the next result");
}

TEST_CASE("a signal in the middle of a write removes the temporary file and leaves the earlier file whole") {
  const auto d = fresh_folder("signalled");
  const std::string out = (d / "out.npy").string();
  write_text(out, "the earlier result");
  for (int sig : {SIGINT, SIGTERM}) {
    CAPTURE(sig);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {  // the child writes half a file and is interrupted
      io::remove_unfinished_outputs_on_signals("the child");
      io::write_atomically(out, [&](std::ostream& f) {
        f << std::string(1 << 20, 'x');
        f.flush();
        ::raise(sig);
      });
      ::_exit(0);  // not reached: the handler ends the process as the signal asks
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == sig);
    CHECK(slurp(out) == "the earlier result");
    CHECK(leftover_temporaries(d) == 0);
  }
}
