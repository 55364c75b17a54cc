#pragma once
// Reductions over the interior of a view, in double, on the host (OpenMP) or on the
// device (Thrust by default; reduction_method::block_atomic selects the hand-written
// block reduction): dot(a, b), norm_l2(a), norm_max(a).
#include <cmath>
#include <string>

#include "tessera/core/errors.hpp"
#include "tessera/core/view.hpp"
#include "tessera/core/view_checks.hpp"
#include "tessera/host/policy.hpp"
#if TESSERA_ENABLE_CUDA
#include "tessera/cuda/reduce.hpp"
#else
namespace tessera {
enum class reduction_method { thrust, block_atomic };
enum class reduction_kind { dot, sum_squares, max_abs };
}  // namespace tessera
#endif

namespace tessera {

namespace detail {
template <class T, int Rank, class Space>
double reduce(const View<T, Rank, Space>& a, const View<T, Rank, Space>& b, reduction_kind kind,
              reduction_method method) {
  const std::string who = kind == reduction_kind::dot           ? "tessera::dot"
                          : kind == reduction_kind::sum_squares ? "tessera::norm_l2"
                                                                : "tessera::norm_max";
  detail::require_allocated(a, who, "view");
  detail::require_allocated(b, who, "second view");
  if (!(a.extents() == b.extents()))
    throw extent_mismatch_error(who + ": " + a.describe() + " and " + b.describe() +
                                " have different interior extents");
  if constexpr (Space::host_accessible) {
    const view_accessor<const T, Rank> pa = a.accessor(), pb = b.accessor();
    const auto& n = a.extents();
    const index_t rows = n.size() / (n[Rank - 1] > 0 ? n[Rank - 1] : 1);
    double acc = 0;
    auto row_origin = [&](const view_accessor<const T, Rank>& p, index_t r) {
      index_t off = 0, rest = r;
      for (int d = Rank - 2; d >= 0; --d) {
        off += (rest % n[d]) * p.stride[d];
        rest /= n[d];
      }
      return p.origin + off;
    };
    if (n.size() == 0) return 0;
    if (kind == reduction_kind::max_abs) {
#pragma omp parallel for reduction(max : acc) if (n.size() >= host::parallel_threshold)
      for (index_t r = 0; r < rows; ++r) {
        const T* x = row_origin(pa, r);
        for (index_t i = 0; i < n[Rank - 1]; ++i) acc = std::fmax(acc, std::fabs(double(x[i])));
      }
    } else {
#pragma omp parallel for reduction(+ : acc) if (n.size() >= host::parallel_threshold)
      for (index_t r = 0; r < rows; ++r) {
        const T* x = row_origin(pa, r);
        const T* y = row_origin(kind == reduction_kind::dot ? pb : pa, r);
        for (index_t i = 0; i < n[Rank - 1]; ++i) acc += double(x[i]) * double(y[i]);
      }
    }
    (void)method;
    return acc;
  } else {
#if TESSERA_ENABLE_CUDA
    return cuda::detail::reduce_interior<T, Rank>(a.accessor(), b.accessor(), kind, method);
#else
    return 0;
#endif
  }
}
}  // namespace detail

/// sum over the interior of a * b.
template <class T, int Rank, class Space>
double dot(const View<T, Rank, Space>& a, const View<T, Rank, Space>& b,
           reduction_method method = reduction_method::thrust) {
  return detail::reduce(a, b, reduction_kind::dot, method);
}

/// sqrt(sum over the interior of a^2).
template <class T, int Rank, class Space>
double norm_l2(const View<T, Rank, Space>& a, reduction_method method = reduction_method::thrust) {
  return std::sqrt(detail::reduce(a, a, reduction_kind::sum_squares, method));
}

/// max over the interior of |a|.
template <class T, int Rank, class Space>
double norm_max(const View<T, Rank, Space>& a, reduction_method method = reduction_method::thrust) {
  return detail::reduce(a, a, reduction_kind::max_abs, method);
}

}  // namespace tessera
