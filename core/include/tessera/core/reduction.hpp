#pragma once
// What a reduction over a view's interior computes, and how a backend may compute it:
// the vocabulary shared by algorithms/reduce.hpp and the backends' reduce_in.
#include "tessera/core/config.hpp"

namespace tessera {

/// thrust: a library transform-reduce (the default on the GPU); block_atomic: the
/// hand-written block reduction of the CUDA backend. Host reductions ignore the method.
enum class reduction_method { thrust, block_atomic };
/// sum of a*b, sum of a^2, max |a| (all in double).
enum class reduction_kind { dot, sum_squares, max_abs };

/// max that keeps NaN: a max over values holding a NaN is NaN (fmax would drop it).
TESSERA_HD inline double max_keeping_nan(double x, double y) { return x != x || x > y ? x : y; }

}  // namespace tessera
