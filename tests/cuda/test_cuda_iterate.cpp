// iterate and boundary fills with CUDA views and policies.
#include <doctest/doctest.h>

#include "../support/cuda_support.hpp"
#include "../support/fused_checks.hpp"
#include "../support/iterate_checks.hpp"
#include "tile_choices.hpp"

namespace ts = tessera;
namespace cu = tessera::cuda;
using namespace ts::test;

#define TESSERA_ITERATE_CUDA_POLICIES \
  cu::naive<>, cu::register_tiled<>, cu::streaming<>, cu::temporal_blocking<>, cu::automatic

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

// Fused time steps (cuda::temporal_blocking through iterate) against one sweep and one
// fill per step on the host and in Kokkos (fused_checks.hpp).
namespace {
constexpr boundary_case every_case[] = {boundary_case::none, boundary_case::dirichlet, boundary_case::periodic,
                                        boundary_case::neumann, boundary_case::mixed};
}

TEST_CASE("fused steps: 3D 7-point, every boundary kind, 10 steps of up to 3 per pass, float and double") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  using P = cu::temporal_blocking<>;
  for (const auto c : every_case) {
    check_fused_iterate<P, ts::CudaSpace, ts::star<3, 1>, float>(ts::extents<3>{37, 29, 53}, 10, c, 1);
    check_fused_iterate<P, ts::CudaSpace, ts::star<3, 1>, double>(ts::extents<3>{37, 29, 53}, 10, c, 2);
  }
  // several chunks along z and tiles along y; mixed faces drawn per seed
  for (std::uint64_t seed = 3; seed < 7; ++seed)
    check_fused_iterate<P, ts::CudaSpace, ts::star<3, 1>, float>(ts::extents<3>{150, 20, 30}, 9, boundary_case::mixed, seed);
}

TEST_CASE("fused steps: grids smaller than the fused halo wrap and mirror more than once") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  using P = cu::temporal_blocking<>;
  for (const auto c : every_case) {
    check_fused_iterate<P, ts::CudaSpace, ts::star<3, 1>, double>(ts::extents<3>{3, 2, 5}, 9, c, 11);
    check_fused_iterate<P, ts::CudaSpace, ts::star<2, 1>, float>(ts::extents<2>{2, 7}, 17, c, 12);
  }
}

TEST_CASE("fused steps: radius 2 stars and boxes in 3D") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  using P = cu::temporal_blocking<>;
  for (const auto c : every_case) {
    check_fused_iterate<P, ts::CudaSpace, ts::star<3, 2>, float>(ts::extents<3>{23, 19, 41}, 5, c, 21);
    check_fused_iterate<P, ts::CudaSpace, ts::box<3, 1>, double>(ts::extents<3>{17, 21, 33}, 7, c, 22);
  }
  check_fused_iterate<P, ts::CudaSpace, ts::box<3, 2>, float>(ts::extents<3>{13, 15, 29}, 5, boundary_case::periodic, 23);
  check_fused_iterate<P, ts::CudaSpace, ts::box<3, 2>, float>(ts::extents<3>{13, 15, 29}, 5, boundary_case::mixed, 24);
}

TEST_CASE("fused steps: 2D stars and boxes, rows wider than a tile, up to 8 steps per pass") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  using P = cu::temporal_blocking<>;
  for (const auto c : every_case) {
    check_fused_iterate<P, ts::CudaSpace, ts::star<2, 1>, double>(ts::extents<2>{67, 1100}, 19, c, 31);
    check_fused_iterate<P, ts::CudaSpace, ts::box<2, 2>, float>(ts::extents<2>{41, 37}, 11, c, 32);
  }
  check_fused_iterate<P, ts::CudaSpace, ts::star<2, 4>, double>(ts::extents<2>{50, 40}, 6, boundary_case::dirichlet, 33);
  check_fused_iterate<P, ts::CudaSpace, ts::star<2, 4>, double>(ts::extents<2>{50, 40}, 6, boundary_case::mixed, 34);
}

TEST_CASE("fused steps: other tiles, callbacks between passes, Neumann faces with unmirrored coefficients") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  using P = cu::temporal_blocking<>;
  using Q = tessera::test::temporal_blocking_3x16x8;
  for (const auto c : every_case) {
    check_fused_iterate<Q, ts::CudaSpace, ts::star<3, 1>, double>(ts::extents<3>{19, 37, 23}, 8, c, 41);
    check_fused_iterate<Q, ts::CudaSpace, ts::box<3, 1>, float>(ts::extents<3>{19, 37, 23}, 7, c, 42);
  }
  // callbacks every 4 of 10 and every 3 of 9 steps: the passes stop there, the views alternate as per step
  check_fused_iterate<P, ts::CudaSpace, ts::star<3, 1>, double>(ts::extents<3>{21, 18, 35}, 10, boundary_case::mixed, 43, true, 4);
  check_fused_iterate<P, ts::CudaSpace, ts::star<2, 1>, float>(ts::extents<2>{30, 600}, 9, boundary_case::dirichlet, 44, true, 3);
  // coefficients that do not mirror: under Neumann faces a pass takes one step (fused_steps = 1)
  check_fused_iterate<P, ts::CudaSpace, ts::star<3, 1>, double>(ts::extents<3>{21, 18, 35}, 6, boundary_case::neumann, 45, false);
  check_fused_iterate<P, ts::CudaSpace, ts::box<2, 1>, float>(ts::extents<2>{33, 45}, 5, boundary_case::neumann, 46, false);
}

TEST_CASE("fused steps: a Neumann face refuses several steps of unmirrored coefficients by name") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  ts::View<double, 2, ts::CudaSpace> a("field_a", ts::extents<2>{9, 9}, 1), b("field_b", a.layout());
  const auto st = bounded_stencil<ts::star<2, 1>, double>(5, false);
  const auto bc = std::optional(ts::boundary_conditions<2>::uniform(ts::boundary::neumann()));
  const auto msg = message_of<ts::unsupported_error>([&] { cu::sweep_steps(cu::temporal_blocking<>{}, st, a, b, 2, bc); });
  CHECK(msg.find("'field_a'") != std::string::npos);
  CHECK(msg.find("symmetric") != std::string::npos);
  const auto too_many = message_of<ts::unsupported_error>(
      [&] { cu::sweep_steps(cu::temporal_blocking<>{}, bounded_stencil<ts::star<2, 1>, double>(5, true), a, b, 9, bc); });
  CHECK(too_many.find("1 to 8 steps") != std::string::npos);
}

TEST_CASE("fused steps: automatic fuses the cases its fusion table measured faster, on this device") {
  TESSERA_REQUIRE_CUDA_DEVICE();
  // Whatever the table says for this device (fused, or a sweep a step), the result is the
  // one-sweep-a-step result in the same view; on an H100 the 2D 5-point float and the 3D
  // 7-point double rows fuse.
  INFO("device ", cu::current_device_limits().name);
  for (const auto c : {boundary_case::dirichlet, boundary_case::periodic, boundary_case::mixed}) {
    check_fused_iterate<cu::automatic, ts::CudaSpace, ts::star<2, 1>, float>(ts::extents<2>{67, 1100}, 19, c, 51);
    check_fused_iterate<ts::automatic, ts::CudaSpace, ts::star<3, 1>, double>(ts::extents<3>{37, 29, 53}, 10, c, 52);
  }
  const auto dirichlet = std::optional(ts::boundary_conditions<2>::uniform(ts::boundary::dirichlet(0)));
  const ts::stencil<ts::star<2, 1>, float> five(ts::star<2, 1>{}, {-4.f, 1.f, 1.f, 1.f, 1.f});
  const int k = cu::fused_steps(cu::automatic{}, five, ts::extents<2>{8192, 8192}, dirichlet);
  if (cu::current_device_limits().name == "NVIDIA H100 80GB HBM3") CHECK(k > 1);
  CHECK(k == cu::fusion_choice(cu::current_device_limits(), five, ts::extents<2>{8192, 8192}, dirichlet));
}
