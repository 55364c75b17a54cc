#pragma once
// Cache hints for the host sweeps: streaming (non-temporal) stores and software prefetch.
//
// Why: a sweep over a grid larger than the caches writes every output line once and
// never reads it back before it leaves the cache. An ordinary store first reads the line
// (read-for-ownership): 3 memory streams for a sweep's 2 ideal ones. A streaming store
// writes the line without reading it. Streaming stores and the prefetch below each help
// alone and most together (perf/RESULTS.md, "Host sweeps: cache hints").
#include <cstddef>
#include <cstdint>
#include <type_traits>

#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#include <emmintrin.h>
#if defined(__AVX__)
#include <immintrin.h>
#endif
#define TESSERA_HOST_STREAMING_STORES 1
#else
#define TESSERA_HOST_STREAMING_STORES 0
#endif

namespace tessera::host::detail {

/// Bytes in a cache line: the unit a streaming store writes whole.
inline constexpr std::size_t line_bytes = 64;

/// True where this build can write T with streaming stores (x86 with SSE2: float, double).
template <class T>
inline constexpr bool streamable =
    TESSERA_HOST_STREAMING_STORES && (std::is_same_v<T, float> || std::is_same_v<T, double>);

/// Elements of T in one cache line.
template <class T>
inline constexpr std::ptrdiff_t line_elements = static_cast<std::ptrdiff_t>(line_bytes / sizeof(T));

/// Elements from p up to the next line boundary (0 if p is on one).
template <class T>
inline std::ptrdiff_t elements_to_line(const T* p) {
  const auto misalign = reinterpret_cast<std::uintptr_t>(p) % line_bytes;
  return misalign == 0 ? 0 : static_cast<std::ptrdiff_t>((line_bytes - misalign) / sizeof(T));
}

/// Writes the line at dst (line-aligned) from src (line-aligned) with streaming stores.
template <class T>
inline void stream_line([[maybe_unused]] T* dst, [[maybe_unused]] const T* src) {
#if TESSERA_HOST_STREAMING_STORES
#if defined(__AVX__)  // a line in two 32-byte stores (measured a little faster: perf/RESULTS.md)
  if constexpr (std::is_same_v<T, float>) {
    for (int i = 0; i < 16; i += 8) _mm256_stream_ps(dst + i, _mm256_load_ps(src + i));
  } else if constexpr (std::is_same_v<T, double>) {
    for (int i = 0; i < 8; i += 4) _mm256_stream_pd(dst + i, _mm256_load_pd(src + i));
  }
#else
  if constexpr (std::is_same_v<T, float>) {
    for (int i = 0; i < 16; i += 4) _mm_stream_ps(dst + i, _mm_load_ps(src + i));
  } else if constexpr (std::is_same_v<T, double>) {
    for (int i = 0; i < 8; i += 2) _mm_stream_pd(dst + i, _mm_load_pd(src + i));
  }
#endif
#endif
}

/// Orders this thread's streaming stores before its later stores (and before the end of
/// the parallel region, after which other threads read the output).
inline void stream_fence() {
#if TESSERA_HOST_STREAMING_STORES
  _mm_sfence();
#endif
}

/// Asks for the lines of the `bytes` bytes that start `offset` elements from `base` to
/// be brought into the cache. A hint: it never faults, so a range past the ghost layer
/// needs no clamping (the address is formed as an integer, not as a pointer).
template <class T>
inline void prefetch_range(const T* base, std::ptrdiff_t offset, std::ptrdiff_t bytes) {
  const auto first = reinterpret_cast<std::uintptr_t>(base) + static_cast<std::uintptr_t>(offset * std::ptrdiff_t(sizeof(T)));
  const auto begin = first & ~std::uintptr_t(line_bytes - 1);
  const auto end = first + static_cast<std::uintptr_t>(bytes);
#if defined(__GNUC__) || defined(__clang__)
  for (auto a = begin; a < end; a += line_bytes) __builtin_prefetch(reinterpret_cast<const void*>(a), 0, 3);
#else
  (void)begin, (void)end;
#endif
}

}  // namespace tessera::host::detail
