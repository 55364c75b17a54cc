#pragma once
// The trivially copyable argument every sweep kernel takes by value: interior origins,
// strides and extents on the three virtual axes (z, y, x) — a rank-R grid fills the last
// R, the others have extent 1 and stride 0 — and the point evaluator, today the constant
// coefficients of a stencil.
//
// The evaluator is the seam between a kernel family's loop structure (which neighbours it
// loads, from where, in what order) and what a point computes from them: a kernel never
// reads a coefficient itself, it adds p.term<K>(value) for each point K of the shape and
// stores the sum. Other evaluators (variable coefficients, several fields, fused time
// steps) are other parameter types with the same term (docs/design.md).
#include <type_traits>

#include "tessera/core/array.hpp"
#include "tessera/core/config.hpp"
#include "tessera/core/stencil.hpp"
#include "tessera/core/view.hpp"

namespace tessera::cuda {

template <class T, int N>
struct sweep_params {
  const T* in = nullptr;  // interior point (0, 0, 0) of the input
  T* out = nullptr;       // interior point (0, 0, 0) of the output
  array<index_t, 3> in_stride{};
  array<index_t, 3> out_stride{};
  array<index_t, 3> n{};  // interior extents (z, y, x)
  array<T, N> c{};

  /// What the neighbour `value` at point K of the shape adds to the output.
  template <int K>
  TESSERA_HD T term(T value) const {
    return c[K] * value;
  }
};

template <class S, class T, int Rank, class Space>
sweep_params<T, shape_traits<S>::size> make_sweep_params(const stencil<S, T>& st,
                                                        const View<T, Rank, Space>& in,
                                                        const View<T, Rank, Space>& out) {
  sweep_params<T, shape_traits<S>::size> p;
  const auto a = in.accessor();
  const auto b = out.accessor();
  p.in = a.origin;
  p.out = b.origin;
  for (int v = 0; v < 3; ++v) {
    const int d = v - (3 - Rank);
    p.n[v] = d < 0 ? 1 : a.n[d];
    p.in_stride[v] = d < 0 ? 0 : a.stride[d];
    p.out_stride[v] = d < 0 ? 0 : b.stride[d];
  }
  p.c = st.coeffs;
  return p;
}

static_assert(std::is_trivially_copyable_v<sweep_params<float, 7>>);

}  // namespace tessera::cuda
