#pragma once
// The natural scale of a sweep's rounding error. Each output is a dot product
// sum_k c_k u(p + o_k); evaluated in floating point in any order (with or without FMA)
// it is off by at most about N * eps * sum_k |c_k| |u(p + o_k)| <= N * eps * S with
//
//     S = sum_k |c_k| * max |u|        (max over the whole input, ghosts included).
//
// Two correct sweeps can therefore differ by a few eps * S, however small the result is
// where the stencil cancels (a Laplacian of a smooth field, a 1-point grid). validate
// measures errors against S; an indexing or coefficient mistake moves a result by
// O(S) (or at least c * |u|) and still fails by orders of magnitude.
#include <cmath>

#include "tessera/core/stencil.hpp"
#include "tessera/core/view.hpp"

namespace tessera {

/// max |v| over the whole allocation of v (interior, ghosts and padding); +infinity when
/// any element is NaN or infinite, so a non-finite input cannot hide behind fmax. Computed
/// in v's memory space (max_abs_in, found by argument-dependent lookup on the space).
template <class T, int Rank, class Space>
double max_abs_including_ghosts(const View<T, Rank, Space>& v) {
  return max_abs_in(Space{}, static_cast<const T*>(v.data()), v.layout().span());
}

/// S = sum_k |c_k| * max |in|: the scale the rounding error of a sweep of `in` obeys.
template <class S, class T, int Rank, class Space>
double sweep_scale(const stencil<S, T>& st, const View<T, Rank, Space>& in) {
  double c = 0;
  for (int k = 0; k < st.size; ++k) c += std::fabs(static_cast<double>(st.coeffs[k]));
  return c * max_abs_including_ghosts(in);
}

}  // namespace tessera
