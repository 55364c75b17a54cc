#pragma once
// Point functions (core/point_function.hpp) on the host. host::serial walks the interior
// in row-major order and calls the function once per point; host::parallel splits the
// same rows over OpenMP threads and leaves the contiguous axis to the vectoriser (the
// function is inlined into the row loop, each field's neighbours at constant offsets
// from the point). Both compute every point with the same expression, so their results
// agree bit for bit.
#include <cstddef>
#include <type_traits>
#include <utility>

#include "tessera/core/fields.hpp"
#include "tessera/core/point_function.hpp"
#include "tessera/core/view.hpp"
#include "tessera/host/parallel.hpp"
#include "tessera/host/policy.hpp"

#if defined(__GNUC__) || defined(__clang__)
#define TESSERA_HOST_FLATTEN __attribute__((flatten))
#else
#define TESSERA_HOST_FLATTEN
#endif

namespace tessera::host {
namespace detail {

/// The pointers and strides of a group of views, at interior point (0, ..., 0).
template <class T, int Rank, std::size_t N>
struct group_origins {
  T* origin[N];
  array<index_t, Rank> stride[N];
};
template <class U, bool Out, class T, int Rank, class Space, std::size_t N>
group_origins<U, Rank, N> origins_of(const field_group<Out, T, Rank, Space, N>& g) {
  group_origins<U, Rank, N> o{};
  for (std::size_t i = 0; i < N; ++i) {
    const auto a = g[i].accessor();
    o.origin[i] = a.origin;
    o.stride[i] = a.stride;
  }
  return o;
}

/// Elements from interior point (0, ..., 0) to the start of row `row` (all axes but the
/// last; rank 1 has one row).
template <int Rank>
inline index_t row_offset(const array<index_t, Rank>& stride, const array<index_t, Rank>& n, index_t row) {
  index_t off = 0;
  for (int a = Rank - 2; a >= 0; --a) {
    off += (row % n[a]) * stride[a];
    row /= n[a];
  }
  return off;
}

/// Whether F may throw when called with its windows: then its rows run in a plain loop and
/// the parallel sweep carries the exception out of its threads.
template <class F, class T, int Rank, std::size_t NI>
constexpr bool may_throw() {
  const T* const at[NI] = {};
  const window_strides<Rank> stride[NI] = {};
  return !noexcept(tessera::detail::call_point_function<T, Rank>(std::declval<const F&>(), at, stride,
                                                                 std::make_index_sequence<NI>{}));
}

/// One row of output points [x0, x1): fn at each, every result stored in its output.
/// Flattened (every call inside inlined, the user's function and its helpers included):
/// a call left in the loop body stops the vectoriser (measured: GCC 12 kept
/// physics::laplacian8 out of line, and the row ran scalar).
template <class F, class T, int Rank, std::size_t NI, std::size_t NO>
TESSERA_HOST_FLATTEN inline void point_row(const F& fn, const group_origins<const T, Rank, NI>& in, const group_origins<T, Rank, NO>& out,
                      const std::type_identity_t<array<index_t, Rank>>& n, index_t row, index_t x0, index_t x1) {
  const T* at[NI];
  window_strides<Rank> stride[NI];
  for (std::size_t i = 0; i < NI; ++i) {
    at[i] = in.origin[i] + row_offset<Rank>(in.stride[i], n, row);
    for (int a = 0; a + 1 < Rank; ++a) stride[i][a] = in.stride[i][a];
  }
  T* dst[NO];
  for (std::size_t j = 0; j < NO; ++j) dst[j] = out.origin[j] + row_offset<Rank>(out.stride[j], n, row);
  using result = decltype(tessera::detail::call_point_function<T, Rank>(fn, at, stride,
                                                                       std::make_index_sequence<NI>{}));
  static_assert(tessera::detail::result_count<result>::value == static_cast<int>(NO),
                "tessera::apply: the point function returns a different number of values than the output views "
                "given (return T for one output, tessera::array<T, M> for outputs(v1, ..., vM))");
  auto point = [&](index_t x) {
    const T* here[NI];
    for (std::size_t i = 0; i < NI; ++i) here[i] = at[i] + x;
    const result r = tessera::detail::call_point_function<T, Rank>(fn, here, stride, std::make_index_sequence<NI>{});
    tessera::detail::static_for<static_cast<int>(NO)>([&](auto j) {
      dst[j][x] = static_cast<T>(tessera::detail::result_at<decltype(j)::value>(r));
    });
  };
  // An exception may not leave an `omp simd` loop (std::terminate): a function that may
  // throw runs in a plain loop, which GCC still vectorises where it can, and its exception
  // reaches the caller. Declaring it noexcept (tessera::physics' are) keeps the simd loop.
  if constexpr (!may_throw<F, T, Rank, NI>()) {
#pragma omp simd
    for (index_t x = x0; x < x1; ++x) point(x);
  } else {
    for (index_t x = x0; x < x1; ++x) point(x);
  }
}

template <int Rank>
inline index_t rows_of(const array<index_t, Rank>& n) {
  index_t rows = 1;
  for (int a = 0; a + 1 < Rank; ++a) rows *= n[a];
  return rows;
}

}  // namespace detail

template <point_function_type F, class T, int Rank, class Space, std::size_t NI, std::size_t NO>
void sweep(const serial&, const F& fn, const input_fields<T, Rank, Space, NI>& in,
           const output_fields<T, Rank, Space, NO>& out) {
  const auto src = detail::origins_of<const T>(in);
  const auto dst = detail::origins_of<T>(out);
  const auto n = in[0].extents().n;
  const index_t rows = detail::rows_of<Rank>(n);
  for (index_t r = 0; r < rows; ++r) detail::point_row(fn, src, dst, n, r, 0, n[Rank - 1]);
}

template <point_function_type F, class T, int Rank, class Space, std::size_t NI, std::size_t NO>
void sweep(const parallel& p, const F& fn, const input_fields<T, Rank, Space, NI>& in,
           const output_fields<T, Rank, Space, NO>& out) {
  const auto src = detail::origins_of<const T>(in);
  const auto dst = detail::origins_of<T>(out);
  const auto n = in[0].extents().n;
  const bool worth_threads = in[0].size() >= host::parallel_threshold;
  const int team = team_size(p);
  // rows over the team; a function that may throw has its exception carried out of them
  auto rows = [&](index_t count, bool threaded, auto&& row) {
    if constexpr (detail::may_throw<F, T, Rank, NI>())
      detail::for_each_row_carrying_exceptions(count, team, threaded, row);
    else
      detail::for_each_row(count, team, threaded, false, row);
  };
  if constexpr (Rank == 1) {
    constexpr index_t chunk = 4096;  // one row, split into chunks, one at a time per thread
    const index_t nchunks = (n[0] + chunk - 1) / chunk;
    rows(nchunks, nchunks > 1 && worth_threads, [&](index_t c) {
      const index_t x0 = c * chunk;
      detail::point_row(fn, src, dst, n, 0, x0, x0 + chunk < n[0] ? x0 + chunk : n[0]);
    });
  } else {
    rows(detail::rows_of<Rank>(n), worth_threads, [&](index_t r) { detail::point_row(fn, src, dst, n, r, 0, n[Rank - 1]); });
  }
}

}  // namespace tessera::host
