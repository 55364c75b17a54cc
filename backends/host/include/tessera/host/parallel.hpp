#pragma once
// host::parallel: OpenMP threads over rows, the contiguous axis vectorised.
// Each row of output reads N input rows at loop-invariant offsets; the N offsets are
// compile-time constants (static_for), so the inner loop is N fused multiply-adds per
// point on contiguous memory, which GCC vectorises under `omp simd`.
// Points are summed in declaration order, like host::serial.
// Outputs larger than the caches are written with streaming stores, and each 3D row
// prefetches the row it will need two rows later from the plane ahead (cache_hints.hpp).
#include "tessera/core/errors.hpp"
#include "tessera/core/detail/static_for.hpp"
#include "tessera/core/stencil.hpp"
#include "tessera/core/view.hpp"
#include "tessera/host/detail/cache_hints.hpp"
#include "tessera/host/policy.hpp"
#include "tessera/host/detail/sweep_instances.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <string>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace tessera::host {

namespace detail {
inline int omp_max_threads() {
#if defined(_OPENMP)
  return omp_get_max_threads();
#else
  return 1;
#endif
}
}  // namespace detail

/// The most threads a host::parallel team may have: 4 a core, at least 1024 (libgomp
/// overflowed its stack starting a team of 100000).
inline int max_threads() {
  int cores = 1;
#if defined(_OPENMP)
  cores = omp_get_num_procs();
#endif
  return std::max(1024, 4 * cores);
}

/// The team a host::parallel sweep runs: num_threads, or OpenMP's default for 0. Throws
/// invalid_argument_error, naming the count and the bound, for a negative count or one above
/// max_threads(); and for a fuse outside [0, parallel::max_fuse].
inline int team_size(const parallel& p) {
  if (p.num_threads < 0 || p.num_threads > max_threads())
    throw invalid_argument_error("tessera: host::parallel{.num_threads = " + std::to_string(p.num_threads) +
                                 "}: use 0 (OpenMP's default) or 1 to " + std::to_string(max_threads()) + " threads");
  if (p.fuse < 0 || p.fuse > parallel::max_fuse)
    throw invalid_argument_error("tessera: host::parallel{.fuse = " + std::to_string(p.fuse) + "}: use 0 to " +
                                 std::to_string(parallel::max_fuse) + " steps a pass");
  return p.num_threads > 0 ? p.num_threads : detail::omp_max_threads();
}

namespace detail {

/// out[x] = sum_k c_k · in[x + shift_k] for x in [0, nx): one row.
/// The point rows and coefficients are copied into locals first: read through `shift`
/// and `st` inside the loop, GCC vectorised `in[x + shift[k]]` as a gather (the shifts
/// might change between iterations, as far as it could prove) and ran 4x slower than
/// host::serial on one thread.
template <class S, class T>
inline void sweep_row(const stencil<S, T>& st, const T* __restrict in, T* __restrict out,
                      const index_t* shift, index_t nx) {
  constexpr int npts = stencil<S, T>::size;
  const T* rows[npts];
  T c[npts];
  for (int k = 0; k < npts; ++k) rows[k] = in + shift[k], c[k] = st.coeffs[k];
#pragma omp simd
  for (index_t x = 0; x < nx; ++x) {
    T s = 0;
    tessera::detail::static_for<npts>([&](auto k) { s += c[k] * rows[k][x]; });
    out[x] = s;
  }
}

/// sweep_row with streaming stores: the whole cache lines of the output row are computed
/// into a line-aligned buffer and streamed; the partial lines at either end, which other
/// rows' lines share, take ordinary stores. Same sums in the same order as sweep_row.
template <class S, class T>
inline void sweep_row_streaming(const stencil<S, T>& st, const T* __restrict in, T* __restrict out,
                                const index_t* shift, index_t nx) {
  constexpr int npts = stencil<S, T>::size;
  constexpr index_t L = line_elements<T>;
  const index_t head = std::min<index_t>(elements_to_line(out), nx);
  sweep_row(st, in, out, shift, head);
  const T* rows[npts];
  T c[npts];
  for (int k = 0; k < npts; ++k) rows[k] = in + shift[k], c[k] = st.coeffs[k];
  index_t x = head;
  for (; x + L <= nx; x += L) {
    alignas(line_bytes) T line[L];
#pragma omp simd
    for (index_t i = 0; i < L; ++i) {
      T s = 0;
      tessera::detail::static_for<npts>([&](auto k) { s += c[k] * rows[k][x + i]; });
      line[i] = s;
    }
    stream_line(out + x, line);
  }
  sweep_row(st, in + x, out + x, shift, nx - x);
}

/// Calls row(r) for r in [0, rows), split statically over `team` threads (on the calling
/// thread alone unless `threaded`); each thread fences its streaming stores before the
/// region ends, after which other threads read the output.
template <class F>
inline void for_each_row(index_t rows, [[maybe_unused]] int team, [[maybe_unused]] bool threaded, bool streaming,
                         F&& row) {
#pragma omp parallel num_threads(team) if (threaded)
  {
#pragma omp for schedule(static) nowait
    for (index_t r = 0; r < rows; ++r) row(r);
    if (streaming) stream_fence();
  }
}

/// for_each_row for a row that may throw (a user's point function): an exception may not
/// leave an OpenMP region (std::terminate), so each row's is caught there, the rows not
/// yet started are skipped, and the first exception is thrown again after the region.
/// The output is then partly written.
template <class F>
inline void for_each_row_carrying_exceptions(index_t rows, [[maybe_unused]] int team,
                                             [[maybe_unused]] bool threaded, F&& row) {
  std::exception_ptr first;
  std::atomic<bool> failed{false};
#pragma omp parallel num_threads(team) if (threaded)
  {
#pragma omp for schedule(static)
    for (index_t r = 0; r < rows; ++r) {
      if (failed.load(std::memory_order_relaxed)) continue;
      try {
        row(r);
      } catch (...) {
#pragma omp critical(tessera_row_exception)
        if (!first) first = std::current_exception();
        failed.store(true, std::memory_order_relaxed);
      }
    }
  }
  if (first) std::rethrow_exception(first);
}

/// One row, with the store kind chosen for the whole sweep.
template <class S, class T>
inline void sweep_row_as(bool streaming, const stencil<S, T>& st, const T* in, T* out, const index_t* shift,
                         index_t nx) {
  if constexpr (streamable<T>) {
    if (streaming) return sweep_row_streaming(st, in, out, shift, nx);
  }
  sweep_row(st, in, out, shift, nx);
}
}  // namespace detail

/// True when a host::parallel sweep writing `out` uses streaming stores.
template <class T, int Rank, class Space>
bool streams_output(const parallel& p, const View<T, Rank, Space>& out) {
  if (!detail::streamable<T>) return false;
  if (p.store == stores::automatic)
    return static_cast<std::size_t>(out.size()) * sizeof(T) >= streaming_store_bytes;
  return p.store == stores::streaming;
}

template <class S, class T, int Rank, class Space>
void sweep(const parallel& p, const stencil<S, T>& st, const View<T, Rank, Space>& in,
           const View<T, Rank, Space>& out) {
  constexpr int npts = stencil<S, T>::size;
  const auto a = in.accessor();
  const auto b = out.accessor();
  const auto& n = in.extents();
  // Flat element offset of each point from the output point, in the input's strides.
  index_t shift[npts];
  for (int k = 0; k < npts; ++k) {
    shift[k] = 0;
    for (int d = 0; d < Rank; ++d) shift[k] += S::points[k][d] * a.stride[d];
  }
  // Below ~16k points a parallel region costs more (fork/join, idle threads spinning)
  // than the sweep itself: small grids run on the calling thread.
  const bool worth_threads = in.size() >= host::parallel_threshold;
  const bool streaming = streams_output(p, out);
  const int team = team_size(p);
  if constexpr (Rank == 1) {
    // Split the single row into chunks, one per thread.
    constexpr index_t chunk = 4096;
    const index_t nchunks = (n[0] + chunk - 1) / chunk;
    detail::for_each_row(nchunks, team, nchunks > 1 && worth_threads, streaming, [&](index_t c) {
      const index_t x0 = c * chunk;
      const index_t len = n[0] - x0 < chunk ? n[0] - x0 : chunk;
      detail::sweep_row_as(streaming, st, a.origin + x0, b.origin + x0, shift, len);
    });
  } else if constexpr (Rank == 2) {
    detail::for_each_row(n[0], team, worth_threads, streaming, [&](index_t y) {
      detail::sweep_row_as(streaming, st, a.origin + y * a.stride[0], b.origin + y * b.stride[0], shift, n[1]);
    });
  } else {
    // The input row two rows ahead in the plane furthest ahead along z: the one row of a
    // step not already in cache from earlier rows and planes. Prefetched whole (shape's
    // x-reach included), a row of compute ahead of its use.
    using tr = shape_traits<S>;
    const index_t lead = tr::reach_hi[0] * a.stride[0] + (tr::reach_hi[1] + 2) * a.stride[1] + tr::reach_lo[2];
    const std::ptrdiff_t lead_bytes = static_cast<std::ptrdiff_t>((n[2] + tr::reach_hi[2] - tr::reach_lo[2]) * sizeof(T));
    // (z, y) rows in one range, split as collapse(2) would.
    detail::for_each_row(n[0] * n[1], team, worth_threads, streaming, [&](index_t r) {
      const index_t z = r / n[1], y = r - z * n[1];
      const T* row = a.origin + z * a.stride[0] + y * a.stride[1];
      detail::prefetch_range(row, lead, lead_bytes);
      detail::sweep_row_as(streaming, st, row, b.origin + z * b.stride[0] + y * b.stride[1], shift, n[2]);
    });
  }
}

}  // namespace tessera::host

// The parallel sweeps of the built-in shapes are compiled once into tessera_host
// (sweep_instances.hpp says how).
#if defined(TESSERA_HOST_PRECOMPILED)
#define TESSERA_HOST_EXTERN_PARALLEL(T, ...) TESSERA_HOST_SWEEP_INSTANCE(extern, parallel, T, __VA_ARGS__)
TESSERA_FOR_EACH_BUILTIN_SHAPE(TESSERA_HOST_EXTERN_PARALLEL, float)
TESSERA_FOR_EACH_BUILTIN_SHAPE(TESSERA_HOST_EXTERN_PARALLEL, double)
#undef TESSERA_HOST_EXTERN_PARALLEL
#endif

// iterate's fused time steps for host::parallel (after the policy and its sweep).
#include "tessera/host/detail/fused_steps.hpp"
