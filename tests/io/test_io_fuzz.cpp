// Fuzzing the .npy and .vti readers with a deterministic mutation corpus generated here:
// valid files and the hostile classes of tests/support/hostile_files.hpp, mutated by bit
// flips, interesting bytes and numbers, truncation, insertion, deletion and word swaps.
// Every input must be answered within 1 s by a view consistent with the file or by an
// io_error that names the reader and the file; nothing else may escape, and the process
// must stay small. CI runs this suite under AddressSanitizer and UBSan too.
#include <doctest/doctest.h>

#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <tessera/io/npy.hpp>
#include <tessera/io/vti.hpp>

#include "../support/hostile_files.hpp"
#include "../support/scratch_files.hpp"

namespace ts = tessera;
namespace io = tessera::io;
using namespace ts::test;

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool sanitized = true;
#else
constexpr bool sanitized = false;
#endif
#else
constexpr bool sanitized = false;
#endif

struct outcome {
  int accepted = 0, refused = 0;
  double slowest = 0;
  std::string slowest_input;
};

class mutator {
 public:
  explicit mutator(std::uint64_t seed) : gen_(seed) {}

  std::string mutate(std::string s) {
    const int rounds = 1 + pick(3);
    for (int r = 0; r < rounds; ++r) s = once(std::move(s));
    return s;
  }

 private:
  int pick(int n) { return static_cast<int>(gen_() % static_cast<std::uint64_t>(n)); }
  std::size_t at(const std::string& s) { return s.empty() ? 0 : gen_() % s.size(); }

  std::string once(std::string s) {
    static const char bytes[] = {0, '\xff', '0', '1', '9', ' ', '(', ')', ',', '\'', '"', '<', '>', '/', '_', '-', 'x', '\n', ':', '{', '}'};
    static const char* const numbers[] = {"0", "1", "-1", "2", "4294967296", "4611686018427387904", "9223372036854775807",
                                          "9223372036854775808", "18446744073709551616", "99999999999999999999999",
                                          "0x4", "3-1", "1e3", "", " ", "1000", "65536", "-9223372036854775808"};
    static const char* const words[] = {"True", "False", "Maybe", "'<f4'", "'<f8'", "'>f4'", "'|u1'", "LittleEndian",
                                        "BigEndian", "UInt32", "UInt64", "Float32", "Float64", "appended", "raw",
                                        "base64", "ImageData", "PolyData", "shape", "descr", "fortran_order", "/>", ">"};
    switch (pick(9)) {
      case 0:  // flip bits
        for (int k = 0, n = 1 + pick(4); k < n && !s.empty(); ++k) s[at(s)] ^= static_cast<char>(1 << pick(8));
        return s;
      case 1:  // interesting bytes
        for (int k = 0, n = 1 + pick(4); k < n && !s.empty(); ++k) s[at(s)] = bytes[pick(sizeof bytes)];
        return s;
      case 2:  // truncate
        return s.substr(0, at(s));
      case 3: {  // insert random bytes
        std::string ins;
        for (int k = 0, n = 1 + pick(16); k < n; ++k) ins += static_cast<char>(gen_() & 0xff);
        return s.insert(at(s), ins);
      }
      case 4: {  // delete a range
        const std::size_t a = at(s);
        return s.erase(a, 1 + pick(32));
      }
      case 5: {  // replace a decimal number of the text with an interesting one
        std::vector<std::size_t> starts;
        for (std::size_t i = 0; i < s.size() && i < 1024; ++i)
          if (s[i] >= '0' && s[i] <= '9' && (i == 0 || s[i - 1] < '0' || s[i - 1] > '9')) starts.push_back(i);
        if (starts.empty()) return s;
        const std::size_t b = starts[gen_() % starts.size()];
        std::size_t e = b;
        while (e < s.size() && s[e] >= '0' && s[e] <= '9') ++e;
        return s.replace(b, e - b, numbers[pick(sizeof numbers / sizeof *numbers)]);
      }
      case 6: {  // swap a known word for another
        const char* from = words[pick(sizeof words / sizeof *words)];
        const auto p = s.find(from);
        if (p == std::string::npos) return s;
        return s.replace(p, std::string(from).size(), words[pick(sizeof words / sizeof *words)]);
      }
      case 7: {  // duplicate a slice
        const std::size_t a = at(s);
        return s.insert(at(s), s.substr(a, 1 + pick(64)));
      }
      default: {  // an interesting 64-bit count, little-endian, somewhere
        static const std::uint64_t counts[] = {0, 1, 96, 192, 1ull << 31, 1ull << 32, 1ull << 62, ~0ull, ~0ull >> 1};
        const std::string c = le_count(counts[pick(sizeof counts / sizeof *counts)]);
        if (s.size() < 8) return s + c;
        return s.replace(gen_() % (s.size() - 7), 8, c);
      }
    }
  }

  std::mt19937_64 gen_;
};

/// Runs `reader(path)` on one input; checks the answer; records time.
template <class Reader>
void one_input(const std::string& path, const std::string& bytes, const char* reader_name, Reader&& reader,
               outcome& out) {
  spit(path, bytes);
  const auto t0 = std::chrono::steady_clock::now();
  try {
    const std::size_t held = reader(path);
    CHECK_MESSAGE(held <= bytes.size(), "a view holds more data than the file");
    ++out.accepted;
  } catch (const io::io_error& e) {
    const std::string m = e.what();
    const std::string want = std::string(reader_name) + ": '" + path + "'";
    CHECK_MESSAGE(m.compare(0, want.size(), want) == 0, "error does not name the reader and file: " << m);
    ++out.refused;
  } catch (const std::exception& e) {
    FAIL_CHECK("an exception other than io_error escaped: " << e.what());
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (s > out.slowest) out.slowest = s, out.slowest_input = bytes.substr(0, 120);
}

std::vector<std::string> seeds(bool npy) {
  std::vector<std::string> s;
  auto saved = [&](auto&& write) {
    const auto p = scratch_path(npy ? "seed.npy" : "seed.vti");
    write(p);
    s.push_back(slurp(p));
  };
  ts::View<float, 3> f3("f", ts::extents{2, 3, 4}, 1);
  ts::View<double, 2> d2("d", ts::extents{4, 6}, 0);
  ts::View<float, 1> f1("g", ts::extents<1>{24}, 0);
  if (npy) {
    saved([&](const std::string& p) { io::write_npy(p, f3); });
    saved([&](const std::string& p) { io::write_npy(p, d2); });
    saved([&](const std::string& p) { io::write_npy(p, f1); });
    s.push_back(npy_bytes(npy_dict("<f4", "False", "(2, 3, 4)"), float_payload(24), 2));
  } else {
    saved([&](const std::string& p) { io::write_vti(p, f3); });
    saved([&](const std::string& p) { io::write_vti(p, d2, "u", 0.25); });
    s.push_back(vti_bytes("0 3 0 2 0 1", "byte_order=\"BigEndian\" header_type=\"UInt32\"",
                          std::string{'\0', '\0', '\0', static_cast<char>(96)}, float_payload(24)));
  }
  for (const auto& h : hostile_files())
    if (h.name.ends_with(npy ? ".npy" : ".vti")) s.push_back(h.bytes);
  return s;
}

template <class Read>
outcome fuzz(bool npy, int inputs, std::uint64_t seed, Read&& read) {
  const auto corpus = seeds(npy);
  mutator m(seed);
  outcome out;
  const auto path = scratch_path(npy ? "fuzz.npy" : "fuzz.vti");
  for (int i = 0; i < inputs; ++i) {
    const std::string& base = corpus[static_cast<std::size_t>(i) % corpus.size()];
    // every seed once as it is, then mutants
    const std::string bytes = i < static_cast<int>(corpus.size()) ? base : m.mutate(base);
    one_input(path, bytes, npy ? "tessera::read_npy" : "tessera::read_vti",
              [&](const std::string& p) { return read(p, i); }, out);
  }
  return out;
}

void check_summary(const outcome& o, int inputs, const char* what) {
  MESSAGE(std::string(what) << ": " << inputs << " inputs, " << o.accepted << " read, " << o.refused
                << " refused; slowest " << o.slowest * 1e3 << " ms");
  CHECK(o.accepted + o.refused == inputs);
  CHECK(o.refused > inputs / 2);  // most mutants are broken: the fuzzer reaches the checks
  CHECK(o.accepted > 0);          // and some survive: it reaches the data path too
  CHECK_MESSAGE(o.slowest < 1.0, "slowest input (first bytes): " << o.slowest_input);
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  if (!sanitized) CHECK_MESSAGE(u.ru_maxrss < 200 * 1024, "peak resident set " << u.ru_maxrss << " KiB");
}

constexpr int inputs_per_reader = 3000;

}  // namespace

TEST_CASE("fuzz: read_npy answers 3000 mutated files with a view or a named io_error") {
  const auto o = fuzz(true, inputs_per_reader, 20261123, [](const std::string& p, int i) -> std::size_t {
    switch (i % 3) {
      case 0: return io::read_npy<float, 3>(p, "x", 1).size() * sizeof(float);
      case 1: return io::read_npy<double, 2>(p, "x", 2).size() * sizeof(double);
      default: return io::read_npy<float, 1>(p, "x", 0).size() * sizeof(float);
    }
  });
  check_summary(o, inputs_per_reader, "read_npy");
}

TEST_CASE("fuzz: read_vti answers 3000 mutated files with a view or a named io_error") {
  const auto o = fuzz(false, inputs_per_reader, 7, [](const std::string& p, int i) -> std::size_t {
    switch (i % 3) {
      case 0: return io::read_vti<float, 3>(p, "x", 1).size() * sizeof(float);
      case 1: return io::read_vti<double, 2>(p, "x", 4).size() * sizeof(double);
      default: return io::read_vti<float, 2>(p, "x", 0).size() * sizeof(float);
    }
  });
  check_summary(o, inputs_per_reader, "read_vti");
}
