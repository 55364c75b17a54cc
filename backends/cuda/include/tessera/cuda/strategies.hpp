#pragma once
// The CUDA strategies: the one list every other list is derived from — dispatch's
// recognition of a policy, cuda::automatic's candidates and the tuning table's names, the
// kernels compiled into tessera_cuda (backends/cuda/CMakeLists.txt reads the #include
// lines below), the sweeps precompiled for the built-in shapes, the command line's and the
// benchmark's policies, and the cross-validation test matrix.
//
// Adding a strategy: write tessera/cuda/strategies/<name>.hpp (strategy.hpp says what it
// holds), then add its #include below and `<name><>` to the list. Nothing else.
#include "tessera/core/type_list.hpp"
#include "tessera/cuda/strategies/coarsened.hpp"
#include "tessera/cuda/strategies/naive.hpp"
#include "tessera/cuda/strategies/pipelined.hpp"
#include "tessera/cuda/strategies/register_tiled.hpp"
#include "tessera/cuda/strategies/shared_streaming.hpp"
#include "tessera/cuda/strategies/streaming.hpp"
#include "tessera/cuda/strategies/temporal_blocking.hpp"
#include "tessera/cuda/strategies/tiled.hpp"
#include "tessera/cuda/strategies/vector_streaming.hpp"

namespace tessera::cuda {

/// Every CUDA strategy, each with its default tiles, in the textbook's order; then
/// temporal blocking (several time steps per pass, for iterate).
using strategies = type_list<naive<>, tiled<>, coarsened<>, register_tiled<>, streaming<>, shared_streaming<>,
                             pipelined<>, vector_streaming<>, temporal_blocking<>>;

}  // namespace tessera::cuda
