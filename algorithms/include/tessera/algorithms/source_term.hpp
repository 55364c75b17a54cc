#pragma once
// apply_with_source(policy, stencil, in, alpha, f, out): out = stencil(in) + alpha * f on
// every policy — the form Jacobi (f = right-hand side) and leapfrog (f = the previous
// time level) need. Today it is the sweep followed by one fused multiply-add pass over
// the interior (one extra read of f and read-write of out); fusing the term into the
// kernels is a performance item. f may be `in` but must not share memory with `out`.
#include <string>

#include "tessera/algorithms/apply.hpp"

namespace tessera {

/// out += alpha * f over the interior (host or device).
template <class T, int Rank, class Space>
void add_scaled(const View<T, Rank, Space>& out, T alpha, const View<T, Rank, Space>& f) {
  detail::require_allocated(out, "tessera::add_scaled", "output");
  detail::require_allocated(f, "tessera::add_scaled", "source");
  if (!(out.extents() == f.extents()))
    throw extent_mismatch_error("tessera::add_scaled: " + out.describe() + " and " + f.describe() +
                                " have different interior extents");
  const view_accessor<const T, Rank> a = f.accessor();
  add_scaled_in(Space{}, out.accessor(), alpha, a);  // in the views' space (argument-dependent lookup)
}

template <execution_policy Policy, class S, class T, int Rank, class Space>
void apply_with_source(const Policy& policy, const stencil<S, T>& st, const View<T, Rank, Space>& in, T alpha,
                       const View<T, Rank, Space>& f, const View<T, Rank, Space>& out) {
  detail::require_allocated(f, "tessera::apply_with_source(" + Policy::name() + ")", "source");
  if (f.data() == out.data())
    throw aliasing_error("tessera::apply_with_source(" + Policy::name() + "): source " + f.describe() +
                         " is the output " + out.describe() + "; the sweep would overwrite it before it is added");
  apply(policy, st, in, out);
  add_scaled(out, alpha, f);
}

}  // namespace tessera
