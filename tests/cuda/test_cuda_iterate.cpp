// iterate and boundary fills with CUDA views and policies.
#include <doctest/doctest.h>

#include "../support/cuda_support.hpp"
#include "../support/iterate_checks.hpp"

namespace ts = tessera;
namespace cu = tessera::cuda;
using namespace ts::test;

#define TESSERA_ITERATE_CUDA_POLICIES cu::naive<>, cu::register_tiled<>, cu::streaming<>, cu::automatic

TEST_CASE_TEMPLATE("iterate on the GPU: 3D heat, Dirichlet faces, discrete eigenvalue decay", P,
                   TESSERA_ITERATE_CUDA_POLICIES) {
  TESSERA_REQUIRE_CUDA_DEVICE();
  check_heat_dirichlet<P, ts::CudaSpace, double>();
  check_heat_dirichlet<P, ts::CudaSpace, float>();
}

TEST_CASE_TEMPLATE("iterate on the GPU: 1D heat, periodic and Neumann faces", P, cu::naive<>, cu::tiled<>,
                   cu::coarsened<>) {
  TESSERA_REQUIRE_CUDA_DEVICE();
  check_heat_periodic_neumann<P, ts::CudaSpace, double>();
  check_heat_periodic_neumann<P, ts::CudaSpace, float>();
}

TEST_CASE("fill_ghosts on the device follows the same rules as the host") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  check_fill_rules<ts::CudaSpace>();
}

TEST_CASE("fill_ghosts on the device equals the host fill on random 1D, 2D and 3D cases, every kind per axis") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  for (std::uint64_t seed = 1; seed <= 24; ++seed) {
    check_fill_matches_host<ts::CudaSpace, double, 3>(seed);
    check_fill_matches_host<ts::CudaSpace, float, 3>(seed + 100);
    check_fill_matches_host<ts::CudaSpace, double, 2>(seed + 200);
    check_fill_matches_host<ts::CudaSpace, float, 1>(seed + 300);
  }
}

TEST_CASE_TEMPLATE("iterate on the GPU: Dirichlet ghosts are filled once, and again after the callback wrote them", P,
                   TESSERA_ITERATE_CUDA_POLICIES) {
  TESSERA_REQUIRE_CUDA_DEVICE();
  check_dirichlet_refill_after_callback<P, ts::CudaSpace, double>();
  check_dirichlet_refill_after_callback<P, ts::CudaSpace, float>();
}
