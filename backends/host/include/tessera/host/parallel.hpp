#pragma once
// host::parallel: OpenMP threads over rows, the contiguous axis vectorised.
// Each row of output reads N input rows at loop-invariant offsets; the N offsets are
// compile-time constants (static_for), so the inner loop is N fused multiply-adds per
// point on contiguous memory, which GCC vectorises under `omp simd`.
// Points are summed in declaration order, like host::serial.
#include "tessera/core/static_for.hpp"
#include "tessera/core/stencil.hpp"
#include "tessera/core/view.hpp"
#include "tessera/host/policy.hpp"

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace tessera::host {

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
}  // namespace detail

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
  [[maybe_unused]] const int threads = p.num_threads;
  // Below ~16k points a parallel region costs more (fork/join, idle threads spinning)
  // than the sweep itself: small grids run on the calling thread.
  [[maybe_unused]] const bool worth_threads = in.size() >= host::parallel_threshold;
  if constexpr (Rank == 1) {
    // Split the single row into chunks, one per thread.
    constexpr index_t chunk = 4096;
    const index_t nchunks = (n[0] + chunk - 1) / chunk;
#pragma omp parallel for schedule(static) num_threads(threads > 0 ? threads : omp_get_max_threads()) if (nchunks > 1 && worth_threads)
    for (index_t c = 0; c < nchunks; ++c) {
      const index_t x0 = c * chunk;
      const index_t len = n[0] - x0 < chunk ? n[0] - x0 : chunk;
      detail::sweep_row(st, a.origin + x0, b.origin + x0, shift, len);
    }
  } else if constexpr (Rank == 2) {
#pragma omp parallel for schedule(static) num_threads(threads > 0 ? threads : omp_get_max_threads()) if (worth_threads)
    for (index_t y = 0; y < n[0]; ++y)
      detail::sweep_row(st, a.origin + y * a.stride[0], b.origin + y * b.stride[0], shift, n[1]);
  } else {
#pragma omp parallel for collapse(2) schedule(static) num_threads(threads > 0 ? threads : omp_get_max_threads()) if (worth_threads)
    for (index_t z = 0; z < n[0]; ++z)
      for (index_t y = 0; y < n[1]; ++y)
        detail::sweep_row(st, a.origin + z * a.stride[0] + y * a.stride[1],
                          b.origin + z * b.stride[0] + y * b.stride[1], shift, n[2]);
  }
}

}  // namespace tessera::host
