// Launchers for the test-only custom shapes (the library instantiates the built-in
// ones): the same route a user takes for a shape of their own.
#include <tessera/cuda/kernels/coarsened.cuh>
#include <tessera/cuda/kernels/naive.cuh>
#include <tessera/cuda/kernels/pipelined.cuh>
#include <tessera/cuda/kernels/register_tiled.cuh>
#include <tessera/cuda/kernels/shared_streaming.cuh>
#include <tessera/cuda/kernels/streaming.cuh>
#include <tessera/cuda/kernels/tiled.cuh>
#include <tessera/cuda/kernels/vector_streaming.cuh>

#include "../support/shapes_under_test.hpp"

#define TESSERA_TEST_CUSTOM(POLICY, T)                                     \
  TESSERA_CUDA_INSTANTIATE(POLICY, T, tessera::test::upwind3)              \
  TESSERA_CUDA_INSTANTIATE(POLICY, T, tessera::test::corner2d)             \
  TESSERA_CUDA_INSTANTIATE(POLICY, T, tessera::test::skewed3d)

TESSERA_TEST_CUSTOM(tessera::cuda::naive<>, float)
TESSERA_TEST_CUSTOM(tessera::cuda::naive<>, double)
TESSERA_TEST_CUSTOM(tessera::cuda::tiled<>, float)
TESSERA_TEST_CUSTOM(tessera::cuda::tiled<>, double)
TESSERA_TEST_CUSTOM(tessera::cuda::coarsened<>, float)
TESSERA_TEST_CUSTOM(tessera::cuda::coarsened<>, double)
TESSERA_CUDA_INSTANTIATE(tessera::cuda::streaming<>, float, tessera::test::corner2d)
TESSERA_CUDA_INSTANTIATE(tessera::cuda::streaming<>, float, tessera::test::skewed3d)
TESSERA_CUDA_INSTANTIATE(tessera::cuda::streaming<>, double, tessera::test::corner2d)
TESSERA_CUDA_INSTANTIATE(tessera::cuda::streaming<>, double, tessera::test::skewed3d)
TESSERA_CUDA_INSTANTIATE(tessera::cuda::shared_streaming<>, float, tessera::test::corner2d)
TESSERA_CUDA_INSTANTIATE(tessera::cuda::shared_streaming<>, float, tessera::test::skewed3d)
TESSERA_CUDA_INSTANTIATE(tessera::cuda::shared_streaming<>, double, tessera::test::corner2d)
TESSERA_CUDA_INSTANTIATE(tessera::cuda::shared_streaming<>, double, tessera::test::skewed3d)
TESSERA_CUDA_INSTANTIATE(tessera::cuda::pipelined<>, float, tessera::test::corner2d)
TESSERA_CUDA_INSTANTIATE(tessera::cuda::pipelined<>, float, tessera::test::skewed3d)
TESSERA_CUDA_INSTANTIATE(tessera::cuda::pipelined<>, double, tessera::test::corner2d)
TESSERA_CUDA_INSTANTIATE(tessera::cuda::pipelined<>, double, tessera::test::skewed3d)
TESSERA_CUDA_INSTANTIATE(tessera::cuda::vector_streaming<>, float, tessera::test::corner2d)
TESSERA_CUDA_INSTANTIATE(tessera::cuda::vector_streaming<>, float, tessera::test::skewed3d)
TESSERA_CUDA_INSTANTIATE(tessera::cuda::vector_streaming<>, double, tessera::test::corner2d)
TESSERA_CUDA_INSTANTIATE(tessera::cuda::vector_streaming<>, double, tessera::test::skewed3d)
// register_tiled has no kernel for these shapes: its plan refuses them with a reason.
