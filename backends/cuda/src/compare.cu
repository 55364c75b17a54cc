// compare_device: a Thrust transform_reduce over the interior points of two device views.
// Each point maps to a partial result; the reduction keeps maxima, sums of squares, the
// non-finite count and (on ties) the smallest index of the worst point, so the result
// equals the host comparison's, whatever the reduction order.
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_reduce.h>

#include <cmath>

#include "tessera/cuda/cuda_check.hpp"
#include "tessera/cuda/detail/compare.hpp"
#include "tessera/cuda/detail/interior_pair.hpp"

namespace tessera::cuda::detail {
namespace {

struct partial {
  double max_abs;
  index_t worst;            // linear interior index of max_abs (-1: none)
  double max_ref;
  double sum_sq_diff;
  double sum_sq_ref;
  index_t nonfinite;
  index_t first_nonfinite;  // smallest linear index of a non-finite point (-1: none)
};

struct combine {
  __host__ __device__ partial operator()(const partial& a, const partial& b) const {
    partial r;
    if (a.max_abs > b.max_abs || (a.max_abs == b.max_abs && (b.worst < 0 || (a.worst >= 0 && a.worst < b.worst)))) {
      r.max_abs = a.max_abs, r.worst = a.worst;
    } else {
      r.max_abs = b.max_abs, r.worst = b.worst;
    }
    r.max_ref = fmax(a.max_ref, b.max_ref);
    r.sum_sq_diff = a.sum_sq_diff + b.sum_sq_diff;
    r.sum_sq_ref = a.sum_sq_ref + b.sum_sq_ref;
    r.nonfinite = a.nonfinite + b.nonfinite;
    if (a.first_nonfinite < 0) r.first_nonfinite = b.first_nonfinite;
    else if (b.first_nonfinite < 0) r.first_nonfinite = a.first_nonfinite;
    else r.first_nonfinite = a.first_nonfinite < b.first_nonfinite ? a.first_nonfinite : b.first_nonfinite;
    return r;
  }
};

template <class T, int Rank>
struct point_error {
  view_accessor<const T, Rank> a, b;
  __host__ __device__ partial operator()(index_t i) const {
    T xa, xb;
    interior_pair<T, Rank>{a, b}.load(i, xa, xb);
    const double va = static_cast<double>(xa), vb = static_cast<double>(xb);
    partial p{0, -1, 0, 0, 0, 0, -1};
    if (!isfinite(va) || !isfinite(vb)) {
      p.nonfinite = 1;
      p.first_nonfinite = i;
      return p;
    }
    const double diff = fabs(va - vb);
    p.max_abs = diff;
    p.worst = diff > 0 ? i : -1;
    p.max_ref = fabs(vb);
    p.sum_sq_diff = diff * diff;
    p.sum_sq_ref = vb * vb;
    return p;
  }
};

}  // namespace

template <class T, int Rank>
comparison compare_accessors(const view_accessor<const T, Rank>& a, const view_accessor<const T, Rank>& b) {
  comparison c;
  c.rank = Rank;
  index_t points = 1;
  for (int d = 0; d < Rank; ++d) points *= a.n[d];
  c.points = points;
  if (points == 0) return c;
  const partial init{0, -1, 0, 0, 0, 0, -1};
  partial r;
  try {
    r = thrust::transform_reduce(thrust::device, thrust::counting_iterator<index_t>(0),
                                 thrust::counting_iterator<index_t>(points),
                                 point_error<T, Rank>{a, b}, init, combine{});
  } catch (const std::exception& e) {
    throw backend_error(std::string("tessera::compare on the device (thrust::transform_reduce) failed: ") +
                        e.what() + " [views '" + a.label + "' and '" + b.label + "']");
  }
  c.max_abs_error = r.max_abs;
  c.nonfinite = r.nonfinite;
  c.max_rel_error = r.max_ref > 0 ? r.max_abs / r.max_ref : r.max_abs;
  c.rel_l2_error = r.sum_sq_ref > 0 ? std::sqrt(r.sum_sq_diff / r.sum_sq_ref) : std::sqrt(r.sum_sq_diff);
  const index_t worst = r.first_nonfinite >= 0 ? r.first_nonfinite : r.worst;
  if (worst >= 0) {
    index_t rest = worst;
    for (int d = Rank - 1; d >= 0; --d) {
      c.worst_index[d] = rest % a.n[d];
      rest /= a.n[d];
    }
  }
  return c;
}

namespace {
template <class T>
struct abs_value {  // NaN counts as +infinity: a non-finite element must not vanish in fmax
  __host__ __device__ double operator()(T v) const {
    const double a = fabs(static_cast<double>(v));
    return a == a ? a : HUGE_VAL;
  }
};
struct maximum {
  __host__ __device__ double operator()(double a, double b) const { return fmax(a, b); }
};
}  // namespace

template <class T>
double max_abs_span(const T* p, index_t n) {
  if (n == 0) return 0;
  try {
    return thrust::transform_reduce(thrust::device, p, p + n, abs_value<T>{}, 0.0, maximum{});
  } catch (const std::exception& e) {
    throw backend_error(std::string("tessera: max |v| on the device (thrust::transform_reduce) failed: ") + e.what());
  }
}
template double max_abs_span<float>(const float*, index_t);
template double max_abs_span<double>(const double*, index_t);

#define TESSERA_COMPARE_INSTANTIATE(T, R) \
  template comparison compare_accessors<T, R>(const view_accessor<const T, R>&, const view_accessor<const T, R>&);
TESSERA_COMPARE_INSTANTIATE(float, 1)
TESSERA_COMPARE_INSTANTIATE(float, 2)
TESSERA_COMPARE_INSTANTIATE(float, 3)
TESSERA_COMPARE_INSTANTIATE(double, 1)
TESSERA_COMPARE_INSTANTIATE(double, 2)
TESSERA_COMPARE_INSTANTIATE(double, 3)

}  // namespace tessera::cuda::detail
