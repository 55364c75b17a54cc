// Launchers for the test-only custom shapes (the library instantiates the built-in
// ones): the same route a user takes for a shape of their own.
#include <tessera/cuda/kernel_entry.cuh>
#include <tessera/cuda/compiled_strategies.hpp>
#include <tessera/cuda/strategies.hpp>

#include "../support/shapes_under_test.hpp"

#define TESSERA_TEST_CUSTOM(POLICY, T)                                     \
  TESSERA_CUDA_INSTANTIATE(POLICY, T, tessera::test::upwind3)              \
  TESSERA_CUDA_INSTANTIATE(POLICY, T, tessera::test::corner2d)             \
  TESSERA_CUDA_INSTANTIATE(POLICY, T, tessera::test::skewed3d)

// Every listed strategy (the generated compiled_strategies.hpp names them); where one has
// no kernel for a shape (register tiling of these, a marching strategy in 1D), its entry
// is empty and its plan refuses the shape with a reason.
#define TESSERA_TEST_CUSTOM_STRATEGY(NAME, T) TESSERA_TEST_CUSTOM(tessera::cuda::NAME<>, T)
TESSERA_CUDA_FOR_EACH_COMPILED_STRATEGY(TESSERA_TEST_CUSTOM_STRATEGY, float)
TESSERA_CUDA_FOR_EACH_COMPILED_STRATEGY(TESSERA_TEST_CUSTOM_STRATEGY, double)
