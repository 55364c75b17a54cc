// Source term and Jacobi with CUDA views.
#include <doctest/doctest.h>

#include "../support/cuda_support.hpp"
#include "../support/poisson_checks.hpp"

namespace ts = tessera;
namespace cu = tessera::cuda;
using namespace ts::test;

TEST_CASE_TEMPLATE("apply_with_source on the GPU", P, cu::naive<>, cu::tiled<>, cu::coarsened<>,
                   cu::register_tiled<>, cu::streaming<>, cu::automatic) {
  TESSERA_REQUIRE_CUDA_DEVICE();
  check_source_term<P, ts::CudaSpace, double>();
  check_source_term<P, ts::CudaSpace, float>();
}

TEST_CASE("Jacobi on the GPU converges to the manufactured solution at second order") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  check_jacobi_order<cu::automatic, ts::CudaSpace>();
}

TEST_CASE_TEMPLATE("leapfrog on the GPU keeps the discrete standing wave", P, cu::naive<>, cu::streaming<>,
                   cu::register_tiled<>) {
  TESSERA_REQUIRE_CUDA_DEVICE();
  check_wave_mode<P, ts::CudaSpace>();
}
