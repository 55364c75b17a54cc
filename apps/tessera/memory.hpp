#pragma once
// How much memory a command will need, and how much the machine has: a --size that cannot
// fit is refused before anything is allocated, saying how much it needs, how much there
// is, and the largest size that fits.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <optional>
#include <string>

#include <tessera/tessera.hpp>

namespace tessera::app {

/// Bytes of memory the system can give without swapping (MemAvailable), else physical.
inline std::uint64_t host_memory_available() {
  std::ifstream f("/proc/meminfo");
  std::string key, unit;
  std::uint64_t kib = 0;
  while (f >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

/// Free memory of the current CUDA device; 0 without one.
inline std::uint64_t device_memory_available() {
#if TESSERA_ENABLE_CUDA
  return cuda::device_memory().free;
#else
  return 0;
#endif
}

/// Bytes of `count` views of T with extents n^Rank and ghost width g (rows padded as
/// View pads them); nullopt when that overflows.
template <class T, int Rank>
std::optional<std::uint64_t> views_bytes(int count, index_t n, int g) {
  extents<Rank> e;
  for (int d = 0; d < Rank; ++d) e[d] = n;
  try {
    const layout<Rank> l(e, g, default_row_alignment<T>);
    const auto one = tessera::detail::checked_bytes(l.span(), sizeof(T));
    std::uint64_t all = 0;
    if (!one || !tessera::detail::checked_mul<std::uint64_t>(*one, static_cast<std::uint64_t>(count), all))
      return std::nullopt;
    return all;
  } catch (const invalid_argument_error&) {
    return std::nullopt;
  }
}

/// What a run at a given size needs: bytes on the host and on the device.
struct memory_need {
  std::optional<std::uint64_t> host, device;
};

inline std::string gib(std::uint64_t b) {
  char s[32];
  std::snprintf(s, sizeof s, "%.2f GiB", static_cast<double>(b) / (1ull << 30));
  return s;
}

/// "" when need(size) fits the host (and, with on_gpu, the device); else a message naming
/// `what`, both figures and the largest size in [1, size] that fits.
inline std::string check_memory(const std::string& what, int size, bool on_gpu,
                                const std::function<memory_need(int)>& need) {
  const std::uint64_t host = host_memory_available(), device = on_gpu ? device_memory_available() : 0;
  auto fits = [&](int n) {
    const auto m = need(n);
    return m.host && *m.host <= host && (!on_gpu || (m.device && *m.device <= device));
  };
  if (host == 0 || fits(size)) return {};  // unknown host memory: no basis for refusing
  int lo = 0, hi = size;  // fits(lo) (0: nothing), !fits(hi)
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    (fits(mid) ? lo : hi) = mid;
  }
  const auto m = need(size);
  const bool host_short = !m.host || *m.host > host;
  std::string msg = what + " at --size " + std::to_string(size) + " needs ";
  if (host_short)
    msg += (m.host ? gib(*m.host) : std::string("more than 2^64 bytes")) + " of host memory, but " + gib(host) +
           " are available";
  else
    msg += (m.device ? gib(*m.device) : std::string("more than 2^64 bytes")) + " of GPU memory, but " + gib(device) +
           " are free";
  return msg + (lo > 0 ? "; --size " + std::to_string(lo) + " fits" : "; not even --size 1 fits");
}

}  // namespace tessera::app
