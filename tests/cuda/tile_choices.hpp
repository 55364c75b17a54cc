#pragma once
// Non-default tile choices the launch-shape test checks (instantiated in
// test_instantiations_tiles.cu).
#include <tessera/cuda/policy.hpp>

namespace tessera::test {
using naive_16x4x2 = cuda::naive<16, 4, 2>;
using tiled_16x16 = cuda::tiled<16, 16, 4>;
using tiled_128 = cuda::tiled<128>;
using coarsened_64x8x4 = cuda::coarsened<64, 8, 4>;
using register_tiled_64x8x4 = cuda::register_tiled<64, 8, 4>;
using streaming_64x4x16 = cuda::streaming<64, 4, 16>;
}  // namespace tessera::test
