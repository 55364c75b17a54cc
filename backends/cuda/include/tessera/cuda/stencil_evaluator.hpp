#pragma once
// A stencil as the evaluator of a point-function mainloop: a sweep's argument (the shape's
// coefficients, the input's and output's interior origins and strides on the virtual
// z, y, x axes) as the argument a mainloop's kernel takes for one input field and one
// output, the evaluator being the stencil's point function (core/stencil_function.hpp:
// the same sum in the same order). A strategy whose mainloop runs a stencil as fast as a
// kernel of its own would launches that mainloop for both (docs/design.md, "The point
// evaluator").
#include "tessera/core/config.hpp"
#include "tessera/core/shape.hpp"
#include "tessera/core/stencil_function.hpp"
#include "tessera/cuda/point_params.hpp"
#include "tessera/cuda/sweep_params.hpp"

namespace tessera::cuda::detail {

/// The point-function argument that evaluates stencil S of element type T.
template <class S, class T>
using stencil_point_params = point_params<stencil_function<S, T>, T, S::rank, 1, 1>;

/// p on the grid's own axes (the last S::rank of the virtual z, y, x), with the stencil's
/// coefficients as its point function.
template <class S, class T>
stencil_point_params<S, T> as_point_params(const sweep_params<T, shape_traits<S>::size>& p) {
  constexpr int rank = S::rank;
  stencil_point_params<S, T> q{stencil_function<S, T>{p.c}, {p.in}, {}, {p.out}, {}, {}};
  for (int a = 0; a + 1 < rank; ++a) {
    q.in_stride[0][a] = p.in_stride[3 - rank + a];
    q.out_stride[0][a] = p.out_stride[3 - rank + a];
  }
  for (int a = 0; a < rank; ++a) q.n[a] = p.n[3 - rank + a];
  return q;
}

}  // namespace tessera::cuda::detail
