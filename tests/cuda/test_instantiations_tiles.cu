// Non-default tiles used by the launch-shape test (a user's own tile choice takes the
// same route: include the strategy's .cuh in a .cu file and instantiate).
#include <tessera/cuda/kernel_entry.cuh>
#include <tessera/cuda/strategies.hpp>

#include "tile_choices.hpp"

TESSERA_CUDA_INSTANTIATE(tessera::test::naive_16x4x2, float, tessera::star<3, 1>)
TESSERA_CUDA_INSTANTIATE(tessera::test::naive_16x4x2, float, tessera::star<2, 1>)
TESSERA_CUDA_INSTANTIATE(tessera::test::tiled_16x16, float, tessera::star<2, 2>)
TESSERA_CUDA_INSTANTIATE(tessera::test::tiled_16x16, double, tessera::star<3, 1>)
TESSERA_CUDA_INSTANTIATE(tessera::test::tiled_128, float, tessera::star<1, 1>)
TESSERA_CUDA_INSTANTIATE(tessera::test::coarsened_64x8x4, float, tessera::star<3, 2>)
TESSERA_CUDA_INSTANTIATE(tessera::test::coarsened_64x8x4, double, tessera::box<3, 1>)
TESSERA_CUDA_INSTANTIATE(tessera::test::register_tiled_64x8x4, float, tessera::star<3, 2>)
TESSERA_CUDA_INSTANTIATE(tessera::test::register_tiled_64x8x4, double, tessera::star<2, 1>)
TESSERA_CUDA_INSTANTIATE(tessera::test::streaming_64x4x16, float, tessera::box<3, 2>)
TESSERA_CUDA_INSTANTIATE(tessera::test::streaming_64x4x16, double, tessera::star<2, 3>)
TESSERA_CUDA_INSTANTIATE(tessera::test::shared_streaming_64x2x3x5, float, tessera::box<3, 2>)
TESSERA_CUDA_INSTANTIATE(tessera::test::shared_streaming_64x2x3x5, double, tessera::star<3, 4>)
TESSERA_CUDA_INSTANTIATE(tessera::test::shared_streaming_64x2x3x5, double, tessera::box<2, 1>)
TESSERA_CUDA_INSTANTIATE(tessera::test::pipelined_64x2x3x1, float, tessera::box<3, 2>)
TESSERA_CUDA_INSTANTIATE(tessera::test::pipelined_64x2x3x1, double, tessera::star<3, 4>)
TESSERA_CUDA_INSTANTIATE(tessera::test::pipelined_32x3x3, double, tessera::box<2, 1>)
TESSERA_CUDA_INSTANTIATE(tessera::test::pipelined_32x3x3, float, tessera::star<2, 4>)
TESSERA_CUDA_INSTANTIATE(tessera::test::pipelined_64x2x3x1x3, float, tessera::star<3, 4>)
TESSERA_CUDA_INSTANTIATE(tessera::test::vector_streaming_4x3x4, float, tessera::star<3, 4>)
TESSERA_CUDA_INSTANTIATE(tessera::test::vector_streaming_4x3x4, double, tessera::box<3, 2>)
TESSERA_CUDA_INSTANTIATE(tessera::test::vector_streaming_4x3x4, double, tessera::star<2, 4>)
TESSERA_CUDA_INSTANTIATE(tessera::test::vector_streaming_4x3x4, float, tessera::box<2, 1>)
TESSERA_CUDA_INSTANTIATE(tessera::test::temporal_blocking_3x16x8, double, tessera::star<3, 1>)
TESSERA_CUDA_INSTANTIATE(tessera::test::temporal_blocking_3x16x8, float, tessera::box<3, 1>)
TESSERA_CUDA_INSTANTIATE(tessera::test::temporal_blocking_rows1, float, tessera::star<3, 1>)
TESSERA_CUDA_INSTANTIATE(tessera::test::temporal_blocking_2x32x24x8, float, tessera::star<3, 1>)
TESSERA_CUDA_INSTANTIATE(tessera::test::temporal_blocking_2x32x24x8, double, tessera::star<3, 2>)
TESSERA_CUDA_INSTANTIATE(tessera::test::temporal_blocking_2x32x24x8, double, tessera::box<3, 1>)
TESSERA_CUDA_INSTANTIATE(tessera::test::temporal_blocking_2d_5x32x3, float, tessera::star<2, 1>)
TESSERA_CUDA_INSTANTIATE(tessera::test::temporal_blocking_2d_6x64x1, double, tessera::star<2, 1>)
TESSERA_CUDA_INSTANTIATE(tessera::test::temporal_blocking_2d_6x64x1, float, tessera::box<2, 2>)
