// What a CUDA policy says where there is no device. Its own program, run by ctest with every
// device hidden (CUDA_VISIBLE_DEVICES empty: cuda.without_a_device), so that GPU hosts check
// the message too instead of passing with no check.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <tessera/cuda/device_limits.hpp>
#include <tessera/cuda/runtime.hpp>

namespace cu = tessera::cuda;

TEST_CASE("CUDA policies without a device say so") {
  REQUIRE(cu::device_count() == 0);
  CHECK_THROWS_WITH_AS(cu::current_device_limits(), doctest::Contains("no CUDA device"), tessera::backend_error);
}
